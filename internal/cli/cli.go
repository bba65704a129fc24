// Package cli implements the webgate command line. Each command lives in
// its own file; Main parses arguments with kong and maps every error to one
// clear line on stderr and a non-zero exit code.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/alecthomas/kong"
	"golang.org/x/term"

	"github.com/webgate/webgate/internal/config"
	"github.com/webgate/webgate/internal/guard"
	"github.com/webgate/webgate/internal/httplog"
	"github.com/webgate/webgate/internal/policy"
	"github.com/webgate/webgate/internal/server"
)

// IO is the process's standard streams, injectable for tests.
type IO struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// IsTerminal reports whether Stderr is an interactive terminal, which
	// turns on progress lines.
	IsTerminal bool
	// Getenv looks up environment variables (os.LookupEnv by default).
	Getenv func(string) (string, bool)
}

// Stdio returns the real process streams.
func Stdio() IO {
	return IO{
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		IsTerminal: term.IsTerminal(int(os.Stderr.Fd())),
		Getenv:     os.LookupEnv,
	}
}

// Globals are flags shared by every command.
type Globals struct {
	Config   string `help:"Configuration file (YAML). Defaults to $$WEBGATE_CONFIG, else built-in defaults." placeholder:"FILE" type:"path"`
	LogLevel string `help:"Log level: debug, info, warn, error (overrides log.level)." placeholder:"LEVEL" name:"log-level"`
}

// root is the command tree.
type root struct {
	Globals

	Search    searchCmd    `cmd:"" help:"Search the web and print ranked results."`
	Fetch     fetchCmd     `cmd:"" help:"Fetch web pages safely and print their main content as Markdown, text, HTML or raw."`
	Providers providersCmd `cmd:"" help:"List search providers, whether each is configured and reachable."`
	Extract   extractCmd   `cmd:"" help:"Extract the main content of a local HTML file as Markdown or text (no network)."`
	MCP       mcpCmd       `cmd:"" name:"mcp" help:"Serve the web_search and web_fetch tools over MCP on stdin/stdout (for Claude Code, Gemini CLI, Cursor...)."`
	Serve     serveCmd     `cmd:"" help:"Serve the JSON API (/v1/search, /v1/fetch), MCP over HTTP (/mcp), the Anthropic Messages proxy (/v1/messages) and /healthz."`
	Setup     setupCmd     `cmd:"" help:"Print or write the configuration that adds webgate to an AI client."`
	Keys      keysCmd      `cmd:"" help:"Generate gateway API keys and print their hashed auth.keys entries."`
	Version   versionCmd   `cmd:"" help:"Print the version."`

	Healthcheck healthcheckCmd `cmd:"" help:"Ask a running server's /healthz (or --url) and exit 0 when it answers 200; for container health checks."`
}

// Version is set at build time with -ldflags "-X github.com/webgate/webgate/internal/cli.Version=...".
var Version = "dev"

type versionCmd struct{}

func (versionCmd) Run(r *runtime) error {
	fmt.Fprintln(r.IO.Stdout, "webgate", Version)
	return nil
}

// runtime is bound into every command's Run method.
type runtime struct {
	Ctx context.Context
	IO  IO
	g   *Globals
	cfg *config.Config
}

// Config loads the configuration once, on first use, so commands that do
// not need it (version, extract) never fail on a bad file.
func (r *runtime) Config() (*config.Config, error) {
	if r.cfg != nil {
		return r.cfg, nil
	}
	cfg, err := config.Load(r.g.Config, r.IO.Getenv)
	if err != nil {
		return nil, err
	}
	if r.g.LogLevel != "" {
		cfg.Log.Level = r.g.LogLevel
		if err := cfg.Validate(); err != nil {
			return nil, err
		}
	}
	r.cfg = cfg
	return cfg, nil
}

