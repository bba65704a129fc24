package extract

import (
	"bytes"
	"encoding/json"
	nurl "net/url"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"

	"github.com/webgate/webgate/internal/charset"
)

// -eval.foreign rewrites each page, its reference and its snippets into a
// made-up language. The held-out news set has many pages not in English,
// and the dev sets' articles are nearly all English: a rule that leans on
// an English word ("Advertisement", "Read more", "By", a month's name)
// helps here and is blind there, and a rule that an English word keeps
// from misfiring misfires there. The made-up language has none of the
// words any rule knows, in any language, so what is left is what the page's
// structure says.
//
// Each letter a to z becomes another, the same everywhere, its case kept:
// every word is made up, of as many letters, the same for every
// occurrence, and a snippet cut inside a word is still a prefix of it, so
// a page extracted as before scores exactly as before. Digits,
// punctuation, markup, class names and hosts stay, as a German site's
// dates and markup look like an English site's; letters beyond a to z
// stay too.

// foreignKey is the letter each of a to z becomes; none stays itself.
const foreignKey = "qwertyuiopasdfghjklzxcvbnm"

// foreignCyrillic is the letter each of a to z becomes with
// -eval.foreign.script=cyrillic: the made-up language is then written in
// another script, as Russian, Ukrainian or Bulgarian pages are, and
// every rule that takes a letter for an ASCII one ("[a-z]", RE2's "\b")
// misses it, as it would a real page's. A story's slug is percent-encoded
// in its URL, as such a site's is.
const foreignCyrillic = "бвгдежзиклмнопрстуфхцчшщыэ"

// foreignGreek is the letter each of a to z becomes with
// -eval.foreign.script=greek: the 24 letters and two accented vowels, so
// that each has an upper case of its own (no final sigma).
const foreignGreek = "αβγδεζηθικλμνξοπρστυφχψωάέ"

// foreignAlphabets are the keys -eval.foreign.script names; "han" is
// not a key but hanText.
var foreignAlphabets = map[string]string{"latin": foreignKey, "cyrillic": foreignCyrillic, "greek": foreignGreek}

// foreignLetters is the key in use (foreignAlphabets), foreignKey's
// unless -eval.foreign.script names another.
var foreignLetters = []rune(foreignKey)

// foreignText returns s in the made-up language.
func foreignText(s string) string {
	if foreignHan {
		return hanText(s)
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return foreignLetters[r-'a']
		case r >= 'A' && r <= 'Z':
			return unicode.ToUpper(foreignLetters[r-'A'])
		}
		return r
	}, s)
}

// foreignURL rewrites the last segment of a URL's path, where a story's
// slug repeats its headline in the site's language. The folders before it
// stay, as forum and shop software names them ("/threads/", "/t/",
// "/products/") the same in every language, and so do the scheme, host
// and query. So does a server script's name ("viewtopic.php",
// "showthread.php"): the software's, not the site's language.
func foreignURL(raw string) string {
	u, err := nurl.Parse(raw)
	if err != nil || u.Path == "" {
		return raw
	}
	dir, last := path.Split(strings.TrimSuffix(u.Path, "/"))
	if foreignScripts[strings.ToLower(path.Ext(last))] {
		return raw
	}
	u.Path = dir + foreignText(last) + u.Path[len(dir)+len(last):]
	u.RawPath = ""
	return u.String()
}

// foreignScripts are the extensions of server scripts' names.
var foreignScripts = map[string]bool{".php": true, ".asp": true, ".aspx": true, ".jsp": true, ".cgi": true, ".pl": true, ".cfm": true}

// foreignAttrs are the attributes whose values are text a reader sees or
// a rule reads as words.
var foreignAttrs = map[string]bool{"alt": true, "title": true, "aria-label": true, "placeholder": true}

// foreignMeta are the <meta> names (after any "og:" style prefix) whose
// content is text.
var foreignMeta = map[string]bool{"title": true, "description": true, "site_name": true, "author": true,
	"keywords": true, "section": true, "tag": true, "application-name": true, "creator": true}

