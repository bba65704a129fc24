package extract

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestPDFParserPanic feeds a document whose cross-reference table points
// at the wrong object, which makes the parser panic (outside the recover
// in its text extraction). In process the panic is recovered; in the
// worker process it is too, and were it not, the worker's death would be
// reported. Either way the caller gets ErrPDF.
func TestPDFParserPanic(t *testing.T) {
	t.Cleanup(func() { pdfInProcess = false })
	bad := bytes.Replace(makePDF("T", "Hello"), []byte("5 0 obj"), []byte("9 0 obj"), 1)
	for _, inProcess := range []bool{true, false} {
		pdfInProcess = inProcess
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		_, err := PDF(ctx, bad, Options{})
		cancel()
		if !errors.Is(err, ErrPDF) || !strings.Contains(err.Error(), "parser failed") {
			t.Errorf("in process %v: PDF() error = %v; want ErrPDF from a recovered panic", inProcess, err)
		}
	}
}
