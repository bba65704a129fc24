package extract

import (
	"math/bits"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The selection safety net. Readability scores blocks by their commas and
// length, so on some pages the densest block is not the story: a consent
// manager's notice, the placeholder of an embedded post or video ("external
// content: load it with your consent"), or the list of names under an open
// letter. Consensus pruning cannot catch that, because it checks
// readability's block against trafilatura's reading of that same block.
// What does catch it is trafilatura's reading of the whole page: when the
// two disagree badly, and the chosen block has the shape of one of those
// failures while trafilatura's does not, trafilatura's is the story.

// candidateShape names what a candidate looks like when it is not an
// article: "consent" (a consent notice or an embed-consent placeholder,
// by its words or its markup), "list" (a run of short lines: names,
// links, labels), "caption" (a picture and its caption) or "" (prose).
func candidateShape(n *html.Node) string {
	if n == nil {
		return ""
	}
	text := renderText(n)
	if consentShaped(text) || consentMarked(n) {
		return "consent"
	}
	if listShaped(text) {
		return "list"
	}
	if captionShaped(n) {
		return "caption"
	}
	return ""
}

// captionShaped reports a candidate that is one picture and its caption:
// a single image and at most one line of text, of up to
// maxCaptionWords words. Readability scores a block by its commas and
// by its length in characters, so where a story's paragraphs are short
// in characters (Chinese, Japanese: a third of English's) a photo's
// caption of names, dates and places, each after a comma, can outscore
// them: in ideographs (-eval.foreign.script=han), readability took an
// agency story's lead photo and its caption.
func captionShaped(n *html.Node) bool {
	if n == nil || wordCountOver(n, maxCaptionWords) {
		return false
	}
	images := collectElements(n, func(c *html.Node) visit {
		if c.DataAtom == atom.Img || c.DataAtom == atom.Picture || c.DataAtom == atom.Video {
			return take
		}
		return descend
	})
	if len(images) != 1 {
		return false
	}
	lines := 0
	for _, b := range lineBlocks(n) {
		if wordCount(b) > 0 {
			lines++
		}
	}
	return lines <= 1
}

// consentMarked reports a candidate whose words are, half of them at
// least, in elements a consent manager names as its own (overlayWords:
// OneTrust's "onetrust-policy-text", Cookiebot's "CybotCookiebotDialog").
// Readability keeps the class names and ids of what it picks. Consent
// managers name their markup alike in every language, while
// consentShaped knows the words of a dozen: with every page's words made
// up (-eval.foreign), readability took a OneTrust notice on a news
// listing for its content. Half, because the notice's purpose list sits
// in containers named after the manager's kit ("ot-sdk-container"), not
// after consent.
func consentMarked(n *html.Node) bool {
	marked := collectElements(n, func(c *html.Node) visit {
		if overlayName(c) {
			return take
		}
		return descend
	})
	return len(marked) > 0 && wordsIn(marked)*2 >= wordCount(n)
}

// consentStems are word beginnings of consent notices and embed-consent
// placeholders in the languages of the world's larger publishers: the
// notice asks for consent (or agreement, acceptance), names cookies,
// partners or vendors, personal data, privacy, third parties and
// settings, and offers to load or show external content. Each is matched
// as the start of a lower-cased word, so "cookie" covers "cookies" and
// "Cookie-Einstellungen", "zustimm" covers "Zustimmung" and "zustimmen".
// Words a language fuses with its article or a preposition (Arabic
// "ال", Hebrew "ה") are listed in the forms notices use. In Chinese,
// Japanese and Thai, written without spaces, a stem counts wherever it
// stands in a run (countConsent). Stems that open common words of
// another language are left out ("date", "veri": English "dated",
// "very"; "kabul": the city), and so is Vietnamese, whose words are
// syllables that each mean many things. A story about privacy uses
// some of them too; the shape is only one of the conditions of the
// safety net (see safetyNet).
var consentStems = [...]string{
	// everywhere
	"cookie", "gdpr", "dsgvo", "rgpd", "ccpa", "iab", "tcf",
	// English
	"consent", "privacy", "partners", "vendors", "personal", "preferences", "accept", "agree",
	"device", "tracking", "personalised", "personalized", "advertising", "legitimate", "settings",
	"third", "external", "load",
	// German
	"zustimm", "einwillig", "datenschutz", "personenbezogen", "akzeptier", "einverstanden",
	"drittanbieter", "drittplattform", "dritte", "werbung", "einstellung", "verarbeitung", "anbieter",
	"endgerät", "extern", "laden", "partner",
	// French
	"consentement", "confidentialité", "partenaires", "données", "personnelles", "accepter",
	"paramètres", "publicité", "publicitaires", "tiers", "traceurs", "externe", "charger",
	// Spanish, Portuguese, Italian
	"consentimiento", "consentimento", "consenso", "privacidad", "privacidade", "socios", "parceiros",
	"datos", "dados", "dati", "personales", "pessoais", "personali", "aceptar", "aceitar", "accetta",
	"publicidad", "publicidade", "pubblicità", "terceros", "terceiros", "terze", "externo", "esterno",
	// Dutch, Scandinavian, Polish
	"toestemming", "gegevens", "persoonlijke", "accepteren", "advertenties", "derden", "samtycke",
	"samtykke", "personuppgifter", "personoplysninger", "zgod", "prywatno", "osobow",
	"personopplysning", "personvern", "informasjonskapsl", "annonse",
	// Czech, Slovak
	"souhlas", "súhlas", "osobní", "osobné", "údaj", "soukromí", "súkromi", "reklam", "nastavení",
	"nastaveni", "přijmout", "prijať", "třetí", "tretí", "zařízení", "zariadeni", "zpracování",
	"spracúvan", "spracovan",
	// Hungarian, Romanian, Finnish
	"süti", "hozzájárul", "személyes", "adat", "hirdetés", "beállítás", "elfogad", "harmadik",
	"consimțământ", "consimţământ", "parteneri", "confidențialitate", "confidenţialitate",
	"publicitate", "setări", "setările", "terț", "terţ", "dispozitiv",
	"eväst", "suostum", "henkilöti", "kumppan", "tietosuoj", "mainon", "hyväksy", "kolmann",
	// Greek
	"συναίνεσ", "συγκατάθεσ", "προσωπικ", "δεδομέν", "συνεργάτ", "απορρήτ", "απόρρητ", "διαφήμισ",
	"ρυθμίσ", "αποδοχ", "αποδέχ", "τρίτ", "συσκευ",
	// Russian, Ukrainian, Bulgarian
	"куки", "согласи", "персональн", "конфиденциальн", "партнер", "партнёр", "реклам", "настройк",
	"обработк", "третьи", "третьих", "устройств", "отслежива", "идентификатор",
	"згод", "конфіденційн", "налаштуван", "прийнят", "обробк", "треті", "пристро",
	"бисквитк", "съгласи", "лични", "данни", "партньор", "поверителност",
	// Turkish, Indonesian and Malay
	"çerez", "onay", "kişisel", "veriler", "gizlilik", "ortaklar", "tercih", "üçüncü", "cihaz", "izleme",
	"persetujuan", "pribadi", "mitra", "privasi", "iklan", "pengaturan", "pelacakan", "setuju", "kuki",
	"perangkat",
	// Arabic, Persian, Hebrew
	"كوكيز", "الكوكيز", "الارتباط", "الخصوصية", "موافق", "البيانات", "الشخصية", "شركاؤنا", "شركائنا",
	"شركاء", "الإعلانات", "إعلانات", "الإعدادات", "إعدادات", "قبول", "جهازك",
	"کوکی", "حریم", "رضایت", "شخصی", "تبلیغات", "تنظیمات", "پذیرش",
	"עוגיות", "קובצי", "פרטיות", "הפרטיות", "הסכמ", "ההסכמ", "מסכים", "שותפ", "השותפ", "והשותפ",
	"אישי", "פרסום", "הגדרות", "ההגדרות",
	// Hindi, Korean
	"कुकी", "सहमति", "व्यक्तिगत", "गोपनीयता", "भागीदार", "सेटिंग", "स्वीकार",
	"쿠키", "동의", "개인정보", "파트너", "광고", "설정", "수집", "제3자", "맞춤", "수락",
	// Chinese, Japanese, Thai: matched inside runs, so only words that
	// are not also everyday words of news ("数据" data, "合作" to work
	// together, "接受" to receive, "設定" to set)
	"同意", "个人信息", "个人数据", "個人資料", "個人數據", "個人情報", "個人データ", "合作伙伴", "合作夥伴",
	"隐私", "隱私", "广告", "廣告", "広告", "第三方", "第三者", "跟踪", "追蹤", "设备", "裝置", "端末",
	"クッキー", "パートナー", "プライバシー", "識別子",
	"คุกกี้", "ยินยอม", "ข้อมูลส่วนบุคคล", "ความเป็นส่วนตัว", "พันธมิตร", "โฆษณา", "ตั้งค่า", "ยอมรับ",
	"บุคคลที่สาม",
}

// consentShaped reports text in which consent vocabulary is dense (see
// consentCount.shaped).
func consentShaped(text string) bool { return countConsent(text).shaped() }

// consentCount counts the words of a text, its consent words, and which
// consent stems it uses.
type consentCount struct {
	words, hits int
	stems       [(len(consentStems) + 63) / 64]uint64 // bit i: consentStems[i] was seen
}

func (c *consentCount) add(o consentCount) {
	c.words += o.words
	c.hits += o.hits
	for i, w := range o.stems {
		c.stems[i] |= w
	}
}

// saw counts a consent word, of stem i.
func (c *consentCount) saw(i int) {
	c.hits++
	c.stems[i/64] |= 1 << (i % 64)
}

// shaped: at least minConsentStems different stems, and one word in
// consentDensity a consent word. A consent notice runs at about one in
// eight; a news story that mentions cookies or a privacy policy stays far
// below one in twelve.
func (c consentCount) shaped() bool {
	n := 0
	for _, w := range c.stems {
		n += bits.OnesCount64(w)
	}
	return n >= minConsentStems && c.hits*consentDensity >= c.words
}

const (
	minConsentStems = 4
	consentDensity  = 12
)

// stemsByPrefix lists, for the first three bytes of each consent stem,
// the indexes of the stems that start so, shortest first: a token is
// looked up once, and most tokens start like no stem.
var stemsByPrefix = func() map[string][]int {
	m := map[string][]int{}
	for i, s := range consentStems {
		m[s[:3]] = append(m[s[:3]], i)
	}
	for _, idx := range m {
		slices.SortStableFunc(idx, func(a, b int) int { return len(consentStems[a]) - len(consentStems[b]) })
	}
	return m
}()

// runStems are the indexes of the consent stems looked for inside a run
// of a script written without spaces (hasUnspaced), where a word has no
// edges to match a stem at: the stems in such scripts, and "cookie",
// which notices in them spell in Latin letters ("使用Cookie").
var runStems = func() []int {
	var idx []int
	for i, s := range consentStems {
		if s == "cookie" || hasUnspaced(s) {
			idx = append(idx, i)
		}
	}
	return idx
}()

// countConsent counts words (as countWords) and consent words (tokens as
// wordTokens that start with a stem; the shortest matching stem counts;
// in a run of Chinese, Japanese or Thai, each place a stem stands).
func countConsent(text string) consentCount {
	c := consentCount{words: countWords(text)}
	// wordTokens' tokens, lower-cased one by one: it runs on every text
	// node of a cleaned page, and lower-casing the whole text and
	// splitting it into a slice cost BenchmarkExtract's bytes 0.8%.
	for t := range strings.FieldsFuncSeq(text, letterWords) {
		c.token(strings.ToLower(t))
	}
	return c
}

// token counts t, a lower-cased token, if it is a consent word.
func (c *consentCount) token(t string) {
	if len(t) < 3 {
		return
	}
	if hasUnspaced(t) {
		for _, i := range runStems {
			for range strings.Count(t, consentStems[i]) {
				c.saw(i)
			}
		}
		return
	}
	for _, i := range stemsByPrefix[t[:3]] {
		if strings.HasPrefix(t, consentStems[i]) {
			c.saw(i)
			return
		}
	}
}

// listShaped reports text that is a run of short lines rather than prose:
// at least minListLines lines, and nine words in ten on lines of at most
// maxListLine words (a name with a title and an affiliation; a link; a
// label). A story's paragraphs run to dozens of words a line.
func listShaped(text string) bool {
	lines, short, total := 0, 0, 0
	for line := range strings.SplitSeq(text, "\n") {
		w := countWords(line)
		if w == 0 {
			continue
		}
		lines++
		total += w
		if w <= maxListLine {
			short += w
		}
	}
	return lines >= minListLines && short*10 >= total*9
}

const (
	minListLines = 10
	maxListLine  = 12
)

// safetyNet reports whether trafilatura's reading of the whole page (traf)
// should replace the chosen candidate (pick): pick has the shape of a
// consent notice, an embed placeholder or a list while traf reads as
// prose, and the two disagree badly. Either pick is much shorter than
// traf (under half its words) and covers under half of traf's words, or
// pick is mostly words traf does not have (under a third of them) and
// traf is a real text of its own (50 words, at least a third of pick's
// length): trafilatura found a different block, and the story is more
// likely the prose one. A trafilatura reading that holds the story and
// the notice after it is judged by what is left without the notice
// (dropConsent), as the story is served.
func safetyNet(pick, traf *html.Node) bool {
	if pick == nil || traf == nil || words(traf) < minNetWords || candidateShape(pick) == "" {
		return false
	}
	shape := candidateShape(traf)
	if shape == "consent" {
		// trafilatura may have read the story and a notice after it
		// (as one reading, it is as dense in consent words as the
		// notice alone): the story is what is left without the notice,
		// as dropArticleFurniture leaves it.
		rest := cloneTree(traf)
		if !dropConsent(rest) {
			return false
		}
		traf, shape = rest, candidateShape(rest)
	}
	wp, wt := words(pick), words(traf)
	if wt < minNetWords || shape != "" {
		return false
	}
	pt, tt := blockTokens(pick), blockTokens(traf)
	shared := sharedTokens(pt, tt)
	if wp*2 < wt && shared*2 < len(tt) {
		return true
	}
	return shared*3 < len(pt) && wt*3 >= wp
}

// teaserShaped reports a candidate made of teaser cards (isTeaserCard):
// two or more, holding three quarters of its words. On an article page
// that is a column of other stories, which readability prefers to a
// story of two short paragraphs.
func teaserShaped(n *html.Node) bool {
	if n == nil {
		return false
	}
	cards := teaserCards(n, true)
	return len(cards) >= 2 && wordsIn(cards)*4 >= wordCount(n)*3
}

// teaserNet reports whether trafilatura's reading of an article page
// (traf) should replace a pick made of teaser cards: traf is prose of at
// least minTeaserNetWords words, not itself teasers, and the pick holds
// under half of its words. A news item can be shorter than minNetWords;
// teaser cards are never the story, so less text suffices.
func teaserNet(pick, traf *html.Node) bool {
	if pick == nil || traf == nil || words(traf) < minTeaserNetWords || teaserShaped(traf) || candidateShape(traf) != "" {
		return false
	}
	tt := blockTokens(traf)
	return sharedTokens(blockTokens(pick), tt)*2 < len(tt)
}

const minTeaserNetWords = 25

// minNetWords: a trafilatura reading shorter than this is no story to
// fall back on.
const minNetWords = 50

// blockTokens is a candidate's text as compareTokens splits it, read a
// block to a line: textOf joins blocks with no space, and the words on
// either side of a block's edge ("Warning" over "The file") became one
// token that neither candidate's reader sees.
func blockTokens(n *html.Node) []string {
	return compareTokens(renderText(n))
}

// sharedTokens counts the tokens of a that b also has (as a multiset).
func sharedTokens(a, b []string) int {
	have := make(map[string]int, len(b))
	for _, t := range b {
		have[t]++
	}
	n := 0
	for _, t := range a {
		if have[t] > 0 {
			have[t]--
			n++
		}
	}
	return n
}

// hollowNet reports whether trafilatura's reading of an article page
// (full) should replace readability's block (read) because readability's
// own cleaning hollowed it out (hollowed): full is prose of its own, of
// at least minNetWords words.
func hollowNet(read, full *html.Node) bool {
	return read != nil && full != nil && words(full) >= minNetWords && candidateShape(full) == "" && hollowed(read, full)
}

// hollowed reports whether a wider reading of the page (wide) holds
// nearly all of readability's paragraphs (read), whole and in order, and
// between read's first and last paragraph others that read lacks, of at
// least a third as many words again. Readability's conditional cleaning
// removes a <div> with little text per element, and a page builder sets a
// service page's features or steps as just such boxes (a heading and a
// sentence each) between its long paragraphs: what survives is the long
// paragraphs, a minority of the text. A news story's block loses
// captions, inline teasers and ads from its middle, a small part of it.
//
// Only paragraphs (lines of minAnchorWords words or more) count: a
// headline or a label also stands in a menu or a teaser ahead of the
// story, and a span opened there would hold the whole page's chrome.
func hollowed(read, wide *html.Node) bool {
	lines := textLines(wide)
	total, matched, inside := 0, 0, 0
	next, started := 0, false // the first of wide's lines not yet passed
	for _, line := range textLines(read) {
		n := countWords(line)
		if n < minAnchorWords {
			continue
		}
		total += n
		for j := next; j < len(lines); j++ {
			if lines[j] != line {
				continue
			}
			if started {
				for _, l := range lines[next:j] {
					if w := countWords(l); w >= minAnchorWords {
						inside += w
					}
				}
			}
			started, next = true, j+1
			matched += n
			break
		}
	}
	return total > 0 && matched*20 >= total*19 && inside*3 >= total
}

// minAnchorWords: a line this long is a paragraph.
const minAnchorWords = 10

// textLines is a node's text as rendered, a block to a line, without its
// blank lines.
func textLines(n *html.Node) []string {
	var out []string
	for _, l := range strings.Split(renderText(n), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// maxHeadlineLeads is how many of the paragraphs under the headline
// headlineLeads returns.
const maxHeadlineLeads = 3

// headlineLeads returns the text of the first paragraphs of the story
// under the page's headline: the first h1 or h2 that repeats the title
// (repeatsTitle, as dropTitle reads it). A paragraph is a line of
// minHeadlineLeadWords words or more outside figures, lists, headers,
// asides, footers and the boxes of leadFurnitureWords (a short story's
// next lines of that length may be the site footer's address and
// disclaimer), among the
// maxHeadlineBlocks lines after the headline and inside the <article>
// that holds it, if one does. Nil when no heading is the headline.
func headlineLeads(doc *html.Node, title string) []string {
	tt := strings.Join(wordTokens(title), " ")
	if countWords(tt) < 3 {
		return nil
	}
	h := findFirst(doc, func(n *html.Node) bool {
		return n.Type == html.ElementNode && (n.DataAtom == atom.H1 || n.DataAtom == atom.H2) && repeatsTitle(n, tt)
	})
	if h == nil {
		return nil
	}
	// A headline inside an <article> heads that story alone: past its
	// end come other stories, or a page's notices.
	scope := h.Parent
	for scope != nil && !isElem(scope, atom.Article) {
		scope = scope.Parent
	}
	var leads []string
	b := nextTextBlock(h)
	for i := 0; b != nil && i < maxHeadlineBlocks && len(leads) < maxHeadlineLeads && (scope == nil || hasAncestorNode(b, scope)); i++ {
		if countWords(textOf(b)) >= minHeadlineLeadWords && !inFurniture(b) && !hasAncestor(b, atom.Footer) && !namedAround(b, leadFurnitureWords) {
			leads = append(leads, collapseSpace(textOf(b)))
		}
		b = nextTextBlock(b)
	}
	return leads
}

// descriptionPhrase returns minDescWords words in a row that the page's
// description and the prose of n share (proseTokens), as proseTokens
// writes them, trying the description's first maxDescSkip+1 starts; ""
// when they share none. Blog and news software writes the description
// from the story's first paragraph when the author gives none (after a
// share button's text, at times: "Share this on WhatsAppNesta página
// você terá…"), so the phrase marks the story in the page whatever its
// boxes are named. A dek set in the page's header is not prose.
// standfirst reports a block of prose that is the description itself,
// give or take two words: a standfirst, which may sit apart from the
// story it sums up.
func descriptionPhrase(n *html.Node, desc string) (phrase string, standfirst bool) {
	dt := wordTokens(desc)
	if len(dt) < minDescWords || n == nil {
		return "", false
	}
	prose := proseTokens(n)
	for i := 0; i <= maxDescSkip && i+minDescWords <= len(dt); i++ {
		ph := " " + strings.Join(dt[i:i+minDescWords], " ") + " "
		at := strings.Index(prose, ph)
		if at < 0 {
			continue
		}
		start := strings.LastIndexByte(prose[:at+1], '|') + 1
		end := len(prose)
		if j := strings.IndexByte(prose[at:], '|'); j >= 0 {
			end = at + j
		}
		words := len(strings.Fields(prose[start:end]))
		return ph, words >= len(dt)-2 && words <= len(dt)+2
	}
	return "", false
}

// minDescWords is how long a run of words descriptionPhrase looks for;
// maxDescSkip how many of the description's first words it may pass.
const (
	minDescWords = 10
	maxDescSkip  = 8
)

// proseTokens is n's words outside figures, lists, headers, asides and
// navigation (and scripts), lower-cased (as wordTokens splits them),
// each with a space before it and one space after the last, and a "|"
// for each block's start and end.
func proseTokens(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		block := false
		switch n.Type {
		case html.TextNode:
			in := false
			for _, r := range n.Data {
				if !wordRune(r) {
					in = false
					continue
				}
				if !in {
					b.WriteByte(' ')
					in = true
				}
				b.WriteRune(unicode.ToLower(r))
			}
			return
		case html.ElementNode:
			switch n.DataAtom {
			case atom.Script, atom.Style, atom.Noscript, atom.Template, atom.Figure, atom.Li, atom.Header, atom.Aside, atom.Nav:
				return
			}
			if block = blockAtoms[n.DataAtom] || n.DataAtom == atom.Br; block {
				b.WriteString(" |")
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
		if block {
			b.WriteString(" |")
		}
	}
	if n != nil {
		walk(n)
	}
	b.WriteByte(' ')
	return b.String()
}

// minHeadlineLeadWords is the length of a paragraph of the story under the
// headline: a related story's headline or a form's line is shorter.
const minHeadlineLeadWords = 20

// leadFurnitureWords name the boxes set between a headline and its
// story: the writer's and the editor's bios, a disclosure; and the
// page's footer, which follows a short story.
var leadFurnitureWords = wordSet(`author authors bio byline disclosure disclaimer affiliate footer`)

// namedAround reports an ancestor of n whose class/id words meet words.
func namedAround(n *html.Node, words map[string]bool) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Type == html.ElementNode && classWords(p, words) {
			return true
		}
	}
	return false
}

// maxHeadlineBlocks bounds the lines headlineLeads reads past the
// headline: a date, a byline, a caption and share buttons come before
// the story's paragraphs, not a page of them.
const maxHeadlineBlocks = 40

// holdsAny reports whether n's text holds one of the lines.
func holdsAny(n *html.Node, lines []string) bool {
	if n == nil {
		return false
	}
	text := collapseSpace(textOf(n))
	for _, l := range lines {
		if strings.Contains(text, l) {
			return true
		}
	}
	return false
}

// holdsLeads returns a test of whether a node's text holds one of leads.
func holdsLeads(leads []string) func(*html.Node) bool {
	return func(n *html.Node) bool { return holdsAny(n, leads) }
}

// headlineNet reports whether trafilatura's reading of the page (full)
// should replace the picked reading (read) because that is another
// story: read holds none of the paragraphs under the page's headline
// (leads), full holds one, is prose of minTeaserNetWords words (a news
// brief is shorter than minNetWords), and shares under half of its
// words with read. A news site that loads the next story below the
// first (endless scrolling) sets both in the page, and readability takes
// the longer; a brief loses to a long notice below the page's <main>.
func headlineNet(read, full *html.Node, holds func(*html.Node) bool) bool {
	return otherStory(read, full, holds, 2)
}

// otherStory reports whether full holds what marks the page's story
// (holds), is prose of minTeaserNetWords words, and has under 1/part of
// its words in read too. The callers have found that read lacks the mark.
func otherStory(read, full *html.Node, holds func(*html.Node) bool, part int) bool {
	if read == nil || full == nil || words(full) < minTeaserNetWords || candidateShape(full) != "" || !holds(full) {
		return false
	}
	ft := blockTokens(full)
	return sharedTokens(ft, blockTokens(read))*part < len(ft)
}

// descriptionNet reports whether trafilatura's reading of the page
// (full) should replace the picked reading (read) because the page's
// description quotes the prose of full (holds), not read's, and they
// share under a quarter of full's words: readability took a sidebar of
// teasers beside a short story, or a table's introduction. A standfirst
// the description repeats can sit outside readability's block above the
// very story it holds, so the two must disagree on more than it.
func descriptionNet(read, full *html.Node, holds func(*html.Node) bool) bool {
	return otherStory(read, full, holds, 4)
}
