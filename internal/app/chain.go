package app

import (
	"context"
	"fmt"

	"github.com/webgate/webgate/internal/audit"
	"github.com/webgate/webgate/internal/fetch"
	"github.com/webgate/webgate/internal/guard"
	"github.com/webgate/webgate/internal/policy"
	"github.com/webgate/webgate/internal/ratelimit"
	"github.com/webgate/webgate/internal/search"
)

// decorate builds what every surface calls: the engine and the fetcher
// wrapped, outermost first, in
//
//	audit -> policy -> guard -> engine / fetcher
//
// so that the audit record sees every outcome (including refusals by
// policy and the guard), policy is checked before any work, and the guard
// inspects exactly what would leave the process. Each layer is a
// search.Searcher / fetch.Getter wrapper owned by its package.
func (s *Service) decorate() error {
	var sr search.Searcher = s.engine
	var g fetch.Getter = s.fetcher
	var err error
	if sr, g, err = s.guardLayer(sr, g); err != nil {
		return err
	}
	sr, g = s.policyLayer(sr, g)
	if sr, g, err = s.auditLayer(sr, g); err != nil {
		return err
	}
	s.Searcher, s.Getter = sr, g
	return nil
}

// guardLayer wraps the query and content guards (package guard).
func (s *Service) guardLayer(sr search.Searcher, g fetch.Getter) (search.Searcher, fetch.Getter, error) {
	l, err := guard.FromConfig(s.Config.Guard)
	if err != nil {
		return nil, nil, err
	}
	s.Guard = l
	return l.Searcher(sr), l.Getter(g), nil
}

// policyLayer wraps key policy enforcement (package policy). Rate limits
// and budgets are counted in s.Counter: in this process by default, shared
// between replicas when a shared Counter is set before New returns.
func (s *Service) policyLayer(sr search.Searcher, g fetch.Getter) (search.Searcher, fetch.Getter) {
	if s.Counter == nil {
		s.Counter = ratelimit.NewLocalCounter(nil)
	}
	e := policy.NewEnforcer(s.Counter, s.Log)
	return e.Searcher(sr), e.Getter(g)
}

// auditLayer wraps the audit log (package audit), redacting with the
// guard's secret detector.
func (s *Service) auditLayer(sr search.Searcher, g fetch.Getter) (search.Searcher, fetch.Getter, error) {
	lg, red, err := audit.FromConfig(s.Config.Audit, s.Guard.Detector().RedactSecrets, s.Log, s.AuditSinks...)
	if err != nil {
		return nil, nil, fmt.Errorf("audit: %w", err)
	}
	s.Audit = lg
	l := audit.NewLayer(lg, red)
	return l.Searcher(sr), l.Getter(g), nil
}

// Close flushes the audit log (waiting at most until ctx ends) and closes
// its sinks. Call it when the process stops serving.
func (s *Service) Close(ctx context.Context) error {
	return s.Audit.Close(ctx)
}
