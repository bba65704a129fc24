package seal

import (
	"bytes"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
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
		if !strings.HasPrefix(tok, "wg1.k1.") {
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
	payload := tok[len("wg1.k1."):]
	raw, _ := base64.RawURLEncoding.DecodeString(payload)

	flip := func(i int) string {
		c := bytes.Clone(raw)
		c[i] ^= 1
		return "wg1.k1." + base64.RawURLEncoding.EncodeToString(c)
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
		{"truncated", s, "content", "wg1.k1." + base64.RawURLEncoding.EncodeToString(raw[:10]), ErrMalformed},
		{"other purpose", s, "index", tok, ErrInvalid},
		{"same id other secret", other, "content", tok, ErrInvalid},
		{"unknown key id", s, "content", "wg1.k9." + payload, ErrUnknownKey},
		{"swapped key id", swapped, "content", "wg1.k2." + payload, ErrInvalid},
		{"bad version", s, "content", "wg2.k1." + payload, ErrMalformed},
		{"no dots", s, "content", "garbage", ErrMalformed},
		{"bad base64", s, "content", "wg1.k1.***", ErrMalformed},
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
	if !strings.HasPrefix(tokNew, "wg1.new.") {
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
	if !strings.HasPrefix(tok, "wg1.eph.") {
		t.Errorf("ephemeral token %q", tok)
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
}
