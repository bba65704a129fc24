package setup

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/pelletier/go-toml/v2"
)

var now = time.Date(2026, 11, 22, 6, 30, 0, 0, time.UTC)

const bin = "/opt/webgate/bin/webgate"

func readJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return m
}

func put(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o640); err != nil {
		t.Fatal(err)
	}
}

func apply(t *testing.T, o Options) []Change {
	t.Helper()
	p, err := NewPlan(o)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := p.Apply(now)
	if err != nil {
		t.Fatal(err)
	}
	return ch
}

// TestJSONClients merges into existing files and checks that the user's
// other settings survive, the backup holds the old file, and a second run
// changes nothing.
func TestJSONClients(t *testing.T) {
	tests := []struct {
		name     string
		opts     Options
		existing map[string]string // relative path -> content
		want     map[string]string // relative path -> expected JSON
	}{
		{
			name: "claude-code stdio + disable builtin",
			opts: Options{Client: "claude-code", Binary: bin, DisableBuiltin: true},
			existing: map[string]string{
				".claude.json":          `{"numStartups": 12, "projects": {"/src": {"allowedTools": []}}, "mcpServers": {"other": {"type": "stdio", "command": "other"}}}`,
				".claude/settings.json": `{"model": "opus", "permissions": {"deny": ["Bash(rm:*)"], "allow": ["Read"]}}`,
			},
			want: map[string]string{
				".claude.json":          `{"numStartups": 12, "projects": {"/src": {"allowedTools": []}}, "mcpServers": {"other": {"type": "stdio", "command": "other"}, "webgate": {"type": "stdio", "command": "/opt/webgate/bin/webgate", "args": ["mcp"], "env": {}}}}`,
				".claude/settings.json": `{"model": "opus", "permissions": {"deny": ["Bash(rm:*)", "WebSearch", "WebFetch"], "allow": ["Read"]}}`,
			},
		},
		{
			name: "claude-code keeps its fetch",
			opts: Options{Client: "claude-code", Binary: bin, DisableBuiltin: true, KeepBuiltinFetch: true},
			existing: map[string]string{
				".claude/settings.json": `{"permissions": {"deny": ["WebSearch"]}}`,
			},
			want: map[string]string{
				".claude.json":          `{"mcpServers": {"webgate": {"type": "stdio", "command": "/opt/webgate/bin/webgate", "args": ["mcp"], "env": {}}}}`,
				".claude/settings.json": `{"permissions": {"deny": ["WebSearch"]}}`,
			},
		},
		{
			name: "claude-code http with token",
			opts: Options{Client: "claude-code", HTTP: true, URL: "https://gw.example.com/mcp", TokenEnv: "WEBGATE_TOKEN"},
			want: map[string]string{
				".claude.json": `{"mcpServers": {"webgate": {"type": "http", "url": "https://gw.example.com/mcp", "headers": {"Authorization": "Bearer ${WEBGATE_TOKEN}"}}}}`,
			},
		},
		{
			name: "gemini-cli v2 settings",
			opts: Options{Client: "gemini-cli", Binary: bin, DisableBuiltin: true, ConfigFile: "/etc/webgate.yaml"},
			existing: map[string]string{
				".gemini/settings.json": `{"general": {"vimMode": true}, "tools": {"exclude": ["run_shell_command"], "sandbox": false}}`,
			},
			want: map[string]string{
				".gemini/settings.json":         `{"general": {"vimMode": true}, "tools": {"exclude": ["run_shell_command", "WebFetchTool"], "sandbox": false}, "mcpServers": {"webgate": {"command": "/opt/webgate/bin/webgate", "args": ["--config", "/etc/webgate.yaml", "mcp"]}}}`,
				".gemini/policies/webgate.toml": geminiPolicyFile,
			},
		},
		{
			name: "gemini-cli: an earlier set-up's google_web_search exclude moves to the policy",
			opts: Options{Client: "gemini-cli", HTTP: true, DisableBuiltin: true},
			existing: map[string]string{
				".gemini/settings.json":         `{"theme": "Dracula", "tools": {"exclude": ["google_web_search", "run_shell_command"]}}`,
				".gemini/policies/webgate.toml": "# edited by hand\n",
			},
			want: map[string]string{
				".gemini/settings.json":         `{"theme": "Dracula", "tools": {"exclude": ["run_shell_command", "WebFetchTool"]}, "mcpServers": {"webgate": {"httpUrl": "http://127.0.0.1:8788/mcp"}}}`,
				".gemini/policies/webgate.toml": geminiPolicyFile,
			},
		},
		{
			name: "gemini-cli v1 settings keep excludeTools",
			opts: Options{Client: "gemini-cli", HTTP: true, DisableBuiltin: true},
			existing: map[string]string{
				".gemini/settings.json": `{"theme": "Dracula", "excludeTools": ["google_web_search", "run_shell_command"]}`,
			},
			want: map[string]string{
				".gemini/settings.json":         `{"theme": "Dracula", "excludeTools": ["run_shell_command", "WebFetchTool"], "mcpServers": {"webgate": {"httpUrl": "http://127.0.0.1:8788/mcp"}}}`,
				".gemini/policies/webgate.toml": geminiPolicyFile,
			},
		},
		{
			name: "gemini-cli keeps its fetch: no deprecated exclude at all",
			opts: Options{Client: "gemini-cli", Binary: bin, DisableBuiltin: true, KeepBuiltinFetch: true},
			existing: map[string]string{
				".gemini/settings.json": `{"tools": {"exclude": ["google_web_search"]}}`,
			},
			want: map[string]string{
				".gemini/settings.json":         `{"mcpServers": {"webgate": {"command": "/opt/webgate/bin/webgate", "args": ["mcp"]}}}`,
				".gemini/policies/webgate.toml": geminiPolicyFile,
			},
		},
		{
			name: "opencode",
			opts: Options{Client: "opencode", Binary: bin, DisableBuiltin: true},
			existing: map[string]string{
				".config/opencode/opencode.json": `{"$schema": "https://opencode.ai/config.json", "model": "anthropic/claude-sonnet-4-5", "permission": {"bash": "ask"}, "mcp": {"jira": {"type": "remote", "url": "https://jira.example.com/mcp"}}}`,
			},
			want: map[string]string{
				".config/opencode/opencode.json": `{"$schema": "https://opencode.ai/config.json", "model": "anthropic/claude-sonnet-4-5", "permission": {"bash": "ask", "websearch": "deny", "webfetch": "deny"}, "mcp": {"jira": {"type": "remote", "url": "https://jira.example.com/mcp"}, "webgate": {"type": "local", "command": ["/opt/webgate/bin/webgate", "mcp"], "enabled": true}}}`,
			},
		},
		{
			name: "opencode keeps its fetch",
			opts: Options{Client: "opencode", Binary: bin, DisableBuiltin: true, KeepBuiltinFetch: true},
			existing: map[string]string{
				".config/opencode/opencode.json": `{"permission": {"webfetch": "ask"}}`,
			},
			want: map[string]string{
				".config/opencode/opencode.json": `{"$schema": "https://opencode.ai/config.json", "permission": {"websearch": "deny", "webfetch": "ask"}, "mcp": {"webgate": {"type": "local", "command": ["/opt/webgate/bin/webgate", "mcp"], "enabled": true}}}`,
			},
		},
		{
			name: "opencode remote, new file",
			opts: Options{Client: "opencode", HTTP: true, TokenEnv: "WG"},
			want: map[string]string{
				".config/opencode/opencode.json": `{"$schema": "https://opencode.ai/config.json", "mcp": {"webgate": {"type": "remote", "url": "http://127.0.0.1:8788/mcp", "enabled": true, "headers": {"Authorization": "Bearer {env:WG}"}}}}`,
			},
		},
		{
			name: "cursor",
			opts: Options{Client: "cursor", Binary: bin, Name: "web"},
			existing: map[string]string{
				".cursor/mcp.json": `{"mcpServers": {"web": {"command": "old"}, "github": {"url": "https://api.githubcopilot.com/mcp/"}}}`,
			},
			want: map[string]string{
				".cursor/mcp.json": `{"mcpServers": {"web": {"command": "/opt/webgate/bin/webgate", "args": ["mcp"]}, "github": {"url": "https://api.githubcopilot.com/mcp/"}}}`,
			},
		},
		{
			name: "claude-desktop macOS",
			opts: Options{Client: "claude-desktop", Binary: bin, GOOS: "darwin"},
			existing: map[string]string{
				"Library/Application Support/Claude/claude_desktop_config.json": `{"globalShortcut": "Ctrl+Space", "mcpServers": {"fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]}}}`,
			},
			want: map[string]string{
				"Library/Application Support/Claude/claude_desktop_config.json": `{"globalShortcut": "Ctrl+Space", "mcpServers": {"fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]}, "webgate": {"command": "/opt/webgate/bin/webgate", "args": ["mcp"]}}}`,
			},
		},
		{
			name: "claude-desktop linux",
			opts: Options{Client: "claude-desktop", Binary: bin, GOOS: "linux"},
			want: map[string]string{
				".config/Claude/claude_desktop_config.json": `{"mcpServers": {"webgate": {"command": "/opt/webgate/bin/webgate", "args": ["mcp"]}}}`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			tt.opts.Home = home
			for rel, c := range tt.existing {
				put(t, filepath.Join(home, rel), c)
			}
			changes := apply(t, tt.opts)
			if len(changes) != len(tt.want) {
				t.Fatalf("changed %d files, want %d: %+v", len(changes), len(tt.want), changes)
			}
			for _, ch := range changes {
				rel, _ := filepath.Rel(home, ch.Path)
				want, ok := tt.want[rel]
				if !ok {
					t.Fatalf("unexpected file %s", rel)
				}
				if strings.HasSuffix(rel, ".toml") {
					got, _ := os.ReadFile(ch.Path)
					if diff := cmp.Diff(want, string(got)); diff != "" {
						t.Errorf("%s (-want +got):\n%s", rel, diff)
					}
				} else {
					var w map[string]any
					if err := json.Unmarshal([]byte(want), &w); err != nil {
						t.Fatal(err)
					}
					if diff := cmp.Diff(w, readJSON(t, ch.Path)); diff != "" {
						t.Errorf("%s (-want +got):\n%s", rel, diff)
					}
				}
				old, existed := tt.existing[rel]
				if ch.Created == existed {
					t.Errorf("%s: Created = %v, existed = %v", rel, ch.Created, existed)
				}
				if existed {
					if ch.Backup != ch.Path+".webgate-backup-20261122T063000Z" {
						t.Errorf("backup path %q", ch.Backup)
					}
					if b, err := os.ReadFile(ch.Backup); err != nil || string(b) != old {
						t.Errorf("backup holds %q, %v; want the old file", b, err)
					}
					if fi, _ := os.Stat(ch.Path); fi.Mode().Perm() != 0o640 {
						t.Errorf("mode %v, want the original 0640", fi.Mode().Perm())
					}
				} else if fi, _ := os.Stat(ch.Path); fi.Mode().Perm() != 0o600 {
					t.Errorf("new file mode %v, want 0600", fi.Mode().Perm())
				}
			}
			// Idempotent: a second run leaves everything as it is.
			for _, ch := range apply(t, tt.opts) {
				if ch.Backup != "" || ch.Created {
					t.Errorf("second run changed %s: %+v", ch.Path, ch)
				}
			}
		})
	}
}

