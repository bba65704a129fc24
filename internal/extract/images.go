package extract

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Lazy-loading scripts (WP Rocket, lazysizes, NitroPack and the like)
// ship an <img> whose src is a placeholder, an empty string, a 1×1 GIF or
// an inline SVG of the image's size as a data: URI, and keep the image's
// address in another attribute until the image scrolls into view. A
// reader of the HTML alone sees the placeholder: in Markdown a data: URI
// of hundreds of bytes, sometimes kilobytes, that shows the model nothing
// where the page shows a picture. resolveLazyImages puts the address
// back, as Readability.js's _fixLazyImages does, and drops an image that
// has no address but a data: URI, a placeholder file, or none at all.

// lazySrcAttrs hold a lazy image's address, most common first (counted on
// the benchmark pages: data-src, data-lazy-src, nitro-lazy-src).
var lazySrcAttrs = []string{"data-src", "data-lazy-src", "data-original", "nitro-lazy-src", "data-lzl-src", "data-lazy",
	"data-url", "data-hi-res-src", "data-full-src", "data-echo", "data-img"}

// lazySrcsetAttrs hold a lazy image's srcset. A real srcset beside a
// placeholder src is what the browser shows, so it counts too.
var lazySrcsetAttrs = []string{"data-srcset", "data-lazy-srcset", "nitro-lazy-srcset", "data-lzl-srcset", "srcset"}

// resolveLazyImages gives each <img> under root whose src is a
// placeholder the address its lazy-loading attributes hold, and removes
// the images left with no address.
func resolveLazyImages(root *html.Node) {
	for _, img := range collectElements(root, func(c *html.Node) visit {
		if c.DataAtom == atom.Img {
			return take
		}
		return descend
	}) {
		src := attr(img, "src")
		if real := realImageURL(src); !real || placeholderFile(src, false) {
			if u := lazyImageURL(img); u != "" {
				setAttr(img, "src", u)
			} else if !real || placeholderFile(src, true) {
				removeNode(img)
			}
		}
	}
}

// lazyImageURL returns the address a lazy image's attributes hold: a
// known src attribute, else the first candidate of a known srcset
// attribute, else any other data-*src* attribute that holds an address
// ("data-src-medium"); "" when there is none.
func lazyImageURL(n *html.Node) string {
	for _, k := range lazySrcAttrs {
		if v := strings.TrimSpace(attr(n, k)); realImageURL(v) {
			return v
		}
	}
	for _, k := range lazySrcsetAttrs {
		if v := firstSrcsetURL(attr(n, k)); realImageURL(v) {
			return v
		}
	}
	for _, a := range n.Attr {
		if a.Namespace == "" && strings.HasPrefix(a.Key, "data-") && strings.Contains(a.Key, "src") {
			if v := firstSrcsetURL(a.Val); realImageURL(v) {
				return v
			}
		}
	}
	return ""
}

// firstSrcsetURL returns the address of a srcset's first candidate
// ("a.jpg 1024w, b.jpg 300w": "a.jpg"). As the HTML standard parses it
// (4.8.4.3.10), an address runs to the first whitespace and may hold
// commas ("…/c_fill,f_auto,w_320/a.jpg"); commas that end it separate it
// from the next candidate.
func firstSrcsetURL(srcset string) string {
	s := strings.TrimLeft(srcset, " \t\n\r\f,")
	if i := strings.IndexAny(s, " \t\n\r\f"); i >= 0 {
		s = s[:i]
	}
	return strings.TrimRight(s, ",")
}

// realImageURL reports an address a browser would fetch an image from:
// not empty, not a data: URI (a placeholder, or an image the model cannot
// see in text anyway), not a word with spaces.
func realImageURL(v string) bool {
	v = strings.TrimSpace(v)
	if v == "" || strings.ContainsAny(v, " \t\n") || len(v) >= 5 && strings.EqualFold(v[:5], "data:") {
		return false
	}
	return strings.Contains(v, "/") || strings.Contains(v, ".")
}

// placeholderFile reports an image file named as a lazy loader's stand-in
// ("grey-placeholder.png", "lazy_placeholder.gif", "blank.gif",
// "loading-trans.gif"): the site serves it until the real image loads,
// whose address is then in a lazy attribute beside it. On the dev sets'
// Markdown such files stood for about 300 images. Strictly, only a file
// named "placeholder" or "spacer", or a "loading" GIF or SVG (a spinner),
// is never a picture of anything ("a loading dock", "a blank canvas"), so
// none other goes without a replacement.
func placeholderFile(src string, strict bool) bool {
	if i := strings.IndexAny(src, "?#"); i >= 0 {
		src = src[:i]
	}
	name := strings.ToLower(src[strings.LastIndexByte(src, '/')+1:])
	spinner := strings.HasSuffix(name, ".gif") || strings.HasSuffix(name, ".svg")
	for w := range strings.FieldsFuncSeq(name, func(r rune) bool { return r < 'a' || r > 'z' }) {
		if w == "placeholder" || w == "spacer" || spinner && (w == "loading" || w == "loader") || !strict && placeholderWords[w] {
			return true
		}
	}
	return false
}

// placeholderWords name a stand-in image's file.
var placeholderWords = map[string]bool{"lazy": true, "blank": true, "trans": true, "transparent": true, "loading": true, "loader": true}

// setAttr sets n's attribute key (no namespace) to val.
func setAttr(n *html.Node, key, val string) {
	for i, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			n.Attr[i].Val = val
			return
		}
	}
	n.Attr = append(n.Attr, html.Attribute{Key: key, Val: val})
}

// replaceLazyImage puts the image a <noscript> block holds in place of
// the placeholder before it, as Readability.js's _unwrapNoscriptImages
// does: lazy-loading templates (Medium's among them) follow a blurred
// thumbnail or an empty <img> with the real image in a <noscript> for
// readers without JavaScript. The block must hold one image and no text,
// and its previous element must be an image, or hold one image and no
// text (a <figure>'s placeholder wrapper); images without any src
// between them go.
func replaceLazyImage(ns *html.Node) {
	img := soleImage(ns)
	if img == nil {
		return
	}
	var prev *html.Node
	for p := ns.PrevSibling; p != nil && prev == nil; {
		next := p.PrevSibling
		switch {
		case p.Type == html.TextNode && strings.TrimSpace(p.Data) != "":
			return
		case p.Type == html.ElementNode && p.DataAtom == atom.Img && strings.TrimSpace(attr(p, "src")) == "" && lazyImageURL(p) == "":
			// An image without even a placeholder (a canvas's
			// stand-in) is not what the block replaces; it goes.
			p.Parent.RemoveChild(p)
		case p.Type == html.ElementNode:
			prev = p
		}
		p = next
	}
	if prev == nil {
		return
	}
	old := prev
	if prev.DataAtom != atom.Img {
		if old = soleImage(prev); old == nil {
			return
		}
	}
	img.Parent.RemoveChild(img)
	old.Parent.InsertBefore(img, old)
	old.Parent.RemoveChild(old)
}

// soleImage returns the one <img> under n when n holds no other image and
// no text; nil otherwise.
func soleImage(n *html.Node) *html.Node {
	var img *html.Node
	ok := true
	var walk func(c *html.Node)
	walk = func(c *html.Node) {
		for ; c != nil && ok; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode:
				ok = strings.TrimSpace(c.Data) == ""
			case c.Type != html.ElementNode:
			case c.DataAtom == atom.Img:
				ok = img == nil
				img = c
			default:
				walk(c.FirstChild)
			}
		}
	}
	walk(n.FirstChild)
	if !ok {
		return nil
	}
	return img
}