// foreignRaw are the elements the tokenizer reads as raw text: scripts
// and styles, which keep theirs, and fallbacks that hold markup (a forum
// puts its posts in a <noscript> for crawlers), which are rewritten as
// HTML.
var foreignRaw = map[string]bool{"script": true, "style": true, "noscript": true, "iframe": true,
	"noembed": true, "noframes": true, "xmp": true, "plaintext": true}

var foreignCharset = regexp.MustCompile(`(?i)(<meta[^>]*charset\s*=\s*["']?)[\w-]+`)

// foreign returns a page's HTML, in UTF-8, with its words made up, and
// its URL to match.
func foreign(body []byte, url string) ([]byte, string) {
	dec, _ := charset.Decode(body, "")
	if !bytes.Equal(dec, body) {
		dec = foreignCharset.ReplaceAll(dec, []byte("${1}utf-8"))
	}
	var out bytes.Buffer
	z := html.NewTokenizer(bytes.NewReader(dec))
	var raw string // the raw-text element open, if any
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		// Raw's slice may change under Token (its documented contract);
		// copied first, the markup is written as it came.
		text := bytes.Clone(z.Raw())
		switch tt {
		case html.TextToken:
			switch raw {
			case "":
				// A parser reads a line break in the markup as "\n"
				// (HTML §13.2.3.5, preprocessing the input stream), but
				// EscapeString writes a carriage return as "&#13;",
				// which the parser keeps as one: without this, a page
				// saved with CRLF line breaks came back with a "\r" in
				// every text node between tags.
				out.WriteString(html.EscapeString(foreignText(html.UnescapeString(plainBreaks(string(text))))))
			case "ld+json":
				out.Write(foreignJSON(text))
			case "noscript", "noembed", "noframes":
				page, _ := foreign(text, "")
				out.Write(page)
			default:
				out.Write(text)
			}
			continue
		case html.EndTagToken:
			raw = ""
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			if tt == html.StartTagToken && foreignRaw[tok.Data] {
				raw = tok.Data
				for _, a := range tok.Attr {
					if raw == "script" && a.Key == "type" && strings.Contains(strings.ToLower(a.Val), "ld+json") {
						raw = "ld+json"
					}
				}
			}
			if foreignTag(&tok) {
				out.WriteString(tok.String())
				continue
			}
		}
		out.Write(text)
	}
	return out.Bytes(), foreignURL(url)
}

// foreignTag rewrites a start tag's text attributes, its links' paths
// and its <meta> text, and reports whether it changed anything.
func foreignTag(tok *html.Token) bool {
	var meta string
	if tok.Data == "meta" {
		for _, a := range tok.Attr {
			if a.Key == "name" || a.Key == "property" || a.Key == "itemprop" {
				meta = strings.ToLower(a.Val)
				if i := strings.LastIndexAny(meta, ":."); i >= 0 {
					meta = meta[i+1:]
				}
			}
		}
	}
	changed := false
	for i, a := range tok.Attr {
		var v string
		switch {
		case foreignAttrs[a.Key]:
			v = foreignText(a.Val)
		case a.Key == "href":
			v = foreignURL(a.Val)
		case a.Key == "content" && foreignMeta[meta]:
			v = foreignText(a.Val)
		case a.Key == "content" && meta == "url":
			v = foreignURL(a.Val)
		default:
			continue
		}
		if v != a.Val {
			tok.Attr[i].Val, changed = v, true
		}
	}
	return changed
}

// foreignJSON rewrites the text in a JSON-LD block: every string except
// "@" keywords' values, URLs and dates. A block that does not parse stays.
func foreignJSON(raw []byte) []byte {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return raw
	}
	var walk func(v any, key string) any
	walk = func(v any, key string) any {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				x[k] = walk(e, k)
			}
		case []any:
			for i, e := range x {
				x[i] = walk(e, key)
			}
		case string:
			low := strings.ToLower(key)
			switch {
			case strings.HasPrefix(key, "@"), strings.Contains(low, "date"), strings.Contains(low, "time"):
			case strings.Contains(low, "url") || strings.Contains(low, "image") || strings.HasPrefix(x, "http") || strings.HasPrefix(x, "/"):
				return foreignURL(x)
			default:
				return foreignText(x)
			}
		}
		return v
	}
	b, err := json.Marshal(walk(v, ""))
	if err != nil {
		return raw
	}
	// json.Marshal escapes <, > and &; inside <script> that is still JSON.
	return b
}

