package openai

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestThinkSplitter(t *testing.T) {
	for _, c := range []struct {
		name          string
		frags         []string
		thinking, txt string
	}{
		{"whole", []string{"<think>plan</think>\n\nanswer"}, "plan", "answer"},
		{"split tags", []string{"\n<th", "ink>pl", "an</thi", "nk>", "\n", "ans", "wer"}, "plan", "answer"},
		{"no tag", []string{"hello <think>x</think>"}, "", "hello <think>x</think>"},
		{"almost a tag", []string{"<thi", "s is text"}, "", "<this is text"},
		{"unclosed", []string{"<think>still", " going"}, "still going", ""},
		{"close tag prefix in thinking", []string{"<think>a </", "b </think>c"}, "a </b ", "c"},
		{"whitespace only", []string{"  ", "\n"}, "", "  \n"},
		{"long lead", []string{strings.Repeat(" ", maxThinkLead+1), "<think>x</think>"}, "", strings.Repeat(" ", maxThinkLead+1) + "<think>x</think>"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var s thinkSplitter
			var th, tx strings.Builder
			for _, f := range c.frags {
				a, b := s.split(f)
				th.WriteString(a)
				tx.WriteString(b)
				if len(s.held) > max(len(thinkClose), maxThinkLead) {
					t.Fatalf("holding %d bytes", len(s.held))
				}
			}
			a, b := s.flush()
			th.WriteString(a)
			tx.WriteString(b)
			if th.String() != c.thinking || tx.String() != c.txt {
				t.Errorf("thinking %q text %q, want %q %q", th.String(), tx.String(), c.thinking, c.txt)
			}
		})
	}
}

// unquote's fast path must decode exactly as encoding/json does.
func TestUnquote(t *testing.T) {
	for _, in := range []string{`""`, `"plain"`, `"é ü"`, `"a\"b"`, `"tab\t"`, "\"raw\ttab\"", `"\u00e9"`, "\"bad \xff utf8\"", `"x`} {
		got, err := unquote([]byte(in))
		var want string
		werr := json.Unmarshal([]byte(in), &want)
		if got != want || (err == nil) != (werr == nil) {
			t.Errorf("unquote(%q) = %q, %v; encoding/json %q, %v", in, got, err, want, werr)
		}
	}
}
