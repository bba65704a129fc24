package hidden

import (
	"image/color"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/css"
	"golang.org/x/image/colornames"
)

// An inline style attribute is a CSS declaration list (CSS Style
// Attributes, section 3). It is read with tdewolff/parse's CSS tokenizer
// and parser, so comments, escapes, !important and shorthands mean what
// they mean to a browser: "display:/**/none" and "display:\6e one" are
// display:none, "background:#fff" sets the background colour, and
// "#FFF", "#ffffff", "white" and "rgb(255 255 255)" are one colour.

// maxDeclarations bounds the declarations read from one style attribute.
const maxDeclarations = 256

// cssToken is one component of a declaration's value: its type and its
// text, lower-cased with CSS escapes decoded (identifiers, functions,
// hashes and dimensions compare case-insensitively in CSS).
type cssToken struct {
	tt css.TokenType
	s  string
}

type cssValue []cssToken

// style is the computed declarations of one style attribute: the last
// declaration of each property wins, unless an earlier one is
// !important and it is not (CSS Cascade 4, section 6.4). Shorthands the
// stripper needs are expanded into their longhands in order, so
// "background-color:#000;background:#fff" is a white background.
type style map[string]declared

type declared struct {
	v         cssValue
	important bool
}

func (s style) get(prop string) cssValue { return s[prop].v }

func (s style) set(prop string, v cssValue, important bool) {
	if prev, ok := s[prop]; ok && prev.important && !important {
		return
	}
	s[prop] = declared{v, important}
}

// parseStyle reads an inline style attribute.
func parseStyle(attr string) style {
	st := style{}
	p := css.NewParser(parse.NewInputString(attr), true)
	for range maxDeclarations {
		gt, _, data := p.Next()
		switch gt {
		case css.ErrorGrammar:
			if !p.HasParseError() {
				return st // the end, or a read error
			}
		case css.DeclarationGrammar:
			v, important := declValue(p.Values())
			st.declare(unescape(string(data)), v, important)
		}
	}
	return st
}

// declValue turns a declaration's tokens into a value without
// whitespace, and says whether it ends in !important.
func declValue(toks []css.Token) (cssValue, bool) {
	v := make(cssValue, 0, len(toks))
	for _, t := range toks {
		switch t.TokenType {
		case css.WhitespaceToken, css.CommentToken:
			continue
		case css.IdentToken, css.FunctionToken, css.HashToken, css.DimensionToken:
			v = append(v, cssToken{t.TokenType, unescape(string(t.Data))})
		default:
			v = append(v, cssToken{t.TokenType, strings.ToLower(string(t.Data))})
		}
	}
	if n := len(v); n >= 2 && v[n-2].tt == css.DelimToken && v[n-2].s == "!" && v[n-1].tt == css.IdentToken && v[n-1].s == "important" {
		return v[:n-2], true
	}
	return v, false
}

// declare records one declaration, expanding the shorthands whose
// longhands Strip reads.
func (s style) declare(prop string, v cssValue, important bool) {
	switch prop {
	case "background":
		// The shorthand resets every longhand it does not name: no
		// colour means a transparent background.
		c := cssValue{{css.IdentToken, "transparent"}}
		img := cssValue{{css.IdentToken, "none"}}
		for i, t := range v {
			if isImage(t) {
				img = cssValue{t}
			} else if _, ok := colorOf(v[i:]); (ok || t.s == "currentcolor") && c[0].s == "transparent" {
				c = colorTokens(v[i:])
			}
		}
		s.set("background-color", c, important)
		s.set("background-image", img, important)
	case "font":
		// font: [style variant weight stretch] size[/line-height] family.
		// A weight is a bare number; a size has a unit, is a percentage,
		// a size keyword, or 0.
		for _, t := range v {
			if n, unit, ok := number(t); ok && (unit != "" || n == 0) || t.tt == css.IdentToken && fontSizeKeyword[t.s] {
				s.set("font-size", cssValue{t}, important)
				break
			}
		}
	default:
		s.set(prop, v, important)
	}
}

