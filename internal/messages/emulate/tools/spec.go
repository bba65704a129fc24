package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/webgate/webgate/internal/domains"
	"github.com/webgate/webgate/internal/messages/emulate"
	"github.com/webgate/webgate/internal/messages/websearch"
	"github.com/webgate/webgate/internal/search"
)

// version describes one dated version of a server tool: the members its
// definition may carry besides type, name and the members every version
// shares.
type version struct {
	kind string
	// extra lists members only some versions accept.
	extra []string
	// dynamic marks the versions Anthropic documents with dynamic
	// filtering (model-written code filtering results in a sandbox).
	dynamic bool
}

// versions are every documented version of the two tools.
var versions = map[string]version{
	"web_search_20250305": {kind: emulate.KindWebSearch},
	"web_search_20260209": {kind: emulate.KindWebSearch, dynamic: true},
	"web_search_20260318": {kind: emulate.KindWebSearch, dynamic: true, extra: []string{"response_inclusion"}},
	"web_fetch_20250910":  {kind: emulate.KindWebFetch},
	"web_fetch_20260209":  {kind: emulate.KindWebFetch, dynamic: true},
	"web_fetch_20260309":  {kind: emulate.KindWebFetch, dynamic: true, extra: []string{"use_cache"}},
	"web_fetch_20260318":  {kind: emulate.KindWebFetch, dynamic: true, extra: []string{"use_cache", "response_inclusion"}},
}

// Members every version of a tool accepts.
var (
	commonMembers = []string{"type", "name", "max_uses", "allowed_domains", "blocked_domains",
		"allowed_callers", "cache_control", "defer_loading", "strict"}
	searchMembers = []string{"user_location"}
	fetchMembers  = []string{"citations", "max_content_tokens", "url_sources"}
)

// lookupVersion returns the version of a server tool type. A dated
// version newer than any documented one is accepted as the newest of its
// tool, so a client released after this webgate keeps working; anything
// else that is not a web_search_/web_fetch_ type is not ours.
func lookupVersion(typ string) (version, bool) {
	if v, ok := versions[typ]; ok {
		return v, true
	}
	for _, prefix := range []string{"web_search_", "web_fetch_"} {
		date, ok := strings.CutPrefix(typ, prefix)
		if !ok || len(date) != 8 || strings.Trim(date, "0123456789") != "" {
			continue
		}
		latest := ""
		for name := range versions {
			if strings.HasPrefix(name, prefix) && name > latest {
				latest = name
			}
		}
		if typ > latest {
			return versions[latest], true
		}
	}
	return version{}, false
}

// spec is a server tool definition decoded in full.
type spec struct {
	Type           string                  `json:"type"`
	Name           string                  `json:"name"`
	MaxUses        *int                    `json:"max_uses"`
	AllowedDomains []string                `json:"allowed_domains"`
	BlockedDomains []string                `json:"blocked_domains"`
	UserLocation   *userLocation           `json:"user_location"`
	Citations      *struct{ Enabled bool } `json:"citations"`
	// MaxContentTokens bounds a fetched text document.
	MaxContentTokens  *int        `json:"max_content_tokens"`
	UseCache          *bool       `json:"use_cache"`
	URLSources        *urlSources `json:"url_sources"`
	ResponseInclusion string      `json:"response_inclusion"`

	version version
	filter  *domains.Filter
	// search is a web_search definition's validated search parameters.
	search *websearch.Tool
}

type userLocation struct {
	Type     string `json:"type"`
	City     string `json:"city"`
	Region   string `json:"region"`
	Country  string `json:"country"`
	Timezone string `json:"timezone"`
}

// searchLocation is l as the search engine takes it.
func (l *userLocation) searchLocation() search.Location {
	if l == nil {
		return search.Location{}
	}
	return search.Location{Country: l.Country, Region: l.Region, City: l.City, Timezone: l.Timezone}
}

// urlSources is web fetch's url_sources: which parts of the conversation
// contribute fetchable URLs.
type urlSources struct {
	UserInput         *sourceFilter `json:"user_input"`
	ClientToolResults *sourceFilter `json:"client_tool_results"`
	ServerToolResults *sourceFilter `json:"server_tool_results"`
}

type sourceFilter struct {
	Type  string `json:"type"`
	Tools []struct {
		Type string `json:"type"`
		Name string `json:"name"`
	} `json:"tools"`
}

// accepts reports whether a URL source passes f; a nil filter is "all".
func (f *sourceFilter) accepts(tool string) bool {
	if f == nil {
		return true
	}
	named := slices.ContainsFunc(f.Tools, func(t struct {
		Type string `json:"type"`
		Name string `json:"name"`
	}) bool {
		return t.Name == tool
	})
	switch f.Type {
	case "none":
		return false
	case "only":
		return named
	case "except":
		return !named
	}
	return true
}

