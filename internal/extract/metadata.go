package extract

import (
	"encoding/json"
	nurl "net/url"
	"slices"
	"strings"
	"time"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// pageMeta is everything read from the document head: the public Metadata
// plus the type hints (schema.org @type, og:type) that steer page-type rules.
type pageMeta struct {
	Metadata
	schemaTypes []string // JSON-LD @type values, lower-cased
	// productOffer: a JSON-LD Product (or ProductGroup) node carries
	// offers, something for sale, nested where schemaTypes does not look.
	productOffer bool
	ogType       string
	// microArticles counts elements whose microdata itemtype is an
	// article type: one marks the page's story, several a list of them.
	microArticles int
	// metaPublished: a meta tag gives the page's publication date.
	metaPublished bool
	// heading is the page's <h1> when the title is that heading with the
	// site's name beside it ("Deploying with Docker | Harbor Docs").
	heading string
}

// headline is the story's headline as the page names it: its <h1> when
// the title sets a section's or site's name before or after it ("Opinion
// | Why Cities Plant Forests"), else the title. The story's rules find
// it as a heading of the reading (dropTitle), and it heads the Markdown.
func (pm pageMeta) headline() string {
	if pm.heading != "" {
		return pm.heading
	}
	return pm.Title
}

// extractMetadata reads JSON-LD, OpenGraph, meta tags and a few document
// fallbacks. Sources are ranked by how deliberately publishers fill them:
// JSON-LD is written for search engines and is usually precise, OpenGraph
// for social cards, plain meta tags are often stale template leftovers.
func extractMetadata(doc *html.Node, base *nurl.URL) pageMeta {
	var pm pageMeta
	metas := map[string]string{} // first value wins per key
	var titleTag, canonical, htmlLang string
	var jsonld []string
	var firstH1, siteH1 string
	var timeDatetime, entryPublished string

	var walk func(n *html.Node, inBody bool)
	walk = func(n *html.Node, inBody bool) {
		if n.Type == html.ElementNode {
			if it := attr(n, "itemtype"); it != "" && (inBody || n.DataAtom == atom.Html) {
				for _, u := range strings.Fields(it) {
					if articleTypes[strings.ToLower(u[strings.LastIndexByte(u, '/')+1:])] {
						pm.microArticles++
						break
					}
				}
			}
			switch n.DataAtom {
			case atom.Html:
				htmlLang = attr(n, "lang")
			case atom.Body:
				inBody = true
			case atom.Title:
				if titleTag == "" && !inBody && !hasAncestor(n, atom.Svg) {
					titleTag = textOf(n)
				}
			case atom.Meta:
				key := strings.ToLower(strings.TrimSpace(firstNonEmpty(attr(n, "property"), attr(n, "name"), attr(n, "itemprop"), attr(n, "http-equiv"))))
				val := strings.TrimSpace(attr(n, "content"))
				if key != "" && val != "" {
					if _, ok := metas[key]; !ok {
						metas[key] = val
					}
				}
			case atom.Link:
				if canonical == "" && hasToken(attr(n, "rel"), "canonical") {
					canonical = strings.TrimSpace(attr(n, "href"))
				}
			case atom.Script:
				if strings.Contains(strings.ToLower(attr(n, "type")), "ld+json") && n.FirstChild != nil {
					jsonld = append(jsonld, n.FirstChild.Data)
				}
				return
			case atom.H1:
				switch {
				case firstH1 != "":
				case siteHeading(n, base):
					if siteH1 == "" {
						siteH1 = cleanMeta(textOf(n))
					}
				default:
					// Without a permalink's sign: Sphinx ends every
					// heading's text with "¶", and "Retries¶" is not
					// "Retries" in "Retries - brook documentation".
					firstH1 = strings.Trim(cleanMeta(textOf(n)), permalinkSigns+" ")
				}
			case atom.Time:
				if timeDatetime == "" {
					timeDatetime = attr(n, "datetime")
				}
			}
			// Microformats' publication stamp: hAtom's "published"
			// (Blogger: <abbr class="published" title="2024-04-14T18:20:00+01:00">),
			// microformats2's "dt-published" (a <time>'s datetime).
			if entryPublished == "" && inBody {
				// The substring test first: hasToken splits the list,
				// and most elements have a class.
				if c := attr(n, "class"); strings.Contains(c, "ublished") && (hasToken(c, "published") || hasToken(c, "dt-published")) {
					entryPublished = firstNonEmpty(attr(n, "datetime"), attr(n, "title"))
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, inBody)
		}
	}
	walk(doc, false)

	var ld ldInfo
	for _, s := range jsonld {
		ld.parse(s)
	}
	pm.schemaTypes = ld.types
	pm.productOffer = ld.productOffer
	pm.ogType = strings.ToLower(metas["og:type"])

	m := &pm.Metadata
	titleTag = trimSiteName(cleanMeta(titleTag), siteH1)
	if firstH1 != "" && len(firstH1) < len(titleTag) && strings.Contains(titleTag, firstH1) {
		// "<h1> - Site name": the heading is the title without the suffix.
		titleTag = firstH1
	}
	m.Title = cleanMeta(firstNonEmpty(ld.headline, metas["og:title"], metas["twitter:title"], metas["dc.title"], titleTag, firstH1))
	pm.heading = headingOfTitle(m.Title, firstH1)
	m.Author = cleanMeta(firstNonEmpty(ld.author, metas["author"], metas["article:author"], metas["dc.creator"], metas["parsely-author"], metas["sailthru.author"], metas["byl"]))
	if strings.HasPrefix(m.Author, "http") { // article:author is often a profile URL
		m.Author = ""
	}
	m.Description = cleanMeta(firstNonEmpty(ld.description, metas["og:description"], metas["description"], metas["twitter:description"], metas["dc.description"]))
	// Google's markup for subscription content: in JSON-LD on the
	// article's node, or as microdata (<meta itemprop="isAccessibleForFree"
	// content="False">). The first microdata value is the page's only
	// when the page holds one article item: several are a list of
	// teasers, where it is the first teaser's (as for classifyPage).
	m.Paywalled = ld.paywalled || pm.microArticles <= 1 && ldFalse(metas["isaccessibleforfree"])
	m.SiteName = cleanMeta(firstNonEmpty(metas["og:site_name"], ld.publisher, metas["application-name"], metas["apple-mobile-web-app-title"]))
	m.Language = normalizeLang(firstNonEmpty(htmlLang, ld.language, metas["og:locale"], metas["content-language"], metas["language"], metas["dc.language"]))
	// The first date that parses is the page's, most deliberate source
	// first; one in the head's publication tags also marks the page as
	// dated. A microdata datePublished may be a teaser's in a list of
	// stories, so it only fills in the date; so do a microformats stamp
	// and the first <time>, for the same reason.
	published := func(d string) bool {
		t, ok := parseDate(d)
		if ok && m.Published.IsZero() {
			m.Published = t
		}
		return ok
	}
	published(ld.published)
	for _, k := range publishedMetas {
		pm.metaPublished = published(metas[k]) || pm.metaPublished
	}
	for _, d := range []string{metas["datepublished"], ld.modified, entryPublished, timeDatetime} {
		if !m.Published.IsZero() {
			break
		}
		published(d)
	}
	if c := firstNonEmpty(canonical, metas["og:url"]); c != "" {
		m.CanonicalURL = absURL(base, c)
	}
	return pm
}

// siteHeading reports an <h1> that is the site's name: a link to the
// site's home page and nothing else. Blogger's themes and many older
// ones set the blog's name so and the post's title in an <h3>; taken for
// the headline, it made every post's title the blog's name.
func siteHeading(h1 *html.Node, base *nurl.URL) bool {
	w := wordCount(h1)
	if w == 0 || linkWords(h1) != w {
		return false
	}
	a := findFirst(h1, func(n *html.Node) bool { return isElem(n, atom.A) })
	if a == nil {
		return false
	}
	u, err := nurl.Parse(strings.TrimSpace(attr(a, "href")))
	if err != nil {
		return false
	}
	if base != nil {
		u = base.ResolveReference(u)
		if !strings.EqualFold(strings.TrimPrefix(u.Hostname(), "www."), strings.TrimPrefix(base.Hostname(), "www.")) {
			return false
		}
	} else if u.Host == "" && u.Path == "" {
		return false // "#top" or "?page=2": no address to judge
	}
	return (u.Path == "" || u.Path == "/") && u.RawQuery == ""
}

// titleSeparators set a site's name off a page's title ("Blog: Post",
// "Post | Site").
const titleSeparators = ":|-–—·•»/"

// trimSiteName removes the site's name (site) from the start or the end
// of a page's title, with the separator that sets it off; a title that
// is the name alone, or that does not set it off, stays.
func trimSiteName(title, site string) string {
	if site == "" {
		return title
	}
	// The separator stands between spaces, or follows the name
	// directly ("Blog: Post"), never inside a word ("Blog-like").
	if rest, ok := strings.CutPrefix(title, site); ok {
		rest = strings.TrimLeft(rest, " ")
		if r := strings.TrimLeft(rest, titleSeparators); r != rest && strings.HasPrefix(r, " ") && strings.TrimSpace(r) != "" {
			return strings.TrimSpace(r)
		}
	}
	if rest, ok := strings.CutSuffix(title, site); ok {
		rest = strings.TrimRight(rest, " ")
		if r := strings.TrimRight(rest, titleSeparators); r != rest && strings.HasSuffix(r, " ") && strings.TrimSpace(r) != "" {
			return strings.TrimSpace(r)
		}
	}
	return title
}

// headingOfTitle returns h1 when title is h1 and a shorter name set off
// by a separator, before or after it ("Deploying with Docker | Harbor
// Docs", "Harbor Docs: Deploying with Docker"), or "": the name is then
// the site's, and trimSiteName, given it, leaves h1. A longer name is
// the title's own words, and h1 the site's name.
func headingOfTitle(title, h1 string) string {
	if h1 == "" || len(h1) >= len(title) {
		return ""
	}
	var site string
	switch {
	case strings.HasPrefix(title, h1):
		site = title[len(h1):]
	case strings.HasSuffix(title, h1):
		site = title[:len(title)-len(h1)]
	default:
		return ""
	}
	site = strings.TrimSpace(strings.Trim(strings.TrimSpace(site), titleSeparators))
	if site == "" || len(site) >= len(h1) || trimSiteName(title, site) != h1 {
		return ""
	}
	return h1
}

// cleanMeta collapses a metadata value's spaces and drops its invisible
// characters (dropInvisible): metadata is read from attributes, and
// before prepareDoc cleans the text nodes.
func cleanMeta(s string) string { return collapseSpace(dropInvisible(s)) }

// publishedMetas are the head's tags for a page's publication date
// (OpenGraph, Dublin Core, news CMSs and analytics tags), most deliberate
// first.
var publishedMetas = []string{"article:published_time", "og:published_time", "date", "dc.date", "dc.date.issued", "pubdate", "publishdate", "sailthru.date", "parsely-pub-date"}

// ldInfo gathers fields from JSON-LD blocks, preferring the node that
// describes the page's main entity (an Article, a Product, a Discussion...)
// over site-wide nodes (Organization, WebSite, BreadcrumbList).
type ldInfo struct {
	types                                    []string
	productOffer, paywalled                  bool
	headline, author, description            string
	published, modified, publisher, language string
}

func (l *ldInfo) parse(s string) {
	var v any
	if err := json.Unmarshal([]byte(strings.TrimSpace(s)), &v); err != nil {
		return
	}
	l.visit(v, 0)
}

func (l *ldInfo) visit(v any, depth int) {
	if depth > 6 {
		return
	}
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			l.visit(e, depth+1)
		}
	case map[string]any:
		if g, ok := x["@graph"]; ok {
			l.visit(g, depth+1)
		}
		types := ldTypes(x["@type"])
		l.types = append(l.types, types...)
		if x["offers"] != nil && (slices.Contains(types, "product") || slices.Contains(types, "productgroup")) {
			l.productOffer = true
		}
		main := false
		for _, t := range types {
			switch t {
			case "organization", "website", "breadcrumblist", "person", "imageobject", "searchaction", "sitenavigationelement", "listitem":
			default:
				main = true
			}
		}
		if !main {
			if l.publisher == "" && len(types) > 0 && types[0] == "website" {
				l.publisher = ldString(x["name"])
			}
			return
		}
		setIfEmpty(&l.headline, firstNonEmpty(ldString(x["headline"]), ldString(x["name"])))
		setIfEmpty(&l.description, ldString(x["description"]))
		setIfEmpty(&l.published, ldString(x["datePublished"]))
		setIfEmpty(&l.modified, firstNonEmpty(ldString(x["dateModified"]), ldString(x["dateCreated"])))
		setIfEmpty(&l.author, ldName(x["author"]))
		setIfEmpty(&l.publisher, ldName(x["publisher"]))
		setIfEmpty(&l.language, ldString(x["inLanguage"]))
		if ldFalse(x["isAccessibleForFree"]) {
			l.paywalled = true
		}
		if me, ok := x["mainEntity"]; ok {
			l.visit(me, depth+1)
		}
	}
}

