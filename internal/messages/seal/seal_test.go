package seal

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
)

func mustKey(t *testing.T, id string) Key {
	t.Helper()
	k, err := GenerateKey(id)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestRoundTrip(t *testing.T) {
	s, err := New(mustKey(t, "k1"))
	if err != nil {
		t.Fatal(err)
	}
	for _, pt := range [][]byte{nil, []byte("x"), bytes.Repeat([]byte("page text "), 1000)} {
		tok, err := s.Seal("content", pt)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(tok, "wg2.k1.") {
			t.Fatalf("token %q lacks version and key id prefix", tok)
		}
		got, err := s.Open("content", tok)
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		if !bytes.Equal(got, pt) {
			t.Fatalf("round trip: got %q, want %q", got, pt)
		}
	}
	a, _ := s.Seal("content", []byte("same"))
	b, _ := s.Seal("content", []byte("same"))
	if a == b {
		t.Fatal("two seals of the same plaintext are identical; nonce is not random")
	}
}

func TestTamperDetection(t *testing.T) {
	k1 := mustKey(t, "k1")
	s, _ := New(k1)
	swapped, _ := New(Key{ID: "k2", Secret: k1.Secret})
	other, _ := New(Key{ID: "k1", Secret: bytes.Repeat([]byte{7}, KeySize)})
	tok, _ := s.Seal("content", []byte("secret page"))
	payload := tok[len("wg2.k1."):]
	raw, _ := base64.RawURLEncoding.DecodeString(payload)

	flip := func(i int) string {
		c := bytes.Clone(raw)
		c[i] ^= 1
		return "wg2.k1." + base64.RawURLEncoding.EncodeToString(c)
	}
	tests := []struct {
		name    string
		sealer  *Sealer
		purpose string
		token   string
		want    error
	}{
		{"flipped nonce", s, "content", flip(0), ErrInvalid},
		{"flipped ciphertext", s, "content", flip(13), ErrInvalid},
		{"flipped tag", s, "content", flip(len(raw) - 1), ErrInvalid},
		{"truncated", s, "content", "wg2.k1." + base64.RawURLEncoding.EncodeToString(raw[:10]), ErrMalformed},
		{"other purpose", s, "index", tok, ErrInvalid},
		{"same id other secret", other, "content", tok, ErrInvalid},
		{"unknown key id", s, "content", "wg2.k9." + payload, ErrUnknownKey},
		{"swapped key id", swapped, "content", "wg2.k2." + payload, ErrInvalid},
		{"unknown version", s, "content", "wg3.k1." + payload, ErrMalformed},
		{"relabelled as wg1", s, "content", "wg1.k1." + payload, ErrInvalid},
		{"no dots", s, "content", "garbage", ErrMalformed},
		{"bad base64", s, "content", "wg2.k1.***", ErrMalformed},
		{"empty", s, "content", "", ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.sealer.Open(tt.purpose, tt.token)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Open error = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestKeyRotation(t *testing.T) {
	old := mustKey(t, "old")
	cur := mustKey(t, "new")
	before, _ := New(old)
	tokOld, _ := before.Seal("content", []byte("from before"))

	rotated, err := New(cur, old)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := rotated.Open("content", tokOld); err != nil || string(got) != "from before" {
		t.Fatalf("rotated sealer cannot open old token: %q, %v", got, err)
	}
	tokNew, _ := rotated.Seal("content", []byte("after"))
	if !strings.HasPrefix(tokNew, "wg2.new.") {
		t.Fatalf("rotated sealer seals with %q, want the first key", tokNew)
	}
	retired, _ := New(cur)
	if _, err := retired.Open("content", tokOld); !errors.Is(err, ErrUnknownKey) {
		t.Fatalf("retired key: err = %v, want ErrUnknownKey", err)
	}
	if _, err := before.Open("content", tokNew); !errors.Is(err, ErrUnknownKey) {
		t.Fatalf("old sealer opening new token: err = %v, want ErrUnknownKey", err)
	}
}

func TestParseKeyAndFromConfig(t *testing.T) {
	secret := bytes.Repeat([]byte{0xfb}, KeySize)
	std := base64.StdEncoding.EncodeToString(secret)
	url := base64.RawURLEncoding.EncodeToString(secret)
	for _, spec := range []string{"a:" + std, "a:" + url, " a:" + std + " "} {
		k, err := ParseKey(spec)
		if err != nil {
			t.Fatalf("ParseKey(%q): %v", spec, err)
		}
		if k.ID != "a" || !bytes.Equal(k.Secret, secret) {
			t.Fatalf("ParseKey(%q) = %+v", spec, k)
		}
	}
	bad := []string{"", "nocolon", ":" + std, "a b:" + std, "a:!!!", "a:" + base64.StdEncoding.EncodeToString([]byte("short")), strings.Repeat("x", 17) + ":" + std}
	for _, spec := range bad {
		if _, err := ParseKey(spec); err == nil {
			t.Errorf("ParseKey(%q) succeeded, want error", spec)
		}
	}
	if _, err := FromConfig([]string{"a:" + std, "a:" + url}); err == nil {
		t.Error("duplicate key ids accepted")
	}
	s, err := FromConfig(nil)
	if err != nil {
		t.Fatal(err)
	}
	tok, _ := s.Seal("p", []byte("x"))
	if !regexp.MustCompile(`^wg2\.eph-[0-9a-f]{8}\.`).MatchString(tok) {
		t.Errorf("ephemeral token %q", tok)
	}
	// Another process's ephemeral key has another id: its tokens are
	// from an unknown key, not forgeries.
	other, _ := FromConfig(nil)
	if _, err := other.Open("p", tok); !errors.Is(err, ErrUnknownKey) {
		t.Errorf("another ephemeral sealer's token: %v, want ErrUnknownKey", err)
	}
}

// TestAppendSeal: tokens appended into a shared buffer open like Seal's,
// leave what precedes them intact, have the length TokenLen predicts, use
// only characters that need no escaping in JSON, and cost no allocation
// when the buffer has room.
func TestAppendSeal(t *testing.T) {
	s, err := New(mustKey(t, "k-1_"))
	if err != nil {
		t.Fatal(err)
	}
	pts := [][]byte{nil, []byte(`{"url":"https://x.test/"}`), bytes.Repeat([]byte("é page text "), 300)}
	buf := []byte(`prefix "`)
	var ends []int
	for _, pt := range pts {
		before := len(buf)
		if buf, err = s.AppendSeal(buf, "content", pt); err != nil {
			t.Fatal(err)
		}
		if got, want := len(buf)-before, s.TokenLen(len(pt)); got != want {
			t.Errorf("token of a %d-byte plaintext is %d bytes, TokenLen says %d", len(pt), got, want)
		}
		ends = append(ends, len(buf))
	}
	if !bytes.HasPrefix(buf, []byte(`prefix "`)) {
		t.Fatalf("AppendSeal overwrote what dst held: %q", buf[:16])
	}
	start := len(`prefix "`)
	for i, pt := range pts {
		tok := string(buf[start:ends[i]])
		start = ends[i]
		for _, c := range tok {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
				t.Fatalf("token %q has %q, which JSON would need to escape", tok, c)
			}
		}
		got, err := s.Open("content", tok)
		if err != nil || !bytes.Equal(got, pt) {
			t.Fatalf("token %d: Open = %q, %v", i, got, err)
		}
	}
	pt := []byte("plaintext of a result")
	room := make([]byte, 0, 4096)
	if n := testing.AllocsPerRun(100, func() { _, _ = s.AppendSeal(room[:0], "content", pt) }); n != 0 {
		t.Errorf("AppendSeal into a buffer with room allocates %v times", n)
	}
	url, title := "https://x.test/", "A title"
	if n := testing.AllocsPerRun(100, func() { _, _ = s.AppendSeal(room[:0], "content", pt, url, title) }); n != 0 {
		t.Errorf("AppendSeal with bound fields into a buffer with room allocates %v times", n)
	}
	tok, err := s.AppendSeal(nil, "content", pt, url, title)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(tok), s.TokenLen(len(pt)); got != want {
		t.Errorf("token with bound fields is %d bytes, TokenLen says %d", got, want)
	}
	if got, err := s.Open("content", string(tok), url, title); err != nil || !bytes.Equal(got, pt) {
		t.Errorf("token with bound fields: Open = %q, %v", got, err)
	}
}

// TestBound: a token opens only with the fields it was sealed with, in the
// same order, and field boundaries count.
func TestBound(t *testing.T) {
	s, err := New(mustKey(t, "k1"))
	if err != nil {
		t.Fatal(err)
	}
	tok, err := s.Seal("content", []byte("payload"), "ab", "c")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		bound []string
		want  error
	}{
		{"same fields", []string{"ab", "c"}, nil},
		{"other boundary", []string{"a", "bc"}, ErrInvalid},
		{"swapped", []string{"c", "ab"}, ErrInvalid},
		{"one changed", []string{"ab", "d"}, ErrInvalid},
		{"one missing", []string{"ab"}, ErrInvalid},
		{"one extra", []string{"ab", "c", ""}, ErrInvalid},
		{"none", nil, ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.Open("content", tok, tt.bound...)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Open error = %v, want %v", err, tt.want)
			}
		})
	}
	unbound, _ := s.Seal("content", []byte("payload"))
	if _, err := s.Open("content", unbound, ""); !errors.Is(err, ErrInvalid) {
		t.Errorf("a token sealed with no fields opens with an empty one: %v", err)
	}
}