// accept is the url_sources decision for one appearance of a URL.
func (u *urlSources) accept(s emulate.URLSource) bool {
	if u == nil {
		return true
	}
	switch s.Origin {
	case emulate.FromUser:
		return u.UserInput.accepts("")
	case emulate.FromClientTool:
		return u.ClientToolResults.accepts(s.Tool)
	case emulate.FromServerTool:
		return u.ServerToolResults.accepts(s.Tool)
	}
	return false
}

func (f *sourceFilter) validate(path string, userInput bool) error {
	if f == nil {
		return nil
	}
	switch f.Type {
	case "all", "none":
		if len(f.Tools) > 0 {
			return fmt.Errorf("%s.tools: only allowed with type only or except", path)
		}
	case "only", "except":
		if userInput {
			return fmt.Errorf("%s.type: %q must be all or none", path, f.Type)
		}
		if len(f.Tools) == 0 {
			return fmt.Errorf("%s.tools: must name at least one tool", path)
		}
		for i, t := range f.Tools {
			if t.Name == "" || (t.Type != "" && t.Type != "tool_reference") {
				return fmt.Errorf("%s.tools[%d]: must be {\"type\": \"tool_reference\", \"name\": ...}", path, i)
			}
		}
	default:
		return fmt.Errorf("%s.type: %q must be all, none, only or except", path, f.Type)
	}
	return nil
}

// parseSpec decodes and validates a server tool definition. Every error
// wraps emulate.ErrInvalidRequest and names the member, as Anthropic's
// validation errors do.
func parseSpec(raw json.RawMessage, v version) (*spec, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", emulate.ErrInvalidRequest, fmt.Sprintf(format, args...))
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(raw, &members); err != nil {
		return nil, bad("tool definition is not a JSON object: %v", err)
	}
	s := &spec{version: v}
	if err := json.Unmarshal(raw, s); err != nil {
		return nil, bad("%s: %v", typeOf(members), err)
	}
	allowed := slices.Concat(commonMembers, v.extra)
	if v.kind == emulate.KindWebSearch {
		allowed = append(allowed, searchMembers...)
	} else {
		allowed = append(allowed, fetchMembers...)
	}
	for k, val := range members {
		if !slices.Contains(allowed, k) && !bytes.Equal(bytes.TrimSpace(val), []byte("null")) {
			return nil, bad("tools.%s.%s: Extra inputs are not permitted", s.Type, k)
		}
	}
	if s.MaxUses != nil && *s.MaxUses < 0 {
		return nil, bad("tools.%s.max_uses: %d must not be negative", s.Type, *s.MaxUses)
	}
	var err error
	if v.kind == emulate.KindWebSearch {
		if s.search, err = websearch.New(s.AllowedDomains, s.BlockedDomains, s.UserLocation.searchLocation()); err == nil {
			s.filter = s.search.Filter()
		}
	} else {
		s.filter, err = domains.Parse(s.AllowedDomains, s.BlockedDomains)
	}
	if err != nil {
		return nil, bad("tools.%s: %v", s.Type, err)
	}
	if l := s.UserLocation; l != nil && l.Type != "approximate" {
		return nil, bad("tools.%s.user_location.type: %q must be approximate", s.Type, l.Type)
	}
	if s.MaxContentTokens != nil && *s.MaxContentTokens < 1 {
		return nil, bad("tools.%s.max_content_tokens: %d must be positive", s.Type, *s.MaxContentTokens)
	}
	switch s.ResponseInclusion {
	case "", "full", "excluded":
	default:
		return nil, bad("tools.%s.response_inclusion: %q must be full or excluded", s.Type, s.ResponseInclusion)
	}
	if u := s.URLSources; u != nil {
		for _, e := range []error{
			u.UserInput.validate("tools."+s.Type+".url_sources.user_input", true),
			u.ClientToolResults.validate("tools."+s.Type+".url_sources.client_tool_results", false),
			u.ServerToolResults.validate("tools."+s.Type+".url_sources.server_tool_results", false),
		} {
			if e != nil {
				return nil, bad("%v", e)
			}
		}
	}
	return s, nil
}

func typeOf(members map[string]json.RawMessage) string {
	var t string
	_ = json.Unmarshal(members["type"], &t)
	return "tools." + t
}

// maxUses is the definition's max_uses, 0 for unlimited. An explicit 0
// allows no call at all, which the Engine can only express as a limit,
// so it becomes -1 ("every call exceeds").
func (s *spec) maxUses() int {
	switch {
	case s.MaxUses == nil:
		return 0
	case *s.MaxUses == 0:
		return -1
	}
	return *s.MaxUses
}
