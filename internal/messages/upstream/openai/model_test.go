package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/webgate/webgate/internal/config"
	"github.com/webgate/webgate/internal/messages/emulate"
	"github.com/webgate/webgate/internal/messages/wire"
)

// A transcript (testdata/model/*.txtar) scripts one exchange with a fake
// Chat Completions server and records what webgate did:
//
//	comment            what the case covers and where the quirk comes from
//	request.json       the Messages request the emulation loop hands over
//	header             (optional) the client's request headers
//	config             (optional) "key: value" lines: api_key, models
//	                   ("pattern=model,..."), max_completion_tokens,
//	                   no_stream, keep_think_tags
//	upstream           the fake's reply: a status line, header lines, a
//	                   blank line, then the body, written in fragments of
//	                   varying size (mid-line, mid-JSON, mid-rune) with a
//	                   flush after each
//	want/request       the request the fake received (golden)
//	want/events        the events Model.Stream produced, as SSE (golden),
//	                   or want/error: ClientError's status and body
//
// Run go test -update to rewrite the want/ sections.
func TestModelTranscripts(t *testing.T) {
	files, err := filepath.Glob("testdata/model/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no transcripts: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			runTranscript(t, file)
		})
	}
}

func runTranscript(t *testing.T, file string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sec := map[string][]byte{}
	for _, f := range ar.Files {
		sec[f.Name] = f.Data
	}
	for _, need := range []string{"request.json", "upstream"} {
		if _, ok := sec[need]; !ok {
			t.Fatalf("no %s section", need)
		}
	}
	status, upHeader, upBody := parseUpstream(t, sec["upstream"])

	var got bytes.Buffer // the request the fake saw
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		fmt.Fprintf(&got, "%s %s\n", r.Method, r.URL.RequestURI())
		for _, k := range []string{"Authorization", "Accept", "Content-Type", "X-Api-Key", "Anthropic-Version"} {
			if v := r.Header.Get(k); v != "" {
				fmt.Fprintf(&got, "%s: %s\n", k, v)
			}
		}
		got.WriteString("\n")
		var pretty bytes.Buffer
		if err := json.Indent(&pretty, body, "", "  "); err != nil {
			t.Errorf("upstream got invalid JSON: %v\n%s", err, body)
		}
		got.Write(pretty.Bytes())
		got.WriteString("\n")
		for k, v := range upHeader {
			w.Header()[k] = v
		}
		w.WriteHeader(status)
		writeFragments(w, upBody)
	}))
	defer srv.Close()

	cfg, mo := transcriptConfig(t, sec["config"])
	cfg.BaseURL = srv.URL + "/v1"
	mo.NewID = seqIDs()
	m, err := NewModel(cfg, mo)
	if err != nil {
		t.Fatal(err)
	}
	hdr := http.Header{}
	for _, line := range strings.Split(strings.TrimSpace(string(sec["header"])), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok {
			hdr.Add(strings.TrimSpace(k), strings.TrimSpace(v))
		}
	}
	evs, err := m.Stream(context.Background(), hdr, sec["request.json"])
	want := map[string][]byte{"want/request": got.Bytes()}
	if err != nil {
		code, body := ClientError(err)
		b, _ := wire.Marshal(body)
		want["want/error"] = []byte(fmt.Sprintf("%d %s\n", code, b))
		if _, ok := sec["want/events"]; ok && !*update {
			t.Errorf("Stream error %v, want events", err)
		}
	} else {
		out := drain(t, evs)
		want["want/events"] = []byte(out)
		checkEvents(t, out)
	}
	compareSections(t, file, ar, want)
}

// parseUpstream splits the upstream section into status, header and body.
func parseUpstream(t *testing.T, b []byte) (int, http.Header, []byte) {
	t.Helper()
	head, body, _ := bytes.Cut(b, []byte("\n\n"))
	lines := strings.Split(string(head), "\n")
	status, err := strconv.Atoi(strings.Fields(lines[0])[0])
	if err != nil {
		t.Fatalf("upstream status line %q", lines[0])
	}
	h := http.Header{}
	for _, l := range lines[1:] {
		k, v, _ := strings.Cut(l, ":")
		h.Add(strings.TrimSpace(k), strings.TrimSpace(v))
	}
	return status, h, body
}