// ldFalse reports a JSON-LD boolean that is false: false, or the text
// "false" or "False" (schema.org's Boolean is written both ways).
func ldFalse(v any) bool {
	switch t := v.(type) {
	case bool:
		return !t
	case string:
		return strings.EqualFold(strings.TrimSpace(t), "false")
	}
	return false
}

func ldTypes(v any) []string {
	switch t := v.(type) {
	case string:
		return []string{strings.ToLower(t)}
	case []any:
		var out []string
		for _, e := range t {
			if s, ok := e.(string); ok {
				out = append(out, strings.ToLower(s))
			}
		}
		return out
	}
	return nil
}

func ldString(v any) string {
	switch t := v.(type) {
	case string:
		return strings.TrimSpace(html.UnescapeString(t))
	case []any:
		if len(t) > 0 {
			return ldString(t[0])
		}
	case map[string]any:
		return ldString(t["@value"])
	}
	return ""
}

// ldName reads a Person/Organization (or a list of them) as "A, B".
func ldName(v any) string {
	switch t := v.(type) {
	case string:
		return strings.TrimSpace(t)
	case map[string]any:
		return ldString(t["name"])
	case []any:
		var names []string
		for _, e := range t {
			if n := ldName(e); n != "" && !contains(names, n) {
				names = append(names, n)
			}
		}
		return strings.Join(names, ", ")
	}
	return ""
}

