package setup

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// Each function below knows one client's current MCP configuration format.

// claudeCode: user-scoped servers live in ~/.claude.json under mcpServers;
// permissions live in ~/.claude/settings.json.
func claudeCode(o *Options) (*Plan, error) {
	entry := map[string]any{"type": "stdio", "command": o.Binary, "args": strs(o.args()), "env": map[string]any{}}
	cmd := fmt.Sprintf("claude mcp add --scope user %s -- %s", o.Name, shellJoin(append([]string{o.Binary}, o.args()...)))
	if o.HTTP {
		entry = map[string]any{"type": "http", "url": o.URL}
		cmd = fmt.Sprintf("claude mcp add --scope user --transport http %s %s", o.Name, o.URL)
		if o.TokenEnv != "" {
			// Claude Code expands ${VAR} in MCP server settings.
			entry["headers"] = map[string]any{"Authorization": "Bearer ${" + o.TokenEnv + "}"}
			cmd += fmt.Sprintf(` --header 'Authorization: Bearer ${%s}'`, o.TokenEnv)
		}
	}
	path := filepath.Join(o.Home, ".claude.json")
	p := &Plan{Command: cmd}
	p.add(path, map[string]any{"mcpServers": map[string]any{o.Name: entry}}, func(doc map[string]any) error {
		servers, err := obj(doc, "mcpServers")
		if err != nil {
			return err
		}
		servers[o.Name] = entry
		return nil
	})
	p.Notes = append(p.Notes, "Quit Claude Code before --write: it rewrites ~/.claude.json while running.")
	if o.DisableBuiltin {
		settings := filepath.Join(o.Home, ".claude", "settings.json")
		p.add(settings, map[string]any{"permissions": map[string]any{"deny": []any{"WebSearch"}}}, func(doc map[string]any) error {
			perms, err := obj(doc, "permissions")
			if err != nil {
				return err
			}
			return appendUnique(perms, "deny", "WebSearch")
		})
	}
	return p, nil
}

// geminiCLI: ~/.gemini/settings.json, mcpServers with command/args (stdio)
// or httpUrl (Streamable HTTP). The built-in search tool is excluded with
// tools.exclude (settings v2) or, in files still in the v1 layout, the
// top-level excludeTools.
func geminiCLI(o *Options) (*Plan, error) {
	entry := map[string]any{"command": o.Binary, "args": strs(o.args())}
	cmd := fmt.Sprintf("gemini mcp add --scope user %s %s", o.Name, shellJoin(append([]string{o.Binary}, o.args()...)))
	if o.ConfigFile != "" {
		cmd = "" // gemini would read --config as its own flag; edit the file instead
	}
	if o.HTTP {
		entry = map[string]any{"httpUrl": o.URL}
		cmd = fmt.Sprintf("gemini mcp add --scope user --transport http %s %s", o.Name, o.URL)
		if o.TokenEnv != "" {
			// Gemini CLI expands $VAR in settings strings.
			entry["headers"] = map[string]any{"Authorization": "Bearer $" + o.TokenEnv}
			cmd += fmt.Sprintf(` --header 'Authorization: Bearer $%s'`, o.TokenEnv)
		}
	}
	frag := map[string]any{"mcpServers": map[string]any{o.Name: entry}}
	if o.DisableBuiltin {
		frag["tools"] = map[string]any{"exclude": []any{"google_web_search"}}
	}
	p := &Plan{Command: cmd}
	p.add(filepath.Join(o.Home, ".gemini", "settings.json"), frag, func(doc map[string]any) error {
		servers, err := obj(doc, "mcpServers")
		if err != nil {
			return err
		}
		servers[o.Name] = entry
		if !o.DisableBuiltin {
			return nil
		}
		if _, legacy := doc["excludeTools"]; legacy {
			return appendUnique(doc, "excludeTools", "google_web_search")
		}
		tools, err := obj(doc, "tools")
		if err != nil {
			return err
		}
		return appendUnique(tools, "exclude", "google_web_search")
	})
	return p, nil
}

