package extract

import (
	"strings"
	"testing"
)

// TestLeadingDateline: an undeclared page's one date stamp above its
// first paragraph goes; a listing's per-item dates and a date inside the
// story stay.
func TestLeadingDateline(t *testing.T) {
	story := "<p>" + strings.Repeat("The old mill on the main street will be restored from next month. ", 3) + "</p>"
	for _, tc := range []struct {
		name       string
		html       string
		gone, kept []string
	}{
		{"stamp above the story", `<p class="datum">Eingestellt am 14.05.2008 von Hans Müller</p>` + story + story,
			[]string{"Eingestellt"}, []string{"The old mill"}},
		{"a listing's dates", `<p>Posted 12 May 2025</p>` + story + `<p>Posted 11 May 2025</p>` + story,
			nil, []string{"Posted 12 May", "Posted 11 May"}},
		{"a date after the story began", story + `<p>Updated 14 May 2025</p>` + story,
			nil, []string{"Updated 14 May"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := parseFragment(t, tc.html)
			dropLabelLines(root)
			got := collapseSpace(textOf(root))
			for _, s := range tc.gone {
				if strings.Contains(got, s) {
					t.Errorf("%q was kept: %q", s, got)
				}
			}
			for _, s := range tc.kept {
				if !strings.Contains(got, s) {
					t.Errorf("%q was removed: %q", s, got)
				}
			}
		})
	}
}
