package emulate

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// flatten renders ops for comparison: text as is, citations as {n,m}.
func flatten(ops []markerOp) string {
	var b strings.Builder
	for _, op := range ops {
		if op.cites != nil {
			b.WriteByte('{')
			for i, n := range op.cites {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(strconv.Itoa(n))
			}
			b.WriteByte('}')
			continue
		}
		b.WriteString(op.text)
	}
	return b.String()
}

func upTo(n int) func(int) bool { return func(i int) bool { return i >= 1 && i <= n } }

func scanAll(m *markers, parts ...string) string {
	var ops []markerOp
	for _, p := range parts {
		ops = append(ops, m.feed(p)...)
	}
	return flatten(append(ops, m.flush()...))
}

func TestMarkers(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Go added generics [1].", "Go added generics{1}."},
		{"Both say so [1][2].", "Both say so{1,2}."},
		{"Both say so [1] [2].", "Both say so{1,2}."},
		{"A list [1, 2; 3].", "A list{1,2,3}."},
		{"No space[3] works too.", "No space{3} works too."},
		{"Unknown source [9] stays.", "Unknown source [9] stays."},
		{"Mixed [1][9] stays whole.", "Mixed [1][9] stays whole."},
		{"Not a marker [a] or [] or [1.", "Not a marker [a] or [] or [1."},
		{"Code `a[1]` and ```\nx[2]\n``` stay.", "Code `a[1]` and ```\nx[2]\n``` stay."},
		{"After code `x` [1] works.", "After code `x`{1} works."},
		{"Ends with a marker [3]", "Ends with a marker{3}"},
		{"Four digits [1234] is text.", "Four digits [1234] is text."},
		{"Trailing spaces   ", "Trailing spaces   "},
		{"tab\t[2]", "tab{2}"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := scanAll(&markers{valid: upTo(5)}, tt.in); got != tt.want {
				t.Errorf("whole: got %q, want %q", got, tt.want)
			}
			// Every split into two fragments, and byte by byte, gives the
			// same result: the stream's chunking never matters.
			for i := 0; i <= len(tt.in); i++ {
				if got := scanAll(&markers{valid: upTo(5)}, tt.in[:i], tt.in[i:]); got != tt.want {
					t.Errorf("split at %d: got %q, want %q", i, got, tt.want)
				}
			}
			bytes := make([]string, len(tt.in))
			for i := range tt.in {
				bytes[i] = tt.in[i : i+1]
			}
			if got := scanAll(&markers{valid: upTo(5)}, bytes...); got != tt.want {
				t.Errorf("byte by byte: got %q, want %q", got, tt.want)
			}
		})
	}
}

// FuzzMarkers checks, for any text and any split, that chunking never
// changes the outcome, that nothing is lost but markers and the spaces
// before them, and that held text stays bounded.
func FuzzMarkers(f *testing.F) {
	for _, s := range []string{"a [1] b", "x[1][2]y", "``` [1] ```", "[", "[1", " [12, 3]", "é [2]"} {
		f.Add(s, 1)
	}
	f.Fuzz(func(t *testing.T, s string, cut int) {
		if cut < 0 || cut > len(s) {
			cut = len(s) / 2
		}
		if strings.Contains(s, strings.Repeat(" ", maxHeld/2)) {
			// Held text is bounded, so a marker after a very long run of
			// spaces may keep some of them depending on the split.
			t.Skip()
		}
		whole := scanAll(&markers{valid: upTo(20)}, s)
		m := &markers{valid: upTo(20)}
		ops := m.feed(s[:cut])
		if len(m.held) > maxHeld {
			t.Fatalf("held %d bytes", len(m.held))
		}
		ops = append(ops, m.feed(s[cut:])...)
		split := flatten(append(ops, m.flush()...))
		if diff := cmp.Diff(whole, split); diff != "" {
			t.Fatalf("split at %d changes the result (-whole +split):\n%s", cut, diff)
		}
		if none := scanAll(&markers{valid: func(int) bool { return false }}, s); none != s {
			t.Fatalf("with no valid sources the text changed: %q -> %q", s, none)
		}
	})
}

func TestURLsIn(t *testing.T) {
	got := URLsIn(`See https://example.com/a, (https://en.wikipedia.org/wiki/Go_(language)) and <https://x.test/p?q=1>. Also "http://y.test/".`)
	want := []string{"https://example.com/a", "https://en.wikipedia.org/wiki/Go_(language)", "https://x.test/p?q=1", "http://y.test/"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestConversationSeen(t *testing.T) {
	var c Conversation
	c.AddText("read https://www.Example.com/docs/ please", URLSource{Origin: FromUser})
	c.AddURL("https://tool.test/x", URLSource{Origin: FromClientTool, Tool: "grep"})
	for _, u := range []string{"https://example.com/docs", "http://example.com/docs/#top", "https://EXAMPLE.com/docs?utm_source=x"} {
		if !c.Seen(u, nil) {
			t.Errorf("%s not seen", u)
		}
	}
	if c.Seen("https://example.com/other", nil) {
		t.Error("an unmentioned URL was seen")
	}
	onlyUser := func(s URLSource) bool { return s.Origin == FromUser }
	if c.Seen("https://tool.test/x", onlyUser) || !c.Seen("https://tool.test/x", nil) {
		t.Error("source filter not applied")
	}
}
