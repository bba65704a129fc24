package extract

import (
	"regexp"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Code blocks are where extractors hurt a model the most: a lost language
// hint, a re-indented line or a highlighter <span> turned into spaces makes
// code wrong. Every <pre> in the chosen content is therefore rewritten to
// <pre><code class="language-X">exact text</code></pre> before rendering.

var (
	// classLangRe reads the language from class names used by Prism,
	// highlight.js, Rouge/Jekyll, Sphinx/Pygments, GitHub and
	// SyntaxHighlighter ("brush: js").
	classLangRe = regexp.MustCompile(`^(?:language|lang|highlight-source|highlight|brush|sourcecode|source)[-:]([A-Za-z0-9_+#.-]+)$`)
	// notLang are class suffixes that look like languages but are not.
	notLang = map[string]bool{"none": true, "notranslate": true, "default": true, "source": true, "block": true, "code": true, "highlight": true}
	// bareLangs are language class names highlight.js and Pandoc put next
	// to a marker class ("hljs go", "sourceCode python"), and rustdoc on
	// the <pre> alone ("rust").
	bareLangs = map[string]bool{
		"go": true, "golang": true, "python": true, "py": true, "javascript": true, "js": true, "typescript": true, "ts": true,
		"bash": true, "sh": true, "shell": true, "console": true, "json": true, "yaml": true, "yml": true, "toml": true,
		"html": true, "xml": true, "css": true, "scss": true, "sql": true, "rust": true, "java": true, "kotlin": true,
		"c": true, "cpp": true, "csharp": true, "cs": true, "ruby": true, "rb": true, "php": true, "swift": true,
		"diff": true, "dockerfile": true, "makefile": true, "powershell": true, "ini": true, "lua": true, "perl": true,
		"r": true, "scala": true, "haskell": true, "elixir": true, "erlang": true, "clojure": true, "dart": true,
		"graphql": true, "protobuf": true, "jsx": true, "tsx": true, "vue": true, "markdown": true, "nginx": true,
	}
)

// knownLang returns the language a bare name stands for, if it is one of
// bareLangs, with a version number after it or not ("python3",
// IPython's "ipython3"), or "".
func knownLang(name string) string {
	name = strings.ToLower(name)
	if bareLangs[name] {
		return name
	}
	switch name = strings.TrimRight(name, "0123456789"); {
	case bareLangs[name]:
		return name
	case name == "ipython":
		return "python"
	}
	return ""
}

// langFromAttrs returns the code language n declares, if any.
// Mintlify writes it as <pre language="bash"><code language="bash">,
// beside Shiki's classes, which name only the theme.
func langFromAttrs(n *html.Node) string {
	for _, k := range []string{"data-lang", "data-language", "lang", "language"} {
		if (k == "lang" || k == "language") && n.DataAtom != atom.Code && n.DataAtom != atom.Pre {
			continue
		}
		if v := strings.TrimSpace(attr(n, k)); v != "" && len(v) < 24 && !strings.ContainsAny(v, " /") {
			if k == "lang" {
				// lang="en" on <pre> is a human language; PyPI's
				// README renderer writes <pre lang="python3">.
				if l := knownLang(v); l != "" {
					return l
				}
				continue
			}
			return strings.ToLower(v)
		}
	}
	cls := attr(n, "class")
	if cls == "" {
		return ""
	}
	fields := strings.Fields(strings.ReplaceAll(cls, "brush: ", "brush:"))
	for _, f := range fields {
		// Jupyter's nbconvert: <div class="highlight hl-ipython3">. "hl-"
		// also prefixes other names, so only a language counts.
		if rest, ok := strings.CutPrefix(strings.ToLower(f), "hl-"); ok {
			if l := knownLang(rest); l != "" {
				return l
			}
		}
		if m := classLangRe.FindStringSubmatch(f); m != nil {
			l := strings.ToLower(strings.TrimSuffix(m[1], ";"))
			if !notLang[l] {
				return l
			}
		}
	}
	hljs := false
	for _, f := range fields {
		if f == "hljs" || f == "highlight" || f == "prettyprint" || f == "sourceCode" || f == "codehilite" {
			hljs = true
		}
	}
	// A bare name on the block itself is a language too: rustdoc marks
	// its blocks <pre class="rust">.
	if hljs || n.DataAtom == atom.Code || n.DataAtom == atom.Pre {
		for _, f := range fields {
			if l := strings.ToLower(f); bareLangs[l] {
				return l
			}
		}
	}
	return ""
}

// preLanguage looks for a language on the <pre>, its <code> children, and
// up to three wrapper ancestors (GitHub, Sphinx and Rouge put it there).
func preLanguage(pre *html.Node) string {
	if l := langFromAttrs(pre); l != "" {
		return l
	}
	for c := pre.FirstChild; c != nil; c = c.NextSibling {
		if isElem(c, atom.Code) {
			if l := langFromAttrs(c); l != "" {
				return l
			}
		}
	}
	// Up to three wrappers; the cells of Pygments' table of line numbers
	// and code (<div class="language-python highlight"><table
	// class="highlighttable"><tr><td class="code"><div><pre>) count as
	// none.
	p := pre.Parent
	for i := 0; i < 3 && p != nil && p.Type == html.ElementNode; p = p.Parent {
		if l := langFromAttrs(p); l != "" {
			return l
		}
		switch p.DataAtom {
		case atom.Td, atom.Tr, atom.Tbody, atom.Table:
		default:
			i++
		}
	}
	return ""
}

// codeKey identifies a code block by its text, so languages found on the
// original page can be re-attached to code that a candidate extractor
// copied without its classes.
func codeKey(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 200 {
		s = s[:200]
	}
	return collapseSpace(s)
}

// codeLanguages maps code-block text to language over the whole page.
func codeLanguages(doc *html.Node) map[string]string {
	langs := map[string]string{}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if isElem(n, atom.Pre) {
			if l := preLanguage(n); l != "" {
				langs[codeKey(preText(n))] = l
			}
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return langs
}

// normalizeCode rewrites every <pre> under root to a single text node in a
// <code class="language-X">, dropping highlighter markup and line-number
// gutters but keeping every character of the code itself.
func normalizeCode(root *html.Node, langs map[string]string) {
	var pres []*html.Node
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if isElem(n, atom.Pre) {
			pres = append(pres, n)
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	for _, pre := range pres {
		dropGutters(pre)
		text := preText(pre)
		lang := preLanguage(pre)
		if lang == "" {
			lang = langs[codeKey(text)]
		}
		dropLanguageLabel(pre, lang)
		for c := pre.FirstChild; c != nil; {
			next := c.NextSibling
			pre.RemoveChild(c)
			c = next
		}
		pre.Attr = nil
		code := &html.Node{Type: html.ElementNode, Data: "code", DataAtom: atom.Code}
		if lang != "" {
			code.Attr = []html.Attribute{{Key: "class", Val: "language-" + lang}}
		}
		// A leading newline right after <pre> is dropped by HTML parsers;
		// keep the text as the browser shows it.
		code.AppendChild(&html.Node{Type: html.TextNode, Data: text})
		pre.AppendChild(code)
	}
}

// dropLanguageLabel removes the label naming lang that a highlighter's
// theme sets just before the block (VitePress's <span class="lang">bash
// </span>, beside an empty copy button): the fence carries the language
// already, and the label rendered as a line of its own, "bash", above
// the code. A heading so named stays.
func dropLanguageLabel(pre *html.Node, lang string) {
	if lang == "" {
		return
	}
	for s := pre.PrevSibling; s != nil; s = s.PrevSibling {
		if blankText(s) {
			continue
		}
		if s.Type != html.ElementNode || headingAtoms[s.DataAtom] {
			return
		}
		switch t := strings.TrimSpace(textOf(s)); {
		case t == "" && !showsMedia(s):
			continue // a copy button
		case strings.EqualFold(t, lang):
			removeNode(s)
		}
		return
	}
}

// codeLines ends the lines of a code block that a highlighter sets one
// to a block element with no newline between them (<pre><div
// class="line">npm install harbor</div><div class="line">harbor
// serve</div></pre>, the Atom "highlights" package's markup, Monaco's
// colorizer): a browser starts and ends each block on a line of its own
// (CSS 2.1, 9.2.1), but the text has no newline, and the lines ran
// together ("npm install harborharbor serve"). Each such element becomes
// a <span>, with a newline before it and after it where the text has
// none.
func codeLines(pre *html.Node) {
	isBlock := map[*html.Node]bool{}
	for _, e := range elementsUnder(pre) {
		if blockAtoms[e.DataAtom] && e.DataAtom != atom.Pre {
			isBlock[e] = true
		}
	}
	if len(isBlock) == 0 {
		return
	}
	var last byte // the last byte of the code's text so far
	owed := false // a block ended since the last text
	newline := func(before *html.Node) {
		before.Parent.InsertBefore(&html.Node{Type: html.TextNode, Data: "\n"}, before)
		last = '\n'
	}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode && c.Data != "":
				if owed && last != 0 && last != '\n' && c.Data[0] != '\n' {
					newline(c)
				}
				owed = false
				last = c.Data[len(c.Data)-1]
			case isElem(c, atom.Br):
				owed, last = false, '\n'
			case isBlock[c]:
				if last != 0 && last != '\n' {
					newline(c)
				}
				walk(c)
				owed = true
				c.Data, c.DataAtom = "span", atom.Span
			case c.Type == html.ElementNode:
				walk(c)
			}
		}
	}
	walk(pre)
}

// dropGutters removes line-number columns that highlighters render inside
// or beside the code, which would otherwise interleave numbers with code.
func dropGutters(pre *html.Node) {
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; {
			next := c.NextSibling
			if c.Type == html.ElementNode && isGutter(c) {
				n.RemoveChild(c)
			} else {
				walk(c)
			}
			c = next
		}
	}
	walk(pre)
}

func isGutter(n *html.Node) bool {
	if attr(n, "aria-hidden") == "true" {
		return true
	}
	for _, f := range strings.Fields(attr(n, "class")) {
		switch strings.ToLower(f) {
		case "lineno", "linenos", "line-numbers-rows", "gutter", "hljs-ln-numbers", "line-number", "linenumber", "ln-num", "code-line-number":
			return true
		}
	}
	return false
}