var dateLayouts = []string{
	time.RFC3339Nano, time.RFC3339, "2006-01-02T15:04:05Z0700", "2006-01-02T15:04:05", "2006-01-02T15:04Z07:00",
	"2006-01-02T15:04", "2006-01-02 15:04:05Z07:00", "2006-01-02 15:04:05 -0700", "2006-01-02 15:04:05", "2006-01-02 15:04",
	"2006-01-02", "2006/01/02", "20060102", time.RFC1123, time.RFC1123Z, time.RFC850, "Mon, 2 Jan 2006 15:04:05 -0700",
	"January 2, 2006", "Jan 2, 2006", "2 January 2006", "02 Jan 2006",
}

func parseDate(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 64 {
		return time.Time{}, false
	}
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, s); err == nil && t.Year() > 1900 {
			return t, true
		}
	}
	return time.Time{}, false
}

// normalizeLang maps "en_US", "en-us" and "EN" to BCP 47-ish "en-US"/"en".
func normalizeLang(s string) string {
	s = strings.TrimSpace(strings.ReplaceAll(s, "_", "-"))
	if i := strings.IndexAny(s, ",; "); i >= 0 {
		s = s[:i]
	}
	if s == "" || len(s) > 16 {
		return ""
	}
	parts := strings.SplitN(s, "-", 2)
	out := strings.ToLower(parts[0])
	if len(parts) == 2 && len(parts[1]) == 2 {
		out += "-" + strings.ToUpper(parts[1])
	} else if len(parts) == 2 {
		out += "-" + parts[1]
	}
	return out
}

func setIfEmpty(dst *string, v string) {
	if *dst == "" {
		*dst = v
	}
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v = strings.TrimSpace(v); v != "" {
			return v
		}
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
