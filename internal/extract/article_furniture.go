package extract

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Furniture that news and blog templates print inside the story's
// container, in any language: ad slot labels, photo credits, tag lists,
// the section name above the headline, consent notices and the
// placeholders of embedded posts that wait for consent. Each rule judges
// a short block by its own shape and words, never a site.

// adLabelWords are the words ad slots are labelled with ("Advertisement",
// "Anzeige", "Publicité", "Story continues below advertisement", "Weiter
// nach der Anzeige", "La suite après la publicité", "Continua a leggere
// dopo la pubblicità"). A block made only of these words, with at least
// one of adCoreWords, is a label. Vietnamese "quảng cáo" is two words:
// "cáo" is the core (alone it is a fox, and in "báo cáo" a report, but
// "báo" is no label word), "quảng" a label word.
var (
	adCoreWords = wordSet(`advertisement advertisements advertising advert adverts ad ads sponsored
		anzeige anzeigen werbung gesponsert publicité publicite sponsorisé publicidad patrocinado
		pubblicità pubblicita sponsorizzato publicidade advertentie advertenties gesponsord reklame
		reklama annons annonse annonce mainos реклама 广告 広告 광고 reklam iklan hirdetés publicitate
		διαφήμιση إعلان اعلان إعلانات تبلیغات آگهی פרסומת विज्ञापन
		reklaam reklāma oglas 廣告 スポンサーリンク โฆษณา cáo`)
	adLabelWords = wordSet(`story article content continues continue below after this the reading scroll to with
		artikel weiter nach der dem unter wird fortgesetzt lesen sie
		la le suite après article se poursuit sous cette
		sigue continúa leyendo después del de el artículo tras
		continua a leggere dopo il articolo prosegue
		lees verder na gaat
		quảng`)
)

// maxAdLabelWords bounds an ad label: "Story continues below this
// advertisement" fits, a sentence about advertising does not.
const maxAdLabelWords = 6

// isAdLabel reports a block whose whole text labels an ad slot: label
// words with an ad word, or a sentence that only says the story goes on
// below or after scrolling ("Article continues below", "Scroll to
// continue with content"), which is printed nowhere but around an ad
// slot.
func (l labelLine) isAdLabel() bool {
	if l.words > maxAdLabelWords {
		return false
	}
	core, goesOn, below := false, false, false // below: or "scroll"
	for _, t := range l.toks {
		switch {
		case adCoreWords[t]:
			core = true
		case !adLabelWords[t]:
			return false
		case t == "continues" || t == "continue":
			goesOn = true
		case t == "below" || t == "scroll":
			below = true
		}
	}
	return core || goesOn && below
}

// adSlotNames are the class and id words of an ad slot ("ad ad--rail",
// "ad-unit", "ad__slot", "adslot", Google's "dfp" and "gpt" slots).
var adSlotNames = wordSet(`ad ads advert adverts advertisement advertising adslot adunit dfp gpt`)

// inAdSlot reports a short line that is all the text of an ad slot named
// as one (adSlotNames): its label, in whatever language ("Advertisement",
// "Continue Reading Below", "Mainos"), which the slot shows above the ad
// a script fills in later. A container named so that holds more than the
// line (a theme's "ad-zone" around the story) says nothing about it.
func (l labelLine) inAdSlot() bool {
	if l.words > maxAdLabelWords || linkWords(l.n) > 0 {
		return false
	}
	for n := l.n; n != nil && n.Type == html.ElementNode; n = n.Parent {
		if n != l.n && wordCountOver(n, l.words) {
			return false
		}
		if classWords(n, adSlotNames) {
			return true
		}
	}
	return false
}

// creditLabel starts a photo credit: "Photo: Reuters", "Bild: picture
// alliance / dpa", "Foto: AP", "Image credit: NASA", "Crédit photo : AFP",
// "© Getty Images", Polish "Fot. PAP", Russian "Фото: ТАСС", Dutch "Beeld:
// ANP", Turkish "Fotoğraf: AA", Arabic "تصوير: ...", Chinese "摄影：...".
// German names the picture's role in a compound ("Symbolbild: dpa",
// "Titelfoto: Stadt Ulm", "Rubriklistenbild: © Max Huber"), and any
// one-word label before a © is a credit.
var creditLabel = regexp.MustCompile(`^(©|\(c\)\s|fot\.\s|\pL+\s*[:：]\s*©|\pL*(bild|foto)\s*:|(photo|photos|photograph|image|images|picture|pictures|illustration|credit|credits|photo credit|image credit|image source|foto|fotos|fotó|bild|bilder|bildquelle|beeld|crédit|crédits|crédit photo|fotografía|imagen|imagem|immagine|zdjęcie|kuva|fotoğraf|φωτογραφία|фото|צילום|تصوير|صورة|عکس|摄影|图片来源|图片|写真|사진)\s*(:|：|by\s|von\s|par\s|por\s|di\s))`)

// labelText is n's text as the label rules read it: spaces collapsed,
// and the brackets, bullets, arrows and emoji a label may open with
// trimmed ("(Foto: dpa)", "» Lesen Sie auch", "► Follow us on
// Instagram", "📲 Participe do canal no WhatsApp", "¡Síguenos en
// Instagram!"): every punctuation mark and symbol before the first
// letter or digit but labelKeeps.
func labelText(n *html.Node) string {
	return strings.TrimLeftFunc(collapseSpace(textOf(n)), labelMark)
}

// labelMark reports a character that decorates a label rather than
// spells it: space, punctuation, a symbol (a bullet, an arrow, an emoji),
// but not the marks of labelKeeps.
func labelMark(r rune) bool {
	return !strings.ContainsRune(labelKeeps, r) && (unicode.IsSpace(r) || unicode.IsPunct(r) || unicode.IsSymbol(r) || unicode.In(r, unicode.Variation_Selector, unicode.Cf))
}