// sealV1 makes a token as webgate sealed them before fields were bound.
func sealV1(t *testing.T, s *Sealer, purpose string, pt []byte) string {
	t.Helper()
	nonce := make([]byte, s.seal.NonceSize())
	ct := s.seal.Seal(nonce, nonce, pt, additionalData(versionUnbound, purpose, s.primary))
	return versionUnbound + "." + s.primary + "." + base64.RawURLEncoding.EncodeToString(ct)
}

// TestOpenV1: wg1 tokens keep opening, whatever fields are given, and
// OpenResult and OpenCitation compare the fields their payloads carry.
func TestOpenV1(t *testing.T) {
	s, err := New(mustKey(t, "k1"))
	if err != nil {
		t.Fatal(err)
	}
	tok := sealV1(t, s, "content", []byte("old"))
	if got, err := s.Open("content", tok, "any", "fields"); err != nil || string(got) != "old" {
		t.Fatalf("wg1 token: Open = %q, %v", got, err)
	}
	if _, err := s.Open("index", tok); !errors.Is(err, ErrInvalid) {
		t.Fatalf("wg1 token opened for another purpose: %v", err)
	}

	res := sealV1(t, s, PurposeResult, []byte(`{"v":1,"query":"q","url":"https://a.test/","title":"Sealed title","snippet":"s","retrieved":"2026-01-02T03:04:05Z"}`))
	r, err := s.OpenResult(res, "https://a.test/", "Shown title", "other query")
	if err != nil {
		t.Fatal(err)
	}
	if r.URL != "https://a.test/" || r.Title != "Sealed title" || r.Query != "q" || r.Snippet != "s" {
		t.Errorf("v1 result = %+v", r)
	}
	if _, err := s.OpenResult(res, "https://b.test/", "Sealed title", "q"); !errors.Is(err, ErrMismatch) {
		t.Errorf("v1 result under another url: %v, want ErrMismatch", err)
	}
	cit := sealV1(t, s, PurposeCitation, []byte(`{"v":1,"url":"https://a.test/","result":2,"cited_text":"quoted"}`))
	if c, err := s.OpenCitation(cit, "https://a.test/", "quoted"); err != nil || c.Result != 2 {
		t.Errorf("v1 citation = %+v, %v", c, err)
	}
	for _, f := range [][2]string{{"https://b.test/", "quoted"}, {"https://a.test/", "edited"}} {
		if _, err := s.OpenCitation(cit, f[0], f[1]); !errors.Is(err, ErrMismatch) {
			t.Errorf("v1 citation with %q: %v, want ErrMismatch", f, err)
		}
	}
}

