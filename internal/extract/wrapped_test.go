package extract

import (
	"strings"
	"testing"
)

// TestJoinWrappedLines: a <br> inside a sentence becomes a space; breaks
// after a sentence, before a capital (a poem, an address), after a short
// label, before a list's next item, and in code stay.
func TestJoinWrappedLines(t *testing.T) {
	tests := []struct {
		name, html, want string
	}{
		{"a hard-wrapped paragraph",
			`<p>Gym equipment refers to the various machines, tools, and accessories used in a<br>fitness facility to help individuals achieve their goals. These<br>machines are designed to target <a href="/m">different muscle</a><br>groups.</p>`,
			"Gym equipment refers to the various machines, tools, and accessories used in a fitness facility to help individuals achieve their goals. These machines are designed to target different muscle groups."},
		{"a sentence's end", `<p>The ferry leaves at nine in the morning.<br>later boats run on Sundays only.</p>`,
			"The ferry leaves at nine in the morning.\nlater boats run on Sundays only."},
		{"a poem's lines", `<p>I wandered lonely as a cloud<br>That floats on high o'er vales and hills</p>`,
			"I wandered lonely as a cloud\nThat floats on high o'er vales and hills"},
		{"a short label", `<p>Phone<br>opening hours vary</p>`, "Phone\nopening hours vary"},
		{"a list set with breaks", `<p>Mix the following into the bowl<br>2 cups flour<br>1 tsp salt</p>`,
			"Mix the following into the bowl\n2 cups flour\n1 tsp salt"},
		{"code", `<pre><code>for i in range(10): print(i) and then<br>continue with the loop</code></pre>`,
			"for i in range(10): print(i) and then\ncontinue with the loop"},
		{"a blank line", `<p>The first part of the letter ends here without a stop<br><br>and the second part starts</p>`,
			"The first part of the letter ends here without a stop\nand the second part starts"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := parseFragment(t, tt.html)
			joinWrappedLines(root)
			if got := strings.TrimSpace(renderText(root)); got != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}
