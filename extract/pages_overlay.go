package extract

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// overlayWords are class/id words of consent managers (OneTrust, Cookiebot,
// Didomi, Usercentrics, TrustArc and the generic "cmp") and cookie banners.
var overlayWords = wordSet(`cookie cookies consent gdpr ccpa onetrust cookiebot didomi usercentrics truste trustarc`)

// isOverlay reports furniture that is never the page at any size: a
// consent manager or a modal dialog drawn over the page (role dialog or
// alertdialog, aria-modal), and the site footer (role contentinfo, or a
// <footer> outside sectioning content). pruneFurniture keeps any element
// that holds half the page's words, because themes put furniture words in
// the class of wrappers; but a consent manager's purpose list or a shop's
// legal footnotes run to thousands of words, more than a short thread,
// product or category page, and then they were kept whole. An element
// holding the page's <h1>, its <main> or an <article> is not one of them
// (an unclosed <footer> or a modal wrapper can swallow the page).
func isOverlay(n *html.Node) bool {
	if !overlayRole(n) && !isConsent(n) {
		return false
	}
	return !holdsPage(n)
}

// isConsent reports a consent manager or cookie banner by its name. A
// consent word counts in a name that looksBoiler also takes as furniture,
// so "cookie-content" or a wrapper named after its content stays.
func isConsent(n *html.Node) bool {
	return overlayName(n) && looksBoiler(n)
}

// holdsPage reports whether the page's <h1>, its <main> or an <article>
// sits under n.
func holdsPage(n *html.Node) bool {
	return findFirst(n, func(c *html.Node) bool {
		return c != n && (isElem(c, atom.H1) || isElem(c, atom.Main) || isElem(c, atom.Article) || strings.EqualFold(attr(c, "role"), "main"))
	}) != nil
}

// pruneConsent removes consent managers, cookie banners and the site
// footer from a page that is no article, before any extractor runs: on a
// short thread or a category page a consent manager's purpose list or a
// shop's legal footer is the densest text, and trafilatura and
// readability take it for the content.
func pruneConsent(root *html.Node) {
	for _, n := range collectElements(root, func(c *html.Node) visit {
		if (isConsent(c) || isSiteFooter(c)) && !holdsPage(c) {
			return take
		}
		return descend
	}) {
		removeNode(n)
	}
}

// isSiteFooter reports the page's contentinfo landmark: role contentinfo,
// or a <footer> outside sectioning content.
func isSiteFooter(n *html.Node) bool {
	return strings.EqualFold(attr(n, "role"), "contentinfo") || n.DataAtom == atom.Footer && !inSection(n)
}

func overlayRole(n *html.Node) bool {
	switch strings.ToLower(attr(n, "role")) {
	case "dialog", "alertdialog":
		return true
	}
	return strings.EqualFold(attr(n, "aria-modal"), "true") || isSiteFooter(n)
}

func overlayName(n *html.Node) bool {
	for _, name := range append(strings.Fields(attr(n, "class")), attr(n, "id")) {
		for _, w := range nameWords(name) {
			if overlayWords[w] {
				return true
			}
		}
	}
	return false
}

// inSection reports whether n sits in sectioning content, where a <footer>
// closes an article or section rather than the page (HTML-AAM).
func inSection(n *html.Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		switch p.DataAtom {
		case atom.Article, atom.Section, atom.Main, atom.Aside, atom.Nav:
			return true
		}
	}
	return false
}
