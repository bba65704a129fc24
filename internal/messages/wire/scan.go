package wire

import (
	"encoding/binary"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// ScanRequest decodes the members of a Messages request body that webgate
// inspects (model, stream, max_tokens, system, messages, tools,
// tool_choice) in a single pass, with a handful of allocations. It exists
// for the search fast path, which classifies every request that mentions
// a web search tool: DecodeRequest's map of raw members followed by a
// second decode of each costs several times more.
//
// ScanRequest is conservative. When ok is true, r equals what
// DecodeRequest returns for body, except that Fields is nil. It returns
// ok false for anything it does not decode exactly as encoding/json would
// (invalid JSON, wrong member types, escaped or case-variant member names,
// duplicate members, numbers that are not plain integers, null array
// elements, very deep nesting); the caller then uses DecodeRequest, which
// settles those cases. FuzzScanRequest checks the equivalence.
//
// ScanRequest is frozen (issue 23): it is a second decoder kept only
// because the fast path needs it to stay within its latency budget
// (replacing it with DecodeRequest raised the server's CPU per cached
// search by about half under cmd/loadgen/bench.sh hit). Do not extend
// or tune it. When Request gains a member, make ScanRequest refuse
// bodies that carry it (ok false, so DecodeRequest decides) and add such
// a body to scanRefused; or delete ScanRequest if the budget allows.
func ScanRequest(body []byte) (r *Request, ok bool) {
	s := scanner{b: body}
	r = &Request{}
	if !s.request(r) {
		return nil, false
	}
	s.ws()
	if s.i != len(s.b) {
		return nil, false
	}
	return r, true
}

// scanner walks one JSON document. Every method returns false to abandon
// the scan; none of them panics on any input.
type scanner struct {
	b []byte
	i int
}

// maxScanDepth bounds nesting (encoding/json allows 10000); deeper
// documents are left to DecodeRequest.
const maxScanDepth = 512

func (s *scanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// peek returns the next non-space byte, or 0 at the end.
func (s *scanner) peek() byte {
	s.ws()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

func (s *scanner) lit(word string) bool {
	if len(s.b)-s.i < len(word) || string(s.b[s.i:s.i+len(word)]) != word {
		return false
	}
	s.i += len(word)
	return true
}

// null consumes a null literal if one comes next.
func (s *scanner) null() bool {
	if s.peek() == 'n' {
		return s.lit("null")
	}
	return false
}

// object scans an object, calling member for each name with the scanner
// positioned at the value, which member must consume. Names are raw bytes
// between the quotes; a name with an escape abandons the scan.
func (s *scanner) object(depth int, member func(name []byte) bool) bool {
	if depth > maxScanDepth || s.peek() != '{' {
		return false
	}
	s.i++
	if s.peek() == '}' {
		s.i++
		return true
	}
	for {
		if s.peek() != '"' {
			return false
		}
		start := s.i + 1
		end, escaped, ok := s.skipString()
		if !ok || escaped {
			return false
		}
		name := s.b[start:end]
		if s.peek() != ':' {
			return false
		}
		s.i++
		if !member(name) {
			return false
		}
		switch s.peek() {
		case ',':
			s.i++
		case '}':
			s.i++
			return true
		default:
			return false
		}
	}
}

// array scans an array, calling elem with the scanner at each element.
func (s *scanner) array(depth int, elem func() bool) bool {
	if depth > maxScanDepth || s.peek() != '[' {
		return false
	}
	s.i++
	if s.peek() == ']' {
		s.i++
		return true
	}
	for {
		s.ws()
		if !elem() {
			return false
		}
		switch s.peek() {
		case ',':
			s.i++
		case ']':
			s.i++
			return true
		default:
			return false
		}
	}
}

// skipString consumes a string (the scanner is at its opening quote),
// validating it as encoding/json does, and returns the index of the
// closing quote and whether it held escapes or non-ASCII bytes.
func (s *scanner) skipString() (end int, escaped, ok bool) {
	i := s.i + 1
	for i < len(s.b) {
		// Runs of plain bytes, most of a prompt, go eight at a time.
		for i+8 <= len(s.b) && !special8(binary.LittleEndian.Uint64(s.b[i:])) {
			i += 8
		}
		if i >= len(s.b) {
			break
		}
		c := s.b[i]
		switch {
		case c == '"':
			s.i = i + 1
			return i, escaped, true
		case c < 0x20:
			return 0, false, false
		case c == '\\':
			escaped = true
			if i+1 >= len(s.b) {
				return 0, false, false
			}
			switch s.b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(s.b) {
					return 0, false, false
				}
				for _, h := range s.b[i+2 : i+6] {
					if !isHex(h) {
						return 0, false, false
					}
				}
				i += 6
			default:
				return 0, false, false
			}
		default:
			if c >= utf8.RuneSelf {
				escaped = true
			}
			i++
		}
	}
	return 0, false, false
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// special8 reports whether any of the eight bytes in x needs skipString's
// attention: a quote, a backslash, a control character or a non-ASCII
// byte. It is exact: each test below is one of the classic SWAR
// "has a byte that..." expressions, which have no false positives when
// only their being non-zero is used.
func special8(x uint64) bool {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	q, bs := x^'"'*ones, x^'\\'*ones
	return (x|(x-0x20*ones)&^x|(q-ones)&^q|(bs-ones)&^bs)&highs != 0
}

// str decodes a string value; null gives "", as encoding/json leaves a
// string untouched for null.
func (s *scanner) str(dst *string) bool {
	switch s.peek() {
	case 'n':
		return s.lit("null")
	case '"':
	default:
		return false
	}
	start := s.i + 1
	end, escaped, ok := s.skipString()
	if !ok {
		return false
	}
	if !escaped {
		*dst = intern(s.b[start:end])
		return true
	}
	*dst = unquote(s.b[start:end])
	return true
}

// intern returns b as a string, without allocating for the values that
// recur in every request (roles, block and tool types, tool names).
func intern(b []byte) string {
	switch string(b) { // compiled without a conversion
	case "user":
		return "user"
	case "assistant":
		return "assistant"
	case "text":
		return "text"
	case "tool":
		return "tool"
	case "any":
		return "any"
	case "auto":
		return "auto"
	case "approximate":
		return "approximate"
	case "web_search":
		return "web_search"
	case "web_search_20250305":
		return "web_search_20250305"
	}
	return string(b)
}

// unquote decodes the inside of a validated JSON string exactly as
// encoding/json does: escapes resolved, surrogate pairs joined, lone
// surrogates and invalid UTF-8 bytes replaced by U+FFFD.
func unquote(s []byte) string {
	b := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\':
			switch s[i+1] {
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r := hex4(s[i+2 : i+6])
				i += 6
				if utf16.IsSurrogate(r) {
					if i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
						if d := utf16.DecodeRune(r, hex4(s[i+2:i+6])); d != utf8.RuneError {
							b = utf8.AppendRune(b, d)
							i += 6
							continue
						}
					}
					r = utf8.RuneError
				}
				b = utf8.AppendRune(b, r)
				continue
			default: // '"', '\\', '/'
				b = append(b, s[i+1])
			}
			i += 2
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			r, size := utf8.DecodeRune(s[i:])
			if r == utf8.RuneError && size == 1 {
				b = utf8.AppendRune(b, utf8.RuneError)
			} else {
				b = append(b, s[i:i+size]...)
			}
			i += size
		}
	}
	return string(b)
}

