package extract

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ledongthuc/pdf"
)

// ErrPDF is wrapped by every error PDF returns for a document it cannot
// read (corrupt, encrypted, no text layer, or too slow to parse).
var ErrPDF = errors.New("pdf could not be read")

const (
	// maxPDFPages bounds the work per document; text past it is dropped.
	maxPDFPages = 2000
	// maxPDFText bounds the extracted text; a PDF's content streams can
	// expand far beyond its file size.
	maxPDFText = 16 << 20
)

// PDF extracts the text layer of a PDF document, page by page, separated by
// blank lines. Markdown, Text and Raw give the same plain text (a PDF has no
// markup to keep); HTML wraps it in <pre>.
//
// The parser is fed arbitrary bytes from the web, and one malformed content
// stream is enough to send it into an endless loop, which no goroutine can
// be stopped from. So the work runs in a child process (this same
// executable, re-run as a PDF worker; see init) that is killed when ctx is
// done: the deadline is real and nothing leaks. Only when the executable
// cannot be found does PDF parse in-process, in a goroutine it abandons at
// the deadline. Panics in the parser are recovered either way. Every
// failure wraps ErrPDF.
func PDF(ctx context.Context, body []byte, opts Options) (*Document, error) {
	format := opts.Format
	if format == "" {
		format = Markdown
	}
	if _, err := ParseFormat(string(format)); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrPDF, err)
	}
	// Bound concurrent parses: each is a CPU-bound process.
	select {
	case pdfSlots <- struct{}{}:
		defer func() { <-pdfSlots }()
	case <-ctx.Done():
		return nil, fmt.Errorf("%w: waiting for a parser: %w", ErrPDF, ctx.Err())
	}
	var doc *Document
	var err error
	if exe, exeErr := os.Executable(); exeErr == nil && !pdfInProcess {
		doc, err = pdfInWorker(ctx, exe, body)
	} else {
		doc, err = pdfInGoroutine(ctx, body)
	}
	if err != nil {
		return nil, err
	}
	doc.Format = format
	if format == HTML {
		doc.Content = "<pre>" + html.EscapeString(doc.Content) + "</pre>"
	}
	return doc, nil
}

// pdfSlots caps simultaneous PDF parses at the number of CPUs.
var pdfSlots = make(chan struct{}, max(2, runtime.GOMAXPROCS(0)))

// pdfInProcess forces in-process parsing; tests of the fallback set it.
var pdfInProcess = false

// pdfWorkerEnv marks a process started as a PDF worker.
const pdfWorkerEnv = "WEBGATE_PDF_WORKER"

// pdfWorkerMemory is the soft memory limit of a worker; the parser can
// expand streams far beyond the file size.
const pdfWorkerMemory = 512 << 20

// init turns this process into a PDF worker when started as one: read a
// PDF on stdin, write the result as JSON on stdout, exit. Doing it in init
// lets any binary that links this package (webgate itself, and test
// binaries) serve as its own worker without a separate executable.
func init() {
	if os.Getenv(pdfWorkerEnv) != "1" {
		return
	}
	debug.SetMemoryLimit(pdfWorkerMemory)
	os.Exit(runPDFWorker(os.Stdin, os.Stdout))
}

type pdfWorkerResult struct {
	Title   string `json:"title,omitempty"`
	Author  string `json:"author,omitempty"`
	Content string `json:"content,omitempty"`
	Error   string `json:"error,omitempty"`
}

func runPDFWorker(in io.Reader, out io.Writer) int {
	body, err := io.ReadAll(io.LimitReader(in, maxPDFInput+1))
	var res pdfWorkerResult
	switch {
	case err != nil:
		res.Error = "reading input: " + err.Error()
	case len(body) > maxPDFInput:
		res.Error = "input too large"
	default:
		doc, err := pdfInGoroutine(context.Background(), body)
		if err != nil {
			res.Error = strings.TrimPrefix(err.Error(), ErrPDF.Error()+": ")
		} else {
			res = pdfWorkerResult{Title: doc.Metadata.Title, Author: doc.Metadata.Author, Content: doc.Content}
		}
	}
	if err := json.NewEncoder(out).Encode(res); err != nil {
		return 1
	}
	return 0
}

