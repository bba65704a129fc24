package extract

import (
	"context"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestConsentShaped checks the consent vocabulary on notices and embed
// placeholders in several languages, and on stories that mention
// cookies, privacy or data without being notices.
func TestConsentShaped(t *testing.T) {
	tests := []struct {
		name string
		text string
		want bool
	}{
		{"english notice", "We and our partners store and access information on your device, such as cookies, and process personal data for personalised advertising. You can accept or manage your choices in the privacy settings.", true},
		{"german embed placeholder", "Externer Inhalt. Ich bin damit einverstanden, dass mir externe Inhalte angezeigt werden. Damit können personenbezogene Daten an Drittplattformen übermittelt werden. Mehr dazu in unserer Datenschutzerklärung. Inhalt laden", true},
		{"french notice", "Avec votre accord, nos partenaires et nous utilisons des cookies ou technologies similaires pour stocker et accéder à des données personnelles, à des fins de publicité personnalisée. Vous pouvez accepter ou modifier vos paramètres à tout moment.", true},
		{"spanish notice", "Utilizamos cookies propias y de terceros para analizar la navegación y mostrar publicidad. Puede aceptar todas las cookies o configurar su consentimiento; consulte nuestra política de privacidad y el tratamiento de sus datos personales.", true},
		{"story mentioning cookies", "The bakery on Mill Street sold more than four thousand cookies during the festival weekend, and the owner says she will open a second shop next spring if the council approves her plans for the old post office.", false},
		{"story about a privacy law", "Parliament passed the new privacy law on Tuesday after a long debate. The law limits how long companies may keep the records of their customers and sets fines for breaches, which ministers say will be enforced from January by a new office in the capital.", false},
		{"empty", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := consentShaped(tt.text); got != tt.want {
				t.Errorf("consentShaped = %v, want %v (%+v)", got, tt.want, countConsent(tt.text))
			}
		})
	}
}

func TestConsentStems(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range consentStems {
		if len(s) < 3 || s != strings.ToLower(s) || seen[s] {
			t.Errorf("stem %q: must be lower case, unique and at least 3 bytes", s)
		}
		seen[s] = true
	}
}

