package guard

import (
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// StripHidden removes from a parsed HTML document what a person viewing
// the page would not see, so that text planted for a model alone does
// not reach it. It returns the number of nodes removed. Removed are:
//
//   - comments;
//   - <template> elements, never rendered;
//   - elements with the hidden attribute (but not hidden="until-found",
//     which the browser reveals to find-in-page);
//   - elements whose inline style hides them: display:none,
//     visibility:hidden or collapse, opacity near 0, font-size of 1px or
//     less, transparent text, zero width or height with overflow hidden,
//     clipping to nothing (clip: rect(0 0 0 0), clip-path: inset(50%)),
//     scale(0), and positioning or text-indent far off-screen;
//   - elements with the class names of the visually-hidden pattern
//     (sr-only, visually-hidden, screen-reader-text and kin), and the
//     utility classes that mean display:none (hidden, d-none, invisible)
//     when no responsive variant on the same element shows it again.
//
// Styles from <style> sheets and scripts are not evaluated, so content
// hidden that way stays (see docs/security.md).
func StripHidden(doc *html.Node) int {
	removed := 0
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; {
			next := c.NextSibling
			if hiddenNode(c) {
				n.RemoveChild(c)
				removed++
			} else if c.Type == html.ElementNode || c.Type == html.DocumentNode {
				walk(c)
			}
			c = next
		}
	}
	walk(doc)
	return removed
}

func hiddenNode(n *html.Node) bool {
	switch n.Type {
	case html.CommentNode:
		return true
	case html.ElementNode:
	default:
		return false
	}
	switch n.DataAtom {
	case atom.Template:
		return true
	case atom.Html, atom.Head, atom.Body, atom.Script, atom.Style, atom.Title, atom.Meta, atom.Link:
		// Never removed: metadata and structured data live there, and
		// scripts and styles are dropped by extraction anyway.
		return false
	}
	var style, class string
	for _, a := range n.Attr {
		switch strings.ToLower(a.Key) {
		case "hidden":
			if !strings.EqualFold(strings.TrimSpace(a.Val), "until-found") {
				return true
			}
		case "style":
			style = a.Val
		case "class":
			class = a.Val
		}
	}
	return (style != "" && hiddenStyle(style)) || (class != "" && hiddenClass(class))
}

// srOnly are class names of the visually-hidden pattern across CSS
// frameworks and CMSs.
var srOnly = map[string]bool{
	"sr-only": true, "visually-hidden": true, "visuallyhidden": true, "screen-reader-text": true,
	"screen-reader-only": true, "screenreader-only": true, "sr-text": true, "a11y-hidden": true,
	"hidden-visually": true, "u-hidden-visually": true, "element-invisible": true, "offscreen": true,
	"assistive-text": true, "vh": true, "is-visually-hidden": true, "show-for-sr": true,
}

// displayNone are utility classes that mean display:none or
// visibility:hidden on every screen size.
var displayNone = map[string]bool{"hidden": true, "d-none": true, "invisible": true, "is-hidden": true, "hide": true}

func hiddenClass(class string) bool {
	names := strings.Fields(class)
	utility := false
	for _, c := range names {
		c = strings.ToLower(c)
		if srOnly[c] {
			// "sr-only focus:not-sr-only" (skip links) still is hidden
			// until focused.
			return true
		}
		if displayNone[c] {
			utility = true
		}
	}
	if !utility {
		return false
	}
	// A responsive or state variant ("md:block", "d-md-flex",
	// "group-hover:visible") shows the element somewhere: keep it.
	for _, c := range names {
		if strings.Contains(c, ":") || strings.HasPrefix(c, "d-") && c != "d-none" {
			return false
		}
	}
	return true
}

var (
	offscreenRe = regexp.MustCompile(`^-\d{3,}(?:\.\d+)?(?:px|pt|em|rem|vw|vh|%)?$`)
	zeroLenRe   = regexp.MustCompile(`^0*(?:\.0+)?(?:px|pt|em|rem|%|vw|vh)?$`)
	clipZeroRe  = regexp.MustCompile(`^rect\(\s*0(?:px)?[\s,]+0(?:px)?[\s,]+0(?:px)?[\s,]+0(?:px)?\s*\)$`)
)

// hiddenStyle decides from an inline style attribute. Later declarations
// override earlier ones, as in CSS.
func hiddenStyle(style string) bool {
	decl := map[string]string{}
	for part := range strings.SplitSeq(style, ";") {
		k, v, ok := strings.Cut(part, ":")
		if !ok {
			continue
		}
		v = strings.ToLower(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "!important")))
		decl[strings.ToLower(strings.TrimSpace(k))] = strings.TrimSpace(v)
	}
	if decl["display"] == "none" {
		return true
	}
	if v := decl["visibility"]; v == "hidden" || v == "collapse" {
		return true
	}
	if v, ok := decl["opacity"]; ok {
		if f, err := strconv.ParseFloat(strings.TrimSuffix(v, "%"), 64); err == nil && (f < 0.05 || strings.HasSuffix(v, "%") && f < 5) {
			return true
		}
	}
	if v, ok := decl["font-size"]; ok && tinyLength(v) {
		return true
	}
	if v := decl["color"]; v == "transparent" || strings.HasPrefix(v, "rgba(") && strings.HasSuffix(strings.ReplaceAll(v, " ", ""), ",0)") {
		return true
	}
	if c, bg := decl["color"], decl["background-color"]; c != "" && c == bg && !cssKeyword[c] {
		return true
	}
	if decl["overflow"] == "hidden" && (zeroLen(decl["width"]) || zeroLen(decl["height"]) || zeroLen(decl["max-height"]) || zeroLen(decl["max-width"])) {
		return true
	}
	if clipZeroRe.MatchString(decl["clip"]) {
		return true
	}
	if v := decl["clip-path"]; strings.HasPrefix(v, "inset(50%") || strings.HasPrefix(v, "inset(100%") || v == "circle(0)" || v == "circle(0px)" {
		return true
	}
	if v := decl["transform"]; strings.Contains(v, "scale(0)") || strings.Contains(v, "scale(0,") || strings.Contains(v, "scalex(0)") || strings.Contains(v, "scaley(0)") {
		return true
	}
	if offscreenRe.MatchString(decl["text-indent"]) {
		return true
	}
	if p := decl["position"]; p == "absolute" || p == "fixed" {
		for _, side := range []string{"left", "top", "right", "bottom", "margin-left", "margin-top"} {
			if offscreenRe.MatchString(decl[side]) {
				return true
			}
		}
	}
	return false
}

// cssKeyword are values that do not name a colour by themselves.
var cssKeyword = map[string]bool{"inherit": true, "initial": true, "unset": true, "revert": true, "currentcolor": true}

// zeroLen reports a length of zero ("0", "0px", "0.0em").
func zeroLen(v string) bool { return v != "" && zeroLenRe.MatchString(v) }

// tinyLength reports a font size of 1px or less (or zero in any unit).
func tinyLength(v string) bool {
	if zeroLen(v) {
		return true
	}
	if n, ok := strings.CutSuffix(v, "px"); ok {
		f, err := strconv.ParseFloat(n, 64)
		return err == nil && f <= 1
	}
	return false
}