// labelKeeps are the marks a label's text keeps at its start: the © that
// opens a credit or a copyright line, and quotation marks, which open a
// quoted sentence ("“Popular posts are performing well” ✅"), not a label.
// Guillemets stay trimmed: German sites set "»" as an arrow.
const labelKeeps = "©\"'“”„‟‘’‚‛"

// maxCreditWords bounds a credit line: an agency, a photographer and a
// licence fit, a caption that tells the story does not.
const maxCreditWords = 15

// isCredit reports a photo credit line (creditLabel).
func (l labelLine) isCredit() bool {
	return l.words <= maxCreditWords && creditLabel.MatchString(l.lower)
}

// tagLabel starts a list of tags or categories under a story, in the
// languages relatedLabel knows.
var tagLabel = regexp.MustCompile(`^(tags|tagged( with| in| as)?|topics|filed under|posted in|categories|category|schlagwörter|schlagworte|themen|stichwörter|mots-clés|mots clés|étiquettes|thèmes|etiquetas|temas|argomenti|tag|trefwoorden|onderwerpen|ämnen|emner|tagi|` +
	`etiketler|štítky|témata|etichete|címkék|ετικέτες|thẻ|теги|метки|темы|` +
	`kategorie|kategorien|kategoria|kategorii|kategori|catégorie|catégories|categoría|categorías|categoria|categorie|категория|рубрика|` +
	`الكلمات المفتاحية|الوسوم|标签|關鍵字|关键词|タグ|태그|แท็ก)(\s*[:：]|\s)`)

// isTagList reports a block that starts with a tag label and is otherwise
// links: "Tags: <a>library</a>, <a>flood</a>".
func (l labelLine) isTagList() bool {
	if l.words < 2 || l.words > maxTagListWords {
		return false
	}
	m := tagLabel.FindString(l.lower)
	if m == "" || linkWords(l.n) == 0 {
		return false
	}
	// Outside the links only the label and separators (commas, "and")
	// may stand.
	return len(wordTokens(textOutsideLinks(l.n))) <= len(wordTokens(m))+1
}

// maxTagListWords bounds a tag list, the longest label line.
const maxTagListWords = 40

// textOutsideLinks is the text under n that is not inside an <a>.
func textOutsideLinks(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		switch {
		case n.Type == html.TextNode:
			b.WriteString(n.Data)
			b.WriteByte(' ')
		case isElem(n, atom.A):
		default:
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c)
			}
		}
	}
	walk(n)
	return b.String()
}

// kickerWords name the line above a headline that names the section or
// the story's topic, in English, German ("Dachzeile", "Spitzmarke",
// "Ressort", "Rubrik"), Portuguese ("editoria"), Spanish ("antetítulo",
// "cintillo"), French ("surtitre", "rubrique"), Italian ("occhiello",
// "rubrica") and Dutch ("bovenkop", "rubriek").
var kickerWords = wordSet(`kicker eyebrow overline rubric ressort dachzeile topline roofline supertitle pretitle
	spitzmarke rubrik editoria antetitulo cintillo surtitre rubrique occhiello rubrica bovenkop rubriek`)

// namedKicker reports a block named as a kicker, or holding only an
// element so named: readability wraps a loose <span class="kicker"> in a
// <p> of its own.
func namedKicker(b *html.Node) bool {
	if classWords(b, kickerWords) {
		return true
	}
	only := soleElement(b)
	return only != nil && classWords(only, kickerWords)
}

// maxKickerWords bounds a section line: "Business / Transport".
const maxKickerWords = 4

// dropArticleFurniture removes, from an extracted article, blocks that
// are ad labels, photo credits, tag lists, section lines before the story
// and consent notices. Only leaf blocks are judged (a container is never
// removed for its first line), except consent notices, judged whole.
// Nothing is removed when the blocks would hold a third of the article
// (for consent notices: when under a quarter of it would be left).
func dropArticleFurniture(root *html.Node) {
	var drop []*html.Node
	prose := false // a paragraph of the story has been seen
	for _, b := range lineBlocks(root) {
		w := wordCount(b)
		if w == 0 {
			continue
		}
		switch {
		case isArticleLabelLine(b):
			drop = append(drop, b)
		case !prose && w <= maxKickerWords && (namedKicker(b) || linkWords(b) == w && !headingAtoms[b.DataAtom]):
			// The section name above the headline, or the site's
			// name, as a link or named as a kicker.
			drop = append(drop, b)
		case w >= 15:
			prose = true
		}
	}
	removeLabels(root, drop)
	dropConsent(root)
}

// dropConsent removes root's consent notices and embed placeholders
// (consentBlocks) and reports whether it did. A notice can outweigh a
// short story. Only when little would be left (under 50 words, or a
// quarter of the text) is the page more likely about consent, a privacy
// policy, than furnished with it, and nothing is removed.
func dropConsent(root *html.Node) bool {
	consent := consentNeighbours(consentBlocks(root))
	total := wordCount(root)
	left := total - wordsIn(consent)
	if len(consent) == 0 || left < minNetWords || left*4 < total {
		return false
	}
	for _, n := range consent {
		removeNode(n)
	}
	return true
}

// consentNeighbours adds to consent, the blocks consentBlocks found,
// what a reading that flattened a notice into paragraphs (trafilatura's)
// leaves of it between and above them: a block between two of them with
// consent words of its own (a paragraph that, read alone, is not dense
// enough: in Japanese, whose particles lengthen a paragraph), and the
// short line right above one with no sentence mark anywhere (its title,
// "Your choices on this site"; a story's last line, a quote closed
// after its full stop included, has one).
func consentNeighbours(consent []*html.Node) []*html.Node {
	in := make(map[*html.Node]bool, len(consent))
	for _, n := range consent {
		in[n] = true
	}
	out := consent
	for _, n := range consent {
		if p := shownSibling(n, false); p != nil && !in[p] && blockAtoms[p.DataAtom] && !hasBlockChild(p) {
			if t := collapseSpace(textOf(p)); t != "" && countWords(t) <= maxConsentTitleWords && !strings.ContainsAny(t, "."+sentenceEnds) {
				in[p] = true
				out = append(out, p)
			}
		}
		if m := shownSibling(n, true); m != nil && !in[m] && blockAtoms[m.DataAtom] {
			if after := shownSibling(m, true); after != nil && in[after] && countConsent(textOf(m)).hits > 0 {
				in[m] = true
				out = append(out, m)
			}
		}
	}
	return out
}

