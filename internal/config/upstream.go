package config

import (
	"errors"
	"fmt"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/webgate/webgate/internal/messages/seal"
)

// Upstream is the model backend that /v1/messages forwards to, and the
// settings of the Anthropic-compatible proxy in front of it.
type Upstream struct {
	// Kind is "anthropic" for Anthropic-compatible Messages endpoints or
	// "openai" for OpenAI Chat Completions-compatible ones (DeepSeek, GLM,
	// Kimi, OpenRouter, Copilot, Ollama, vLLM), which webgate reaches by
	// translating every Messages request.
	Kind string `yaml:"kind"`
	// BaseURL is the upstream's root URL. For kind anthropic the default is
	// https://api.anthropic.com and requests go to <base_url>/v1/messages.
	// For kind openai the default is https://api.openai.com/v1 and requests
	// go to <base_url>/chat/completions, so include the API version path
	// (for example http://127.0.0.1:11434/v1 for Ollama).
	BaseURL string `yaml:"base_url"`
	// Emulate decides when webgate runs the web_search and web_fetch server
	// tools itself (replacing them with client tools for the upstream and
	// looping until the model is done). "auto", the default, emulates for
	// every upstream except Anthropic's own API (api.anthropic.com), which
	// has the tools natively; "always" emulates everywhere; "never" passes
	// requests through untouched. Kind openai always emulates, since Chat
	// Completions has no server tools.
	Emulate string `yaml:"emulate"`
	// Models, for kind openai, maps client model names to upstream model
	// names and per-model settings (output limit, reasoning controls),
	// first match wins; a name no rule matches is sent unchanged with
	// default settings, and replies always report the name the client
	// asked for. Patterns use shell glob syntax, for example {pattern:
	// "claude-*", model: "qwen3-coder", max_tokens: 32768}. Kind anthropic
	// refuses it: its requests are forwarded as the client sent them.
	Models []ModelRule `yaml:"models"`
	// MaxIterations caps the upstream calls of one emulated turn. When the
	// model still wants to search or fetch after this many, the response ends
	// with stop_reason "pause_turn" and the client continues it by sending the
	// conversation back, as Anthropic documents.
	MaxIterations int `yaml:"max_iterations"`
	// MaxCompletionTokens, for kind openai, sends max_tokens as
	// max_completion_tokens, which OpenAI's reasoning models require. Most
	// compatible servers want max_tokens, the default (false).
	MaxCompletionTokens bool `yaml:"max_completion_tokens"`
	// APIKey, when set, replaces the client's credentials on forwarded
	// requests. Without it the client's x-api-key or Authorization header
	// is forwarded unchanged, except that when gateway keys are configured
	// every header carrying a webgate key (the one presented, in any
	// header and inside Basic credentials, or any generated wgk_ key) is
	// always removed. Set it whenever gateway keys are used, unless
	// clients send their own upstream key beside their webgate key.
	APIKey string `yaml:"api_key"`
	// MaxBodyBytes caps the size of a request body the proxy accepts. The
	// default is Anthropic's own limit for the Messages API; larger bodies
	// are refused with request_too_large.
	MaxBodyBytes int64 `yaml:"max_body_bytes"`
	// MaxBodyBytesInFlight bounds the request body bytes the proxy holds
	// at once, across all requests: the worst case would otherwise be
	// server.max_concurrent_requests times max_body_bytes (8 GiB by
	// default). A request whose body does not fit waits up to 10s for
	// others to finish, then is refused with 529 overloaded_error and
	// Retry-After, which Anthropic clients retry. When max_body_bytes is
	// larger than the default, the default rises to it; it may not be
	// smaller than max_body_bytes.
	MaxBodyBytesInFlight int64 `yaml:"max_body_bytes_in_flight"`
	// ResponseHeaderTimeout bounds the wait for the upstream's response
	// headers, and then every wait for more of the reply: an upstream that
	// goes silent that long mid-stream is cut off (the client gets an
	// error event). Non-streaming requests only get headers once the whole
	// reply is generated, so the default is generous.
	ResponseHeaderTimeout time.Duration `yaml:"response_header_timeout"`
	// SealKeys are the keys that encrypt and authenticate the opaque
	// encrypted_content and encrypted_index values webgate gives clients.
	// Each entry is "<id>:<base64 of 32 random bytes>" (generate one with
	// `openssl rand -base64 32`). The first key seals, every key opens, so
	// rotate by putting a new key first and dropping the old one later.
	// When empty, each process generates a random key at start-up, and
	// values from an earlier process or another replica cannot be opened.
	SealKeys []string `yaml:"seal_keys"`
	// WebSearch configures how the proxy answers web search requests itself.
	WebSearch UpstreamWebSearch `yaml:"web_search"`
}

