package setup

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
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
		// A deny rule naming a tool without a specifier removes it from the
		// tools Claude Code offers its model (deferred ones included).
		deny := builtinNames(o, "WebSearch", "WebFetch")
		settings := filepath.Join(o.Home, ".claude", "settings.json")
		p.add(settings, map[string]any{"permissions": map[string]any{"deny": strs(deny)}}, func(doc map[string]any) error {
			perms, err := obj(doc, "permissions")
			if err != nil {
				return err
			}
			for _, d := range deny {
				if err := appendUnique(perms, "deny", d); err != nil {
					return err
				}
			}
			return nil
		})
	}
	return p, nil
}

// builtinNames is the client's built-in search tool, and its built-in
// fetch tool unless the user keeps it.
func builtinNames(o *Options, search, fetch string) []string {
	if o.KeepBuiltinFetch {
		return []string{search}
	}
	return []string{search, fetch}
}

// geminiCLI: ~/.gemini/settings.json, mcpServers with command/args (stdio)
// or httpUrl (Streamable HTTP).
//
// The built-in search is turned off with a deny rule of Gemini CLI's
// policy engine in ~/.gemini/policies/ (Gemini CLI treats settings'
// tools.exclude as deprecated in favour of it); a deny rule without
// argument conditions removes the tool from those offered to the model.
// The built-in fetch cannot be turned off that way: Gemini CLI (0.61)
// matches an excluded name against an MCP tool's own unqualified name too,
// so excluding "web_fetch" would also hide webgate's web_fetch. Its class
// name, WebFetchTool, matches the built-in only, and only tools.exclude
// accepts class names; Gemini CLI prints a deprecation warning for it.
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
	excludeFetch := o.DisableBuiltin && !o.KeepBuiltinFetch
	frag := map[string]any{"mcpServers": map[string]any{o.Name: entry}}
	if excludeFetch {
		frag["tools"] = map[string]any{"exclude": []any{geminiFetchClass}}
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
		// The policy file replaces what earlier webgate set-ups wrote to
		// the deprecated exclude lists.
		key, list := "exclude", map[string]any(nil)
		if _, legacy := doc["excludeTools"]; legacy {
			key, list = "excludeTools", doc // settings still in the v1 layout
		} else if list, err = obj(doc, "tools"); err != nil {
			return err
		}
		dropExcluded(list, key, "google_web_search")
		if excludeFetch {
			if err := appendUnique(list, key, geminiFetchClass); err != nil {
				return err
			}
		}
		if len(list) == 0 && key == "exclude" {
			delete(doc, "tools")
		}
		return nil
	})
	if o.DisableBuiltin {
		policy := geminiPolicy(o.Name)
		path := filepath.Join(o.Home, ".gemini", "policies", o.Name+".toml")
		p.Files = append(p.Files, FileChange{Path: path, Snippet: strings.TrimRight(policy, "\n")})
		p.edits = append(p.edits, edit{path: path, text: func(string) (string, error) { return policy, nil }})
	}
	p.Notes = append(p.Notes, "Gemini CLI starts MCP servers only in trusted folders: trust the project folder (answer the trust prompt, or /permissions trust in a session).")
	return p, nil
}

// geminiFetchClass names Gemini CLI's built-in web_fetch by its class,
// which, unlike the tool name, no MCP tool shares.
const geminiFetchClass = "WebFetchTool"

// geminiPolicy is the user-tier policy file that denies the built-in
// search. User policies rank above Gemini CLI's defaults, YOLO mode
// included (tier 4 against 1), whatever the priority within the tier.
func geminiPolicy(name string) string {
	return fmt.Sprintf(`# Written by webgate setup gemini-cli --disable-builtin: the model uses
# web_search of the MCP server %q instead of Google Search grounding.
[[rule]]
toolName = "google_web_search"
decision = "deny"
priority = 900
denyMessage = "Use web_search of the %s MCP server instead."
`, name, name)
}

// dropExcluded removes name from the string array doc[key], and the key
// when nothing else is left in it.
func dropExcluded(doc map[string]any, key, name string) {
	list, ok := doc[key].([]any)
	if !ok {
		return
	}
	kept := slices.DeleteFunc(slices.Clone(list), func(e any) bool { return e == name })
	if len(kept) == 0 {
		delete(doc, key)
		return
	}
	doc[key] = kept
}

// openCode: ~/.config/opencode/opencode.json, "mcp" with type local (a
// command array) or remote; a "deny" permission removes the built-in
// websearch and webfetch tools from those offered to the model.
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
	deny := builtinNames(o, "websearch", "webfetch")
	frag := map[string]any{"$schema": "https://opencode.ai/config.json", "mcp": map[string]any{o.Name: entry}}
	if o.DisableBuiltin {
		perm := map[string]any{}
		for _, d := range deny {
			perm[d] = "deny"
		}
		frag["permission"] = perm
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
			return fmt.Errorf("%w (set \"permission\": {\"websearch\": \"deny\", \"webfetch\": \"deny\"})", err)
		}
		for _, d := range deny {
			perm[d] = "deny"
		}
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