// maxConsentTitleWords bounds the title line above a notice.
const maxConsentTitleWords = 8

// shownSibling returns n's nearest sibling, after it with next or else
// before it, that shows anything (not blank), or nil.
func shownSibling(n *html.Node, next bool) *html.Node {
	step := func(s *html.Node) *html.Node {
		if next {
			return s.NextSibling
		}
		return s.PrevSibling
	}
	for s := step(n); s != nil; s = step(s) {
		if !blank(s) {
			return s
		}
	}
	return nil
}

// isLabelLine reports a block that is an ad slot's label, a photo credit,
// a tag list, a prompt to follow the site on social media, a view
// counter or a button's caption: furniture by its own words and shape,
// on any page.
func isLabelLine(b *html.Node) bool {
	l, ok := readLabelLine(b)
	return ok && l.isLabel()
}

// isArticleLabelLine is isLabelLine with the labels only an article
// drops: a meta line with the reading time (isReadingMeta).
func isArticleLabelLine(b *html.Node) bool {
	l, ok := readLabelLine(b)
	return ok && (l.isLabel() || l.isReadingMeta() || l.isSlideCounter())
}

// slideCounter is a gallery's position line: "Image 1 of 8", "1 of 8",
// "Bild 2 von 12", "Foto 1 de 10", "Photo 4/9". A bare "5/5" is a
// rating as often, and stays.
var slideCounter = regexp.MustCompile(`^((image|photo|picture|slide|bild|foto|imagen|immagine|diapositive|diapositiva)\s*\d{1,3}\s*(of|/|von|de|di|sur|z|из|van)|\d{1,3}\s+(of|von|de|di|sur|z|из|van))\s*\d{1,3}$`)

// isSlideCounter reports a line that is only a gallery's position.
func (l labelLine) isSlideCounter() bool {
	return l.words <= 4 && slideCounter.MatchString(l.lower)
}

// readLabelLine reads b as the label rules do; false for a block with no
// words or too many for any label.
func readLabelLine(b *html.Node) (labelLine, bool) {
	w := wordCount(b)
	if w == 0 || w > maxTagListWords {
		return labelLine{}, false
	}
	return labelLineOf(b, w, w <= maxTokenedLabelWords), true
}

// labelLineOf reads b, of w words, as a label line; with tokens, its
// words too (the vocabulary tests need them).
func labelLineOf(b *html.Node, w int, tokens bool) labelLine {
	text := labelText(b)
	l := labelLine{n: b, words: w, text: text, lower: strings.ToLower(text)}
	if tokens {
		l.toks = wordTokens(l.lower)
	}
	return l
}

// isLabel reports a line that one of the label rules of every page takes.
func (l labelLine) isLabel() bool {
	return l.isAdLabel() || l.inAdSlot() || l.isCredit() || l.isTagList() || l.isFollow() || l.isSignup() || l.isViewCount() ||
		l.isReadingTime() || l.isCommentCount() || l.isFormConsent() || l.isButton() || l.isOrphanContents()
}

// labelLine is a leaf block as the label rules read it, its words
// counted and its text (labelText) and, for a line of at most
// maxTokenedLabelWords words, its word tokens taken once for all of them.
type labelLine struct {
	n           *html.Node
	words       int
	text, lower string
	toks        []string
}

// maxTokenedLabelWords bounds the lines whose tokens the rules read: ad
// labels (maxAdLabelWords), follow prompts (maxFollowWords) and
// newsletter prompts (maxSignupWords) are no longer.
const maxTokenedLabelWords = 30

// buttonWords are the captions of the share, subscribe and print buttons
// a template sets between or under a story's paragraphs, in the
// languages relatedLabel knows, and the captions of the links a card or
// a review box ends with ("Read more", "Read full review", "Check
// price", "Learn more"), and of the toggles that fold a text or a
// caption ("Show less", "Show caption"). A caption is read without the
// marks after it (labelMark: "Teilen:", "Read more »", "READ MORE ↓").
var buttonWords = map[string]bool{
	"share": true, "share this": true, "share this article": true, "share this post": true, "share this story": true,
	"subscribe": true, "subscribe now": true, "print": true, "email": true, "tweet": true,
	"read more": true, "read full review": true, "read the full review": true, "learn more": true, "see more": true, "check price": true,
	"shop now": true, "buy now": true, "view deal": true, "see details": true, "continue reading": true, "read full article": true,
	"view more": true, "show more": true, "load more": true, "see all": true, "view all": true, "more details": true,
	"show less": true, "see less": true, "view less": true, "read less": true, "show all": true, "hide all": true,
	"show caption": true, "hide caption": true,
	"teilen": true, "artikel teilen": true, "drucken": true, "partager": true, "partager cet article": true, "imprimer": true,
	"compartir": true, "imprimir": true, "compartilhar": true, "condividi": true, "stampa": true, "delen": true, "printen": true,
	"udostępnij": true, "drukuj": true, "поделиться": true, "paylaş": true, "bagikan": true, "chia sẻ": true,
	"شارك": true, "مشاركة": true, "分享": true, "シェア": true, "공유": true, "공유하기": true, "แชร์": true,
	// The like button WordPress.com and Jetpack set under a post, its
	// title and its placeholder while it loads, in the languages of
	// the blogs the held-out set holds most.
	"like this": true, "like": true, "like loading": true, "loading": true, "teilen mit": true, "gefällt mir": true,
	"gefällt mir wird geladen": true, "wird geladen": true, "j'aime": true, "j'aime chargement": true, "chargement": true,
	"me gusta": true, "me gusta cargando": true, "cargando": true, "mi piace": true, "mi piace caricamento": true,
	"caricamento": true, "vind ik leuk": true, "laden": true, "compartir esto": true, "condividi questo": true,
}

