package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/webgate/webgate/internal/config"
	"github.com/webgate/webgate/internal/policy"
)

// TestKeysNewRoundTrip: the printed entry, pasted into auth.keys, makes
// the printed key authenticate as the given id with the given policy.
func TestKeysNewRoundTrip(t *testing.T) {
	code, out, stderr := run(t, nil, "keys", "new", "--id", "ci-bot", "--policy", "ci")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var key string
	for _, f := range strings.Fields(out) {
		if strings.HasPrefix(f, policy.KeyPrefix) {
			key = f
		}
	}
	entry := out[strings.Index(out, "  - id:"):]
	cfg, err := config.Parse(strings.NewReader("auth:\n  policies:\n    ci: {tools: [search]}\n  keys:\n"+entry), func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatalf("printed entry does not parse: %v\n%s", err, entry)
	}
	ring, err := policy.KeyringFromConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	k, err := ring.Authenticate(key)
	if err != nil || k.ID != "ci-bot" || k.Policy == nil || k.Policy.Name != "ci" {
		t.Fatalf("Authenticate(printed key) = %+v, %v", k, err)
	}

	code, out, _ = run(t, nil, "keys", "new", "--id", "x", "--json")
	var j map[string]string
	if code != 0 || json.Unmarshal([]byte(out), &j) != nil || policy.HashKey(j["key"]) != j["hash"] || j["id"] != "x" {
		t.Fatalf("--json = %d %q", code, out)
	}
}

func TestKeysHash(t *testing.T) {
	var out, errb bytes.Buffer
	io := IO{Stdin: strings.NewReader("legacy-token-0123456789\n"), Stdout: &out, Stderr: &errb, Getenv: func(string) (string, bool) { return "", false }}
	if code := Main(context.Background(), []string{"keys", "hash", "--id", "old"}, io); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	want := "  - id: old\n    hash: " + policy.HashKey("legacy-token-0123456789") + "\n"
	if out.String() != want {
		t.Errorf("output = %q, want %q", out.String(), want)
	}
	for _, args := range [][]string{{"keys", "hash", "--id", "old"}, {"keys", "new", "--id", "bad id"}} {
		code, _, stderr := run(t, nil, args...)
		if code != 2 || !strings.HasPrefix(stderr, "webgate: keys") {
			t.Errorf("%v: exit %d, stderr %q; want a usage error", args, code, stderr)
		}
	}
}

// TestServeRefusesExposedBind: without keys, serve will not listen on an
// address other machines can reach unless --insecure is given.
func TestServeRefusesExposedBind(t *testing.T) {
	code, _, stderr := run(t, nil, "serve", "--listen", "0.0.0.0:0")
	if code != 1 || !strings.Contains(stderr, "refusing to serve on a non-loopback address without authentication") || !strings.Contains(stderr, "--insecure") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}