// Logger returns the logger for one-shot commands: quiet (warnings and
// errors) unless --log-level or a non-default log.level asks for more.
func (r *runtime) Logger() *slog.Logger { return r.logger(slog.LevelWarn) }

// serverLogger returns the logger for long-running commands, at the
// configured level (info by default): a server's access log is what an
// operator expects to see. Its lines are batched (server.LogWriter) so a
// busy server does not pay a system call per line; call flush before
// exiting.
func (r *runtime) serverLogger() (log *slog.Logger, flush func()) {
	lw := server.NewLogWriter(r.IO.Stderr, 0)
	return r.loggerTo(lw, slog.LevelInfo), func() { _ = lw.Flush() }
}

// logger writes to stderr at def unless --log-level or a log.level other
// than the default says otherwise, in the configured format.
func (r *runtime) logger(def slog.Level) *slog.Logger { return r.loggerTo(r.IO.Stderr, def) }

func (r *runtime) loggerTo(w io.Writer, def slog.Level) *slog.Logger {
	level, format := def, "text"
	lv := r.g.LogLevel
	if r.cfg != nil {
		format = r.cfg.Log.Format
		if lv == "" && r.cfg.Log.Level != "info" {
			lv = r.cfg.Log.Level
		}
	}
	if lv != "" {
		_ = level.UnmarshalText([]byte(lv))
	}
	opts := &slog.HandlerOptions{Level: level}
	var h slog.Handler = httplog.NewTextHandler(w, opts)
	if format == "json" {
		h = slog.NewJSONHandler(w, opts)
	}
	// Every line passes the guard's secret detector on its way out, as
	// audit records do: a URL or query refused for the token in it must
	// not land in the log instead (docs/security.md).
	det := guard.NewDetector(guard.Options{HighEntropy: true})
	if r.cfg != nil {
		if d, err := guard.DetectorFromConfig(r.cfg.Guard); err == nil {
			det = d
		}
	}
	return slog.New(det.LogHandler(h))
}

// exitError carries a specific exit code.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// Main runs the CLI with args (without the program name) and returns the
// process exit code: 0 on success, 1 on a runtime error, 2 on a usage error.
func Main(ctx context.Context, args []string, stdio IO) (code int) {
	if stdio.Getenv == nil {
		stdio.Getenv = os.LookupEnv
	}
	var cli root
	exited := false
	parser, err := kong.New(&cli,
		kong.Name("webgate"),
		kong.Description("Real web search and web fetch for AI agents, on any model backend."),
		kong.Writers(stdio.Stdout, stdio.Stderr),
		kong.Exit(func(c int) { code = c; exited = true }),
		kong.UsageOnError(),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true}),
	)
	if err != nil {
		fmt.Fprintln(stdio.Stderr, "webgate: internal error:", err)
		return 1
	}
	kctx, err := parser.Parse(args)
	if exited {
		return code
	}
	if err != nil {
		fmt.Fprintln(stdio.Stderr, "webgate: "+err.Error())
		fmt.Fprintln(stdio.Stderr, "Run 'webgate --help' for usage.")
		return 2
	}
	// Commands act as the local, keyless CLI surface; servers replace the
	// caller per request.
	ctx = policy.WithCaller(ctx, policy.Caller{Surface: policy.SurfaceCLI})
	rt := &runtime{Ctx: ctx, IO: stdio, g: &cli.Globals}
	if err := kctx.Run(rt); err != nil {
		var ee *exitError
		if errors.As(err, &ee) {
			if ee.err != nil {
				fmt.Fprintln(stdio.Stderr, "webgate: "+oneLine(ee.err))
			}
			return ee.code
		}
		fmt.Fprintln(stdio.Stderr, "webgate: "+oneLine(err))
		return 1
	}
	return 0
}

// oneLine keeps multi-problem errors (config validation) readable while
// guaranteeing the first line says what went wrong.
func oneLine(err error) string {
	return strings.TrimRight(err.Error(), "\n")
}
