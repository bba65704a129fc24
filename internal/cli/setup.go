package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/webgate/webgate/internal/setup"
)

type setupCmd struct {
	Client         string `arg:"" help:"The client: claude-code, gemini-cli, opencode, codex, cursor or claude-desktop." enum:"claude-code,gemini-cli,opencode,codex,cursor,claude-desktop"`
	Write          bool   `help:"Merge the configuration into the client's files (after a timestamped backup) instead of printing it."`
	HTTP           bool   `name:"http" help:"Point the client at a running 'webgate serve' (Streamable HTTP) instead of launching 'webgate mcp'."`
	URL            string `name:"url" help:"MCP endpoint for --http." default:"http://127.0.0.1:8788/mcp" placeholder:"URL"`
	TokenEnv       string `name:"token-env" help:"With --http, send a bearer token read by the client from this environment variable." placeholder:"VAR"`
	DisableBuiltin bool   `name:"disable-builtin" help:"Also turn off the client's own web search and web fetch tools, so its model uses webgate's."`
	KeepFetch      bool   `name:"keep-builtin-fetch" help:"With --disable-builtin, keep the client's own web fetch tool and turn off only its search."`
	Name           string `help:"Server name in the client's config." default:"webgate"`
}

func (c *setupCmd) Run(r *runtime) error {
	home, _ := r.IO.Getenv("HOME")
	if home == "" {
		home, _ = r.IO.Getenv("USERPROFILE")
	}
	bin, err := executable()
	if err != nil && !c.HTTP {
		return fmt.Errorf("locating the webgate binary: %w", err)
	}
	cfgFile := ""
	if r.g.Config != "" {
		cfgFile, _ = filepath.Abs(r.g.Config)
	}
	plan, err := setup.NewPlan(setup.Options{
		Client: c.Client, Name: c.Name, Binary: bin, ConfigFile: cfgFile,
		HTTP: c.HTTP, URL: c.URL, TokenEnv: c.TokenEnv, DisableBuiltin: c.DisableBuiltin,
		KeepBuiltinFetch: c.KeepFetch, Home: home, Env: r.IO.Getenv,
	})
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	if c.KeepFetch && !c.DisableBuiltin {
		return &exitError{code: 2, err: fmt.Errorf("--keep-builtin-fetch only makes sense with --disable-builtin")}
	}
	out := r.IO.Stdout
	if !c.HTTP && strings.HasPrefix(bin, os.TempDir()) {
		fmt.Fprintf(r.IO.Stderr, "webgate: warning: %s looks temporary (go run?); install webgate first so the path stays valid\n", bin)
	}
	if !c.Write {
		if plan.Command != "" {
			fmt.Fprintf(out, "# Either run:\n%s\n\n# or merge into the file(s) below, or run: webgate setup %s --write%s\n", plan.Command, c.Client, flagsEcho(c))
		} else {
			fmt.Fprintf(out, "# Merge into the file(s) below, or run: webgate setup %s --write%s\n", c.Client, flagsEcho(c))
		}
		for _, f := range plan.Files {
			fmt.Fprintf(out, "\n# %s\n%s\n", f.Path, f.Snippet)
		}
		for _, n := range plan.Notes {
			fmt.Fprintf(out, "\n# Note: %s\n", n)
		}
		return nil
	}
	changes, err := plan.Apply(time.Now())
	for _, ch := range changes {
		switch {
		case ch.Created:
			fmt.Fprintf(out, "created %s\n", ch.Path)
		case ch.Backup != "":
			fmt.Fprintf(out, "updated %s (backup: %s)\n", ch.Path, ch.Backup)
		default:
			fmt.Fprintf(out, "unchanged %s (already set up)\n", ch.Path)
		}
	}
	if err != nil {
		return err
	}
	for _, n := range plan.Notes {
		fmt.Fprintf(out, "note: %s\n", n)
	}
	return nil
}

// flagsEcho repeats the options that shape the config, for the --write hint.
func flagsEcho(c *setupCmd) string {
	var b strings.Builder
	if c.HTTP {
		b.WriteString(" --http")
		if c.URL != setup.DefaultURL {
			b.WriteString(" --url " + c.URL)
		}
	}
	if c.TokenEnv != "" {
		b.WriteString(" --token-env " + c.TokenEnv)
	}
	if c.DisableBuiltin {
		b.WriteString(" --disable-builtin")
	}
	if c.KeepFetch {
		b.WriteString(" --keep-builtin-fetch")
	}
	if c.Name != "webgate" {
		b.WriteString(" --name " + c.Name)
	}
	return b.String()
}

// executable is the resolved absolute path of this binary; a variable so
// tests can pin it.
var executable = func() (string, error) {
	p, err := os.Executable()
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(p)
}