const geminiPolicyFile = `# Written by webgate setup gemini-cli --disable-builtin: the model uses
# web_search of the MCP server "webgate" instead of Google Search grounding.
[[rule]]
toolName = "google_web_search"
decision = "deny"
priority = 900
denyMessage = "Use web_search of the webgate MCP server instead."
`

func TestCodex(t *testing.T) {
	existing := `# my Codex settings
model = "gpt-5-codex"
approval_policy = "on-request"

[mcp_servers.docs]
command = "docs-server"   # keep me

[mcp_servers.webgate]
command = "/old/webgate"
args = ["mcp"]

[mcp_servers.webgate.env]
OLD = "1"

[profiles.fast]
model = "gpt-5-mini"
`
	want := `# my Codex settings
model = "gpt-5-codex"
approval_policy = "on-request"

[mcp_servers.docs]
command = "docs-server"   # keep me

[mcp_servers.webgate]
url = "http://127.0.0.1:8788/mcp"
bearer_token_env_var = "WEBGATE_TOKEN"

[profiles.fast]
model = "gpt-5-mini"
`
	home := t.TempDir()
	path := filepath.Join(home, ".codex", "config.toml")
	put(t, path, existing)
	changes := apply(t, Options{Client: "codex", HTTP: true, TokenEnv: "WEBGATE_TOKEN", Home: home})
	got, _ := os.ReadFile(path)
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("config.toml (-want +got):\n%s", diff)
	}
	if b, _ := os.ReadFile(changes[0].Backup); string(b) != existing {
		t.Errorf("backup = %q", b)
	}
	var parsed map[string]any
	if err := toml.Unmarshal(got, &parsed); err != nil {
		t.Fatal(err)
	}
	if parsed["model"] != "gpt-5-codex" || parsed["profiles"] == nil {
		t.Errorf("other settings lost: %v", parsed)
	}
}