// isButton reports a block whose whole text is a button's caption
// ("Share", "Subscribe now", "Teilen:", "Like Loading..."): a line of
// its own that says nothing of the story. A heading so named ("Share"
// in a manual's menu reference) is a section's title and stays, unless
// a colon makes it a label ("Gefällt mir:", the like button's title).
func (l labelLine) isButton() bool {
	if headingAtoms[l.n.DataAtom] && !strings.HasSuffix(strings.TrimSpace(l.lower), ":") {
		return false
	}
	// A caption is at most four words ("Partager cet article"), as
	// buttonWords' entries are: the lookup alone bounds it.
	return buttonWords[strings.TrimRightFunc(l.lower, labelMark)]
}

// viewCount is a page's view counter: "Views: 1,234", "1.9k views",
// "Zugriffe: 1873", "Просмотров: 2841", "Dilihat 512 kali", "조회수
// 1,024", "浏览次数：3562".
var viewCount = regexp.MustCompile(`^(?:(?:views?|hits|reads|zugriffe|aufrufe|gelesen|просмотров|просмотры|просмотр|vues|lectures|visitas|visualizaciones|lecturas|visite|visualizzazioni|letture|visualizações|weergaven|wyświetleń|wyświetlenia|odsłon|görüntülenme|okunma|dilihat|lượt xem|浏览次数|浏览|阅读量|阅读|閲覧数|조회수|조회|مشاهدات|مشاهدة)\s*[:：]?\s*\d[\d.,  ]*[km]?(?:\s*(?:mal|kali|lần|次|回))?|\d[\d.,  ]*[km]?\s*(?:views|hits|reads|aufrufe|mal gelesen|просмотров|просмотра|vues|lectures|visitas|visualizaciones|visite|visualizzazioni|letture|visualizações|weergaven|wyświetleń|görüntülenme|lượt xem|次浏览|次阅读|回閲覧|مشاهدة))$`)

// maxViewCountWords bounds a view counter's line.
const maxViewCountWords = 4

// isViewCount reports a block that is a view counter and nothing else.
func (l labelLine) isViewCount() bool {
	return l.words <= maxViewCountWords && viewCount.MatchString(l.lower)
}

// followLabel starts a prompt to follow the publisher on social media:
// "Follow us on Instagram", "Follow NBC Latino on Facebook", "Folgen Sie
// uns auf Twitter", "Suivez-nous sur", "Síguenos en", "Seguici su", "Volg
// ons op", "Puedes seguir a El Diario en", "Подписывайтесь на наш канал
// в Telegram", "Obserwuj nas na Facebooku", "Bizi Twitter'dan takip edin",
// "Ikuti Kompas.com di Google News", and to join the publisher's channel
// or group: "Join our WhatsApp channel", "Participe do canal do g1 no
// WhatsApp", "Únete al canal de WhatsApp", "Unisciti al canale
// Telegram". Who is followed is "us", "me" or a name (capitalised), never
// an instruction ("Follow these steps on Facebook"); who is joined is
// "our" channel or "us" on a network, not "us" at an event ("Join us to
// see Google's latest innovations").
var followLabel = regexp.MustCompile(`^((?i:follow|like|find) (?i:us|me)\b|(?i:join) (?i:(us|me) (on|in)|our)\b|` +
	`(?i:participe|entre) (?i:do|da|no|na) (?i:canal|grupo|comunidade)\b|(?i:únete|súmate|unisciti) (?i:a|al)\b|` +
	`(?i:follow) [\p{Lu}@]\S*( [\p{Lu}&]\S*){0,3} (?i:on)\b|` +
	`(?i:folgen sie uns|folge uns|folgt uns|suivez[- ]nous|retrouvez[- ]nous|rejoignez[- ]nous|s[ií]guenos|seguici|volg ons|siga-nos|` +
	`подписывайтесь на|следите за нами|читайте нас|obserwuj nas|śledź nas|sledujte nás|följ oss|følg os|følg oss|seuraa meitä|` +
	`urmărește-ne|urmăriți-ne|kövess minket|kövessen minket|ακολουθήστε μας|ikuti kami|theo dõi chúng tôi)|` +
	`(?i:bizi) (\S+ ){0,3}(?i:takip)|` +
	`(?i:folgen sie|suivez|sigue a|puedes seguir a|segui|volg|siga o|siga a|acompanhe o|acompanhe a|ikuti|obserwuj|theo dõi) [\p{Lu}@])`)

// socialNetworks are the names a follow prompt lists.
var socialNetworks = wordSet(`facebook twitter instagram youtube linkedin tiktok telegram whatsapp mastodon threads bluesky
	pinterest snapchat flipboard x google vk vkontakte вконтакте телеграм телеграме дзен dzen одноклассниках zalo`)

// maxFollowWords bounds a follow prompt: a sentence, not a paragraph
// that mentions following a story on a network.
const maxFollowWords = 30

// isFollow reports a short block that asks the reader to follow the
// publisher and names a social network.
func (l labelLine) isFollow() bool {
	if l.words > maxFollowWords || !followLabel.MatchString(l.text) {
		return false
	}
	for _, t := range l.toks {
		if socialNetworks[t] || networkInflected(t) {
			return true
		}
	}
	return false
}