// TestOpenResultV2: version 2 payloads leave the visible fields out,
// OpenResult and OpenCitation fill them in, and changing one fails.
func TestOpenResultV2(t *testing.T) {
	s, err := New(mustKey(t, "k1"))
	if err != nil {
		t.Fatal(err)
	}
	when := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	pt, _ := json.Marshal(Result{Version: PayloadVersion, Snippet: "s", Retrieved: when})
	if bytes.Contains(pt, []byte(`"url"`)) || bytes.Contains(pt, []byte(`"title"`)) || bytes.Contains(pt, []byte(`"query"`)) {
		t.Fatalf("v2 payload %s holds the bound fields", pt)
	}
	tok, err := s.Seal(PurposeResult, pt, "https://a.test/", "Title", "q")
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.OpenResult(tok, "https://a.test/", "Title", "q")
	want := Result{Version: 2, Query: "q", URL: "https://a.test/", Title: "Title", Snippet: "s", Retrieved: when}
	if err != nil || !reflect.DeepEqual(r, want) {
		t.Fatalf("OpenResult = %+v, %v; want %+v", r, err, want)
	}
	for _, f := range [][3]string{{"https://b.test/", "Title", "q"}, {"https://a.test/", "Other", "q"}, {"https://a.test/", "Title", "q2"}} {
		if _, err := s.OpenResult(tok, f[0], f[1], f[2]); !errors.Is(err, ErrInvalid) {
			t.Errorf("result shown as %q: %v, want ErrInvalid", f, err)
		}
	}
	pt, _ = json.Marshal(Citation{Version: PayloadVersion, Result: 3})
	tok, _ = s.Seal(PurposeCitation, pt, "https://a.test/", "quoted")
	if c, err := s.OpenCitation(tok, "https://a.test/", "quoted"); err != nil || c != (Citation{Version: 2, URL: "https://a.test/", Result: 3, CitedText: "quoted"}) {
		t.Errorf("OpenCitation = %+v, %v", c, err)
	}
	if _, err := s.OpenCitation(tok, "https://a.test/", "quoted!"); !errors.Is(err, ErrInvalid) {
		t.Errorf("citation with edited cited_text: %v, want ErrInvalid", err)
	}
	if _, err := s.OpenResult(tok, "https://a.test/", "quoted", ""); !errors.Is(err, ErrInvalid) {
		t.Errorf("citation token opened as a result: %v, want ErrInvalid", err)
	}
}