// ModelRule maps client model names matching Pattern to Model and holds
// the settings webgate needs to talk to that model. A request whose model
// no rule matches gets every setting's default.
type ModelRule struct {
	// Pattern is a shell glob (path.Match syntax) matched against the
	// client's model name, for example "claude-*".
	Pattern string `yaml:"pattern"`
	// Model is the upstream model name sent instead. When empty the
	// client's model name is sent unchanged, so a rule can carry settings
	// only.
	Model string `yaml:"model"`
	// MaxTokens is the largest max_tokens (or max_completion_tokens) sent
	// for this model: a request asking for more is clamped to it, since
	// Chat Completions servers refuse values above their model's output
	// limit while Claude Code asks for up to 128000. The default is 8192,
	// a value every hosted service tested accepts (DeepSeek's deepseek-chat
	// allows no more); raise it for models with larger outputs, or set -1
	// to send the client's value unchanged.
	MaxTokens int `yaml:"max_tokens"`
	// MaxUserLength bounds the user identifier sent as "user" (from
	// metadata.user_id). A longer one is replaced by a stable hash of it,
	// so requests of one user still share an identifier. The default is
	// 64, OpenAI's limit (Claude Code's identifier is about 150
	// characters); -1 leaves "user" out entirely.
	MaxUserLength int `yaml:"max_user_length"`
	// MaxToolDescription, when positive, shortens tool descriptions longer
	// than this many characters, at a sentence or word boundary, for
	// backends that refuse long ones (some cap them at 1024). The default,
	// 0, sends descriptions whole.
	MaxToolDescription int `yaml:"max_tool_description"`
	// Reasoning says how the request's thinking and output_config.effort
	// reach this model: "none" (the default) drops them; "reasoning_effort"
	// sends OpenAI's reasoning_effort (low, medium or high); "openrouter"
	// sends OpenRouter's reasoning object (effort, or max_tokens from a
	// thinking budget); "thinking" sends {"thinking": {"type": "enabled"
	// or "disabled"}} as DeepSeek, GLM and Kimi take it; "chat_template"
	// sends chat_template_kwargs.enable_thinking, the switch of Qwen3 and
	// similar models served by vLLM or SGLang.
	Reasoning string `yaml:"reasoning"`
}

// Reasoning styles of ModelRule.Reasoning.
const (
	ReasoningNone         = "none"
	ReasoningEffort       = "reasoning_effort"
	ReasoningOpenRouter   = "openrouter"
	ReasoningThinking     = "thinking"
	ReasoningChatTemplate = "chat_template"
)

// Default model settings (see ModelRule).
const (
	DefaultModelMaxTokens     = 8192
	DefaultModelMaxUserLength = 64
)

// WithDefaults returns r with every unset setting at its default.
func (r ModelRule) WithDefaults() ModelRule {
	if r.MaxTokens == 0 {
		r.MaxTokens = DefaultModelMaxTokens
	}
	if r.MaxUserLength == 0 {
		r.MaxUserLength = DefaultModelMaxUserLength
	}
	if r.Reasoning == "" {
		r.Reasoning = ReasoningNone
	}
	return r
}

