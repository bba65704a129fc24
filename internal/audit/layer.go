package audit

import (
	"context"
	"errors"
	"time"

	"github.com/webgate/webgate/internal/fetch"
	"github.com/webgate/webgate/internal/guard"
	"github.com/webgate/webgate/internal/policy"
	"github.com/webgate/webgate/internal/search"
)

// Layer is the audit layer of the service chain: the outermost wrapper, so
// its record sees every outcome, refusals by policy and the guard
// included.
type Layer struct {
	log    *Logger
	redact Redaction
	now    func() time.Time
}

// NewLayer returns a Layer writing to log with redaction r.
func NewLayer(log *Logger, r Redaction) *Layer {
	return &Layer{log: log, redact: r, now: time.Now}
}

// Searcher wraps next.
func (l *Layer) Searcher(next search.Searcher) search.Searcher { return searcher{l, next} }

// Getter wraps next.
func (l *Layer) Getter(next fetch.Getter) fetch.Getter { return getter{l, next} }

type searcher struct {
	l    *Layer
	next search.Searcher
}

func (s searcher) Search(ctx context.Context, q search.Query) (*search.Response, error) {
	start := s.l.now()
	resp, err := s.next.Search(ctx, q)
	rec := s.l.record(ctx, KindSearch, start, err)
	rec.Query = s.l.redact.Text(q.Text, rec.Outcome == OutcomeBlocked)
	if resp != nil {
		rec.Provider, rec.Results, rec.Cached = resp.Provider, len(resp.Results), resp.Cached
		for _, r := range resp.Results {
			rec.Bytes += int64(len(r.Title) + len(r.URL) + len(r.Snippet))
		}
	}
	s.l.log.Log(rec)
	return resp, err
}

type getter struct {
	l    *Layer
	next fetch.Getter
}

func (g getter) Fetch(ctx context.Context, req fetch.Request) (*fetch.Result, error) {
	start := g.l.now()
	res, err := g.next.Fetch(ctx, req)
	rec := g.l.record(ctx, KindFetch, start, err)
	rec.URL = g.l.redact.Text(req.URL, rec.Outcome == OutcomeBlocked)
	if res != nil {
		rec.Bytes, rec.Cached, rec.Rendered = int64(len(res.Content)), res.Cached, res.Rendered
		if err == nil {
			rec.Results = 1
		}
	}
	g.l.log.Log(rec)
	return res, err
}

// record fills the fields every record has.
func (l *Layer) record(ctx context.Context, kind string, start time.Time, err error) Record {
	c, _ := policy.CallerFrom(ctx)
	rec := Record{
		Time: start.UTC(), KeyID: c.KeyID, Surface: c.Surface, Kind: kind,
		LatencyMS: float64(l.now().Sub(start).Microseconds()) / 1000, Outcome: Outcome(err),
	}
	if err != nil {
		rec.Error = l.redact.Message(err.Error(), errorClass(err))
	}
	return rec
}

// Outcome classifies err: nil is ok, a policy refusal denied, a guard
// refusal blocked, anything else error.
func Outcome(err error) string {
	switch {
	case err == nil:
		return OutcomeOK
	case errors.Is(err, policy.ErrDenied):
		return OutcomeDenied
	case errors.Is(err, guard.ErrSecret):
		return OutcomeBlocked
	}
	return OutcomeError
}

// errorClass names the kind of failure without any request text, for the
// hash and omit modes.
func errorClass(err error) string {
	var d *policy.Denial
	switch {
	case errors.As(err, &d):
		return "denied: " + d.Kind.Error()
	case errors.Is(err, guard.ErrSecret):
		return "blocked: " + guard.ErrSecret.Error()
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	}
	for _, k := range []error{search.ErrInvalidQuery, search.ErrRateLimited, search.ErrAuth, search.ErrQuota, search.ErrBlocked, search.ErrUnavailable, search.ErrNoProviders} {
		if errors.Is(err, k) {
			return "search: " + k.Error()
		}
	}
	if t := fetch.ErrorType(err); t != "internal" {
		return "fetch: " + t
	}
	return "error"
}
