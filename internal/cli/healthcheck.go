package cli

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"
)

type healthcheckCmd struct {
	URL     string        `help:"Probe to ask." default:"http://127.0.0.1:8788/healthz" placeholder:"URL"`
	Timeout time.Duration `help:"Give up after this long." default:"3s"`
}

// Run asks a probe and exits 0 when it answers 200. It exists for
// container health checks in images without a shell or curl (the
// Dockerfile's HEALTHCHECK runs `webgate healthcheck`).
func (c *healthcheckCmd) Run(r *runtime) error {
	ctx, cancel := context.WithTimeout(r.Ctx, c.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.URL, nil)
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("healthcheck: %s answered %d: %s", c.URL, resp.StatusCode, body)
	}
	fmt.Fprintf(r.IO.Stdout, "%s", body)
	return nil
}