// TestForeign checks -eval.foreign's rewrite: words made up alike in the
// text, the reference and the URL, markup, digits and other letters kept, scripts kept
// but for JSON-LD's text.
func TestForeign(t *testing.T) {
	body := []byte(`<html><head><TITLE>Read more</TITLE><svg viewBox="0 0 1 1"></svg><meta property="og:title" content="Read more">` +
		`<script>var readMore = 1;</script><script type="application/ld+json">{"@type":"NewsArticle","headline":"Read more","datePublished":"2024-01-02"}</script></head>` +
		`<body class="post"><noscript><p title="Read">Read</p></noscript><a href="/news/read-more?id=7">Read&nbsp;more &amp; 2024</a><img alt="Read"><p>ÉTÉ été</p></body></html>`)
	got, url := foreign(body, "https://example.com/news/read-more")
	read, more := foreignText("read"), foreignText("more")
	cap := func(s string) string { return strings.ToUpper(s[:1]) + s[1:] }
	for _, want := range []string{
		"<TITLE>" + cap(read) + " " + more + "</TITLE>", `<svg viewBox="0 0 1 1">`,
		`content="` + cap(read) + " " + more + `"`,
		`<script>var readMore = 1;</script>`,
		`"@type":"NewsArticle"`, `"datePublished":"2024-01-02"`, `"headline":"` + cap(read) + " " + more + `"`,
		`<body class="post"><noscript><p title="` + cap(read) + `">` + cap(read) + `</p></noscript>`,
		`href="/news/` + read + "-" + more + `?id=7"`,
		cap(read) + "\u00a0" + more + " &amp; 2024",
		`alt="` + cap(read) + `"`,
		"ÉZÉ ézé",
	} {
		if !strings.Contains(string(got), want) {
			t.Errorf("foreign page lacks %q:\n%s", want, got)
		}
	}
	if want := "https://example.com/news/" + read + "-" + more; url != want {
		t.Errorf("foreign URL = %s, want %s", url, want)
	}
	// In Cyrillic and Greek, each letter is another, of its own case,
	// and a slug is percent-encoded.
	for _, key := range []string{foreignGreek, foreignCyrillic} {
		letters, seen := []rune(key), map[rune]bool{}
		if len(letters) != 26 {
			t.Errorf("key %q has %d letters", key, len(letters))
		}
		for _, r := range letters {
			up := unicode.ToUpper(r)
			if seen[r] || seen[up] || r < utf8.RuneSelf || up == r || unicode.ToLower(up) != r {
				t.Errorf("key %q: %q repeats, is ASCII or has no upper case of its own", key, r)
			}
			seen[r], seen[up] = true, true
		}
	}
	foreignLetters = []rune(foreignCyrillic)
	defer func() { foreignLetters = []rune(foreignKey) }()
	if got, want := foreignText("Read, more"), "Уебд, оруе"; got != want {
		t.Errorf("cyrillic: %q, want %q", got, want)
	}
	if got, want := foreignURL("https://example.com/2024/05/read"), "https://example.com/2024/05/%D1%83%D0%B5%D0%B1%D0%B4"; got != want {
		t.Errorf("cyrillic URL = %s, want %s", got, want)
	}
	foreignLetters = []rune(foreignKey)
	if u := "https://forum.example/viewtopic.php?id=7"; foreignURL(u) != u {
		t.Errorf("foreign URL = %s, want %s as it was", foreignURL(u), u)
	}
	// A page saved with CRLF line breaks parses to the same text as
	// before, its letters mapped, without a carriage return.
	crlf := []byte("<html><body>\r\n<div>\r\n<p>Read\r\nmore\rnow&#13;</p>\r\n</div></body></html>")
	page, _ := foreign(crlf, "")
	if got, want := parsedText(t, page), foreignText(parsedText(t, crlf)); got != want {
		t.Errorf("CRLF page's text = %q, want %q", got, want)
	}
	if got, want := evalTokens(foreignText("Read MORE, read"), true), []string{read, more, read}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("tokens = %v, want %v", got, want)
	}
}