// UpstreamWebSearch configures the proxy's search-execution fast path: a
// request that only asks for one web search (as Claude Code's WebSearch
// tool sends) is answered by webgate's own search engine, with no upstream
// model call.
type UpstreamWebSearch struct {
	// FastPath turns the fast path on. The default is true; when false,
	// every request is forwarded upstream unchanged.
	FastPath *bool `yaml:"fast_path"`
	// Enrich fetches the top result pages and adds their passages most
	// relevant to the query to the text the model reads. The default is
	// true; it needs the page fetcher.
	Enrich *bool `yaml:"enrich"`
	// EnrichPages is how many top results are fetched concurrently for
	// enrichment. At most 10.
	EnrichPages int `yaml:"enrich_pages"`
	// EnrichTimeout bounds enrichment as a whole; pages not fetched by then
	// are left out.
	EnrichTimeout time.Duration `yaml:"enrich_timeout"`
	// PassagesPerPage is how many key passages are kept from each enriched
	// page.
	PassagesPerPage int `yaml:"passages_per_page"`
	// MaxResults is the number of results asked of the search engine; 0,
	// the default, means the engine's search.max_results.
	MaxResults int `yaml:"max_results"`
	// MaxQueryLength is the longest query, in characters, that is searched;
	// longer ones get the query_too_long error.
	MaxQueryLength int `yaml:"max_query_length"`
	// PingInterval is how often a ping event is streamed while a search or
	// enrichment is running, keeping idle-timeout proxies from cutting the
	// stream.
	PingInterval time.Duration `yaml:"ping_interval"`
}

// FastPathEnabled reports whether the search fast path is on.
func (w UpstreamWebSearch) FastPathEnabled() bool { return w.FastPath == nil || *w.FastPath }

// EnrichEnabled reports whether enrichment is on.
func (w UpstreamWebSearch) EnrichEnabled() bool { return w.Enrich == nil || *w.Enrich }

// WithDefaults returns u with every unset field at its documented default,
// for callers that build an Upstream in code rather than loading a file.
func (u Upstream) WithDefaults() Upstream {
	u.applyDefaults()
	return u
}

// Emulates reports whether server tools are emulated rather than passed
// through, by the rules documented on Emulate.
func (u Upstream) Emulates() bool {
	switch {
	case u.Kind == "openai" || u.Emulate == "always":
		return true
	case u.Emulate == "never":
		return false
	}
	p, err := url.Parse(u.BaseURL)
	return err != nil || !strings.EqualFold(p.Hostname(), "api.anthropic.com")
}

// Validate reports every problem in u, each naming its key.
func (u Upstream) Validate() error { return errors.Join(u.validate()...) }

func (u *Upstream) applyDefaults() {
	if u.Kind == "" {
		u.Kind = "anthropic"
	}
	if u.BaseURL == "" {
		u.BaseURL = "https://api.anthropic.com"
		if u.Kind == "openai" {
			u.BaseURL = "https://api.openai.com/v1"
		}
	}
	if u.Emulate == "" {
		u.Emulate = "auto"
	}
	if u.MaxIterations == 0 {
		u.MaxIterations = 10
	}
	if u.MaxBodyBytes == 0 {
		u.MaxBodyBytes = 32 << 20
	}
	if u.MaxBodyBytesInFlight == 0 {
		u.MaxBodyBytesInFlight = max(128<<20, u.MaxBodyBytes)
	}
	if u.ResponseHeaderTimeout == 0 {
		u.ResponseHeaderTimeout = 10 * time.Minute
	}
	u.WebSearch.applyDefaults()
}

func (w *UpstreamWebSearch) applyDefaults() {
	if w.EnrichPages == 0 {
		w.EnrichPages = 3
	}
	if w.EnrichTimeout == 0 {
		w.EnrichTimeout = 2 * time.Second
	}
	if w.PassagesPerPage == 0 {
		w.PassagesPerPage = 2
	}
	if w.MaxQueryLength == 0 {
		w.MaxQueryLength = 500
	}
	if w.PingInterval == 0 {
		w.PingInterval = 10 * time.Second
	}
}