// maxPDFInput bounds what a worker accepts (the fetcher's body limit is
// lower by default).
const maxPDFInput = 256 << 20

func pdfInWorker(ctx context.Context, exe string, body []byte) (*Document, error) {
	cmd := exec.CommandContext(ctx, exe)
	cmd.Env = append(os.Environ(), pdfWorkerEnv+"=1")
	cmd.Stdin = bytes.NewReader(body)
	out := &limitedBuffer{max: maxPDFText + 64<<10}
	cmd.Stdout = out
	cmd.Stderr = io.Discard
	// Wait must not hang on pipes held open after the kill.
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("%w: extraction stopped: %w", ErrPDF, ctx.Err())
	}
	if out.overflow {
		return nil, fmt.Errorf("%w: extracted text too large", ErrPDF)
	}
	var res pdfWorkerResult
	if jerr := json.Unmarshal(out.Bytes(), &res); jerr != nil {
		if err != nil {
			return nil, fmt.Errorf("%w: worker failed: %v", ErrPDF, err)
		}
		return nil, fmt.Errorf("%w: worker output unreadable: %v", ErrPDF, jerr)
	}
	if res.Error != "" {
		return nil, fmt.Errorf("%w: %s", ErrPDF, res.Error)
	}
	return &Document{Metadata: Metadata{Title: res.Title, Author: res.Author}, Content: res.Content}, nil
}

// limitedBuffer keeps at most max bytes and notes any overflow.
type limitedBuffer struct {
	bytes.Buffer
	max      int
	overflow bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if b.Len()+len(p) > b.max {
		b.overflow = true
		return 0, errors.New("output limit exceeded")
	}
	return b.Buffer.Write(p)
}

// pdfInGoroutine parses in this process. A parser stuck in a loop cannot
// be stopped, so at the deadline the goroutine is abandoned; it checks ctx
// between pages.
func pdfInGoroutine(ctx context.Context, body []byte) (*Document, error) {
	type result struct {
		doc *Document
		err error
	}
	ch := make(chan result, 1) // buffered: the goroutine never blocks on send
	go func() {
		var r result
		defer func() {
			if p := recover(); p != nil {
				r = result{err: fmt.Errorf("%w: parser failed: %v", ErrPDF, p)}
			}
			ch <- r
		}()
		r.doc, r.err = readPDF(ctx, body)
	}()
	select {
	case r := <-ch:
		return r.doc, r.err
	case <-ctx.Done():
		return nil, fmt.Errorf("%w: extraction stopped: %w", ErrPDF, ctx.Err())
	}
}

func readPDF(ctx context.Context, body []byte) (*Document, error) {
	r, err := pdf.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrPDF, err)
	}
	doc := &Document{}
	if info := r.Trailer().Key("Info"); !info.IsNull() {
		doc.Metadata.Title = cleanPDFString(info.Key("Title").Text())
		doc.Metadata.Author = cleanPDFString(info.Key("Author").Text())
	}
	n := min(r.NumPage(), maxPDFPages)
	if n <= 0 {
		return nil, fmt.Errorf("%w: no pages", ErrPDF)
	}
	var b strings.Builder
	fonts := make(map[string]*pdf.Font)
	for i := 1; i <= n; i++ {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrPDF, err)
		}
		p := r.Page(i)
		if p.V.IsNull() {
			continue
		}
		text, err := p.GetPlainText(fonts)
		if err != nil {
			return nil, fmt.Errorf("%w: page %d: %v", ErrPDF, i, err)
		}
		text = strings.TrimSpace(strings.ToValidUTF8(text, "\uFFFD"))
		if text == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		if b.Len()+len(text) > maxPDFText {
			b.WriteString(truncateUTF8(text, maxPDFText-b.Len()))
			break
		}
		b.WriteString(text)
	}
	if strings.TrimSpace(b.String()) == "" {
		return nil, fmt.Errorf("%w: no text layer (scanned images need OCR)", ErrPDF)
	}
	doc.Content = b.String()
	return doc, nil
}

func cleanPDFString(s string) string {
	return strings.Join(strings.Fields(strings.ToValidUTF8(s, "")), " ")
}

func truncateUTF8(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