// parsedText is the text of every text node of a parsed page, in order.
func parsedText(t *testing.T, page []byte) string {
	t.Helper()
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for n := range doc.Descendants() {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
	}
	return b.String()
}

// -eval.foreign.script=han writes the made-up language in Chinese
// ideographs, without spaces between words, as Chinese and Japanese are
// written. It shows the rules that split words at spaces, count them
// (countWords), look for a capital letter or for punctuation followed by
// a space: a Chinese paragraph is one run of characters, a heading has no
// capitals, and "。" ends a sentence with no space after it.
//
// Each three letters of a word become one ideograph (the last one or
// two, one of their own), so a word of five letters is two characters,
// near what its Chinese translation would be: countWords reads about
// as many words as in English. (Pairs of letters read half as many again,
// and every rule that counts words, a link list's words per link, the
// share of a page a block holds, then misread pages it reads right in
// English.) Its first character comes
// from another range than the rest, which marks where each word begins:
// hanBack restores the spaces (and the letters, lowercased) before
// scoring, and the reference and the snippets go there and back too, so
// every side reads alike. The scorer's word F1 would otherwise read a
// whole sentence as one token.

// foreignHan is set by -eval.foreign.script=han.
var foreignHan bool

// hanBase is the first ideograph hanText writes, in CJK Extension B,
// whose rare characters the dev sets' Chinese and Japanese pages do not
// use: hanBack leaves theirs alone. Its range holds two blocks of
// hanBlock: the characters that start a word, then those that continue
// it. A character's place in its block spells its letters in base 27,
// one digit for each, 0 for none.
const (
	hanBase  = 0x20000
	hanBlock = 27 * 27 * 27
)

// hanPunct are the marks that, between words, become their full-width
// forms with no space after them.
var hanPunct = map[rune]rune{',': '，', '.': '。', ';': '；', ':': '：', '!': '！', '?': '？'}

// hanHalf maps each full-width mark of hanPunct back.
var hanHalf = func() map[rune]rune {
	m := map[rune]rune{}
	for k, v := range hanPunct {
		m[v] = k
	}
	return m
}()

// hanText writes s's words (runs of a to z, either case) in ideographs
// and drops the spaces between two words; a mark of hanPunct after a
// word, before spaces or the end, becomes its full-width form and the
// spaces go. Other characters stay.
func hanText(s string) string {
	rs := []rune(s)
	letter := func(i int) bool {
		if i < 0 || i >= len(rs) {
			return false
		}
		r := unicode.ToLower(rs[i])
		return r >= 'a' && r <= 'z' && rs[i] < utf8.RuneSelf
	}
	space := func(i int) bool { return i < len(rs) && unicode.IsSpace(rs[i]) }
	// skip returns the end of the spaces at i.
	skip := func(i int) int {
		for space(i) {
			i++
		}
		return i
	}
	var b strings.Builder
	for i := 0; i < len(rs); {
		switch {
		case rs[i] == '<' && (letter(i+1) || i+1 < len(rs) && rs[i+1] == '/'):
			// Markup written as text (escaped in a <noscript>, a code
			// sample) keeps its ASCII tag and attribute names, as a
			// Chinese page's does: they are the markup's words, not the
			// page's.
			end := slices.Index(rs[i:], '>')
			if end < 0 {
				end = len(rs) - i - 1
			}
			b.WriteString(string(rs[i : i+end+1]))
			i += end + 1
		case letter(i):
			first := true
			for letter(i) {
				n := 1
				for n < 3 && letter(i+n) {
					n++
				}
				b.WriteRune(hanRune(rs[i:i+n], first))
				i, first = i+n, false
			}
			// Spaces up to the next word go. A mark after the word
			// becomes full-width where spaces or the text's end follow
			// it (not in "e.g" or "example.com"), and the spaces go.
			if j := skip(i); j > i && letter(j) {
				i = j
			} else if full, ok := hanPunct[rs[min(i, len(rs)-1)]]; ok && i < len(rs) && (i+1 == len(rs) || space(i+1)) {
				b.WriteRune(full)
				i = skip(i + 1)
			}
		default:
			b.WriteRune(rs[i])
			i++
		}
	}
	return b.String()
}

