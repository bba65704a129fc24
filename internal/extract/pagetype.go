package extract

import (
	nurl "net/url"
	"regexp"
	"strings"

	"golang.org/x/net/html"
)

// pageKind is the coarse page type that decides which candidate the
// selector trusts. It is inferred from what publishers declare (schema.org
// JSON-LD, og:type) and from URL conventions shared by forum software.
type pageKind int

const (
	kindOther   pageKind = iota // docs, services, listings, anything undeclared
	kindArticle                 // news, blogs, declared articles
	kindForum                   // threads, Q&A
	kindProduct                 // a single product with offers
)

func (k pageKind) String() string {
	return [...]string{"other", "article", "forum", "product"}[k]
}

var articleTypes = map[string]bool{
	"article": true, "newsarticle": true, "blogposting": true, "techarticle": true, "report": true,
	"scholarlyarticle": true, "reviewnewsarticle": true, "analysisnewsarticle": true,
	"opinionnewsarticle": true, "reportagenewsarticle": true, "backgroundnewsarticle": true, "liveblogposting": true,
}

// forumPath matches the URL layouts of Discourse, phpBB, vBulletin,
// XenForo, Reddit, Stack Exchange and similar software.
var forumPath = regexp.MustCompile(`/t/|/threads?/|/topics?/|/forums?/|/questions/\d|showthread|viewtopic|/discussions?/|/comments/|/boards/|/community/`)

// forumHost matches sites named as forums (warriorforum.com,
// forums.example.org, community.example.com, discuss.example.io).
var forumHost = regexp.MustCompile(`forum|^(community|discuss|discourse|boards?)\.`)

// datedPath matches a dated permalink: a year and a month (and a day)
// as path segments, then a slug or a file name with a letter and a
// separator in it ("/2017/08/elbsandstein-tour/", "/2025/12/16/vibe_coding.html").
// WordPress's default permalinks and many news CMSs address stories so;
// the archive of a month ("/2017/08/", "/2017/08/page/2/") has no slug.
// A whole date in one segment counts too, joined to a slug or an id
// ("/2025-12-17-minisgl", "/20230410-homelab-4/", Chinese portals'
// "/201908/t20190826_123.html"), before a slug ("/story/2019-11-19/
// disney-plus") or ending one ("/key-moments-2019-11-19/", a file
// "/brno-cyklostezka-20240314.html"); a day's
// archive ("/news/2019-11-19/") is the date alone. So does a year and a
// month joined to a slug of two words or more ("/news/2019-11-hibernating-
// astronauts-smaller-spacecraft.html", a science news network's form;
// undeclared AEB 0.9704 to 0.9714, one page). A slug's letter is any
// script's ("/2024/05/12/новости-дня" is matched decoded), as a Russian,
// Greek or Arabic site writes its slugs; before, only a to z counted.
var datedPath = regexp.MustCompile(`/(?:19|20)\d\d/[01]?\d/(?:[0-3]?\d/)?[^/]*\pL[^/]*[-_.][^/]+` +
	`|/[a-z]{0,3}(?:19|20)\d\d-?(?:0[1-9]|1[0-2])-?(?:0[1-9]|[12]\d|3[01])[-_][^/]+` +
	`|/(?:19|20)\d\d-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])/[^/]*\pL[^/]*[-_.][^/]+` +
	`|/[^/]*\pL[^/]*-(?:19|20)\d\d-?(?:0[1-9]|1[0-2])-?(?:0[1-9]|[12]\d|3[01])(?:/|\.[a-z]{2,5})?$` +
	`|/(?:19|20)\d\d-(?:0[1-9]|1[0-2])-\pL[^/-]*-[^/]*\pL[^/]*$`)

func classifyPage(doc *html.Node, pm pageMeta, base *nurl.URL) pageKind {
	has := func(t string) bool { return contains(pm.schemaTypes, t) }
	if has("discussionforumposting") || has("qapage") || has("question") && has("answer") {
		return kindForum
	}
	if base != nil && (forumPath.MatchString(strings.ToLower(base.Path+"?"+base.RawQuery)) || forumHost.MatchString(strings.ToLower(base.Hostname()))) {
		return kindForum
	}
	if has("product") && has("offer") || pm.ogType == "product" || pm.ogType == "og:product" {
		return kindProduct
	}
	for _, t := range pm.schemaTypes {
		if articleTypes[t] {
			return kindArticle
		}
	}
	// SEO plugins print og:type "article" on every page of a theme, the
	// shop's product pages included; a JSON-LD Product with offers
	// (without an article type, above) is the publisher's more specific
	// claim. A Product without offers is not: service businesses declare
	// one to get rating stars in search results, and a microdata product
	// box is not either: blog posts embed them. WordPress's own post
	// classes are more specific too: "type-page" marks a static page (a
	// service, landing or listing page), not a post.
	entries, staticPage := hEntries(doc)
	if pm.ogType == "article" && !pm.productOffer && !staticPage {
		return kindArticle
	}
	if declaresOneProduct(doc, pm) {
		return kindProduct
	}
	// Microdata on the page (<html itemscope itemtype="./Article">): one
	// article item marks the story; several mark a list of teasers.
	if pm.microArticles == 1 {
		return kindArticle
	}
	// Microformats say the same in class names: blog software (Blogger,
	// WordPress themes, IndieWeb sites) marks each post "hentry" (hAtom)
	// or "h-entry" (microformats2). One marks the story; a home page or
	// an archive marks every post it lists. WordPress marks its static
	// pages (a site's service and landing pages) "hentry" as well, with
	// "type-page" beside it: those are not counted.
	if entries == 1 {
		return kindArticle
	}
	// A publication date in the head (a news site's <meta name="date">,
	// article:published_time) marks a dated publication, whatever the
	// og:type: older news sites and portals print "website" or nothing
	// on their stories. At the top of a site the date says when a landing
	// page or a section front was created, not that it is a story.
	if pm.metaPublished && !staticPage && !sectionFront(base) {
		return kindArticle
	}
	// A story that declares nothing at all (an older blog theme, a small
	// news site) still has the address of one.
	if !staticPage && base != nil && datedPath.MatchString(strings.ToLower(base.Path)) {
		return kindArticle
	}
	return kindOther
}

