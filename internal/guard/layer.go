package guard

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/webgate/webgate/internal/config"
	"github.com/webgate/webgate/internal/extract"
	"github.com/webgate/webgate/internal/fetch"
	"github.com/webgate/webgate/internal/search"
)

// Mode is what the query guard does with a query holding a secret.
type Mode string

// Modes.
const (
	ModeBlock  Mode = "block"
	ModeRedact Mode = "redact"
	ModeOff    Mode = "off"
)

// Layer is the guard layer of the service chain: it wraps the search
// engine and the fetcher with the query guard (on the way out) and the
// content guard (on the way back).
type Layer struct {
	det           *Detector
	mode          Mode
	stripHidden   bool
	flagInjection bool
}

// LayerOptions configures a Layer.
type LayerOptions struct {
	Detector      *Detector
	Mode          Mode
	StripHidden   bool
	FlagInjection bool
}

// NewLayer returns a Layer. A nil Detector means one with default
// options.
func NewLayer(o LayerOptions) *Layer {
	if o.Detector == nil {
		o.Detector = NewDetector(Options{HighEntropy: true})
	}
	if o.Mode == "" {
		o.Mode = ModeBlock
	}
	return &Layer{det: o.Detector, mode: o.Mode, stripHidden: o.StripHidden, flagInjection: o.FlagInjection}
}

// FromConfig builds the Layer for the guard section.
func FromConfig(c config.Guard) (*Layer, error) {
	det, err := DetectorFromConfig(c)
	if err != nil {
		return nil, err
	}
	return NewLayer(LayerOptions{
		Detector: det, Mode: Mode(c.Query.Mode),
		StripHidden: c.Content.StripHiddenEnabled(), FlagInjection: c.Content.FlagInjectionEnabled(),
	}), nil
}

// DetectorFromConfig builds the secret detector the guard section
// describes (guard.query: high_entropy, internal_hosts, allow). The query
// guard, the audit log and the server log all redact with it, whatever
// guard.query.mode says: mode decides what happens to a search, not
// whether secrets may be written down.
func DetectorFromConfig(c config.Guard) (*Detector, error) {
	var allow []*regexp.Regexp
	for i, p := range c.Query.Allow {
		re, err := regexp.Compile(p)
		if err != nil {
			return nil, fmt.Errorf("guard.query.allow[%d]: %w", i, err)
		}
		allow = append(allow, re)
	}
	return NewDetector(Options{HighEntropy: c.Query.HighEntropyEnabled(), InternalHosts: c.Query.InternalHosts, Allow: allow}), nil
}

// Detector returns the layer's secret detector, which the audit log uses
// to redact what it records.
func (l *Layer) Detector() *Detector { return l.det }

// Searcher wraps next.
func (l *Layer) Searcher(next search.Searcher) search.Searcher { return searcher{l, next} }

// Getter wraps next.
func (l *Layer) Getter(next fetch.Getter) fetch.Getter { return getter{l, next} }

type searcher struct {
	l    *Layer
	next search.Searcher
}

// Search checks the query for secrets, then cleans invisible characters
// out of the titles and snippets that come back.
func (s searcher) Search(ctx context.Context, q search.Query) (*search.Response, error) {
	if s.l.mode != ModeOff {
		if fs := s.l.det.Scan(q.Text); len(fs) > 0 {
			if s.l.mode == ModeBlock {
				return nil, &SecretError{What: "query", Kinds: Kinds(fs)}
			}
			q.Text = Redact(q.Text, fs, func(Finding) string { return "[REDACTED]" })
		}
	}
	resp, err := s.next.Search(ctx, q)
	if err != nil || !s.l.stripHidden {
		return resp, err
	}
	return cleanResults(resp), nil
}

// cleanResults returns resp with invisible characters removed from titles
// and snippets, copying only when something changes: the engine may share
// resp with its cache.
func cleanResults(resp *search.Response) *search.Response {
	var out []search.Result
	for i, r := range resp.Results {
		title, n1 := CleanText(r.Title)
		snippet, n2 := CleanText(r.Snippet)
		if n1+n2 == 0 {
			continue
		}
		if out == nil {
			out = append([]search.Result(nil), resp.Results...)
		}
		out[i].Title, out[i].Snippet = title, snippet
	}
	if out == nil {
		return resp
	}
	c := *resp
	c.Results = out
	return &c
}

type getter struct {
	l    *Layer
	next fetch.Getter
}

// maxInjectionScan bounds how much content is scanned for injections.
const maxInjectionScan = 512 << 10

// htmlComment finds HTML comments left in Markdown (pages served as
// Markdown, or Markdown alternates), which a renderer would hide.
var htmlComment = regexp.MustCompile(`(?s)<!--.*?-->`)

// Fetch refuses URLs that carry secrets, asks the fetcher to strip hidden
// content (fetch.Request.StripHidden), then removes invisible characters and flags likely prompt
// injections in the result.
func (g getter) Fetch(ctx context.Context, req fetch.Request) (*fetch.Result, error) {
	if g.l.mode != ModeOff {
		if fs := g.l.det.ScanURL(req.URL); len(fs) > 0 {
			// Redacting a URL would fetch a different page, so both
			// block and redact refuse.
			return nil, &SecretError{What: "URL", Kinds: Kinds(fs)}
		}
	}
	if g.l.stripHidden {
		req.StripHidden = true
	}
	res, err := g.next.Fetch(ctx, req)
	if err != nil || res == nil || req.Format == extract.Raw {
		return res, err
	}
	out := *res // the fetcher may share res with its cache
	if g.l.stripHidden {
		out.Title, _ = CleanText(out.Title)
		out.Content, _ = CleanText(out.Content)
		if req.Format != extract.HTML && strings.Contains(out.Content, "<!--") {
			out.Content = htmlComment.ReplaceAllString(out.Content, "")
		}
	}
	if g.l.flagInjection {
		scan := out.Content
		if len(scan) > maxInjectionScan {
			scan = scan[:maxInjectionScan]
		}
		out.Injection = nil
		for _, f := range Injections(scan) {
			out.Injection = append(out.Injection, fetch.InjectionFlag{Rule: f.Rule, Excerpt: f.Excerpt})
		}
	}
	return &out, nil
}
