package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/encoding/charmap"
)

// TestExtractLegacyEncoding: a page saved in the legacy encoding it was
// served in (ISO-8859-1 by its <meta>, or unlabelled) comes out as UTF-8
// text, umlauts and typographic quotes intact.
func TestExtractLegacyEncoding(t *testing.T) {
	story := `<h1>Überschrift</h1><p>Die Bundesregierung hat am Montag beschlossen, dass die Steuer für Bürger steigt, „sagt“ er.</p>` +
		`<p>` + strings.Repeat("Mehr Text über Straßen und Brücken im Artikel. ", 12) + `</p>`
	for _, tc := range []struct{ name, head string }{
		{"meta charset", `<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">`},
		{"unlabelled", ``},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page, err := charmap.Windows1252.NewEncoder().String(`<html><head>` + tc.head + `<title>Überschrift</title></head><body><article>` + story + `</article></body></html>`)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "page.html")
			if err := os.WriteFile(path, []byte(page), 0o600); err != nil {
				t.Fatal(err)
			}
			code, stdout, stderr := run(t, nil, "extract", "--format", "text", "--url", "https://news.example/politik/steuer.html", path)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			for _, want := range []string{"Steuer für Bürger steigt, „sagt“ er.", "Straßen und Brücken"} {
				if !strings.Contains(stdout, want) {
					t.Errorf("output lacks %q:\n%s", want, stdout)
				}
			}
		})
	}
}
