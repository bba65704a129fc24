package emulate

import "strings"

// markerOp is one step of the model's text after citation markers were
// taken out: text to show, or the sources cited by the text before it.
type markerOp struct {
	text  string
	cites []int
}

// maxHeld bounds the text held back while deciding whether "[" starts a
// marker: "[12, 13][14]" and the spaces before it fit with room to spare.
const maxHeld = 48

// markers finds citation markers ("[3]", "[1][2]", "[1, 2]") in text that
// arrives in arbitrary fragments, so the client's text can stream live
// with the markers removed. A fragment that might be the start of a
// marker, and spaces that would precede one, are held back until the next
// fragment decides them. Text inside Markdown code (inline or fenced) is
// never scanned: "a[1]" in code stays as written. A bracketed number that
// names no known source is left in the text too.
type markers struct {
	valid func(n int) bool
	held  string
	// Code state: a run of backticks being counted, and whether the text
	// is inside a fence or an inline code span.
	ticks  int
	fence  bool
	inline bool
}

// feed scans s and returns the ops for everything that can be decided.
func (m *markers) feed(s string) []markerOp {
	return m.scan(m.held+s, false)
}

// flush returns the ops for whatever is still held, at the end of a block.
func (m *markers) flush() []markerOp {
	if m.held == "" {
		return nil
	}
	return m.scan(m.held, true)
}

func (m *markers) scan(s string, final bool) []markerOp {
	m.held = ""
	var ops []markerOp
	var out strings.Builder
	emitText := func() {
		if out.Len() > 0 {
			ops = append(ops, markerOp{text: out.String()})
			out.Reset()
		}
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c == '`' {
			m.ticks++
			out.WriteByte(c)
			i++
			continue
		}
		if m.ticks > 0 {
			m.endTicks()
		}
		if m.fence || m.inline || (c != ' ' && c != '\t' && c != '[') {
			out.WriteByte(c)
			i++
			continue
		}
		// Spaces, then possibly a marker: decide the whole run at once.
		j := i
		for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
			j++
		}
		if j == len(s) {
			switch {
			case final:
				out.WriteString(s[i:])
			case j-i > maxHeld:
				// A long run of spaces: only its end may precede a marker.
				out.WriteString(s[i : j-maxHeld])
				m.held = s[j-maxHeld:]
			default:
				m.held = s[i:]
			}
			break
		}
		if s[j] != '[' {
			out.WriteString(s[i:j])
			i = j
			continue
		}
		nums, end, complete := parseMarkers(s[j:], final)
		switch {
		case !complete && !final && len(s)-i <= maxHeld:
			m.held = s[i:]
			i = len(s)
		case complete && m.allValid(nums):
			emitText()
			ops = append(ops, markerOp{cites: nums})
			i = j + end
		default:
			// Not a marker: keep the spaces and the bracket as text.
			out.WriteString(s[i : j+1])
			i = j + 1
		}
	}
	if final && m.ticks > 0 {
		m.endTicks()
	}
	emitText()
	return ops
}

// endTicks closes a run of backticks: three or more open or close a
// fence, fewer open or close an inline code span outside fences.
func (m *markers) endTicks() {
	if m.ticks >= 3 {
		m.fence = !m.fence
	} else if !m.fence {
		m.inline = !m.inline
	}
	m.ticks = 0
}

func (m *markers) allValid(nums []int) bool {
	for _, n := range nums {
		if m.valid == nil || !m.valid(n) {
			return false
		}
	}
	return len(nums) > 0
}

// parseMarkers reads one or more adjacent bracket groups of source numbers
// at the start of s ("[1]", "[1,2]", "[1][2]", "[1] [2]"). complete is
// false when s ends before the groups could be decided; end is the length
// consumed. A group that is not a list of numbers stops the parse; if it
// is the first one, nums is empty. With final set, the end of s ends
// the markers instead of leaving them undecided.
func parseMarkers(s string, final bool) (nums []int, end int, complete bool) {
	i := 0
	for {
		group, n, ok, more := parseGroup(s[i:])
		if more && !final {
			// s ends inside a group (or before a following one could be
			// ruled out).
			return nil, 0, false
		}
		if !ok {
			return nums, i, true
		}
		nums = append(nums, group...)
		i += n
		// Another group may follow directly or after one space.
		j := i
		if j < len(s) && s[j] == ' ' {
			j++
		}
		if j == len(s) {
			if final {
				return nums, i, true
			}
			// Undecided: "[1]" at the end of a fragment may be followed
			// by "[2]" in the next one.
			return nil, 0, false
		}
		if s[j] != '[' {
			return nums, i, true
		}
		if _, _, ok2, more2 := parseGroup(s[j:]); more2 && !final {
			return nil, 0, false
		} else if !ok2 {
			return nums, i, true
		}
		i = j
	}
}

// parseGroup reads "[n]" or "[n, m, ...]" (numbers of 1 to 3 digits,
// separated by commas or semicolons and optional spaces) at the start of s.
func parseGroup(s string) (nums []int, n int, ok, more bool) {
	if len(s) == 0 || s[0] != '[' {
		return nil, 0, false, false
	}
	i := 1
	for {
		start := i
		v := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' && i-start < 3 {
			v = v*10 + int(s[i]-'0')
			i++
		}
		if i == len(s) {
			return nil, 0, false, true
		}
		if i == start || (s[i] >= '0' && s[i] <= '9') {
			return nil, 0, false, false
		}
		nums = append(nums, v)
		for i < len(s) && s[i] == ' ' {
			i++
		}
		if i == len(s) {
			return nil, 0, false, true
		}
		switch s[i] {
		case ']':
			return nums, i + 1, true, false
		case ',', ';':
			i++
			for i < len(s) && s[i] == ' ' {
				i++
			}
			if i == len(s) {
				return nil, 0, false, true
			}
		default:
			return nil, 0, false, false
		}
	}
}