// colorTokens is the prefix of v that spells one colour: a single token,
// or a function with its arguments.
func colorTokens(v cssValue) cssValue {
	if v[0].tt != css.FunctionToken {
		return v[:1]
	}
	for i, t := range v {
		if t.tt == css.RightParenthesisToken {
			return v[:i+1]
		}
	}
	return v
}

func isImage(t cssToken) bool {
	switch {
	case t.tt == css.URLToken:
		return true
	case t.tt == css.FunctionToken:
		return t.s == "url(" || strings.HasSuffix(t.s, "gradient(") || t.s == "image(" || t.s == "image-set(" || t.s == "-webkit-image-set(" || t.s == "cross-fade(" || t.s == "element("
	}
	return false
}

var fontSizeKeyword = map[string]bool{
	"xx-small": true, "x-small": true, "small": true, "medium": true, "large": true, "x-large": true,
	"xx-large": true, "xxx-large": true, "smaller": true, "larger": true, "math": true,
}

// unescape lower-cases s and decodes its CSS escapes (CSS Syntax 3,
// section 4.3.7): a backslash and 1 to 6 hex digits, with one optional
// whitespace after them, is that code point; a backslash and any other
// character is that character.
func unescape(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return strings.ToLower(s)
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			i++
			continue
		}
		i++
		j := i
		for j < len(s) && j-i < 6 && isHex(s[j]) {
			j++
		}
		if j == i {
			r, n := utf8.DecodeRuneInString(s[i:])
			b.WriteRune(r)
			i += n
			continue
		}
		cp, _ := strconv.ParseUint(s[i:j], 16, 32)
		if cp == 0 || cp > utf8.MaxRune || cp >= 0xD800 && cp <= 0xDFFF {
			cp = utf8.RuneError
		}
		b.WriteRune(rune(cp))
		i = j
		if i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
			i++
		}
	}
	return strings.ToLower(b.String())
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// number reads a number, percentage or dimension token.
func number(t cssToken) (n float64, unit string, ok bool) {
	s := t.s
	switch t.tt {
	case css.NumberToken:
	case css.PercentageToken:
		s, unit = strings.TrimSuffix(s, "%"), "%"
	case css.DimensionToken:
		i := len(s)
		for i > 0 && (s[i-1] < '0' || s[i-1] > '9') && s[i-1] != '.' {
			i--
		}
		s, unit = s[:i], s[i:]
	default:
		return 0, "", false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, "", false
	}
	return f, unit, true
}

// single returns v's only token.
func (v cssValue) single() (cssToken, bool) {
	if len(v) != 1 {
		return cssToken{}, false
	}
	return v[0], true
}

func (v cssValue) keyword() string {
	if t, ok := v.single(); ok && t.tt == css.IdentToken {
		return t.s
	}
	return ""
}

// zeroLength reports a length of zero in any unit.
func (v cssValue) zeroLength() bool {
	t, ok := v.single()
	n, _, isNum := number(t)
	return ok && isNum && n == 0
}

// offscreen reports a length of -100 or less in any unit: far enough
// left or up to put text outside any viewport.
func (v cssValue) offscreen() bool {
	if len(v) == 0 {
		return false
	}
	n, _, ok := number(v[0])
	return ok && n <= -100
}

// rgba is a colour with alpha, each channel 0 to 1.
type rgba struct{ r, g, b, a float64 }

