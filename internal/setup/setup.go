// Package setup writes the configuration that adds webgate as an MCP server
// to AI clients: Claude Code, Gemini CLI, OpenCode, Codex, Cursor and
// Claude Desktop.
//
// Plan describes what would change (for `webgate setup <client>` to print);
// Apply merges it into the client's files after a timestamped backup,
// keeping every other setting. JSON files are decoded into generic maps, so
// unknown keys survive (key order is normalised); Codex's TOML is edited as
// text so comments and the layout of other tables survive too.
package setup

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// Clients lists the supported client names, in documentation order.
var Clients = []string{"claude-code", "gemini-cli", "opencode", "codex", "cursor", "claude-desktop"}

// DefaultURL is the MCP endpoint of a local `webgate serve`.
const DefaultURL = "http://127.0.0.1:8788/mcp"

// Options says what to set up.
type Options struct {
	// Client is one of Clients.
	Client string
	// Name is the server's name in the client's config (default webgate).
	Name string
	// Binary is the absolute path of the webgate executable, for stdio.
	Binary string
	// ConfigFile, when set, is passed to `webgate mcp` as --config.
	ConfigFile string
	// HTTP configures the Streamable HTTP endpoint URL instead of stdio.
	HTTP bool
	// URL is the MCP endpoint for HTTP (default DefaultURL).
	URL string
	// TokenEnv names an environment variable holding a bearer token for
	// HTTP; the client config references it instead of storing the secret.
	TokenEnv string
	// DisableBuiltin also turns off the client's own web search and web
	// fetch tools, so its model uses webgate's.
	DisableBuiltin bool
	// KeepBuiltinFetch, with DisableBuiltin, leaves the client's own fetch
	// tool on and turns off only its search.
	KeepBuiltinFetch bool
	// Home is the user's home directory.
	Home string
	// Env looks up environment variables (XDG_CONFIG_HOME, CODEX_HOME,
	// APPDATA); nil means none are set.
	Env func(string) (string, bool)
	// GOOS selects the Claude Desktop config location (default
	// runtime.GOOS).
	GOOS string
}

// Plan is what setup would do for one client.
type Plan struct {
	Client string
	// Command is the client's own CLI command that does the same, when it
	// has one.
	Command string
	// Files are the files to change, each with the fragment to merge.
	Files []FileChange
	// Notes are caveats to show the user.
	Notes []string

	edits []edit
}

// FileChange is one file and the fragment merged into it.
type FileChange struct {
	Path string
	// Snippet is the fragment, in the file's own format.
	Snippet string
}

// edit applies one change to one file.
type edit struct {
	path string
	// json merges into a decoded JSON object.
	json func(doc map[string]any) error
	// text rewrites a text file (Codex TOML).
	text func(old string) (string, error)
}

func (o *Options) normalise() error {
	if !slices.Contains(Clients, o.Client) {
		return fmt.Errorf("unknown client %q (supported: %s)", o.Client, strings.Join(Clients, ", "))
	}
	if o.Name == "" {
		o.Name = "webgate"
	}
	if o.URL == "" {
		o.URL = DefaultURL
	}
	if o.GOOS == "" {
		o.GOOS = runtime.GOOS
	}
	if o.Env == nil {
		o.Env = func(string) (string, bool) { return "", false }
	}
	if o.Home == "" {
		return errors.New("home directory is unknown: set $HOME")
	}
	if !o.HTTP && !filepath.IsAbs(o.Binary) {
		return fmt.Errorf("webgate binary path %q must be absolute", o.Binary)
	}
	return nil
}

// args are the arguments of the stdio command.
func (o *Options) args() []string {
	if o.ConfigFile != "" {
		return []string{"--config", o.ConfigFile, "mcp"}
	}
	return []string{"mcp"}
}

func (o *Options) env(name string) string {
	v, _ := o.Env(name)
	return v
}

// NewPlan works out the changes for o.Client.
func NewPlan(o Options) (*Plan, error) {
	if err := o.normalise(); err != nil {
		return nil, err
	}
	var p *Plan
	var err error
	switch o.Client {
	case "claude-code":
		p, err = claudeCode(&o)
	case "gemini-cli":
		p, err = geminiCLI(&o)
	case "opencode":
		p, err = openCode(&o)
	case "codex":
		p, err = codex(&o)
	case "cursor":
		p, err = cursor(&o)
	case "claude-desktop":
		p, err = claudeDesktop(&o)
	}
	if err != nil {
		return nil, err
	}
	p.Client = o.Client
	return p, nil
}

// jsonSnippet renders a JSON fragment for people to read and paste.
func jsonSnippet(v any) string {
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}

// obj returns doc[key] as an object, creating it when absent. It refuses
// to replace a value of another type, which would lose the user's setting.
func obj(doc map[string]any, key string) (map[string]any, error) {
	switch v := doc[key].(type) {
	case nil:
		m := map[string]any{}
		doc[key] = m
		return m, nil
	case map[string]any:
		return v, nil
	default:
		return nil, fmt.Errorf("%q is a %T, not an object; fix it by hand", key, v)
	}
}

// appendUnique adds s to the string array doc[key] unless present.
func appendUnique(doc map[string]any, key, s string) error {
	switch v := doc[key].(type) {
	case nil:
		doc[key] = []any{s}
	case []any:
		for _, e := range v {
			if e == s {
				return nil
			}
		}
		doc[key] = append(v, s)
	default:
		return fmt.Errorf("%q is a %T, not an array; fix it by hand", key, v)
	}
	return nil
}

func strs(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
