package extract

import (
	"net/url"
	"strings"
	"testing"

	"github.com/markusmobius/go-trafilatura"
)

// TestTrafilaturaLineBreaks checks the fork's change to go-trafilatura's
// paragraph handling (third_party/go-trafilatura/FORK.md): a line break
// that text follows stays, so the words either side of it are not
// glued, and one that ends the paragraph still goes.
func TestTrafilaturaLineBreaks(t *testing.T) {
	filler := strings.Repeat("The paragraph goes on with more words about the same topic. ", 6)
	tests := []struct {
		name, body string
		want, gone []string
	}{
		{"break closing bold", `<p><strong>Sustainable concepts<br></strong>Everyone has a right to food. ` + filler + `</p>`,
			[]string{"Sustainable concepts\nEveryone has"}, []string{"conceptsEveryone"}},
		{"break before bold", `<p><strong>Best for</strong> | Denim<br><strong>Size range</strong> | Up to 24<br><strong>Price</strong> | $$</p><p>` + filler + `</p>`,
			[]string{"Denim\nSize range", "24\nPrice"}, []string{"DenimSize", "24Price"}},
		{"break before link", `<p>` + filler + `See the guide<br><a href="/guide">Guide to food</a> for more.</p>`,
			[]string{"See the guide\nGuide to food"}, []string{"guideGuide"}},
		{"trailing break", `<p>` + filler + `The end.<br></p><p>` + filler + `</p>`,
			[]string{"The end.\n\n"}, nil},
	}
	u, _ := url.Parse("https://example.com/story/food")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := parseFragment(t, `<article>`+tt.body+`</article>`)
			got := renderText(candTrafilatura(doc, u, trafRun{focus: trafilatura.FavorRecall}))
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("missing %q in %q", w, got)
				}
			}
			for _, g := range tt.gone {
				if strings.Contains(got, g) {
					t.Errorf("glued %q in %q", g, got)
				}
			}
		})
	}
}