// colorOf reads the colour at the start of v: a hex colour, a named
// colour, transparent, or an rgb(), rgba(), hsl() or hsla() function (in
// the comma and the space-separated syntax). currentcolor and keywords
// such as inherit are not colours here.
func colorOf(v cssValue) (rgba, bool) {
	if len(v) == 0 {
		return rgba{}, false
	}
	t := v[0]
	switch t.tt {
	case css.HashToken:
		return hexColor(strings.TrimPrefix(t.s, "#"))
	case css.IdentToken:
		if t.s == "transparent" {
			return rgba{}, true
		}
		if c, ok := colornames.Map[t.s]; ok {
			return fromRGBA(c), true
		}
		if t.s == "rebeccapurple" { // CSS Color 4, not in SVG 1.1's list
			return rgba{0x66 / 255.0, 0x33 / 255.0, 0x99 / 255.0, 1}, true
		}
	case css.FunctionToken:
		var args []float64
		var pct []bool
		for _, a := range v[1:] {
			if a.tt == css.RightParenthesisToken {
				break
			}
			if n, unit, ok := number(a); ok {
				if unit == "deg" || unit == "" || unit == "%" {
					args = append(args, n)
					pct = append(pct, unit == "%")
				} else {
					return rgba{}, false // turn, rad, calc() and the like
				}
			} else if a.tt != css.CommaToken && (a.tt != css.DelimToken || a.s != "/") {
				return rgba{}, false
			}
		}
		if len(args) != 3 && len(args) != 4 {
			return rgba{}, false
		}
		alpha := 1.0
		if len(args) == 4 {
			alpha = args[3]
			if pct[3] {
				alpha /= 100
			}
		}
		var c rgba
		switch t.s {
		case "rgb(", "rgba(":
			ch := func(i int) float64 {
				if pct[i] {
					return args[i] / 100
				}
				return args[i] / 255
			}
			c = rgba{ch(0), ch(1), ch(2), alpha}
		case "hsl(", "hsla(":
			c = hsl(args[0], args[1]/100, args[2]/100)
			c.a = alpha
		default:
			return rgba{}, false
		}
		return c.clamp(), true
	}
	return rgba{}, false
}

func hexColor(h string) (rgba, bool) {
	switch len(h) {
	case 3, 4:
		h2 := make([]byte, 0, 8)
		for i := range len(h) {
			h2 = append(h2, h[i], h[i])
		}
		h = string(h2)
	case 6, 8:
	default:
		return rgba{}, false
	}
	if len(h) == 6 {
		h += "ff"
	}
	n, err := strconv.ParseUint(h, 16, 32)
	if err != nil {
		return rgba{}, false
	}
	return rgba{float64(n>>24&0xff) / 255, float64(n>>16&0xff) / 255, float64(n>>8&0xff) / 255, float64(n&0xff) / 255}, true
}

func fromRGBA(c color.RGBA) rgba {
	return rgba{float64(c.R) / 255, float64(c.G) / 255, float64(c.B) / 255, float64(c.A) / 255}
}

// hsl converts hue (degrees), saturation and lightness (0 to 1) to RGB
// (CSS Color 4, section 7.1).
func hsl(h, s, l float64) rgba {
	h = math.Mod(h, 360)
	if h < 0 {
		h += 360
	}
	s, l = min(max(s, 0), 1), min(max(l, 0), 1)
	f := func(n float64) float64 {
		k := math.Mod(n+h/30, 12)
		a := s * min(l, 1-l)
		return l - a*max(-1, min(k-3, 9-k, 1))
	}
	return rgba{f(0), f(8), f(4), 1}
}

func (c rgba) clamp() rgba {
	cl := func(x float64) float64 { return min(max(x, 0), 1) }
	return rgba{cl(c.r), cl(c.g), cl(c.b), cl(c.a)}
}

// over is c painted over an opaque background.
func (c rgba) over(bg rgba) rgba {
	return rgba{c.r*c.a + bg.r*(1-c.a), c.g*c.a + bg.g*(1-c.a), c.b*c.a + bg.b*(1-c.a), 1}
}

// indistinct reports text colour c on background bg that no reader can
// tell apart: after blending, no channel differs by more than 10 of 255
// (#fefefe or #f5f5f5 on white; #eee on white, 17 apart, is faint but
// readable and stays).
func indistinct(c, bg rgba) bool {
	c = c.over(bg)
	d := max(math.Abs(c.r-bg.r), math.Abs(c.g-bg.g), math.Abs(c.b-bg.b))
	return d <= 10.0/255+1e-9
}