// signupMailbox names what a newsletter prompt delivers to, or where:
// "newsletter", "inbox", German "Postfach", Spanish "boletín", Dutch
// "nieuwsbrief", Scandinavian "nyhetsbrev", Polish "biuletyn", and as a
// word's start Russian "рассылка" and compounds such as
// "Newsletter-Abo". An address alone ("email") is not enough: stories
// tell of emails. signupMailboxPhrases are the names of two words or
// more.
var (
	signupMailbox = wordSet(`newsletter newsletters enewsletter inbox mailbox postfach posteingang infolettre boletín boletin
		nieuwsbrief nyhetsbrev nyhedsbrev uutiskirje biuletyn bülten`)
	signupMailboxStems   = []string{"newsletter", "рассылк"}
	signupMailboxPhrases = []string{"mailing list", "email list", "boîte mail", "boîte e-mail", "boîte de réception",
		"lettre d'information", "bandeja de entrada", "caixa de entrada", "casella di posta", "casella email"}
)

// namesMailbox reports a line that names a newsletter or a mailbox
// (signupMailbox). It is the cheap test, run first: few lines do.
func (l labelLine) namesMailbox() bool {
	for _, t := range l.toks {
		if signupMailbox[t] {
			return true
		}
		for _, s := range signupMailboxStems {
			if strings.HasPrefix(t, s) {
				return true
			}
		}
	}
	for _, p := range signupMailboxPhrases {
		if strings.Contains(l.lower, p) {
			return true
		}
	}
	return false
}

// signupCall is the prompt's call, or its thanks: "Subscribe to", "Sign
// up for", "Join", "delivered to your inbox", "Get the best of", "Thanks
// for signing up"; German "abonnieren", "anmelden", "erhalten", French
// "abonnez-vous", "inscrivez-vous", "recevez", Spanish "suscríbete",
// "recibe", Italian "iscriviti", "ricevi", Portuguese "assine",
// "inscreva-se", "receba", Dutch "schrijf je in", "ontvang", Polish
// "zapisz się", Russian "подпишитесь". English calls are whole words, so
// "subscribers" and "gets" tell of a newsletter rather than call to one;
// the other languages' calls start a word of any ending.
var signupCall = regexp.MustCompile(`(^|[^\pL])((subscribe|sign[ -]?up|join|get|receive|deliver|delivered)([^\pL]|$)|` +
	`thanks? (you )?for (subscribing|signing up|joining)|` +
	`abonn|anmeld|erhalt|inscri|recev|suscr|recib|iscri|ricev|assin|inscrev|receb|schrijf|aanmeld|ontvang|zapisz|prenumer|подпи|получ)`)

// signupAddress: the prompt speaks to the reader ("your inbox", "Sign up
// for our newsletter") or, with a call at its start, commands. A story
// that mentions someone's newsletter does neither. ("us" is left out: it
// is also the United States.)
var signupAddress = regexp.MustCompile(`(^|[^\pL])(you|your|our|ihr|ihre|ihren|unser|unseren|unsere|votre|vos|notre|nos|tu|su|nuestro|nuestra|` +
	`tua|tuo|nostra|nostro|seu|sua|nosso|nossa|je|jouw|onze|ваш|вашу|наш|нашу)([^\pL]|$)`)

// maxSignupWords bounds a newsletter prompt: a line or two, not a
// paragraph about newsletters.
const maxSignupWords = 30

// isSignup reports a newsletter prompt, or its thanks, set between or
// under a story's paragraphs: "Sign up for our newsletter", "Get the
// latest updates right in your inbox", "Thank you for subscribing to
// our daily newsletter", "Abonnieren Sie unseren Newsletter". The form
// it stood over is gone (dropForms, or the reader); its words stay. It
// names a mailbox, calls the reader to it and addresses them.
func (l labelLine) isSignup() bool {
	if l.words > maxSignupWords || !l.namesMailbox() {
		return false
	}
	call := signupCall.FindStringIndex(l.lower)
	return call != nil && (call[0] == 0 || signupAddress.MatchString(l.lower))
}

// readingTime is a story's reading time: "5 min read", "4 minute read
// time", "Reading Time: 11 minutes", "Lesezeit: 3 Minuten", "Temps de
// lecture : 4 min", "Tiempo de lectura: 5 minutos", "Tempo di lettura",
// "Leestijd", "Czas czytania", "Время чтения", "Okuma süresi",
// "阅读时间", "読了時間", "읽는 시간".
var readingTime = regexp.MustCompile(`^((reading time|read time|time to read|lesezeit|lesedauer|temps de lecture|tiempo de lectura|tempo di lettura|` +
	`tempo de leitura|leestijd|leesduur|czas czytania|lästid|время чтения|okuma süresi|阅读时间|阅读时长|読了時間|읽는 시간)\s*[:：]?\s*(about |ca\. |~)?\d+\s*\pL*\.?|` +
	`(about |~)?\d+\s*(min|mins|minute|minutes|minuten|minutos|minuti|minuty|мин|dk|分钟|分)\.?\s*(read|reading|read time|de lectura|de leitura|di lettura|lesezeit|lesen|leestijd|de lecture|czytania|чтения|okuma|阅读|で読めます))$`)

// maxReadingTimeWords bounds a reading-time line.
const maxReadingTimeWords = 6

// isReadingTime reports a block that is only a story's reading time.
// A bare "5 min" (a recipe's step) names no reading and stays.
func (l labelLine) isReadingTime() bool {
	return l.words <= maxReadingTimeWords && readingTime.MatchString(l.lower)
}

// isReadingMeta reports a story's meta line that starts or ends with its
// reading time, set off by a separator from a date or a name ("October
// 16, 2020 · 8 min read", "Bridgestone Team | 5 min read"). Only the
// article rules take it: on a listing each card carries such a line, and
// a listing's reader keeps them.
func (l labelLine) isReadingMeta() bool {
	if l.words > maxReadingMetaWords {
		return false
	}
	parts := metaSeparator.Split(l.lower, -1)
	if len(parts) < 2 || !readingTime.MatchString(strings.TrimSpace(parts[0])) && !readingTime.MatchString(strings.TrimSpace(parts[len(parts)-1])) {
		return false
	}
	for _, p := range parts {
		if countWords(p) > maxMetaPartWords {
			return false // a sentence, not a name or a date
		}
	}
	return true
}

