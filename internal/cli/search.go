package cli

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/webgate/webgate/internal/app"
	"github.com/webgate/webgate/internal/search"
)

type searchCmd struct {
	Query      []string `arg:"" help:"The search query (several words are joined)." name:"query"`
	Count      int      `short:"n" name:"count" help:"Number of results, 1-50 (default: search.max_results, 10)." placeholder:"N"`
	Provider   string   `help:"Ask only this provider instead of the fallback chain." placeholder:"NAME"`
	Allow      []string `help:"Only results from this domain or path prefix (repeatable)." placeholder:"DOMAIN"`
	Block      []string `help:"Never results from this domain or path prefix (repeatable)." placeholder:"DOMAIN"`
	Country    string   `help:"Two-letter country code to localise results, e.g. US." placeholder:"CC"`
	Language   string   `help:"Language of results, e.g. en or pt-BR." placeholder:"LANG"`
	Freshness  string   `help:"Only recent results: any, day, week, month or year." enum:"any,day,week,month,year" default:"any"`
	SafeSearch string   `help:"Adult-content filter: default, off, moderate or strict." enum:"default,off,moderate,strict" default:"default" name:"safe-search"`
	JSON       bool     `help:"Print JSON instead of Markdown." name:"json"`
}

// searchFlags names a query field by the flag that sets it.
var searchFlags = map[string]string{
	"query": "the query", "max_results": "--count (-n)", "allowed_domains": "--allow", "blocked_domains": "--block",
	"user_location.country": "--country", "language": "--language", "freshness": "--freshness",
	"safe_search": "--safe-search", "provider": "--provider",
}

func (c *searchCmd) Run(r *runtime) error {
	q := c.query()
	if err := q.Validate(search.DefaultLimits); err != nil {
		var ve *search.ValidationError
		if errors.As(err, &ve) {
			err = errors.New(ve.Describe(func(f string) string { return cmp.Or(searchFlags[f], f) }))
		}
		return &exitError{code: 2, err: err}
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
	resp, err := svc.Searcher.Search(r.Ctx, q)
	if err != nil {
		return err
	}
	if c.JSON {
		enc := json.NewEncoder(r.IO.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(resp.JSON())
	}
	return writeMarkdown(r.IO.Stdout, resp)
}

func (c *searchCmd) query() search.Query {
	return search.Query{
		Text:           strings.Join(c.Query, " "),
		MaxResults:     c.Count,
		AllowedDomains: c.Allow,
		BlockedDomains: c.Block,
		Location:       search.Location{Country: strings.ToUpper(c.Country)},
		Language:       c.Language,
		Freshness:      search.Freshness(strings.TrimPrefix(c.Freshness, "any")),
		SafeSearch:     search.SafeSearch(strings.TrimPrefix(c.SafeSearch, "default")),
		Provider:       c.Provider,
	}
}

// writeMarkdown prints results as a numbered Markdown list: title, URL,
// date and snippet, the way a person (or a model) reads them best.
func writeMarkdown(w io.Writer, resp *search.Response) error {
	if len(resp.Results) == 0 {
		_, err := fmt.Fprintf(w, "No results for %q (provider: %s).\n", resp.Query.Text, resp.Provider)
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Results for %q (%s)\n\n", resp.Query.Text, resp.Provider)
	for i, res := range resp.Results {
		fmt.Fprintf(&b, "%d. **%s**\n   %s\n", i+1, oneLineText(res.Title), res.URL)
		if p := res.PublishedString(); p != "" {
			fmt.Fprintf(&b, "   Published: %s\n", p)
		}
		if s := oneLineText(res.Snippet); s != "" {
			fmt.Fprintf(&b, "   %s\n", s)
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func oneLineText(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