func TestCodexAppendAndCodexHome(t *testing.T) {
	home := t.TempDir()
	codexHome := filepath.Join(home, "custom")
	path := filepath.Join(codexHome, "config.toml")
	put(t, path, "model = \"o3\"\n\n\n")
	env := func(k string) (string, bool) { return map[string]string{"CODEX_HOME": codexHome}[k], k == "CODEX_HOME" }
	apply(t, Options{Client: "codex", Binary: bin, Home: home, Env: env, ConfigFile: "/etc/web gate.yaml"})
	got, _ := os.ReadFile(path)
	want := "model = \"o3\"\n\n[mcp_servers.webgate]\ncommand = \"/opt/webgate/bin/webgate\"\nargs = [\"--config\", \"/etc/web gate.yaml\", \"mcp\"]\n"
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestCodexWebSearchOff: --disable-builtin sets the top-level web_search
// key, replacing an earlier value in place or inserting it before the
// first table, where a top-level key must be.
func TestCodexWebSearchOff(t *testing.T) {
	tests := []struct{ name, existing, want string }{
		{
			name:     "inserted before the first table",
			existing: "# mine\nmodel = \"o3\"\n\n[profiles.x]\nmodel = \"o4\"\n",
			want:     "# mine\nmodel = \"o3\"\n\nweb_search = \"disabled\"\n\n[profiles.x]\nmodel = \"o4\"\n\n[mcp_servers.webgate]\ncommand = \"/opt/webgate/bin/webgate\"\nargs = [\"mcp\"]\n",
		},
		{
			name:     "replaced in place",
			existing: "web_search = \"live\"  # on\nmodel = \"o3\"\n",
			want:     "web_search = \"disabled\"\nmodel = \"o3\"\n\n[mcp_servers.webgate]\ncommand = \"/opt/webgate/bin/webgate\"\nargs = [\"mcp\"]\n",
		},
		{
			name:     "new file",
			existing: "",
			want:     "web_search = \"disabled\"\n\n[mcp_servers.webgate]\ncommand = \"/opt/webgate/bin/webgate\"\nargs = [\"mcp\"]\n",
		},
		{
			name:     "a table's own web_search is not the top-level key",
			existing: "[profiles.x]\nweb_search = \"live\"\n",
			want:     "web_search = \"disabled\"\n\n[profiles.x]\nweb_search = \"live\"\n\n[mcp_servers.webgate]\ncommand = \"/opt/webgate/bin/webgate\"\nargs = [\"mcp\"]\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			path := filepath.Join(home, ".codex", "config.toml")
			if tt.existing != "" {
				put(t, path, tt.existing)
			}
			o := Options{Client: "codex", Binary: bin, Home: home, DisableBuiltin: true}
			apply(t, o)
			got, _ := os.ReadFile(path)
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			for _, ch := range apply(t, o) {
				if ch.Backup != "" || ch.Created {
					t.Errorf("second run changed %s", ch.Path)
				}
			}
		})
	}
}