// metaSeparator sets the parts of a story's meta line apart: a middle dot,
// a bullet or a bar between spaces.
var metaSeparator = regexp.MustCompile(`\s+[·•|]\s+`)

// maxReadingMetaWords bounds a meta line with a reading time in it, and
// maxMetaPartWords each of its parts (a name, a date, "Updated 3 days ago").
const (
	maxReadingMetaWords = 12
	maxMetaPartWords    = 5
)

// commentCount is a story's count of reader comments, as a template sets
// it among the byline, the date and the share buttons: "3 Comments",
// "2comments", "Comments (5)", "Kommentare: 12", "12 comentarios", "5
// комментариев", "댓글 3", "评论 12", or a link to the thread that
// counts it ("View all 7 comments", "Voir les 42 contributions"). A count
// says nothing of the
// story; the thread itself is judged elsewhere (dropCommentSections,
// dropCommentTail).
var commentCount = regexp.MustCompile(`^((view|see|read|show|load|voir|lire|afficher|ver|leer|mostrar|vedi|leggi|bekijk|lees)( all| the| les| tous les| todos los| los| todos os| os| tutti i| alle)?\s+)?` +
	`(\d[\d.,]*\s*(comments?|responses?|replies|kommentare?|commentaires?|contributions?|réactions?|comentarios?|comentários|commenti|commento|reacties|reactie|` +
	`komentarz[ey]?|komentarzy|комментари[йяев]?|yorum|bình luận|条评论|評論|评论|件のコメント|コメント|개의 댓글|댓글|تعليقات|تعليق)|` +
	`(comments?|responses|replies|kommentare|commentaires|comentarios|comentários|commenti|reacties|komentarze|комментарии|yorumlar|bình luận|评论|評論|コメント|댓글|تعليقات)\s*[:：(（]?\s*\d[\d.,]*\s*[)）]?)$`)

// maxCommentCountWords bounds a comment count's line.
const maxCommentCountWords = 4

// isCommentCount reports a block that is only a count of comments. A
// heading so worded ("3 Comments") titles the thread under it, which
// dropCommentTail judges with the thread, and is not taken here.
func (l labelLine) isCommentCount() bool {
	return l.words <= maxCommentCountWords && !headingAtoms[l.n.DataAtom] && commentCount.MatchString(l.lower)
}

// formConsent is the fine print under a signup or comment form: "By
// signing up, you agree to receive marketing emails", "By clicking
// submit, you accept our Terms", "Mit der Anmeldung stimmen Sie unserer
// Datenschutzerklärung zu", "En vous inscrivant, vous acceptez",
// "Al suscribirte aceptas", "Ao se inscrever, você concorda",
// "Iscrivendoti accetti", "Door je aan te melden ga je akkoord". It
// starts with what the reader does and says that they agree; a story's
// "By clicking the button twice, you see both promises" agrees to
// nothing.
var formConsent = regexp.MustCompile(`^(by (clicking|tapping|pressing|signing up|subscribing|submitting|registering|continuing|entering|providing|creating|joining)|` +
	`mit (dem klick|der anmeldung|ihrer anmeldung|dem absenden|dem abonnieren|der registrierung|dem klicken)|` +
	`en (cliquant|vous inscrivant|vous abonnant|soumettant|poursuivant|validant)|` +
	`al (hacer clic|pulsar|suscribirte|suscribirse|registrarte|registrarse|enviar|continuar)|` +
	`ao (clicar|se inscrever|se cadastrar|assinar|enviar|continuar)|cliccando|iscrivendoti|registrandoti|proseguendo|` +
	`door (te klikken|je aan te melden|je in te schrijven|u aan te melden|op))\b.*?` +
	`(\byou (agree|accept|consent|acknowledge|confirm|are (agreeing|consenting|accepting))|\b(stimmen sie|akzeptieren sie|erklären sie sich|willigen sie)|` +
	`\bvous (acceptez|consentez|reconnaissez)|\b(aceptas|acepta|aceptás|consientes)\b|\bvocê (concorda|aceita)|\b(accetti|acconsenti)\b|\b(ga je|gaat u) akkoord)`)

// maxFormConsentWords bounds the fine print of a form: a sentence or two.
const maxFormConsentWords = 40

// isFormConsent reports a block that is a form's fine print
// (formConsent).
func (l labelLine) isFormConsent() bool {
	return l.words <= maxFormConsentWords && formConsent.MatchString(l.lower)
}

// contentsLabels are the titles of a table of contents, in the languages
// the other label rules know, as a whole line (lower-cased, a toggle's
// caption after it dropped: "Contents [hide]").
var contentsLabels = wordSet(`table_of_contents contents in_this_article on_this_page in_this_post jump_to ` +
	`inhaltsverzeichnis inhalt inhaltsübersicht sommaire table_des_matières índice tabla_de_contenidos contenido contenidos ` +
	`indice indice_dei_contenuti sommario sumário índice_de_conteúdo conteúdo inhoudsopgave inhoud spis_treści ` +
	`содержание оглавление innehåll innehållsförteckning innhold indholdsfortegnelse sisällys sisällysluettelo ` +
	`içindekiler obsah tartalom tartalomjegyzék 目次 目录 目錄 목차`)

// maxContentsLabelWords bounds the title of a table of contents with its
// toggle ("Table des matières [masquer]").
const maxContentsLabelWords = 6

// contentsToggles are the captions of the button that folds a table of
// contents, set after its title.
var contentsToggles = wordSet(`hide show toggle ausblenden einblenden anzeigen masquer afficher ocultar mostrar nascondi mostra verbergen tonen`)

