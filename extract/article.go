package extract

import (
	"regexp"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// tidyArticle removes from a declared article, as readability extracted
// it, the blocks that belong to the page around the story rather than to
// the story: teasers for other stories nested in the story's container,
// datelines, and "Related:" / "You may also like" link runs. Readability
// keeps them because they sit inside the container it chose, and
// consensus pruning keeps them when trafilatura, run on that container,
// keeps them too.
func tidyArticle(root *html.Node) {
	dropNestedArticles(root)
	dropDatelines(root)
	dropRelated(root)
}

// dropNestedArticles removes <article> elements nested in another
// <article>: the story's container holding teasers for other stories
// (WordPress themes that list "more posts" inside the post). Scientific
// papers and long reads also nest <article> elements, as sections of the
// story, so nothing is removed when a nested one holds a quarter of the
// text, or when fewer than two are nested, or when less than 25 words
// would remain.
func dropNestedArticles(root *html.Node) {
	var nested []*html.Node
	var walk func(n *html.Node, inArticle bool)
	walk = func(n *html.Node, inArticle bool) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if c.DataAtom == atom.Article && inArticle {
				nested = append(nested, c)
				continue
			}
			walk(c, inArticle || c.DataAtom == atom.Article)
		}
	}
	walk(root, false)
	if len(nested) < 2 {
		return
	}
	total, dropped := wordCount(root), 0
	for _, n := range nested {
		w := wordCount(n)
		if w*4 > total {
			return
		}
		dropped += w
	}
	if total-dropped < 25 {
		return
	}
	for _, n := range nested {
		removeNode(n)
	}
}

// datelineWords name the container of a story's date and byline.
var datelineWords = wordSet(`dateline byline timestamp`)

// maxDatelineWords bounds what a dateline rule may remove: "Updated 10:01
// pm PST, Tuesday, November 19, 2019; Posted ..." fits, a paragraph that
// merely mentions a date does not.
const maxDatelineWords = 20

// dropDatelines removes short blocks that are a date and little else
// (text mostly inside <time>) or that name themselves a dateline or
// byline. Articles state their date in metadata; in the text it is
// furniture that no reader of the story needs twice.
func dropDatelines(root *html.Node) {
	var drop []*html.Node
	// walk returns the words under n and the words inside <time>.
	var walk func(n *html.Node) (words, timeWords int)
	walk = func(n *html.Node) (int, int) {
		if n.Type == html.TextNode {
			return countWords(n.Data), 0
		}
		if n.Type != html.ElementNode && n.Type != html.DocumentNode {
			return 0, 0
		}
		if n.Type == html.ElementNode && dropAlways[n.DataAtom] {
			return 0, 0
		}
		var words, timeWords int
		mark := len(drop)
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			w, tw := walk(c)
			words += w
			timeWords += tw
		}
		if n.Type == html.ElementNode {
			if n.DataAtom == atom.Time {
				timeWords = words
			}
			if words > 0 && words <= maxDatelineWords && blockAtoms[n.DataAtom] &&
				(timeWords > 0 && words <= timeWords+4 || classWords(n, datelineWords)) {
				// The outermost dateline block wins over the ones inside it.
				drop = append(drop[:mark], n)
			}
		}
		return words, timeWords
	}
	walk(root)
	for _, n := range drop {
		removeNode(n)
	}
}

// classWords reports whether a word of n's class or id (split on - and _)
// is in set.
func classWords(n *html.Node, set map[string]bool) bool {
	for _, name := range append(strings.Fields(attr(n, "class")), attr(n, "id")) {
		for _, w := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == '-' || r == '_' }) {
			if set[w] {
				return true
			}
		}
	}
	return false
}

// relatedLabel matches the start of a label that introduces links to
// other stories, in the languages of the benchmark sets' publishers.
var relatedLabel = regexp.MustCompile(`^(related( (stories|articles|posts|coverage|content|reading|links|news|videos?))?|read (more|also|next)|see (more|also)|also (read|see|on|watch)|more (from|on|stories|news|like this|great)|don'?t miss|you (may|might) also (like|enjoy)|recommended( for you| reading)?|further reading|trending|latest news|leggi anche|lesen sie auch|lire aussi|voir aussi|leia também|veja também|lee también|más información)\b`)

// dropRelated removes links to other stories from an article: a block
// that starts with a related-stories label and is at least half link text
// ("Related: <a>Other story</a>", "READ MORE: <a>...</a>"), and a short
// label block without links ("You may also like...", "DON'T MISS") with
// the run of link-dense blocks that follows it.
func dropRelated(root *html.Node) {
	var leaves []*html.Node
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if blockAtoms[c.DataAtom] && !hasBlockChild(c) {
				leaves = append(leaves, c)
				continue
			}
			walk(c)
		}
	}
	walk(root)
	var drop []*html.Node
	inRelated := false
	for _, b := range leaves {
		words := wordCount(b)
		if words == 0 {
			continue
		}
		text := collapseSpace(textOf(b))
		if len(text) > 80 {
			text = text[:80] // labels are short; bytes past a cut rune do not matter
		}
		label := relatedLabel.MatchString(strings.ToLower(text))
		links := linkWords(b)
		switch {
		case label && words <= 8 && links == 0:
			drop = append(drop, b)
			inRelated = true
		case label && links*2 >= words:
			drop = append(drop, b)
		case inRelated && links*10 >= words*6:
			drop = append(drop, b)
		default:
			inRelated = false
		}
	}
	for _, n := range drop {
		removeNode(n)
	}
}