func TestIsTokenAndContains(t *testing.T) {
	tests := []struct {
		s        string
		token    bool
		contains bool
	}{
		{"wg2.k.abc", true, false},
		{"wg1.k.abc", true, false},
		{"wg3.k.abc", false, false},
		{"wg2", false, false},
		{"xwg2.k.a", false, false},
		{`{"encrypted_content":"wg2.k.abc"}`, false, true},
		{`{"encrypted_index":"wg1.eph.abc"}`, false, true},
		{`{"a":"wg","b":"wg2x","c":"wg3.k"}`, false, false},
		{`{"a":"wg","b":"wg1.k"}`, false, true},
		{`"wg2`, false, false},
		{``, false, false},
	}
	for _, tt := range tests {
		if got := IsToken(tt.s); got != tt.token {
			t.Errorf("IsToken(%q) = %v", tt.s, got)
		}
		if got := Contains([]byte(tt.s)); got != tt.contains {
			t.Errorf("Contains(%q) = %v", tt.s, got)
		}
	}
}

// FuzzContains checks Contains against the two substring searches it
// replaces.
func FuzzContains(f *testing.F) {
	for _, s := range []string{`{"a":"wg2.k.x"}`, `"wg1.`, `"wg"wg2.`, `"wg3."wg`, `wg2.`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		want := bytes.Contains(b, []byte(`"wg1.`)) || bytes.Contains(b, []byte(`"wg2.`))
		if got := Contains(b); got != want {
			t.Fatalf("Contains(%q) = %v, want %v", b, got, want)
		}
	})
}

// FuzzOpen: no input makes Open panic, and nothing opens but a token
// sealed with the key (the seed's, made anew in each fuzzing process)
// with its own fields.
func FuzzOpen(f *testing.F) {
	s, err := New(Key{ID: "k1", Secret: bytes.Repeat([]byte{1}, KeySize)})
	if err != nil {
		f.Fatal(err)
	}
	tok, _ := s.Seal("p", []byte("x"), "u", "t")
	f.Add(tok, "u", "t")
	f.Add("wg1.k1.AAAA", "", "")
	f.Add("wg2.k1."+strings.Repeat("A", 60), "u", "t")
	f.Fuzz(func(t *testing.T, token, a, b string) {
		pt, err := s.Open("p", token, a, b)
		if err == nil && (a != "u" || b != "t" || string(pt) != "x") {
			t.Fatalf("Open(%q, %q, %q) = %q, want an error", token, a, b, pt)
		}
	})
}

// TestSealResultRoundTrip: what SealResult and SealCitation seal opens as
// it was given, the bound fields stay out of the plaintext, and a payload
// json.Marshal refuses is an error, not a token.
func TestSealResultRoundTrip(t *testing.T) {
	s, err := New(mustKey(t, "k1"))
	if err != nil {
		t.Fatal(err)
	}
	when := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	r := Result{Query: "q <&>", URL: "https://a.test/?x=1&y=2", Title: "T", Snippet: "s", PageAge: "May 6, 2024",
		Passages: []string{"p"}, Provider: "brave", Retrieved: when}
	tok, err := s.SealResult(r)
	if err != nil {
		t.Fatal(err)
	}
	pt, err := s.Open(PurposeResult, tok, r.URL, r.Title, r.Query)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(pt, []byte(`"url"`)) || bytes.Contains(pt, []byte(`"title"`)) || bytes.Contains(pt, []byte(`"query"`)) {
		t.Errorf("payload %s holds the bound fields", pt)
	}
	got, err := s.OpenResult(tok, r.URL, r.Title, r.Query)
	want := r
	want.Version = PayloadVersion
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("OpenResult = %+v, %v; want %+v", got, err, want)
	}
	ctok, err := s.SealCitation(Citation{URL: r.URL, Result: 4, CitedText: "quoted"})
	if err != nil {
		t.Fatal(err)
	}
	if c, err := s.OpenCitation(ctok, r.URL, "quoted"); err != nil || c != (Citation{Version: PayloadVersion, URL: r.URL, Result: 4, CitedText: "quoted"}) {
		t.Errorf("OpenCitation = %+v, %v", c, err)
	}
	if _, err := s.SealResult(Result{Retrieved: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}); err == nil {
		t.Error("year 10000: want json.Marshal's error")
	}
}
