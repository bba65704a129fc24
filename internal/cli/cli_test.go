package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// run executes the CLI in-process and returns its exit code and streams.
func run(t *testing.T, env map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	io := IO{
		Stdin:  strings.NewReader(""),
		Stdout: &out,
		Stderr: &errb,
		Getenv: func(k string) (string, bool) { v, ok := env[k]; return v, ok },
	}
	code = Main(context.Background(), args, io)
	return code, out.String(), errb.String()
}

func writeConfig(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "webgate.yaml")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string
	}{
		{"no command", nil, 2, "webgate: expected one of"},
		{"unknown command", []string{"serach", "x"}, 2, "webgate: unexpected argument serach"},
		{"missing query", []string{"search"}, 2, `webgate: expected "<query> ..."`},
		{"bad flag value", []string{"search", "-n", "many", "go"}, 2, "webgate: --count: expected a valid 64 bit int"},
		{"count out of range", []string{"search", "-n", "51", "go"}, 2, "webgate: --count (-n) must be between 1 and 50 (got 51)"},
		{"one-character query", []string{"search", "x"}, 2, "webgate: the query must be at least 2 characters (got 1)"},
		{"bad enum", []string{"search", "--freshness", "hour", "go"}, 2, `webgate: --freshness must be one of "any","day","week","month","year" but got "hour"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := run(t, nil, tt.args...)
			if code != tt.wantCode {
				t.Errorf("exit code = %d, want %d", code, tt.wantCode)
			}
			if !strings.HasPrefix(stderr, tt.wantErr) {
				t.Errorf("stderr = %q, want prefix %q", stderr, tt.wantErr)
			}
			if strings.Contains(stderr, "goroutine ") || strings.Contains(stderr, "panic") {
				t.Errorf("stack trace leaked: %s", stderr)
			}
		})
	}
}

func TestConfigErrorsAreOneClearLine(t *testing.T) {
	cfg := writeConfig(t, "search: {providers: [brave]}\n")
	code, stdout, stderr := run(t, nil, "--config", cfg, "search", "go")
	if code != 1 || stdout != "" {
		t.Fatalf("code = %d, stdout = %q", code, stdout)
	}
	want := `provider "brave" needs providers.brave.api_key (or BRAVE_API_KEY)`
	if !strings.Contains(stderr, want) || strings.Count(stderr, "\n") != 1 {
		t.Errorf("stderr = %q, want one line containing %q", stderr, want)
	}

	code, _, stderr = run(t, nil, "--config", filepath.Join(t.TempDir(), "nope.yaml"), "providers")
	if code != 1 || !strings.Contains(stderr, "nope.yaml") {
		t.Errorf("missing config: code = %d, stderr = %q", code, stderr)
	}

	// WEBGATE_CONFIG is honoured when --config is absent.
	code, _, stderr = run(t, map[string]string{"WEBGATE_CONFIG": cfg}, "providers")
	if code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("WEBGATE_CONFIG: code = %d, stderr = %q", code, stderr)
	}
}

func TestVersion(t *testing.T) {
	code, stdout, _ := run(t, nil, "version")
	if code != 0 || !strings.HasPrefix(stdout, "webgate ") {
		t.Errorf("version: code %d, stdout %q", code, stdout)
	}
}

func TestProvidersZeroConfig(t *testing.T) {
	code, stdout, stderr := run(t, map[string]string{"BRAVE_API_KEY": "k"}, "providers")
	if code != 0 {
		t.Fatalf("code %d, stderr %q", code, stderr)
	}
	for _, want := range []string{"brave       #1     ready", "duckduckgo  #2     ready", "tavily      -      needs providers.tavily.api_key (or TAVILY_API_KEY)"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout missing %q:\n%s", want, stdout)
		}
	}
}
