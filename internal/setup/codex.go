package setup

import (
	"bufio"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// codex: $CODEX_HOME/config.toml (default ~/.codex/config.toml), one
// [mcp_servers.<name>] table with command/args (stdio) or url (Streamable
// HTTP, bearer token from an environment variable).
//
// The file is edited as text: the server's table (and its sub-tables such as
// .env) is replaced in place, or appended, so the user's comments, order and
// other tables are kept byte for byte. The result is parsed before writing.
func codex(o *Options) (*Plan, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "[mcp_servers.%s]\n", tomlKey(o.Name))
	cmd := fmt.Sprintf("codex mcp add %s -- %s", o.Name, shellJoin(append([]string{o.Binary}, o.args()...)))
	if o.HTTP {
		fmt.Fprintf(&b, "url = %s\n", strconv.Quote(o.URL))
		cmd = fmt.Sprintf("codex mcp add %s --url %s", o.Name, o.URL)
		if o.TokenEnv != "" {
			fmt.Fprintf(&b, "bearer_token_env_var = %s\n", strconv.Quote(o.TokenEnv))
			cmd += " --bearer-token-env-var " + o.TokenEnv
		}
	} else {
		fmt.Fprintf(&b, "command = %s\n", strconv.Quote(o.Binary))
		q := make([]string, len(o.args()))
		for i, a := range o.args() {
			q[i] = strconv.Quote(a)
		}
		fmt.Fprintf(&b, "args = [%s]\n", strings.Join(q, ", "))
	}
	table := b.String()

	home := o.env("CODEX_HOME")
	if home == "" {
		home = filepath.Join(o.Home, ".codex")
	}
	path := filepath.Join(home, "config.toml")
	p := &Plan{Command: cmd, Files: []FileChange{{Path: path, Snippet: strings.TrimRight(table, "\n")}}}
	if o.DisableBuiltin {
		p.Files = append(p.Files, FileChange{Path: path, Snippet: codexWebSearchOff + "   # at the top, before any [table]"})
		if o.KeepBuiltinFetch {
			p.Notes = append(p.Notes, "Codex's hosted web_search both searches and opens pages; it is one tool, so it is turned off whole.")
		}
	}
	p.edits = append(p.edits, edit{path: path, text: func(old string) (string, error) {
		merged, err := mergeCodex(old, o.Name, table)
		if err != nil || !o.DisableBuiltin {
			return merged, err
		}
		return setTopLevel(merged, "web_search", codexWebSearchOff)
	}})
	return p, nil
}

// codexWebSearchOff removes the hosted web_search tool Codex offers its
// model by default (web_search is "cached", "live" or "disabled").
const codexWebSearchOff = `web_search = "disabled"`

var topLevelKey = regexp.MustCompile(`^\s*([A-Za-z0-9_-]+|"[^"]*")\s*=`)

// setTopLevel sets the top-level key of a TOML document to line (a whole
// "key = value" line): it replaces the key's line when the key is already
// set before the first table, and otherwise inserts line just before the
// first table (or at the end of a file without tables). Everything else
// is kept byte for byte, and the result is parsed before it is returned.
func setTopLevel(doc, key, line string) (string, error) {
	lines := strings.SplitAfter(doc, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	at := len(lines)
	for i, l := range lines {
		if tableHeader.MatchString(strings.TrimRight(l, "\r\n")) {
			at = i
			break
		}
		if m := topLevelKey.FindStringSubmatch(l); m != nil && normaliseKey(m[1]) == key {
			lines[i] = line + "\n"
			return checkTOML(strings.Join(lines, ""))
		}
	}
	insert := []string{line + "\n"}
	if at < len(lines) {
		insert = append(insert, "\n")
	} else if at > 0 && !strings.HasSuffix(lines[at-1], "\n") {
		lines[at-1] += "\n"
	}
	out := slices.Concat(lines[:at], insert, lines[at:])
	return checkTOML(strings.Join(out, ""))
}

func checkTOML(doc string) (string, error) {
	var parsed map[string]any
	if err := toml.Unmarshal([]byte(doc), &parsed); err != nil {
		return "", fmt.Errorf("edited config.toml would not parse (%v); edit it by hand", err)
	}
	return doc, nil
}

// tomlKey quotes a key unless it is a bare key.
func tomlKey(k string) string {
	if regexp.MustCompile(`^[A-Za-z0-9_-]+$`).MatchString(k) {
		return k
	}
	return strconv.Quote(k)
}

var tableHeader = regexp.MustCompile(`^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$`)

// mergeCodex replaces or appends the [mcp_servers.<name>] table in old.
func mergeCodex(old, name, table string) (string, error) {
	var before map[string]any
	if err := toml.Unmarshal([]byte(old), &before); err != nil {
		return "", fmt.Errorf("cannot parse as TOML: %w", err)
	}
	own := "mcp_servers." + tomlKey(name)
	var out []string
	replaced, skipping := false, false
	sc := bufio.NewScanner(strings.NewReader(old))
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := tableHeader.FindStringSubmatch(line); m != nil {
			key := normaliseKey(m[1])
			wasSkipping := skipping
			skipping = key == own || strings.HasPrefix(key, own+".")
			if wasSkipping && !skipping && len(out) > 0 && out[len(out)-1] != "" {
				out = append(out, "") // keep a blank line before the next table
			}
			if skipping && !replaced {
				out = append(out, strings.TrimRight(table, "\n"))
				replaced = true
			}
		}
		if !skipping {
			out = append(out, line)
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	if !replaced {
		if servers, ok := before["mcp_servers"].(map[string]any); ok && servers[name] != nil {
			// Defined inline or with dotted keys; rewriting that safely
			// is not worth the risk to the user's file.
			return "", fmt.Errorf("mcp_servers.%s is already defined without its own [mcp_servers.%s] table; remove it and run again", name, name)
		}
		for len(out) > 0 && strings.TrimSpace(out[len(out)-1]) == "" {
			out = out[:len(out)-1]
		}
		if len(out) > 0 {
			out = append(out, "")
		}
		out = append(out, strings.TrimRight(table, "\n"))
	}
	result := strings.Join(out, "\n") + "\n"
	var after map[string]any
	if err := toml.Unmarshal([]byte(result), &after); err != nil {
		return "", fmt.Errorf("merged config.toml would not parse (%v); add the table by hand", err)
	}
	return result, nil
}

// normaliseKey drops spaces around dots and quotes around bare-able parts,
// so [ mcp_servers . "webgate" ] matches mcp_servers.webgate.
func normaliseKey(k string) string {
	parts := strings.Split(k, ".")
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if uq, err := strconv.Unquote(p); err == nil {
			p = tomlKey(uq)
		}
		parts[i] = p
	}
	return strings.Join(parts, ".")
}