// TestConsentShapedLanguages checks the vocabulary of the languages
// beyond western Europe's on a consent notice in each (written for this
// test after the IAB framework's wording, which publishers translate),
// and on a news story about personal data in several of them, which
// must not read as a notice. Chinese, Japanese and Thai are matched
// inside runs of characters, where everyday words ("数据", data) would
// have made the Chinese story a notice.
func TestConsentShapedLanguages(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		want       bool
	}{
		{"arabic notice", "نستخدم نحن وشركاؤنا ملفات تعريف الارتباط ونعالج البيانات الشخصية مثل المعرفات الفريدة على جهازك. بالنقر على قبول الكل، فإنك توافق على معالجة البيانات لأغراض الإعلانات المخصصة وقياس المحتوى. يمكنك تغيير الإعدادات أو سحب موافقتك في أي وقت من سياسة الخصوصية.", true},
		{"chinese notice", "我们和我们的合作伙伴在您的设备上使用Cookie并处理个人数据，例如唯一标识符和浏览数据。点击“全部接受”即表示您同意为个性化广告和内容衡量处理数据。您可以随时在隐私政策中更改设置或撤回同意。", true},
		{"czech notice", "My a naši partneři používáme soubory cookie a zpracováváme osobní údaje, jako jsou jedinečné identifikátory, ve vašem zařízení. Kliknutím na Přijmout vše udělujete souhlas se zpracováním údajů pro personalizovanou reklamu a měření obsahu. Nastavení můžete kdykoli změnit nebo souhlas odvolat v zásadách ochrany soukromí.", true},
		{"finnish notice", "Me ja kumppanimme käytämme evästeitä ja käsittelemme henkilötietoja, kuten yksilöllisiä tunnisteita, laitteellasi. Valitsemalla Hyväksy kaikki annat suostumuksesi tietojen käsittelyyn personoitua mainontaa ja sisällön mittaamista varten. Voit muuttaa asetuksia tai peruuttaa suostumuksesi milloin tahansa tietosuojaselosteessa.", true},
		{"greek notice", "Εμείς και οι συνεργάτες μας χρησιμοποιούμε cookies και επεξεργαζόμαστε προσωπικά δεδομένα, όπως μοναδικά αναγνωριστικά, στη συσκευή σας. Πατώντας Αποδοχή όλων, συναινείτε στην επεξεργασία δεδομένων για εξατομικευμένες διαφημίσεις και μέτρηση περιεχομένου. Μπορείτε να αλλάξετε τις ρυθμίσεις ή να ανακαλέσετε τη συγκατάθεσή σας ανά πάσα στιγμή στην πολιτική απορρήτου.", true},
		{"hebrew notice", "אנחנו והשותפים שלנו משתמשים בקובצי Cookie ומעבדים מידע אישי, כמו מזהים ייחודיים, במכשיר שלך. בלחיצה על אישור הכל, אתה מסכים לעיבוד הנתונים לצורך פרסום מותאם אישית ומדידת תוכן. ניתן לשנות את ההגדרות או לבטל את ההסכמה בכל עת במדיניות הפרטיות.", true},
		{"hungarian notice", "Mi és partnereink sütiket használunk, és személyes adatokat, például egyedi azonosítókat kezelünk az Ön eszközén. Az Összes elfogadása gombra kattintva hozzájárul az adatok kezeléséhez személyre szabott hirdetések és tartalommérés céljából. Beállításait bármikor módosíthatja, vagy visszavonhatja hozzájárulását az adatvédelmi tájékoztatóban.", true},
		{"indonesian notice", "Kami dan mitra kami menggunakan cookie dan memproses data pribadi, seperti pengenal unik, di perangkat Anda. Dengan mengklik Terima semua, Anda memberikan persetujuan untuk pemrosesan data untuk iklan yang dipersonalisasi dan pengukuran konten. Anda dapat mengubah pengaturan atau menarik persetujuan kapan saja di kebijakan privasi.", true},
		{"japanese notice", "当社およびパートナーは、お客様の端末でCookieを使用し、固有の識別子などの個人データを処理します。「すべて同意する」をクリックすると、パーソナライズされた広告とコンテンツの測定のためのデータ処理に同意したことになります。設定はプライバシーポリシーからいつでも変更または同意の撤回ができます。", true},
		{"korean notice", "당사와 파트너는 귀하의 기기에서 쿠키를 사용하고 고유 식별자와 같은 개인정보를 처리합니다. 모두 동의를 클릭하면 맞춤형 광고 및 콘텐츠 측정을 위한 데이터 처리에 동의하는 것입니다. 개인정보 처리방침에서 언제든지 설정을 변경하거나 동의를 철회할 수 있습니다.", true},
		{"polish notice", "My i nasi partnerzy używamy plików cookie i przetwarzamy dane osobowe, takie jak unikalne identyfikatory, na Twoim urządzeniu. Klikając Akceptuję wszystko, wyrażasz zgodę na przetwarzanie danych w celu spersonalizowanych reklam i pomiaru treści. Możesz w każdej chwili zmienić ustawienia lub wycofać zgodę w polityce prywatności.", true},
		{"romanian notice", "Noi și partenerii noștri folosim cookie-uri și prelucrăm date personale, cum ar fi identificatori unici, pe dispozitivul dumneavoastră. Făcând clic pe Accept toate, vă dați consimțământul pentru prelucrarea datelor în scopul publicității personalizate și al măsurării conținutului. Puteți modifica setările sau vă puteți retrage consimțământul oricând în politica de confidențialitate.", true},
		{"russian notice", "Мы и наши партнёры используем файлы cookie и обрабатываем персональные данные, например уникальные идентификаторы и данные о просмотре, на вашем устройстве. Нажимая «Принять все», вы даёте согласие на обработку данных для персонализированной рекламы и измерения контента. Вы можете изменить настройки или отозвать согласие в любое время в политике конфиденциальности.", true},
		{"thai notice", "เราและพันธมิตรของเราใช้คุกกี้และประมวลผลข้อมูลส่วนบุคคล เช่น ตัวระบุที่ไม่ซ้ำกัน บนอุปกรณ์ของคุณ เมื่อคลิก ยอมรับทั้งหมด แสดงว่าคุณให้ความยินยอมในการประมวลผลข้อมูลเพื่อโฆษณาที่ปรับให้เหมาะกับคุณ คุณสามารถเปลี่ยนการตั้งค่าหรือถอนความยินยอมได้ทุกเมื่อในนโยบายความเป็นส่วนตัว", true},
		{"turkish notice", "Biz ve iş ortaklarımız, cihazınızda çerezleri kullanır ve benzersiz tanımlayıcılar gibi kişisel verileri işleriz. Tümünü kabul et seçeneğine tıklayarak kişiselleştirilmiş reklam ve içerik ölçümü için onay vermiş olursunuz. Tercihlerinizi istediğiniz zaman gizlilik politikamızdan değiştirebilir veya onayınızı geri çekebilirsiniz.", true},
		{"ukrainian notice", "Ми та наші партнери використовуємо файли cookie та обробляємо персональні дані на вашому пристрої. Натискаючи «Прийняти все», ви надаєте згоду на обробку даних для персоналізованої реклами. Ви можете змінити налаштування або відкликати згоду будь-коли в політиці конфіденційності.", true},
		{"arabic story about a data leak", "أعلنت هيئة حماية البيانات يوم الأربعاء فرض غرامة على شركة كبرى للتجارة الإلكترونية بعد تسريب بيانات ملايين العملاء. وقالت الهيئة إن الشركة احتفظت بعناوين العملاء وأرقام هواتفهم دون اتخاذ التدابير الكافية. ويرى خبراء أن القرار يمثل تحذيرا لبقية الشركات في القطاع.", false},
		{"chinese story about a data leak", "国家互联网信息办公室周三发布了新的个人信息保护规定，要求大型平台在收集用户数据前必须获得明确同意。专家表示，新规将影响电商、社交媒体和网约车等行业，企业需要在六个月内完成整改。去年以来，多起数据泄露事件引发了公众对隐私问题的关注。", false},
		{"czech story about a data leak", "Úřad pro ochranu osobních údajů ve středu uložil pokutu velkému internetovému obchodu, který podle kontrolorů neoprávněně sdílel adresy zákazníků s reklamní agenturou. Firma se proti rozhodnutí odvolá. Podle odborníků jde o jednu z nejvyšších pokut, jaké úřad dosud udělil.", false},
		{"japanese story about a data leak", "政府は水曜日、個人情報保護法の改正案を閣議決定した。大手の通信会社や銀行で相次いだ情報漏えいを受け、企業に対する罰金の上限を大幅に引き上げる。専門家は、中小企業にとって対応の負担が大きいと指摘している。", false},
		{"korean story about a data leak", "개인정보보호위원회는 수요일 고객 정보를 유출한 대형 온라인 쇼핑몰에 과징금을 부과했다고 밝혔다. 위원회에 따르면 이 회사는 고객의 주소와 전화번호를 충분한 보호 조치 없이 보관했다. 전문가들은 이번 결정이 업계 전체에 경고가 될 것이라고 말했다.", false},
		{"russian story about a data leak", "Министерство цифрового развития в среду представило законопроект, который ужесточает ответственность компаний за утечки персональных данных. По словам министра, за прошлый год в открытый доступ попали сведения о миллионах граждан, и штрафы в несколько сотен тысяч рублей не останавливают нарушителей. Эксперты отмечают, что новые правила затронут банки, операторов связи и крупные интернет-магазины.", false},
		{"thai story about a data leak", "กระทรวงดิจิทัลเพื่อเศรษฐกิจและสังคมเปิดเผยเมื่อวันพุธว่า ข้อมูลของผู้ใช้บริการโทรศัพท์มือถือกว่าสิบล้านรายรั่วไหลจากระบบของผู้ให้บริการรายหนึ่ง รัฐมนตรียอมรับว่าการตรวจสอบยังไม่ครอบคลุม และจะเร่งออกมาตรการใหม่ภายในเดือนหน้า ผู้เชี่ยวชาญระบุว่าประชาชนควรเปลี่ยนรหัสผ่านโดยเร็ว", false},
		{"turkish story about a data leak", "Kişisel Verileri Koruma Kurumu, geçen yıl yaşanan veri sızıntısı nedeniyle bir e-ticaret şirketine rekor para cezası verdi. Kurulun açıklamasına göre şirket, müşterilerinin adres ve telefon bilgilerini yeterli önlemleri almadan sakladı. Uzmanlar, kararın sektördeki diğer şirketler için de önemli bir uyarı olduğunu belirtiyor.", false},
	} {
		if got := consentShaped(tt.text); got != tt.want {
			t.Errorf("%s: consentShaped = %v, want %v (%+v)", tt.name, got, tt.want, countConsent(tt.text))
		}
	}
}