// openCode: ~/.config/opencode/opencode.json, "mcp" with type local (a
// command array) or remote; permission.websearch turns off the built-in
// search tool.
func openCode(o *Options) (*Plan, error) {
	entry := map[string]any{"type": "local", "command": strs(append([]string{o.Binary}, o.args()...)), "enabled": true}
	if o.HTTP {
		entry = map[string]any{"type": "remote", "url": o.URL, "enabled": true}
		if o.TokenEnv != "" {
			// OpenCode substitutes {env:VAR} in its config.
			entry["headers"] = map[string]any{"Authorization": "Bearer {env:" + o.TokenEnv + "}"}
		}
	}
	base := o.env("XDG_CONFIG_HOME")
	if base == "" {
		base = filepath.Join(o.Home, ".config")
	}
	frag := map[string]any{"$schema": "https://opencode.ai/config.json", "mcp": map[string]any{o.Name: entry}}
	if o.DisableBuiltin {
		frag["permission"] = map[string]any{"websearch": "deny"}
	}
	p := &Plan{}
	p.add(filepath.Join(base, "opencode", "opencode.json"), frag, func(doc map[string]any) error {
		if _, ok := doc["$schema"]; !ok {
			doc["$schema"] = "https://opencode.ai/config.json"
		}
		servers, err := obj(doc, "mcp")
		if err != nil {
			return err
		}
		servers[o.Name] = entry
		if !o.DisableBuiltin {
			return nil
		}
		perm, err := obj(doc, "permission")
		if err != nil {
			return fmt.Errorf("%w (set \"permission\": {\"websearch\": \"deny\"})", err)
		}
		perm["websearch"] = "deny"
		return nil
	})
	return p, nil
}

// cursor: ~/.cursor/mcp.json, mcpServers with command/args or url.
func cursor(o *Options) (*Plan, error) {
	entry := map[string]any{"command": o.Binary, "args": strs(o.args())}
	if o.HTTP {
		entry = map[string]any{"url": o.URL}
		if o.TokenEnv != "" {
			// Cursor interpolates ${env:VAR} in mcp.json.
			entry["headers"] = map[string]any{"Authorization": "Bearer ${env:" + o.TokenEnv + "}"}
		}
	}
	p := &Plan{}
	p.add(filepath.Join(o.Home, ".cursor", "mcp.json"), map[string]any{"mcpServers": map[string]any{o.Name: entry}}, func(doc map[string]any) error {
		servers, err := obj(doc, "mcpServers")
		if err != nil {
			return err
		}
		servers[o.Name] = entry
		return nil
	})
	if o.DisableBuiltin {
		p.Notes = append(p.Notes, "Cursor's own web search cannot be turned off from a file; webgate's tools are added beside it.")
	}
	return p, nil
}

// claudeDesktop: claude_desktop_config.json in the OS's application
// support directory; it launches stdio servers only.
func claudeDesktop(o *Options) (*Plan, error) {
	if o.HTTP {
		return nil, errors.New("Claude Desktop starts MCP servers from its config file over stdio only; drop --http, or add the URL under Settings > Connectors > Add custom connector")
	}
	var dir string
	switch o.GOOS {
	case "darwin":
		dir = filepath.Join(o.Home, "Library", "Application Support", "Claude")
	case "windows":
		appdata := o.env("APPDATA")
		if appdata == "" {
			appdata = filepath.Join(o.Home, "AppData", "Roaming")
		}
		dir = filepath.Join(appdata, "Claude")
	default:
		base := o.env("XDG_CONFIG_HOME")
		if base == "" {
			base = filepath.Join(o.Home, ".config")
		}
		dir = filepath.Join(base, "Claude")
	}
	entry := map[string]any{"command": o.Binary, "args": strs(o.args())}
	p := &Plan{}
	p.add(filepath.Join(dir, "claude_desktop_config.json"), map[string]any{"mcpServers": map[string]any{o.Name: entry}}, func(doc map[string]any) error {
		servers, err := obj(doc, "mcpServers")
		if err != nil {
			return err
		}
		servers[o.Name] = entry
		return nil
	})
	p.Notes = append(p.Notes, "Restart Claude Desktop to load the server.")
	if o.DisableBuiltin {
		p.Notes = append(p.Notes, "Claude Desktop's own web search is a per-chat toggle in the app, not a config setting.")
	}
	return p, nil
}

// add records a JSON change with its printable fragment.
func (p *Plan) add(path string, frag any, apply func(map[string]any) error) {
	p.Files = append(p.Files, FileChange{Path: path, Snippet: jsonSnippet(frag)})
	p.edits = append(p.edits, edit{path: path, json: apply})
}

// shellJoin quotes words for a POSIX shell where needed.
func shellJoin(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		if w != "" && !strings.ContainsAny(w, " \t\n'\"\\$`!*?[]{}()<>|&;#~") {
			out[i] = w
			continue
		}
		out[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(out, " ")
}