// isOrphanContents reports the title of a table of contents whose
// entries are gone: readability drops a list of links to the page, a
// theme fills its list with JavaScript, and "Table of Contents" was left
// over the story's first heading. A title over its entries (a link to a
// place on the page) stays with them.
func (l labelLine) isOrphanContents() bool {
	if l.words > maxContentsLabelWords {
		return false
	}
	toks := l.toks // set: the title is shorter than maxTokenedLabelWords
	for len(toks) > 1 && contentsToggles[toks[len(toks)-1]] {
		toks = toks[:len(toks)-1]
	}
	if !contentsLabels[strings.Join(toks, "_")] {
		return false
	}
	next := nextTextBlock(l.n)
	if next == nil {
		return true
	}
	entry := next // its list item, when it is one
	for p := next.Parent; p != nil; p = p.Parent {
		if p.DataAtom == atom.Li {
			entry = p
			break
		}
	}
	return findFirst(entry, func(a *html.Node) bool {
		return isElem(a, atom.A) && strings.Contains(attr(a, "href"), "#")
	}) == nil
}

// textLeaf reports a leaf block (one that holds no block) with words.
func textLeaf(n *html.Node) bool {
	return blockAtoms[n.DataAtom] && !hasBlockChild(n) && wordCount(n) > 0
}

// nextTextBlock returns the first textLeaf after n in document order, or
// nil.
func nextTextBlock(n *html.Node) *html.Node {
	for cur := n; cur != nil; cur = cur.Parent {
		for s := cur.NextSibling; s != nil; s = s.NextSibling {
			if s.Type != html.ElementNode {
				continue
			}
			if b := findFirst(s, textLeaf); b != nil {
				return b
			}
		}
	}
	return nil
}

// networkInflected reports a network's name with a case ending, as
// Slavic and Finnic languages decline it ("na Facebooku i Twitterze",
// "в Телеграме", "Instagramissa"). Names of five letters or more only:
// "x", "vk" or "dzen" start too many other words.
func networkInflected(t string) bool {
	for n := range socialNetworks {
		if len(t) > len(n) && utf8.RuneCountInString(n) >= 5 && strings.HasPrefix(t, n) {
			return true
		}
	}
	return false
}

// dropLabelLines removes label lines (isLabelLine) and a leading
// dateline (leadingDateline) from a page that is not a declared article
// (which tidyArticle cleans whole): undeclared news and blog pages carry
// the same ad labels, credits, tag lists and date stamps. Nothing is
// removed when they would hold a third of the text. A definition list
// left with terms only goes too (dropBareTerms).
func dropLabelLines(root *html.Node) {
	lists := describedLists(root)
	defer dropBareTerms(lists)
	var drop []*html.Node
	blocks := lineBlocks(root)
	for _, b := range blocks {
		if isLabelLine(b) {
			drop = append(drop, b)
		}
	}
	if d := leadingDateline(blocks); d != nil {
		drop = append(drop, d)
	}
	removeLabels(root, drop)
	dropTrailingRelated(root)
}

// dropTrailingRelated removes the labels of related-content rails that
// end a page's text ("You may also like", "More from Top Gear",
// "Recommended for you"): the rail's cards went as chrome, and its title
// is left as the last line, introducing nothing. tidyArticle's
// dropRelated takes such a label with its run of links on articles; on
// the other pages it came through.
func dropTrailingRelated(root *html.Node) {
	blocks := lineBlocks(root)
	total := wordCount(root)
	for i, dropped := len(blocks)-1, 0; i >= 0 && dropped < maxTrailingHeadings; i-- {
		b := blocks[i]
		w := wordCount(b)
		if w == 0 {
			continue
		}
		if w > maxRelatedLabelWords || w >= total || linkWords(b) != 0 && linkWords(b)*2 < w || sentence(labelText(b)) || !startsRelated(b) {
			return
		}
		removeNode(b)
		total -= w
		dropped++
	}
}

// sentence reports a text that ends as a sentence does, with a full stop
// (not an ellipsis), a question or an exclamation mark: "Read more about
// ad blocking here." is the story's last line, not a rail's label. The
// marks of other scripts count too: Chinese and Japanese "。！？" (and
// their full-width forms), the Devanagari danda, the Arabic question
// mark and the Urdu, Armenian and Ethiopic full stops.
func sentence(t string) bool {
	t = strings.TrimSpace(t)
	if strings.HasSuffix(t, ".") {
		return !strings.HasSuffix(t, "..")
	}
	r, _ := utf8.DecodeLastRuneInString(t)
	return strings.ContainsRune(sentenceEnds, r)
}

// sentenceEnds are the marks, other than the full stop, that end a
// sentence.
const sentenceEnds = "?!。．！？।॥؟۔։።"

// removeLabels removes label lines unless they hold a third of root's
// words (removeUnlessThird), and then each box they leave holding only a
// heading: the newsletter box's "Stay informed" over the prompt that
// went, an ad slot's title. The box is the label's parent.
//
// A newsletter box whose heading is the call ("Sign up for our
// newsletter") goes with its pitch under it: the rest of the box is a
// paragraph or two that name the newsletter (signupPitch), longer than
// the prompts isSignup takes alone ("Make sure you stay in the loop on
// everything happening in the county with our collection of
// newsletters, ...").
func removeLabels(root *html.Node, labels []*html.Node) {
	var parents []*html.Node
	signupBox := map[*html.Node]bool{}
	for _, l := range labels {
		if l.Parent != nil && l.Parent != root {
			parents = append(parents, l.Parent)
			if ll, ok := readLabelLine(l); ok && headingAtoms[l.DataAtom] && ll.isSignup() {
				signupBox[l.Parent] = true
			}
		}
	}
	if !removeUnlessThird(root, labels) {
		return
	}
	for _, p := range parents {
		if p.Parent == nil {
			continue // gone with another box
		}
		if headingOnly(p) || signupBox[p] && signupPitch(p) {
			removeNode(p)
		}
	}
}

// maxSignupPitchWords bounds what a newsletter box holds under its
// heading: a paragraph or two.
const maxSignupPitchWords = 60

