package extract

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// overlayWords are class/id words of consent managers (OneTrust, Cookiebot,
// Didomi, Usercentrics, TrustArc) and cookie banners.
var overlayWords = wordSet(`cookie cookies consent gdpr ccpa onetrust cookiebot didomi usercentrics truste trustarc`)

// isOverlay reports furniture that is never the page at any size: a
// consent manager or a modal dialog drawn over the page (role dialog or
// alertdialog, aria-modal), and the site footer (role contentinfo, or a
// <footer> outside sectioning content, or an element named as one there:
// <div id="footer">, "site-footer", as pages before HTML5 marked it;
// sectioned says whether n is in sectioning content). pruneFurniture
// keeps any element that holds half the page's words, because themes put
// furniture words in the class of wrappers; but a consent manager's
// purpose list or a shop's legal footnotes run to thousands of words,
// more than a short thread, product or category page, and then they were
// kept whole. An element holding the page's <h1>, its
// <main> or an <article> is not one of them (an unclosed <footer> or a
// modal wrapper can swallow the page).
func isOverlay(n *html.Node, sectioned bool) bool {
	if !overlayRole(n, sectioned) && !isConsent(n) {
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
		return c != n && (isElem(c, atom.H1) || isMainOrArticle(c))
	}) != nil
}

// pruneLandmarks removes, from a page that is no article and before any
// extractor runs, consent managers, cookie banners and the page's landmark
// furniture: banner, navigation, complementary and contentinfo regions
// (isLandmarkFurniture: <nav>, <aside>, and <header> and <footer> outside
// sectioning content, or those roles). On a short thread, a category page
// or a service page, a consent manager's purpose list, a mega menu or a
// legal footer is often the densest text, and trafilatura and readability
// took it for the content. A landmark holding the <h1>, <main> or an
// <article> stays (an unclosed <aside> can swallow the page), and so do
// dialogs: shops show the product gallery or a quick view in one.
func pruneLandmarks(root *html.Node) {
	var drop []*html.Node
	var walk func(n *html.Node, sectioned bool)
	walk = func(n *html.Node, sectioned bool) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if (isConsent(c) || isLandmarkFurniture(c, sectioned) && !isDialog(c)) && !holdsPage(c) {
				drop = append(drop, c)
				continue
			}
			walk(c, sectioned || sectioning[c.DataAtom])
		}
	}
	walk(root, false)
	for _, n := range drop {
		removeNode(n)
	}
}

// sectioning are the elements inside which <header> and <footer> head and
// close their section, not the page (HTML-AAM).
var sectioning = map[atom.Atom]bool{atom.Article: true, atom.Aside: true, atom.Main: true, atom.Nav: true, atom.Section: true}

func isDialog(n *html.Node) bool {
	return n.DataAtom == atom.Dialog || strings.EqualFold(attr(n, "role"), "dialog")
}

func overlayRole(n *html.Node, sectioned bool) bool {
	return isModal(n) || strings.EqualFold(attr(n, "role"), "contentinfo") || !sectioned && (n.DataAtom == atom.Footer || classOrID(n, siteFooterNames))
}

// siteFooterNames are the class tokens and ids of a site's footer, as
// siteHeaderNames are of its header. A card's or a post's footer may be
// named so too; it holds far less than half the page, and isFurniture
// drops it at that size anyway.
var siteFooterNames = wordSet(`footer site-footer sitefooter site_footer global-footer globalfooter page-footer pagefooter`)

// isModal reports a dialog drawn over the page by its ARIA attributes:
// the roles dialog and alertdialog, or aria-modal.
func isModal(n *html.Node) bool {
	switch strings.ToLower(attr(n, "role")) {
	case "dialog", "alertdialog":
		return true
	}
	return strings.EqualFold(attr(n, "aria-modal"), "true")
}

func overlayName(n *html.Node) bool { return classWords(n, overlayWords) }

// dialogWords name a dialog drawn over the page: a modal, a popup.
var dialogWords = wordSet(`modal popup dialog`)

// dropDialogs removes, from the reading picked on a page that is no
// declared article, the dialogs drawn over the page: <dialog>, the roles
// dialog and alertdialog, aria-modal, and containers named modal, popup
// or dialog ("You're leaving our website", "Talk to an expert" forms,
// "Enter your email for early access"), and the tooltips (role tooltip:
// text a hover shows, set inside the sentence it explains or beside a
// listing's badge; one listing of WCXB-dev gained 0.055, nothing else
// moved). Readability takes them in when they follow the text in the
// markup. A dialog holding the page's <h1>,
// <main> or an <article> stays (a story opened in a lightbox), and none
// goes when together they hold a quarter of the text.
func dropDialogs(root *html.Node) {
	removeUnlessShare(root, collectElements(root, func(c *html.Node) visit {
		if (isDialog(c) || isModal(c) || classWords(c, dialogWords) || strings.EqualFold(attr(c, "role"), "tooltip")) && !holdsPage(c) {
			return take
		}
		return descend
	}), 4)
}
