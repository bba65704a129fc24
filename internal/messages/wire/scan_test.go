package wire

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/webgate/webgate/internal/repotest"
)

// scanSeeds are request bodies ScanRequest must decode itself (ok true).
var scanSeeds = []string{
	`{"model":"m","stream":true,"max_tokens":10,"system":[{"type":"text","text":"s"}],
	"messages":[{"role":"user","content":"hi"},{"role":"user","content":[{"type":"text","text":"a"},{"type":"image","source":{}}]}],
	"tools":[{"type":"web_search_20250305","name":"web_search","max_uses":3,"allowed_domains":["go.dev"],"user_location":{"type":"approximate","city":"X"}},{"name":"Bash","input_schema":{}}],
	"tool_choice":{"type":"tool","name":"web_search"},"unknown":{"keep":[1,2.5e-3,true,false,null,"\u00e9"]}}`,
	`{"model":"claude","messages":[{"role":"user","content":"Perform a web search for the query: \"go\" \u2014 \ud83d\ude00 \n\t\\ \/"}],"tools":[{"type":"web_search_20250305","name":"web_search","blocked_domains":[],"allowed_domains":null,"max_uses":null,"user_location":null}],"tool_choice":null,"stream":null,"max_tokens":null,"system":null}`,
	`  {"messages":[],"tools":[],"Model":"ignored","model":"x","metadata":{"user_id":"u"}}  `,
	`{"messages":[{"role":"user","content":[]},{"role":"assistant","content":null},{"content":"x"}],"max_tokens":-0}`,
	`{"messages":[{"role":"user","content":"lone \ud800 surrogate and bad \ud800\u0041 pair"}]}`,
	"{\"messages\":[{\"role\":\"user\",\"content\":\"invalid \xff utf-8 \xe2\x82\"}]}",
	`{}`,
}

// scanRefused are inputs ScanRequest must leave to DecodeRequest.
var scanRefused = []string{
	``, `[]`, `null`, `{"model":1}`, `{"messages":[null]}`, `{"tools":[null]}`, `{"model":"a","model":"b"}`,
	`{"max_tokens":1.5}`, `{"max_tokens":1e3}`, `{"max_tokens":01}`, `{"messages":[{"Role":"user"}]}`,
	`{"tools":[{"NAME":"x"}]}`, `{"tools":[{"allowed_domains":[null]}]}`, `{"mod\u0065l":"m"}`, `{"a":1}x`,
	`{"messages":[{"role":"user","content":5}]}`, `{"messages":[{"role":"user","content":[null]}]}`, `{"a":"` + "\x01" + `"}`,
	`{"a":tru}`, `{"a":-}`, `{"a":1.}`, `{"a":[1,]}`, `{"a":{"b":1,}}`, `{"a":"\x"}`, `{"a":"\u12"}`,
}

func scanEqual(t *testing.T, body []byte) (ok bool) {
	t.Helper()
	got, ok := ScanRequest(body)
	if !ok {
		return false
	}
	want, err := DecodeRequest(body)
	if err != nil {
		t.Fatalf("ScanRequest accepted what DecodeRequest refuses (%v): %q", err, body)
	}
	want.Fields = nil
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("ScanRequest differs from DecodeRequest on %q (-decode +scan):\n%s", body, diff)
	}
	return true
}

func TestScanRequest(t *testing.T) {
	for _, s := range scanSeeds {
		if !scanEqual(t, []byte(s)) {
			t.Errorf("ScanRequest refused %q", s)
		}
	}
	for _, s := range scanRefused {
		if _, ok := ScanRequest([]byte(s)); ok {
			t.Errorf("ScanRequest accepted %q", s)
		}
	}
	// Claude Code's recorded requests must take the fast route.
	dir := repotest.Shared(t, "protocol/claude-code")
	files, _ := filepath.Glob(filepath.Join(dir, "search-execution-request*.json"))
	if len(files) == 0 && os.Getenv("CI") == "true" {
		t.Fatalf("no recorded requests in %s", dir)
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var rec struct{ Body json.RawMessage }
		if err := json.Unmarshal(raw, &rec); err != nil {
			t.Fatal(err)
		}
		if !scanEqual(t, rec.Body) {
			t.Errorf("%s: ScanRequest refused the recorded body", f)
		}
	}
}

// FuzzScanRequest: whenever ScanRequest decodes a body itself, the result
// must be exactly DecodeRequest's.
func FuzzScanRequest(f *testing.F) {
	for _, s := range scanSeeds {
		f.Add([]byte(s))
	}
	for _, s := range scanRefused {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) { scanEqual(t, body) })
}

func recordedBody(b *testing.B) []byte {
	raw, err := os.ReadFile(filepath.Join(repotest.Shared(b, "protocol/claude-code"), "search-execution-request.json"))
	if err != nil {
		b.Skip(err)
	}
	var rec struct{ Body json.RawMessage }
	if err := json.Unmarshal(raw, &rec); err != nil {
		b.Fatal(err)
	}
	var out bytes.Buffer
	if err := json.Compact(&out, rec.Body); err != nil {
		b.Fatal(err)
	}
	return out.Bytes()
}

// BenchmarkDecode compares the two decoders on Claude Code's recorded
// search request.
func BenchmarkDecode(b *testing.B) {
	body := recordedBody(b)
	b.Run("DecodeRequest", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := DecodeRequest(body); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("ScanRequest", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := ScanRequest(body); !ok {
				b.Fatal("refused")
			}
		}
	})
}

// TestSpecial8 checks the word-at-a-time test against the byte-at-a-time
// one: every byte value in every position of an otherwise plain word, and
// random words.
func TestSpecial8(t *testing.T) {
	special := func(c byte) bool { return c == '"' || c == '\\' || c < 0x20 || c >= utf8.RuneSelf }
	word := func(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }
	for pos := range 8 {
		for c := range 256 {
			b := []byte("abcdefgh")
			b[pos] = byte(c)
			if got, want := special8(word(b)), special(byte(c)); got != want {
				t.Fatalf("special8(%q) = %v, want %v", b, got, want)
			}
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, 8)
	for range 200000 {
		want := false
		for i := range b {
			// Mostly bytes near the boundaries, where borrows matter.
			b[i] = []byte{0x1f, 0x20, 0x21, 0x22, 0x23, 0x5b, 0x5c, 0x5d, 0x7f, 0x80, 0x00, 0xff, byte(rng.IntN(256))}[rng.IntN(13)]
			want = want || special(b[i])
		}
		if got := special8(word(b)); got != want {
			t.Fatalf("special8(% x) = %v, want %v", b, got, want)
		}
	}
}
