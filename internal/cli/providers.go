package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/webgate/webgate/internal/config"
	"github.com/webgate/webgate/internal/search"
)

type providersCmd struct {
	Check   bool          `help:"Probe each configured provider with a live query."`
	Query   string        `help:"Query used by --check." default:"webgate"`
	Timeout time.Duration `help:"Deadline for each probe." default:"10s"`
	JSON    bool          `help:"Print JSON." name:"json"`
}

type providerStatus struct {
	Name       string `json:"name"`
	Position   int    `json:"position,omitempty"` // 1-based place in the chain; 0 if not in it
	Configured bool   `json:"configured"`
	Missing    string `json:"missing,omitempty"`
	BaseURL    string `json:"base_url,omitempty"`
	// Probe fields, with --check.
	Checked   bool   `json:"checked,omitempty"`
	OK        bool   `json:"ok,omitempty"`
	Results   int    `json:"results,omitempty"`
	LatencyMS int64  `json:"latency_ms,omitempty"`
	Error     string `json:"error,omitempty"`
}

func (c *providersCmd) Run(r *runtime) error {
	cfg, err := r.Config()
	if err != nil {
		return err
	}
	names := search.ProviderNames()
	statuses := make([]providerStatus, len(names))
	for i, name := range names {
		st := providerStatus{Name: name, BaseURL: cfg.Providers.ByName(name).BaseURL}
		st.Position = slices.Index(cfg.Search.Providers, name) + 1
		st.Missing = cfg.Providers.Missing(name)
		st.Configured = st.Missing == ""
		statuses[i] = st
	}
	if c.Check {
		c.probe(r.Ctx, cfg, statuses)
	}
	if c.JSON {
		enc := json.NewEncoder(r.IO.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(statuses); err != nil {
			return err
		}
	} else {
		c.table(r, statuses)
	}
	if c.Check {
		for _, st := range statuses {
			if st.Position > 0 && !st.OK {
				return &exitError{code: 1, err: fmt.Errorf("provider %s failed its check", st.Name)}
			}
		}
	}
	return nil
}

// probe runs one live query against every configured provider concurrently.
func (c *providersCmd) probe(ctx context.Context, cfg *config.Config, statuses []providerStatus) {
	hc := &http.Client{Timeout: c.Timeout}
	var wg sync.WaitGroup
	for i := range statuses {
		st := &statuses[i]
		if !st.Configured {
			continue
		}
		wg.Go(func() {
			st.Checked = true
			p, err := search.NewProvider(st.Name, cfg.Providers.ByName(st.Name).Settings(), hc)
			if err != nil {
				st.Error = err.Error()
				return
			}
			pctx, cancel := context.WithTimeout(ctx, c.Timeout)
			defer cancel()
			start := time.Now()
			res, err := p.Search(pctx, search.Query{Text: c.Query, MaxResults: 3})
			st.LatencyMS = time.Since(start).Milliseconds()
			if err != nil {
				st.Error = probeError(err)
				return
			}
			st.OK, st.Results = true, len(res)
		})
	}
	wg.Wait()
}

func probeError(err error) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return "timed out"
	}
	return err.Error()
}

func (c *providersCmd) table(r *runtime, statuses []providerStatus) {
	tw := tabwriter.NewWriter(r.IO.Stdout, 0, 4, 2, ' ', 0)
	header := "PROVIDER\tCHAIN\tSTATUS"
	if c.Check {
		header += "\tCHECK"
	}
	fmt.Fprintln(tw, header)
	for _, st := range statuses {
		chain := "-"
		if st.Position > 0 {
			chain = fmt.Sprintf("#%d", st.Position)
		}
		status := "ready"
		if !st.Configured {
			status = "needs " + st.Missing
		} else if st.BaseURL != "" {
			status = "ready (" + st.BaseURL + ")"
		}
		line := strings.Join([]string{st.Name, chain, status}, "\t")
		if c.Check {
			switch {
			case !st.Checked:
				line += "\t-"
			case st.OK:
				line += fmt.Sprintf("\tok: %d results in %d ms", st.Results, st.LatencyMS)
			default:
				line += "\tFAILED: " + st.Error
			}
		}
		fmt.Fprintln(tw, line)
	}
	tw.Flush()
}
