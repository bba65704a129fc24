package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/webgate/webgate/internal/app"
	"github.com/webgate/webgate/internal/extract"
	"github.com/webgate/webgate/internal/fetch"
)

// fetchConcurrency bounds the URLs fetched at once; the fetcher's per-host
// limit still applies beneath it.
const fetchConcurrency = 8

type fetchCmd struct {
	URLs       []string `arg:"" name:"url" help:"One or more http(s) URLs to fetch."`
	Format     string   `help:"Output format: markdown, text, html or raw." enum:"markdown,text,html,raw" default:"markdown" short:"f"`
	MaxLength  int      `name:"max-length" help:"Return at most N characters of content per URL (0: no limit)." placeholder:"N"`
	StartIndex int      `name:"start-index" help:"Skip the first N characters, to page through a long document." placeholder:"N"`
	MaxTokens  int      `name:"max-tokens" help:"Approximate token budget per URL (about 4 characters a token); cuts at a block boundary." placeholder:"N"`
	NoCache    bool     `name:"no-cache" help:"Fetch again even if the page is cached."`
	Render     string   `name:"render" help:"Render pages in a headless browser: auto (pages that need JavaScript, when a browser is installed), always or never. Default: fetch.render (auto)." placeholder:"MODE"`
	JSON       bool     `name:"json" help:"Print one JSON object per URL per line (JSON Lines)."`
}

type fetchOutcome struct {
	res *fetch.Result
	err error
}

func (c *fetchCmd) Run(r *runtime) error {
	for _, f := range []struct {
		name string
		v    int
	}{{"--max-length", c.MaxLength}, {"--start-index", c.StartIndex}, {"--max-tokens", c.MaxTokens}} {
		if f.v < 0 {
			return &exitError{code: 2, err: fmt.Errorf("%s %d: must not be negative", f.name, f.v)}
		}
	}
	render, err := fetch.ParseRenderMode(c.Render)
	if err != nil {
		return &exitError{code: 2, err: fmt.Errorf("--render: %w", err)}
	}
	cfg, err := r.Config()
	if err != nil {
		return err
	}
	svc, err := app.New(cfg, r.Logger())
	if err != nil {
		return err
	}
	defer svc.Shutdown()

	n := len(c.URLs)
	outcomes := make([]chan fetchOutcome, n)
	for i := range outcomes {
		outcomes[i] = make(chan fetchOutcome, 1)
	}
	reqs := make([]fetch.Request, n)
	for i, u := range c.URLs {
		reqs[i] = fetch.Request{
			URL:        u,
			Format:     extract.Format(c.Format),
			MaxLength:  c.MaxLength,
			StartIndex: c.StartIndex,
			MaxTokens:  c.MaxTokens,
			NoCache:    c.NoCache,
			Render:     render,
		}
	}
	fetched := make(chan struct{})
	go func() {
		defer close(fetched)
		fetch.Each(r.Ctx, svc.Getter, reqs, fetchConcurrency, func(i int, res *fetch.Result, err error) {
			outcomes[i] <- fetchOutcome{res: res, err: err}
		}, func(i int) {
			outcomes[i] <- fetchOutcome{err: r.Ctx.Err()}
		})
	}()
	defer func() { <-fetched }()

	// Results are printed in input order as soon as each one's turn comes,
	// so the first page shows while later ones are still loading.
	p := &progress{w: r.IO.Stderr, on: r.IO.IsTerminal, total: n}
	failed := 0
	for i, u := range c.URLs {
		p.show(i, u)
		o := <-outcomes[i]
		p.clear()
		if o.err != nil {
			failed++
		}
		if err := c.print(r, i, u, o); err != nil {
			return err
		}
	}
	if failed > 0 {
		// Each failure has had its own line; the exit code says the rest.
		return &exitError{code: 1}
	}
	return nil
}

func (c *fetchCmd) print(r *runtime, i int, u string, o fetchOutcome) error {
	if c.JSON {
		b, err := json.Marshal(fetch.NewJSONResult(u, o.res, o.err))
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(r.IO.Stdout, "%s\n", b)
		if o.err != nil {
			fmt.Fprintf(r.IO.Stderr, "webgate: %s\n", oneLineText(o.err.Error()))
		}
		return err
	}
	if o.err != nil {
		fmt.Fprintf(r.IO.Stderr, "webgate: %s\n", oneLineText(o.err.Error()))
		return nil
	}
	var b strings.Builder
	res := o.res
	content := res.Content
	if c.Format == string(extract.Markdown) {
		if i > 0 {
			b.WriteString("\n---\n\n")
		}
		title := oneLineText(res.Title)
		if title == "" {
			title = res.FinalURL
		}
		fmt.Fprintf(&b, "# %s\n\nSource: <%s>\n\n", title, res.FinalURL)
		if res.Metadata.Paywalled {
			b.WriteString("*The publisher marks this article as for subscribers only; the text below may be only its free part.*\n\n")
		}
		// Most pages open with their title as a heading; printing it twice
		// wastes a reader's attention (and a model's tokens).
		if c.StartIndex == 0 {
			content = fetch.TrimTitleHeading(content, title)
		}
	} else if len(c.URLs) > 1 {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "==> %s <==\n", res.FinalURL)
	}
	b.WriteString(content)
	if !strings.HasSuffix(content, "\n") {
		b.WriteByte('\n')
	}
	if res.Truncated {
		fmt.Fprintf(&b, "\n[Truncated: %d of %d characters shown. Continue with --start-index %d.]\n",
			res.NextStartIndex-c.StartIndex, res.TotalLength, res.NextStartIndex)
	}
	_, err := io.WriteString(r.IO.Stdout, b.String())
	return err
}

// progress draws a one-line "fetching i/n" status on an interactive
// stderr, rewritten in place with \r and erased before any output.
type progress struct {
	w     io.Writer
	on    bool
	total int
	drawn bool
}

func (p *progress) show(i int, u string) {
	if !p.on {
		return
	}
	const maxURL = 60
	if rs := []rune(u); len(rs) > maxURL {
		u = string(rs[:maxURL-1]) + "…"
	}
	fmt.Fprintf(p.w, "\r\033[Kfetching %d/%d %s", i+1, p.total, u)
	p.drawn = true
}

func (p *progress) clear() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
		p.drawn = false
	}
}