func TestRefusals(t *testing.T) {
	tests := []struct {
		name     string
		opts     Options
		path     string
		existing string
		want     string
	}{
		{name: "jsonc", opts: Options{Client: "cursor", Binary: bin}, path: ".cursor/mcp.json", existing: "{// comment\n}", want: "comments are not supported"},
		{name: "servers not an object", opts: Options{Client: "cursor", Binary: bin}, path: ".cursor/mcp.json", existing: `{"mcpServers": []}`, want: `"mcpServers" is a []interface {}, not an object`},
		{name: "codex inline table", opts: Options{Client: "codex", Binary: bin}, path: ".codex/config.toml", existing: "mcp_servers = { webgate = { command = \"x\" } }\n", want: "already defined without its own"},
		{name: "codex invalid toml", opts: Options{Client: "codex", Binary: bin}, path: ".codex/config.toml", existing: "model = \n", want: "cannot parse as TOML"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			tt.opts.Home = home
			full := filepath.Join(home, tt.path)
			put(t, full, tt.existing)
			p, err := NewPlan(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.Apply(now); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Apply error = %v, want %q", err, tt.want)
			}
			if b, _ := os.ReadFile(full); string(b) != tt.existing {
				t.Errorf("file changed to %q", b)
			}
		})
	}
}