func hex4(h []byte) rune {
	var r rune
	for _, c := range h {
		switch {
		case c <= '9':
			c -= '0'
		case c <= 'F':
			c -= 'A' - 10
		default:
			c -= 'a' - 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

// boolean decodes true, false or null (false).
func (s *scanner) boolean(dst *bool) bool {
	switch s.peek() {
	case 't':
		*dst = true
		return s.lit("true")
	case 'f':
		*dst = false
		return s.lit("false")
	case 'n':
		return s.lit("null")
	}
	return false
}

// integer decodes a plain integer literal (no fraction or exponent, which
// encoding/json refuses for an int) into dst; null leaves dst alone.
func (s *scanner) integer(dst *int) (isNull, ok bool) {
	if s.null() {
		return true, true
	}
	start := s.i
	if s.i < len(s.b) && s.b[s.i] == '-' {
		s.i++
	}
	digits := s.i
	for s.i < len(s.b) && '0' <= s.b[s.i] && s.b[s.i] <= '9' {
		s.i++
	}
	if s.i == digits || s.b[digits] == '0' && s.i-digits > 1 {
		return false, false
	}
	if s.i < len(s.b) {
		switch s.b[s.i] {
		case '.', 'e', 'E':
			return false, false
		}
	}
	n, err := strconv.ParseInt(string(s.b[start:s.i]), 10, strconv.IntSize)
	if err != nil {
		return false, false
	}
	*dst = int(n)
	return false, true
}

// skipValue validates and consumes any value.
func (s *scanner) skipValue(depth int) bool {
	switch s.peek() {
	case '{':
		return s.object(depth+1, func([]byte) bool { return s.skipValue(depth + 1) })
	case '[':
		return s.array(depth+1, func() bool { return s.skipValue(depth + 1) })
	case '"':
		_, _, ok := s.skipString()
		return ok
	case 't':
		return s.lit("true")
	case 'f':
		return s.lit("false")
	case 'n':
		return s.lit("null")
	}
	return s.number()
}

// number consumes a number with the JSON grammar.
func (s *scanner) number() bool {
	b, i := s.b, s.i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		d := i
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
		if i == d {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		d := i
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
		if i == d {
			return false
		}
	}
	s.i = i
	return true
}

// raw consumes a value and returns its bytes.
func (s *scanner) raw(depth int) ([]byte, bool) {
	s.ws()
	start := s.i
	if !s.skipValue(depth) {
		return nil, false
	}
	return s.b[start:s.i:s.i], true
}

// fields tracks which of up to 64 known member names an object has had,
// and refuses what encoding/json would treat differently from an exact
// match: a repeated member, or a name that differs from a known one only
// in case (struct fields match case-insensitively).
type fields struct {
	names []string
	seen  uint64
}

// match returns the index of name in f.names, -1 for a name to skip, or
// ok false to abandon the scan.
func (f *fields) match(name []byte) (idx int, ok bool) {
	for i, n := range f.names {
		if string(name) == n {
			if f.seen&(1<<i) != 0 {
				return 0, false
			}
			f.seen |= 1 << i
			return i, true
		}
	}
	if f.foldsToKnown(name) {
		return 0, false
	}
	return -1, true
}

// foldsToKnown reports whether name could match a known name under
// encoding/json's case folding. Non-ASCII names are assumed to (Unicode
// folds "K" and "ſ" to ASCII letters).
func (f *fields) foldsToKnown(name []byte) bool {
	for _, c := range name {
		if c >= utf8.RuneSelf {
			return true
		}
	}
	for _, n := range f.names {
		if len(n) != len(name) {
			continue
		}
		same := true
		for i := range len(n) {
			if lower(name[i]) != n[i] {
				same = false
				break
			}
		}
		if same {
			return true
		}
	}
	return false
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

var (
	requestFields  = []string{"model", "stream", "max_tokens", "system", "messages", "tools", "tool_choice"}
	messageFields  = []string{"role", "content"}
	blockFields    = []string{"type", "text"}
	toolFields     = []string{"type", "name", "max_uses", "allowed_domains", "blocked_domains", "user_location"}
	locationFields = []string{"type", "city", "region", "country", "timezone"}
	choiceFields   = []string{"type", "name"}
)

// request scans the top level. Its members are matched exactly, as
// DecodeRequest's map lookups do, but repeats are still refused (the map
// keeps the last, which the scan would have to undo).
func (s *scanner) request(r *Request) bool {
	f := fields{names: requestFields}
	return s.object(1, func(name []byte) bool {
		idx := -1
		for i, n := range f.names {
			if string(name) == n {
				if f.seen&(1<<i) != 0 {
					return false
				}
				f.seen |= 1 << i
				idx = i
				break
			}
		}
		switch idx {
		case 0:
			return s.str(&r.Model)
		case 1:
			return s.boolean(&r.Stream)
		case 2:
			_, ok := s.integer(&r.MaxTokens)
			return ok
		case 3:
			raw, ok := s.raw(1)
			r.System = raw
			return ok
		case 4:
			if s.null() {
				return true
			}
			return s.array(2, func() bool {
				m, ok := s.message()
				r.Messages = append(r.Messages, m)
				return ok
			})
		case 5:
			if s.null() {
				return true
			}
			return s.array(2, func() bool {
				t, ok := s.tool()
				r.Tools = append(r.Tools, t)
				return ok
			})
		case 6:
			if s.null() {
				return true
			}
			r.ToolChoice = &ToolChoice{}
			return s.toolChoice(r.ToolChoice)
		}
		return s.skipValue(1)
	})
}

func (s *scanner) message() (MessageParam, bool) {
	var m MessageParam
	start := s.i
	f := fields{names: messageFields}
	ok := s.object(3, func(name []byte) bool {
		idx, ok := f.match(name)
		switch {
		case !ok:
			return false
		case idx == 0:
			return s.str(&m.Role)
		case idx == 1:
			return s.content(&m)
		}
		return s.skipValue(3)
	})
	m.Raw = s.b[start:s.i:s.i]
	return m, ok
}

func (s *scanner) content(m *MessageParam) bool {
	switch s.peek() {
	case 'n':
		return s.lit("null")
	case '"':
		m.ContentIsString = true
		return s.str(&m.Text)
	case '[':
		return s.array(4, func() bool {
			var bp BlockParam
			start := s.i
			f := fields{names: blockFields}
			ok := s.object(5, func(name []byte) bool {
				idx, ok := f.match(name)
				switch {
				case !ok:
					return false
				case idx == 0:
					return s.str(&bp.Type)
				case idx == 1:
					return s.str(&bp.Text)
				}
				return s.skipValue(5)
			})
			bp.Raw = s.b[start:s.i:s.i]
			m.Blocks = append(m.Blocks, bp)
			return ok
		})
	}
	return false
}

func (s *scanner) tool() (Tool, bool) {
	var t Tool
	start := s.i
	f := fields{names: toolFields}
	ok := s.object(3, func(name []byte) bool {
		idx, ok := f.match(name)
		switch {
		case !ok:
			return false
		case idx == 0:
			return s.str(&t.Type)
		case idx == 1:
			return s.str(&t.Name)
		case idx == 2:
			var n int
			isNull, ok := s.integer(&n)
			if ok && !isNull {
				t.MaxUses = &n
			}
			return ok
		case idx == 3:
			return s.strings(&t.AllowedDomains)
		case idx == 4:
			return s.strings(&t.BlockedDomains)
		case idx == 5:
			if s.null() {
				return true
			}
			t.UserLocation = &UserLocation{}
			return s.location(t.UserLocation)
		}
		return s.skipValue(3)
	})
	t.Raw = s.b[start:s.i:s.i]
	return t, ok
}

// strings decodes an array of strings; null gives nil and [] an empty,
// non-nil slice, as encoding/json does.
func (s *scanner) strings(dst *[]string) bool {
	if s.null() {
		return true
	}
	out := []string{}
	ok := s.array(4, func() bool {
		if s.peek() != '"' {
			return false // null elements are left to DecodeRequest
		}
		var v string
		ok := s.str(&v)
		out = append(out, v)
		return ok
	})
	*dst = out
	return ok
}

func (s *scanner) location(l *UserLocation) bool {
	f := fields{names: locationFields}
	return s.object(4, func(name []byte) bool {
		idx, ok := f.match(name)
		switch {
		case !ok:
			return false
		case idx == 0:
			return s.str(&l.Type)
		case idx == 1:
			return s.str(&l.City)
		case idx == 2:
			return s.str(&l.Region)
		case idx == 3:
			return s.str(&l.Country)
		case idx == 4:
			return s.str(&l.Timezone)
		}
		return s.skipValue(4)
	})
}

func (s *scanner) toolChoice(c *ToolChoice) bool {
	f := fields{names: choiceFields}
	return s.object(2, func(name []byte) bool {
		idx, ok := f.match(name)
		switch {
		case !ok:
			return false
		case idx == 0:
			return s.str(&c.Type)
		case idx == 1:
			return s.str(&c.Name)
		}
		return s.skipValue(2)
	})
}