func TestListShaped(t *testing.T) {
	names := strings.Repeat("Anna Becker, Professor of Physics, University of Leeds\n", 12)
	prose := strings.Repeat("The council approved the new budget after a long debate on tuesday night and the mayor signed it.\n", 12)
	for _, tt := range []struct {
		name, text string
		want       bool
	}{
		{"signatories", names, true},
		{"prose", prose, false},
		{"a few short lines", "Home\nNews\nSport\n", false},
		{"a letter with its signatories", prose + names, false},
	} {
		if got := listShaped(tt.text); got != tt.want {
			t.Errorf("%s: listShaped = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestSafetyNet checks when trafilatura's reading of the page replaces the
// chosen candidate: only when the pick is shaped like a notice or a list,
// trafilatura's is prose, and the two disagree.
func TestSafetyNet(t *testing.T) {
	story := strings.Repeat("<p>The council approved the new budget after a long debate on tuesday night, and the mayor signed it on wednesday.</p>", 5)
	notice := `<p>We and our 187 partners store and access information on your device, such as cookies, and process personal data for personalised advertising. You can accept or manage your choices in the privacy settings.</p>`
	names := `<ul>` + strings.Repeat(`<li>Anna Becker, Professor of Physics, University of Leeds</li>`, 15) + `</ul>`
	caption := `<div class="image"><p><img src="/lead.jpg" alt="Space"></p><p>In this Dec. 12, 2006, file photo, made available by NASA, ` +
		`astronaut Robert L. Curbeam Jr., left, and astronaut Christer Fuglesang, participate in a space walk. (NASA via AP, File)</p></div>`
	tests := []struct {
		name       string
		pick, traf string
		want       bool
	}{
		{"consent notice against the story", notice, story, true},
		{"list of names against the letter", names, story, true},
		{"story against story", story, story, false},
		{"notice against a notice", notice, notice + notice, false},
		{"the story with its notice agrees with the story", story + notice, story, false},
		{"a short reference is no fallback", names, "<p>Open letter to the ministers.</p>", false},
		{"a list that trafilatura has too", names, story + names, false},
		// trafilatura read the story and the notice under it, which as
		// one reading is as dense in consent words as the notice: the
		// story is what is left without it.
		{"consent notice against the story with the notice", notice + notice + notice,
			story + "<div>" + notice + notice + notice + "</div>", true},
		{"consent notice against a line and the notice", notice + notice + notice,
			"<p>Please choose.</p><div>" + notice + notice + notice + "</div>", false},
		// A consent manager's notice in a language consentShaped does
		// not know, told by its markup.
		{"consent manager by its markup", `<div id="onetrust-policy"><h2 id="onetrust-policy-title">Zyx qwerty</h2>` +
			`<div id="onetrust-policy-text">` + strings.Repeat("Vt qfr gxk partnerit plokt jaqs kozpa trel. ", 6) + `</div><ul class="ot-dpd">` +
			strings.Repeat("<li>Jaqs kozpa</li>", 4) + `</ul></div>`, story, true},
		{"a story in a block named after cookies is no notice", `<div class="recipe"><h2 class="cookies-title">Oat cookies</h2>` + story + `</div>`, story + story, false},
		// Readability's block is the lead photo and its caption.
		{"a photo's caption against the story", caption, story, true},
		{"a photo's caption against a caption", caption, caption, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := safetyNet(parseFragment(t, tt.pick), parseFragment(t, tt.traf)); got != tt.want {
				t.Errorf("safetyNet = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestTeaserNet: a pick made of teaser cards gives way to trafilatura's
// reading of a short story; a pick with the story, or cards against
// cards, does not.
func TestTeaserNet(t *testing.T) {
	story := `<p>The motorway is closed after a crash with a lorry, the police said. Nobody was hurt, and the road should open again by noon.</p><p>Traffic is diverted at the northern junction.</p>`
	card := func(h string) string {
		return `<div><h3><a href="/` + h + `">` + h + ` news</a></h3><p>A summary of another story on the same site, in a sentence or two for the reader.</p></div>`
	}
	cards := `<h2>More news</h2>` + card("ferry") + card("station") + card("police")
	tests := []struct {
		name       string
		pick, traf string
		want       bool
	}{
		{"a column of cards against the story", cards, story, true},
		{"the story with its column", story + story + story + cards, story, false},
		{"one card is no column", card("ferry"), story, false},
		{"cards against cards", cards, cards, false},
		{"a reading too short to fall back on", cards, `<p>The motorway is closed.</p>`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pick := parseFragment(t, tt.pick)
			if got := teaserShaped(pick) && teaserNet(pick, parseFragment(t, tt.traf)); got != tt.want {
				t.Errorf("teaser net = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestHollowNet: readability's block gives way to trafilatura's reading
// when that reading holds the block's paragraphs in order with others of
// a third as many words again between them (a page builder's feature
// boxes); not for a story that lost a caption or headlines from its
// middle, nor when the two read different blocks or the block is all
// there is.
func TestHollowNet(t *testing.T) {
	para := func(s string) string {
		return "<p>" + s + " is a paragraph of the service page, long enough to survive readability's cleaning on its own.</p>"
	}
	box := func(s string) string { return "<p>" + s + " in a sentence under its title.</p>" }
	long := para("Moving to the cloud") + para("Planning the work") + para("Keeping the customers")
	boxes := box("Capacity on demand") + box("Backups you can restore") + box("Security by default") + box("Work from anywhere")
	caption := "<p>A photograph of the harbour.</p>"
	tests := []struct {
		name       string
		read, full string
		want       bool
	}{
		{"feature boxes between the paragraphs", long, para("Moving to the cloud") + boxes + para("Planning the work") + boxes + para("Keeping the customers"), true},
		{"a caption lost from a story", long, para("Moving to the cloud") + caption + para("Planning the work") + para("Keeping the customers"), false},
		{"headlines between the paragraphs are no paragraphs", long, para("Moving to the cloud") + strings.Repeat(`<p><a href="/x">Ferry fares rise in spring</a></p>`, 30) + para("Planning the work") + para("Keeping the customers"), false},
		{"a headline that a menu repeats opens no span", "<h1>Cloud migration</h1>" + long, "<ul><li>Cloud migration</li></ul>" + boxes + boxes + "<h1>Cloud migration</h1>" + long, false},
		{"more text around the block, none inside", long, boxes + long + boxes, false},
		{"the same block", long, long, false},
		{"a different block", long, boxes + boxes + boxes, false},
		{"paragraphs out of order", long, para("Keeping the customers") + boxes + para("Moving to the cloud") + boxes + para("Planning the work"), false},
		{"a reading too short to fall back on", para("Moving to the cloud"), "<p>Moving</p>", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := hollowNet(parseFragment(t, tt.read), parseFragment(t, tt.full)); got != tt.want {
				t.Errorf("hollowNet = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestConsentBackdrop: a page saved while a consent dialog was open has
// its whole body aria-hidden; the story behind the dialog is the content.
// A story opened in a lightbox over an aria-hidden list of stories keeps
// the list hidden: there the dialog is the content.
func TestConsentBackdrop(t *testing.T) {
	story := strings.Repeat("<p>The ferry will run six times a day from July, and tickets will cost the same as before, the operator said.</p>", 4)
	notice := `<p>We and our partners use cookies and process personal data for personalised advertising. Accept all or manage your privacy settings.</p>`
	t.Run("consent dialog over the page", func(t *testing.T) {
		page := `<html><head><title>Ferry</title><meta property="og:type" content="article"></head><body><div id="app" aria-hidden="true"><h1>Ferry</h1>` + story +
			`</div><div role="dialog" aria-modal="true" class="message">` + notice + `</div></body></html>`
		doc, err := Extract(context.Background(), []byte(page), Options{Format: Text})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(doc.Content, "The ferry will run") || strings.Contains(doc.Content, "personalised advertising") {
			t.Errorf("want the story without the notice:\n%s", doc.Content)
		}
	})
	t.Run("story in a lightbox over a hidden river", func(t *testing.T) {
		river := strings.Repeat(`<p><a href="/x">Another headline about something else entirely</a> and a teaser sentence under it for the reader.</p>`, 12)
		page := `<html><body><div class="river" aria-hidden="true">` + river + `</div><div role="dialog" class="lightbox"><h1>Ferry</h1>` + story + `</div></body></html>`
		doc, err := Extract(context.Background(), []byte(page), Options{Format: Text})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(doc.Content, "Another headline") || !strings.Contains(doc.Content, "The ferry will run") {
			t.Errorf("want the story in the dialog only:\n%s", doc.Content)
		}
	})
}

// TestTextNoBreakSpace: a no-break space at the edge of a text node
// separates words like any space ("<strong>Price:</strong>&nbsp;$499",
// French "«&nbsp;<em>").
func TestTextNoBreakSpace(t *testing.T) {
	root := parseFragment(t, `<p><strong>Why It Stands Out:</strong>&nbsp;Fast heat-up.</p><p>Il a dit&nbsp;<em>«&nbsp;non&nbsp;»</em>&nbsp;: fin.</p><p>a<b>b</b>c</p>`)
	got := renderText(root)
	for _, want := range []string{"Why It Stands Out: Fast heat-up.", "Il a dit « non » : fin.", "abc"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in %q", want, got)
		}
	}
}

// TestBlockTokens checks that the candidates' tokens never join the words
// on either side of a block's edge.
func TestBlockTokens(t *testing.T) {
	got := strings.Join(blockTokens(parseFragment(t, `<div><p>Warning</p><p>The file backend</p><ul><li>one</li><li>two</li></ul></div>`)), " ")
	if want := "warning the file backend one two"; got != want {
		t.Errorf("blockTokens = %q, want %q", got, want)
	}
}

// TestDescriptionPhrase: the page's description marks the story's first
// paragraph when it quotes ten of its words in a row, after a share
// button's text too; a standfirst that is the description itself is
// reported as one, and a description the page's prose does not quote
// (a summary of its own, a dek in the header, a caption) marks nothing.
func TestDescriptionPhrase(t *testing.T) {
	first := `The council voted on Monday night to close the harbour bridge for repairs from June until the end of August, the mayor said.`
	story := `<p>` + first + `</p><p>Buses will use the ring road instead.</p>`
	tests := []struct {
		name, body, desc string
		phrase           string
		standfirst       bool
	}{
		{"auto excerpt", story, "The council voted on Monday night to close the harbour bridge for repairs from June until…",
			" the council voted on monday night to close the harbour ", false},
		{"after a share button", story, "Share this on WhatsAppThe council voted on Monday night to close the harbour bridge for repairs",
			" council voted on monday night to close the harbour bridge ", false},
		{"a standfirst", `<p class="x1">Repairs close the harbour bridge all summer, and buses take the ring road instead, the council says.</p>` + story,
			"Repairs close the harbour bridge all summer, and buses take the ring road instead, the council says.",
			" repairs close the harbour bridge all summer and buses take ", true},
		{"a dek in the header", `<header><p>Repairs close the harbour bridge all summer, and buses take the ring road instead.</p></header>` + story,
			"Repairs close the harbour bridge all summer, and buses take the ring road instead.", "", false},
		{"a caption", `<figure><figcaption>The council voted on Monday night to close the harbour bridge for repairs</figcaption></figure><p>Other text.</p>`,
			"The council voted on Monday night to close the harbour bridge for repairs", "", false},
		{"a summary of its own", story, "Summer closure for the harbour bridge: what drivers and bus passengers need to know.", "", false},
		{"too short", story, "The council voted on Monday night", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			phrase, standfirst := descriptionPhrase(parseFragment(t, tt.body), tt.desc)
			if phrase != tt.phrase || standfirst != tt.standfirst {
				t.Errorf("descriptionPhrase = %q, %v; want %q, %v", phrase, standfirst, tt.phrase, tt.standfirst)
			}
		})
	}
}

// TestDescriptionNet: a reading the description does not quote gives way
// to trafilatura's when that holds the quoted paragraph and the two share
// under a quarter of its words; not when they read the same story around
// a standfirst, nor when trafilatura's reading lacks the paragraph.
func TestDescriptionNet(t *testing.T) {
	first := `<p>The council voted on Monday night to close the harbour bridge for repairs from June until the end of August, the mayor said.</p>`
	rest := `<p>Buses will use the ring road instead, and the ferry adds two crossings an hour. Cyclists can cross on the old swing bridge next to the fish market, which stays open.</p>`
	teasers := `<h2>Column</h2><p>Click the photo and read the columns our writer sends us every week, on racing, sailing and more.</p><h2>Podcast</h2><p>Every week our podcast talks about everything that happened in the world of sport, with guests.</p>`
	phrase := " the council voted on monday night to close the harbour bridge "
	quotes := func(n *html.Node) bool { return strings.Contains(proseTokens(n), phrase) }
	tests := []struct {
		name, read, full string
		want             bool
	}{
		{"a sidebar against the story", teasers, first + rest, true},
		{"the story without its first paragraph", rest, first + rest, false},
		{"a reading without the paragraph", teasers, rest + rest, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := descriptionNet(parseFragment(t, tt.read), parseFragment(t, tt.full), quotes); got != tt.want {
				t.Errorf("descriptionNet = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestHeadlineLeadsFooter checks that the paragraphs under a short
// story's headline stop at the page's footer, named or a <footer>: its
// address and disclaimer are no lead of the story.
func TestHeadlineLeadsFooter(t *testing.T) {
	story := `<h1>Best Practices for Vehicle Rentals</h1><p>A good risk management safety program requires proper screening of prospective renters to ensure that only qualified drivers operate your vehicles.</p>`
	disclaimer := `<p>This material is not intended to replace the advice of a qualified advisor. Information has been obtained from sources believed to be reliable and is for information only.</p>`
	for name, footer := range map[string]string{
		"named":   `<div class="l-footer" id="page-footer">` + disclaimer + `</div>`,
		"element": `<footer>` + disclaimer + `</footer>`,
	} {
		doc := parsePage(t, `<html><head><title>Best Practices for Vehicle Rentals | Example Insurance</title></head><body><div class="l-main">`+story+`</div>`+footer+`</body></html>`)
		leads := headlineLeads(doc, "Best Practices for Vehicle Rentals | Example Insurance")
		if len(leads) != 1 || !strings.HasPrefix(leads[0], "A good risk management") {
			t.Errorf("%s: leads %q, want the story's paragraph alone", name, leads)
		}
	}
}

// TestCaptionShaped: one picture and a line of text is a caption; two
// pictures (a gallery), two paragraphs (a brief beside its photo), a long
// text or none at all is not.
func TestCaptionShaped(t *testing.T) {
	img := `<img src="/a.jpg" alt="">`
	line := `<p>The mayor, left, and the council, at the opening of the bridge, on Tuesday. (AP Photo)</p>`
	for page, want := range map[string]bool{
		`<figure>` + img + `<figcaption>The mayor, left, at the opening.</figcaption></figure>`: true,
		`<div><p>` + img + `</p>` + line + `</div>`:                                             true,
		`<div>` + img + img + line + `</div>`:                                                   false,
		`<div>` + img + line + line + `</div>`:                                                  false,
		`<div>` + img + `<p>` + strings.Repeat("word ", 90) + `</p></div>`:                      false,
		`<div>` + line + `</div>`:                                                               false,
	} {
		if got := captionShaped(parseFragment(t, page)); got != want {
			t.Errorf("captionShaped(%s) = %v, want %v", page, got, want)
		}
	}
	if captionShaped(nil) {
		t.Error("captionShaped(nil) = true")
	}
}
