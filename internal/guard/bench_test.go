package guard

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webgate/webgate/internal/extract"
)

// BenchmarkScan is the query guard's cost per search: a typical agent query
// and a long one (2,000 characters, the surfaces' maximum).
func BenchmarkScan(b *testing.B) {
	d := corpusDetector()
	for _, tc := range []struct{ name, q string }{
		{"typical", "golang generics type parameters constraints tutorial 2026"},
		{"error-message", "TypeError: Cannot read properties of undefined (reading 'map') at App.render (/src/App.jsx:42:17) react 18"},
		{"long", strings.Repeat("kubernetes ingress nginx 502 bad gateway upstream timeout ", 40)[:2000]},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if len(d.Scan(tc.q)) != 0 {
					b.Fatal("false alarm")
				}
			}
		})
	}
}

// BenchmarkCleanText: the content guard's pass over a 50 KB page of
// mostly Latin text with a few invisible characters.
func BenchmarkCleanText(b *testing.B) {
	page := strings.Repeat("Limescale builds up in every kettle in hard-water areas — café, naïve.\u200b ", 700)
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		CleanText(page)
	}
}

// BenchmarkInjections: the flagger over a 50 KB page, and over the same
// page holding one Kelvin sign (which Go's (?i) matches as k: a page that
// could once make the flagger run every regexp over all of it).
func BenchmarkInjections(b *testing.B) {
	page := strings.Repeat("Fill the kettle halfway with equal parts water and white vinegar, then bring it to the boil. ", 550)
	for _, bc := range []struct{ name, page string }{{"prose", page}, {"kelvin-sign", "5 \u212a. " + page}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.page)))
			b.ReportAllocs()
			for b.Loop() {
				Injections(bc.page)
			}
		})
	}
}

// BenchmarkContentGuardPage is the content guard's cost per fetched page,
// over 40 real pages of the WCXB set (one page per op, in turn):
// "extract" is extraction alone, "extract+guard" adds what the guard
// layer does to a fetch (hidden elements stripped from the parsed
// document, invisible characters cleaned out of the Markdown, injections
// flagged), and "guard-text" is the text passes alone on the extracted
// Markdown.
func BenchmarkContentGuardPage(b *testing.B) {
	dir := sharedDir(b, "extraction-bench/wcxb-dev/html")
	files, _ := filepath.Glob(filepath.Join(dir, "*.html.gz"))
	var pages [][]byte
	var texts []string
	for i, f := range files {
		if i%37 != 0 {
			continue
		}
		raw, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			b.Fatal(err)
		}
		body, err := io.ReadAll(zr)
		if err != nil {
			b.Fatal(err)
		}
		doc, err := extract.Extract(context.Background(), body, extract.Options{})
		if err != nil {
			continue
		}
		pages = append(pages, body)
		texts = append(texts, doc.Content)
	}
	text := func(s string) {
		s, _ = CleanText(s)
		Injections(s)
	}
	b.Run("extract", func(b *testing.B) {
		i := 0
		for b.Loop() {
			_, _ = extract.Extract(context.Background(), pages[i%len(pages)], extract.Options{})
			i++
		}
	})
	b.Run("extract+guard", func(b *testing.B) {
		i := 0
		for b.Loop() {
			doc, err := extract.Extract(context.Background(), pages[i%len(pages)], extract.Options{StripHidden: true})
			if err == nil {
				text(doc.Content)
			}
			i++
		}
	})
	b.Run("guard-text", func(b *testing.B) {
		i := 0
		for b.Loop() {
			text(texts[i%len(texts)])
			i++
		}
	})
}
