package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/webgate/webgate/internal/charset"
	"github.com/webgate/webgate/internal/extract"
)

// maxExtractInput bounds what the command reads: real pages are far
// smaller, and an accidental pipe from a huge file should fail fast.
const maxExtractInput = 64 << 20

type extractCmd struct {
	File   string `arg:"" help:"HTML file to extract from, or - for stdin." name:"file"`
	URL    string `help:"The page's original URL, to resolve relative links." placeholder:"URL" name:"url"`
	Format string `help:"Output format: markdown, text, html or raw." enum:"markdown,text,html,raw" default:"markdown" short:"f"`
	// StripHidden extracts as web_fetch does by default
	// (guard.content.strip_hidden), so a page can be checked the way a
	// model reads it.
	StripHidden bool `help:"Remove what a reader never sees (hidden elements, invisible text, comments) before extracting, as fetch does with the content guard on (the default)." name:"strip-hidden"`
}

// Run extracts main content from a local file. It deliberately never loads
// the configuration nor touches the network, so it works on any machine and
// inside evaluation harnesses.
func (c *extractCmd) Run(r *runtime) error {
	format, err := extract.ParseFormat(c.Format)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	var in io.Reader
	name := c.File
	if c.File == "-" {
		in, name = r.IO.Stdin, "stdin"
	} else {
		f, err := os.Open(c.File)
		if err != nil {
			return fmt.Errorf("extract: %w", unwrapPathError(err))
		}
		defer f.Close()
		in = f
	}
	body, err := io.ReadAll(io.LimitReader(in, maxExtractInput+1))
	if err != nil {
		return fmt.Errorf("extract: reading %s: %w", name, err)
	}
	if len(body) > maxExtractInput {
		return fmt.Errorf("extract: %s is larger than %d MiB", name, maxExtractInput>>20)
	}
	// A saved page is in the encoding it was served in, and a file has
	// no Content-Type: its <meta> charset (or windows-1252, the web's
	// default for unlabelled legacy pages) decides, as a browser decides.
	body, _ = charset.Decode(body, "")
	doc, err := extract.Extract(r.Ctx, body, extract.Options{URL: c.URL, Format: format, StripHidden: c.StripHidden})
	if err != nil {
		return fmt.Errorf("extract: %s: %w", name, err)
	}
	out := doc.Content
	if !strings.HasSuffix(out, "\n") {
		out += "\n"
	}
	_, err = io.WriteString(r.IO.Stdout, out)
	return err
}

// unwrapPathError keeps "open x: no such file or directory" on one short
// line instead of Go's nested error chain.
func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %v", pe.Path, pe.Err)
	}
	return err
}