// writeFragments writes body in pieces of varying size, flushing each, so
// the client sees boundaries inside lines, JSON and UTF-8 sequences.
func writeFragments(w http.ResponseWriter, body []byte) {
	rc := http.NewResponseController(w)
	sizes := []int{1, 7, 3, 64, 2, 13, 5, 31}
	for i := 0; len(body) > 0; i++ {
		n := min(sizes[i%len(sizes)], len(body))
		if _, err := w.Write(body[:n]); err != nil {
			return
		}
		_ = rc.Flush()
		body = body[n:]
	}
}

// transcriptConfig reads the optional config section.
func transcriptConfig(t *testing.T, b []byte) (config.Upstream, ModelOptions) {
	t.Helper()
	cfg := config.Upstream{Kind: "openai"}
	var mo ModelOptions
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		switch strings.TrimSpace(k) {
		case "api_key":
			cfg.APIKey = v
		case "models":
			for _, r := range strings.Split(v, ",") {
				p, m, _ := strings.Cut(r, "=")
				cfg.Models = append(cfg.Models, config.ModelRule{Pattern: p, Model: m})
			}
		case "max_completion_tokens":
			cfg.MaxCompletionTokens = v == "true"
		case "no_stream":
			mo.NoStream = v == "true"
		case "keep_think_tags":
			mo.KeepThinkTags = v == "true"
		default:
			t.Fatalf("unknown config key %q", k)
		}
	}
	return cfg, mo
}

// drain reads every event, rendered as SSE.
func drain(t *testing.T, evs emulate.Events) string {
	t.Helper()
	defer evs.Close()
	var b strings.Builder
	for i := 0; ; i++ {
		ev, err := evs.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		if i > 10000 {
			t.Fatal("endless stream")
		}
		fmt.Fprintf(&b, "event: %s\ndata: %s\n\n", ev.Name, ev.Data)
	}
	if _, err := evs.Next(); !errors.Is(err, io.EOF) {
		t.Errorf("Next after the end: %v, want io.EOF", err)
	}
	return b.String()
}

// checkEvents checks an event stream's structure and feeds it to the
// official SDK's accumulator: a complete stream must accumulate into a
// message with valid tool inputs (unless cut off by max_tokens).
func checkEvents(t *testing.T, out string) {
	t.Helper()
	failed := strings.Contains(out, "event: error\n")
	checkStream(t, out, failed)
	var acc sdk.Message
	rd := wire.NewReader(strings.NewReader(out), 0, 0)
	for {
		ev, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if ev.Name == "error" {
			return
		}
		var u sdk.MessageStreamEventUnion
		if err := u.UnmarshalJSON(ev.Data); err != nil {
			t.Fatalf("SDK cannot decode %s: %v", ev.Data, err)
		}
		if err := acc.Accumulate(u); err != nil {
			t.Fatalf("SDK accumulate %s: %v", ev.Data, err)
		}
	}
	if acc.StopReason == "" {
		t.Fatalf("accumulated no stop reason: %s", acc.RawJSON())
	}
	for _, blk := range acc.Content {
		if blk.Type == "tool_use" && acc.StopReason != sdk.StopReasonMaxTokens {
			var obj map[string]any
			if err := json.Unmarshal(blk.Input, &obj); err != nil || obj == nil {
				t.Errorf("tool %s input %s is not a JSON object", blk.Name, blk.Input)
			}
		}
	}
	if !json.Valid([]byte(acc.RawJSON())) {
		t.Errorf("accumulated message is not JSON: %s", acc.RawJSON())
	}
}

// compareSections checks (or, with -update, rewrites) the want/ sections.
func compareSections(t *testing.T, file string, ar *txtar.Archive, want map[string][]byte) {
	t.Helper()
	if *update {
		ar.Files = slices.DeleteFunc(ar.Files, func(f txtar.File) bool { return strings.HasPrefix(f.Name, "want/") })
		for _, name := range slices.Sorted(maps.Keys(want)) {
			ar.Files = append(ar.Files, txtar.File{Name: name, Data: want[name]})
		}
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	have := map[string]bool{}
	for _, f := range ar.Files {
		if !strings.HasPrefix(f.Name, "want/") {
			continue
		}
		have[f.Name] = true
		g, ok := want[f.Name]
		if !ok {
			t.Errorf("%s: nothing produced for %s", file, f.Name)
			continue
		}
		if d := cmp.Diff(string(f.Data), string(g)); d != "" {
			t.Errorf("%s: %s mismatch (-want +got):\n%s", file, f.Name, d)
		}
	}
	for name := range want {
		if !have[name] {
			t.Errorf("%s: no %s section (run go test -update)", file, name)
		}
	}
}