// storySlug reports an address whose last segment is a headline: at
// least minSlugWords words joined by hyphens or underscores, numbers and a
// file extension aside ("/hunter-diagnosed-bubonic-plague-eating-rabbit/",
// "/Son-of-former-German-president-stabbed-to-death-in-Berlin-608399").
// News and blog software turns the title into the address; shops,
// services and listings name a page in a word or two. Of WCXB-dev's
// pages that declare nothing, 79 of the 93 with such an address are
// articles. Four words do beside the number a news system files the
// story under (minSlugID digits: "…-radwegenetz-16673425.html"), which
// a German headline's compounds make short: undeclared, four stories
// gain (AEB +0.054 and +0.042) and none loses; no declared page moves.
// Four words alone took in listings and service pages (declared
// WCXB-dev −0.0002), and so did four long words.
func storySlug(base *nurl.URL) bool {
	if base == nil {
		return false
	}
	seg := strings.TrimRight(base.Path, "/")
	if i := strings.LastIndexByte(seg, '/'); i >= 0 {
		for _, dir := range strings.Split(strings.ToLower(seg[:i]), "/") {
			if shopDirs[dir] {
				return false
			}
		}
		seg = seg[i+1:]
	}
	if i := strings.LastIndexByte(seg, '.'); i > 0 {
		seg = seg[:i]
	}
	n, id := 0, false
	for _, w := range strings.FieldsFunc(seg, func(r rune) bool { return r == '-' || r == '_' }) {
		if strings.Trim(w, "0123456789") != "" {
			n++
		} else if len(w) >= minSlugID {
			id = true
		}
	}
	return n >= minSlugWords || id && n >= minSlugWords-1
}

// minSlugID is the length of the number a news system files a story
// under beside its headline ("…-radwegenetz-16673425.html").
const minSlugID = 5

// shopDirs are the folders shops file their product pages in: a
// product's name makes a long slug too ("/products/keychron-k2-wireless-
// mechanical-keyboard", "/pdp/...").
var shopDirs = wordSet(`product products pdp p dp item items shop store`)

// minSlugWords is the shortest headline storySlug takes for one.
const minSlugWords = 5

// sectionFront reports a URL at the top of a site: its root, or one path
// segment of at most two words without digits ("/news", "/service/"), and
// no query (older CMSs address each story by one: "/artikel.php?id=123").
func sectionFront(base *nurl.URL) bool {
	if base == nil || base.RawQuery != "" {
		return false
	}
	p := strings.Trim(base.Path, "/")
	if p == "" {
		return true
	}
	if strings.ContainsAny(p, "/0123456789") {
		return false
	}
	return len(strings.FieldsFunc(p, func(r rune) bool { return r == '-' || r == '_' || r == '.' })) <= 2
}

// hEntries counts the outermost elements marked as a post by
// microformats (class "hentry" or "h-entry"), stopping at two, leaving
// out WordPress's static pages ("type-page"), and reports whether it met
// one of those. Entries inside an entry (comments as h-entry or h-cite)
// are not looked at.
func hEntries(doc *html.Node) (entries int, staticPage bool) {
	var walk func(*html.Node)
	walk = func(p *html.Node) {
		for c := p.FirstChild; c != nil && entries < 2; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if cls := attr(c, "class"); markedEntry(cls) {
				if hasToken(cls, "type-page") {
					staticPage = true
				} else {
					entries++
				}
				continue
			}
			walk(c)
		}
	}
	if doc != nil {
		walk(doc)
	}
	return entries, staticPage
}

// markedEntry reports a class list that marks a post in microformats:
// "hentry" (hAtom) or "h-entry" (microformats2).
func markedEntry(cls string) bool {
	return cls != "" && (hasToken(cls, "hentry") || hasToken(cls, "h-entry"))
}

// declaresOneProduct reports a page that describes a single product in
// schema.org terms, as JSON-LD (a Product node, without the ItemList or
// CollectionPage of a category page) or as microdata (exactly one
// top-level itemtype Product; a category page marks up every card).
// Shops often leave the Offer out of the JSON-LD or nest it where the
// metadata reader does not look, so a Product alone counts.
func declaresOneProduct(doc *html.Node, pm pageMeta) bool {
	has := func(t string) bool { return contains(pm.schemaTypes, t) }
	if has("itemlist") || has("collectionpage") || has("searchresultspage") || has("offercatalog") {
		return false
	}
	if has("product") || has("productgroup") {
		return true
	}
	products := 0
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil && products < 2; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if t := strings.ToLower(attr(c, "itemtype")); strings.HasSuffix(t, "schema.org/product") {
				products++
				continue // nested products are its variants or accessories
			}
			walk(c)
		}
	}
	if doc != nil {
		walk(doc)
	}
	return products == 1
}