// signupPitch reports a box (its heading gone) whose text is at most
// maxSignupPitchWords words, every block of which names a newsletter or
// a mailbox (namesMailbox), its form aside.
func signupPitch(box *html.Node) bool {
	if wordCountOver(box, maxSignupPitchWords) {
		return false
	}
	n := 0
	for _, b := range lineBlocks(box) {
		w := wordCount(b)
		if w == 0 || hasAncestor(b, atom.Form) {
			continue
		}
		if !labelLineOf(b, w, true).namesMailbox() {
			return false
		}
		n++
	}
	return n > 0
}

// headingOnly reports a box whose only text is a short heading (at most
// maxTrailingHeadingWords words): every other text is blank or inside a
// form, and it holds no <img> (the media elements of dropAlways are
// skipped with it).
func headingOnly(box *html.Node) bool {
	heading, other := 0, false
	var walk func(n *html.Node, inHeading bool)
	walk = func(n *html.Node, inHeading bool) {
		for c := n.FirstChild; c != nil && !other; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode && inHeading:
				heading += countWords(c.Data)
			case c.Type == html.TextNode:
				other = !blank(c)
			case c.Type != html.ElementNode || dropAlways[c.DataAtom] || c.DataAtom == atom.Form:
			case c.DataAtom == atom.Img:
				other = true
			default:
				walk(c, inHeading || headingAtoms[c.DataAtom])
			}
		}
	}
	walk(box, false)
	return !other && heading > 0 && heading <= maxTrailingHeadingWords
}

// leadingDateline returns the one dateline of a page that is no declared
// article, when it stands above the first paragraph of prose: the date
// stamp of an undeclared story ("Updated on 09/10/2025", "Eingestellt am
// 14.05.2008 von Hans Müller"). A listing's items each carry one
// ("Posted ..." under every entry), so a page with two or more keeps
// them all, as it does one that comes after the prose began.
func leadingDateline(blocks []*html.Node) *html.Node {
	var found *html.Node
	n, prose := 0, false
	for _, b := range blocks {
		w := wordCount(b)
		if w > 0 && w <= 15 && (datelineText(b) || bareDate(b)) {
			if n++; n > 1 || prose {
				return nil
			}
			found = b
		}
		prose = prose || isProse(b, 20)
	}
	if !prose {
		return nil
	}
	return found
}

// leafBlocks are the block elements under root that hold no block, and
// inline elements named as kickers.
func leafBlocks(root *html.Node) []*html.Node { return leaves(root, false) }

// lineBlocks are leafBlocks and the inline elements that stand alone on
// a line among blocks (aloneOnLine): a template's loose <span> with the
// category link above the headline, or an ad label, in a <header> or
// <div> that also holds the headline's block.
func lineBlocks(root *html.Node) []*html.Node { return leaves(root, true) }

// leaves collects leafBlocks, and with lines lineBlocks.
func leaves(root *html.Node, lines bool) []*html.Node {
	return collectElements(root, func(c *html.Node) visit {
		if (blockAtoms[c.DataAtom] || classWords(c, kickerWords) || lines && aloneOnLine(c)) && !hasBlockChild(c) {
			return take
		}
		return descend
	})
}

// aloneOnLine reports an inline element that renders as a line of its own
// (ownLine) with no text beside it: the nearest neighbours that show
// anything are blocks or line breaks. A link inside a block's loose
// sentence ("Check <a>this tool</a> first.") has text beside it.
func aloneOnLine(n *html.Node) bool {
	if !ownLine(n) {
		return false
	}
	prev, next := shownSibling(n, false), shownSibling(n, true)
	return (prev == nil || breaksLine(prev)) && (next == nil || breaksLine(next))
}

// blank reports a node that shows nothing: white space, a comment, a
// script.
func blank(n *html.Node) bool {
	switch n.Type {
	case html.TextNode:
		return strings.TrimSpace(n.Data) == ""
	case html.ElementNode:
		return dropAlways[n.DataAtom]
	}
	return true
}

// breaksLine reports a block or a line break.
func breaksLine(n *html.Node) bool {
	return n.Type == html.ElementNode && (blockAtoms[n.DataAtom] || n.DataAtom == atom.Br)
}

// minConsentBlockWords: shorter blocks ("Load content") are left alone;
// the notice around them is what goes.
const minConsentBlockWords = 15

// storyDensity: a paragraph with under one consent word in this many is
// prose of the story.
const storyDensity = 30

// consentBlocks returns the outermost elements under root whose text is a
// consent notice or an embed-consent placeholder (consentShaped). The
// counts are gathered bottom-up in one pass. On a page about consent (a
// privacy policy) they are most of the text, and the caller keeps them.
func consentBlocks(root *html.Node) []*html.Node {
	// story marks elements holding a paragraph of prose that is not
	// consent text (a leaf block of minConsentBlockWords or more with
	// under one consent word in storyDensity): the story's container
	// reads as consent when the notice inside it is long, and must not go
	// with it.
	type counts struct {
		consentCount
		block, story bool
	}
	stats := map[*html.Node]counts{}
	var count func(n *html.Node) counts
	count = func(n *html.Node) counts {
		var c counts
		switch n.Type {
		case html.TextNode:
			c.consentCount = countConsent(n.Data)
			return c
		case html.ElementNode:
			if dropAlways[n.DataAtom] {
				return c
			}
		}
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			cc := count(ch)
			c.add(cc.consentCount)
			c.block = c.block || cc.block
			c.story = c.story || cc.story
		}
		if n.Type == html.ElementNode && blockAtoms[n.DataAtom] {
			if !c.block && c.words >= minConsentBlockWords && c.hits*storyDensity < c.words {
				c.story = true
			}
			c.block = true
		}
		if c.words >= minConsentBlockWords {
			// Only these are looked up below; the map stays small.
			stats[n] = c
		}
		return c
	}
	count(root)
	return collectElements(root, func(c *html.Node) visit {
		if c.DataAtom == atom.Table || headingAtoms[c.DataAtom] {
			return skip
		}
		st := stats[c]
		if st.words < minConsentBlockWords {
			return skip
		}
		if st.shaped() && !st.story {
			return take
		}
		return descend
	})
}
