package extract

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/google/go-cmp/cmp"

	"fmt"
	"strings"
	"testing"
)

// makePDF builds a minimal, valid PDF with one page per text, a Helvetica
// font and an Info dictionary, computing the cross-reference offsets so the
// strict parser accepts it.
func makePDF(title string, pages ...string) []byte {
	var objs []string
	// 1: catalog, 2: pages, 3: font, 4: info, then page/content pairs.
	kids := make([]string, len(pages))
	for i := range pages {
		kids[i] = fmt.Sprintf("%d 0 R", 5+2*i)
	}
	objs = append(objs,
		"<< /Type /Catalog /Pages 2 0 R >>",
		fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(pages)),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
		fmt.Sprintf("<< /Title (%s) /Author (Test Author) >>", title),
	)
	for i, text := range pages {
		stream := fmt.Sprintf("BT /F1 12 Tf 72 720 Td (%s) Tj ET", text)
		objs = append(objs,
			fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>", 6+2*i),
			fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(stream), stream),
		)
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R /Info 4 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return b.Bytes()
}

func TestPDF(t *testing.T) {
	good := makePDF("A Title", "Hello PDF", "Second page")
	tests := []struct {
		name   string
		format Format
		want   *Document
	}{
		{"markdown", "", &Document{
			Metadata: Metadata{Title: "A Title", Author: "Test Author"},
			Content:  "Hello PDF\n\nSecond page",
			Format:   Markdown,
		}},
		{"text", Text, &Document{
			Metadata: Metadata{Title: "A Title", Author: "Test Author"},
			Content:  "Hello PDF\n\nSecond page",
			Format:   Text,
		}},
		{"html escapes", HTML, &Document{
			Metadata: Metadata{Title: "A Title", Author: "Test Author"},
			Content:  "<pre>Hello PDF\n\nSecond page</pre>",
			Format:   HTML,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := PDF(context.Background(), good, Options{Format: tt.format})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("PDF() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPDFMalformed checks that parser failures map to ErrPDF. It parses
// in-process (none of these inputs loops), which keeps the suite fast under
// -race; the worker's error path is covered by TestPDFWorker and
// TestPDFParserHang.
func TestPDFMalformed(t *testing.T) {
	pdfInProcess = true
	t.Cleanup(func() { pdfInProcess = false })
	good := makePDF("T", "Hello")
	noText := makePDF("T", "")
	tests := []struct {
		name string
		body []byte
	}{
		{"empty", nil},
		{"not a pdf", []byte("<html>hello</html>")},
		{"header only", []byte("%PDF-1.7\n")},
		{"truncated", good[:len(good)/2]},
		{"garbage after header", append([]byte("%PDF-1.4\n"), bytes.Repeat([]byte{0xff, 0x00, 0x13}, 500)...)},
		{"corrupt xref", bytes.Replace(good, []byte("xref"), []byte("xxxx"), 1)},
		{"bad startxref", bytes.Replace(good, []byte("startxref\n"), []byte("startxref\n9"), 1)},
		{"no text layer", noText},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Generous: a race-enabled worker takes seconds to start on
			// a loaded machine, and only the error kind is asserted.
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			doc, err := PDF(ctx, tt.body, Options{})
			if !errors.Is(err, ErrPDF) {
				t.Fatalf("PDF() = %v, %v; want an error wrapping ErrPDF", doc, err)
			}
		})
	}
}

// TestPDFParserHang feeds a document whose unterminated hex string sends
// the parser into an endless loop: the deadline must still end the call
// with ErrPDF, and the worker process is killed rather than leaked.
func TestPDFParserHang(t *testing.T) {
	hang := bytes.Replace(makePDF("T", "Hello", "World"), []byte("(Hello) Tj ET"), []byte("(Hello) Tj <T"), 1)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err := PDF(ctx, hang, Options{})
	if !errors.Is(err, ErrPDF) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("PDF() error = %v; want ErrPDF and the deadline", err)
	}
}

// TestPDFInProcessFallback covers parsing without a worker process.
func TestPDFInProcessFallback(t *testing.T) {
	pdfInProcess = true
	t.Cleanup(func() { pdfInProcess = false })
	doc, err := PDF(context.Background(), makePDF("T", "Hello"), Options{})
	if err != nil || doc.Content != "Hello" || doc.Metadata.Title != "T" {
		t.Fatalf("PDF() = %+v, %v", doc, err)
	}
	if _, err := PDF(context.Background(), []byte("%PDF-1.4 junk"), Options{}); !errors.Is(err, ErrPDF) {
		t.Fatalf("PDF(junk) error = %v; want ErrPDF", err)
	}
}

func TestPDFWorker(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		want pdfWorkerResult
	}{
		{"ok", makePDF("Title", "Body"), pdfWorkerResult{Title: "Title", Author: "Test Author", Content: "Body"}},
		{"bad", []byte("nope"), pdfWorkerResult{Error: "not a PDF file: invalid header"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			if code := runPDFWorker(bytes.NewReader(tt.in), &out); code != 0 {
				t.Fatalf("exit code %d", code)
			}
			var got pdfWorkerResult
			if err := json.Unmarshal(out.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("worker result mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPDFContextDone(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := PDF(ctx, makePDF("T", "Hello"), Options{})
	if !errors.Is(err, ErrPDF) || !errors.Is(err, context.Canceled) {
		t.Fatalf("PDF() error = %v; want ErrPDF and context.Canceled", err)
	}
}

func TestPDFBadFormat(t *testing.T) {
	if _, err := PDF(context.Background(), makePDF("T", "Hello"), Options{Format: "docx"}); err == nil {
		t.Fatal("PDF() accepted an unknown format")
	}
}

// FuzzPDF feeds arbitrary bytes to the PDF reader: it must return text or
// ErrPDF, never panic or hang.
func FuzzPDF(f *testing.F) {
	good := makePDF("T", "Hello", "World")
	f.Add(good)
	f.Add(good[:len(good)-40])
	f.Add([]byte("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF"))
	f.Fuzz(func(t *testing.T, body []byte) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		doc, err := PDF(ctx, body, Options{})
		if err != nil {
			if !errors.Is(err, ErrPDF) {
				t.Fatalf("error %v does not wrap ErrPDF", err)
			}
			return
		}
		if doc.Content == "" {
			t.Fatal("success with empty content")
		}
	})
}