func (u *Upstream) validate() []error {
	var errs []error
	if u.Kind != "anthropic" && u.Kind != "openai" {
		errs = append(errs, fmt.Errorf("upstream.kind: %q must be anthropic or openai", u.Kind))
	}
	switch u.Emulate {
	case "auto", "always", "never":
	default:
		errs = append(errs, fmt.Errorf("upstream.emulate: %q must be auto, always or never", u.Emulate))
	}
	if u.Kind == "openai" && u.Emulate == "never" {
		errs = append(errs, errors.New("upstream.emulate: never is not possible with kind openai, which has no server tools"))
	}
	if u.MaxIterations < 1 || u.MaxIterations > 100 {
		errs = append(errs, fmt.Errorf("upstream.max_iterations: %d must be between 1 and 100", u.MaxIterations))
	}
	if len(u.Models) > 0 && u.Kind == "anthropic" {
		errs = append(errs, errors.New("upstream.models: only kind openai maps model names; kind anthropic forwards requests as the client sent them"))
	}
	for i, r := range u.Models {
		if _, err := path.Match(r.Pattern, ""); err != nil || r.Pattern == "" {
			errs = append(errs, fmt.Errorf("upstream.models[%d].pattern: %q is not a valid glob", i, r.Pattern))
		}
		r = r.WithDefaults()
		if r.MaxTokens < -1 {
			errs = append(errs, fmt.Errorf("upstream.models[%d].max_tokens: %d must be positive, or -1 for no limit", i, r.MaxTokens))
		}
		if r.MaxUserLength < -1 {
			errs = append(errs, fmt.Errorf("upstream.models[%d].max_user_length: %d must be positive, or -1 to leave user out", i, r.MaxUserLength))
		}
		if r.MaxToolDescription < 0 {
			errs = append(errs, fmt.Errorf("upstream.models[%d].max_tool_description: %d must not be negative", i, r.MaxToolDescription))
		}
		switch r.Reasoning {
		case ReasoningNone, ReasoningEffort, ReasoningOpenRouter, ReasoningThinking, ReasoningChatTemplate:
		default:
			errs = append(errs, fmt.Errorf("upstream.models[%d].reasoning: %q must be none, reasoning_effort, openrouter, thinking or chat_template", i, r.Reasoning))
		}
	}
	if p, err := url.Parse(u.BaseURL); err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		errs = append(errs, fmt.Errorf("upstream.base_url: %q must be an absolute http(s) URL", u.BaseURL))
	}
	if u.MaxBodyBytes < 1024 {
		errs = append(errs, fmt.Errorf("upstream.max_body_bytes: %d must be at least 1024", u.MaxBodyBytes))
	}
	if u.MaxBodyBytesInFlight < u.MaxBodyBytes {
		errs = append(errs, fmt.Errorf("upstream.max_body_bytes_in_flight: %d must be at least upstream.max_body_bytes (%d), or a request of the largest size could never run", u.MaxBodyBytesInFlight, u.MaxBodyBytes))
	}
	if u.ResponseHeaderTimeout <= 0 {
		errs = append(errs, fmt.Errorf("upstream.response_header_timeout: %s must be positive", u.ResponseHeaderTimeout))
	}
	seen := map[string]bool{}
	for i, s := range u.SealKeys {
		k, err := seal.ParseKey(s)
		if err != nil {
			// The error text never includes the secret itself.
			errs = append(errs, fmt.Errorf("upstream.seal_keys[%d]: %w", i, err))
			continue
		}
		if seen[k.ID] {
			errs = append(errs, fmt.Errorf("upstream.seal_keys[%d]: key id %q is used twice", i, k.ID))
		}
		seen[k.ID] = true
	}
	w := u.WebSearch
	if w.EnrichPages < 1 || w.EnrichPages > 10 {
		errs = append(errs, fmt.Errorf("upstream.web_search.enrich_pages: %d must be between 1 and 10", w.EnrichPages))
	}
	if w.EnrichTimeout <= 0 {
		errs = append(errs, fmt.Errorf("upstream.web_search.enrich_timeout: %s must be positive", w.EnrichTimeout))
	}
	if w.PassagesPerPage < 1 || w.PassagesPerPage > 10 {
		errs = append(errs, fmt.Errorf("upstream.web_search.passages_per_page: %d must be between 1 and 10", w.PassagesPerPage))
	}
	if w.MaxResults < 0 || w.MaxResults > 50 {
		errs = append(errs, fmt.Errorf("upstream.web_search.max_results: %d must be between 0 and 50", w.MaxResults))
	}
	if w.MaxQueryLength < 1 {
		errs = append(errs, fmt.Errorf("upstream.web_search.max_query_length: %d must be positive", w.MaxQueryLength))
	}
	if w.PingInterval <= 0 {
		errs = append(errs, fmt.Errorf("upstream.web_search.ping_interval: %s must be positive", w.PingInterval))
	}
	return errs
}