// hanRune is the ideograph for one to three letters of a word, first
// there or not.
func hanRune(letters []rune, first bool) rune {
	r := rune(hanBase)
	if !first {
		r += hanBlock
	}
	place := rune(729)
	for _, l := range letters {
		r += (unicode.ToLower(l) - 'a' + 1) * place
		place /= 27
	}
	return r
}

// hanBack undoes hanText, lowercased: letters back, a space before each
// word that follows another, a full-width mark back with its space.
// Without -eval.foreign.script=han it returns s.
func hanBack(s string) string {
	if !foreignHan {
		return s
	}
	var b strings.Builder
	inWord := false
	for _, r := range s {
		off := r - hanBase
		if off < 0 || off >= 2*hanBlock {
			if k, ok := hanHalf[r]; ok {
				b.WriteRune(k)
				r = ' '
			}
			b.WriteRune(r)
			inWord = false
			continue
		}
		first := off < hanBlock
		off %= hanBlock
		if first && inWord {
			b.WriteByte(' ')
		}
		for place := rune(729); place > 0; place /= 27 {
			if d := off / place % 27; d > 0 {
				b.WriteRune('a' + d - 1)
			}
		}
		inWord = true
	}
	return b.String()
}

// TestForeignHan checks -eval.foreign.script=han: no space between words,
// marks made full-width, and the way back.
func TestForeignHan(t *testing.T) {
	foreignHan = true
	defer func() { foreignHan = false }()
	in := "Read more, at 10:30 about it. Then e-mail: DON'T wait!\nNext <b class=x>"
	got := foreignText(in)
	if strings.ContainsFunc(strings.TrimSuffix(got, " <b class=x>"), func(r rune) bool { return r < utf8.RuneSelf && unicode.IsLetter(r) }) {
		t.Errorf("hanText(%q) = %q keeps a letter", in, got)
	}
	for _, want := range []string{"，", " 10:30 ", "。", "-", "：", "'", "！", "<b class=x>"} {
		if !strings.Contains(got, want) {
			t.Errorf("hanText(%q) = %q lacks %q", in, got, want)
		}
	}
	if back, want := hanBack(got), "read more, at 10:30 about it. then e-mail: don't wait! next <b class=x>"; back != want {
		t.Errorf("hanBack = %q, want %q", back, want)
	}
	// A sentence's last mark is full-width too, and the spaces after it
	// go, before a number as before a word; "e.g" keeps its dots.
	if got := foreignText("It ends. 2024 e.g so"); !strings.Contains(got, "。2024") || strings.Count(got, ".") != 1 {
		t.Errorf("hanText = %q", got)
	}
	if got, want := hanBack(foreignText("It ends.")), "it ends. "; got != want {
		t.Errorf("hanBack = %q, want %q", got, want)
	}
	// Word counts stay near the English ones: "about" is two
	// characters, and countWords reads two characters as a word.
	para := strings.Repeat("the quick brown fox jumps over a lazy dog ", 10)
	if en, zh := countWords(para), countWords(foreignText(para)); zh < en*3/4 || zh > en*5/4 {
		t.Errorf("countWords: %d in English, %d in ideographs", en, zh)
	}
	// A snippet cut inside a word still finds itself in the text.
	if page, snip := hanBack(foreignText("the quick brown fox")), hanBack(foreignText("uick brown")); !strings.Contains(page, snip) {
		t.Errorf("%q lacks %q", page, snip)
	}
}