func TestPlanErrors(t *testing.T) {
	for _, o := range []Options{
		{Client: "vim", Binary: bin, Home: "/h"},
		{Client: "cursor", Binary: "webgate", Home: "/h"},
		{Client: "cursor", Binary: bin},
		{Client: "claude-desktop", HTTP: true, Home: "/h"},
	} {
		if _, err := NewPlan(o); err == nil {
			t.Errorf("NewPlan(%+v) succeeded", o)
		}
	}
}

func TestCommands(t *testing.T) {
	tests := []struct {
		opts Options
		want string
	}{
		{Options{Client: "claude-code", Binary: bin}, "claude mcp add --scope user webgate -- /opt/webgate/bin/webgate mcp"},
		{Options{Client: "claude-code", HTTP: true, TokenEnv: "T"}, "claude mcp add --scope user --transport http webgate http://127.0.0.1:8788/mcp --header 'Authorization: Bearer ${T}'"},
		{Options{Client: "gemini-cli", Binary: "/Apps/My Tools/webgate"}, "gemini mcp add --scope user webgate '/Apps/My Tools/webgate' mcp"},
		{Options{Client: "codex", Binary: bin}, "codex mcp add webgate -- /opt/webgate/bin/webgate mcp"},
		{Options{Client: "codex", HTTP: true, TokenEnv: "T"}, "codex mcp add webgate --url http://127.0.0.1:8788/mcp --bearer-token-env-var T"},
		{Options{Client: "cursor", Binary: bin}, ""},
	}
	for _, tt := range tests {
		tt.opts.Home = "/home/u"
		p, err := NewPlan(tt.opts)
		if err != nil {
			t.Fatal(err)
		}
		if p.Command != tt.want {
			t.Errorf("%s: command %q, want %q", tt.opts.Client, p.Command, tt.want)
		}
	}
}
