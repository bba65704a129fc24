// Package seal provides authenticated encryption for the opaque tokens
// webgate hands to clients: web_search_result.encrypted_content and
// web_search_result_location.encrypted_index.
//
// Anthropic's clients treat those fields as opaque and send them back in
// later turns (Anthropic's web search tool page:
// https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool);
// webgate must be able to trust what comes back (a client must
// not be able to make the proxy "remember" a page it never fetched) and must
// not leak fetched content in a readable form that looks authoritative. So
// each token is AES-256-GCM ciphertext, bound by its additional data to a
// purpose string, and prefixed with a version and a key id:
//
//	wg2.<key id>.<base64url(nonce || ciphertext || tag)>
//
// (base64url without padding: RFC 4648 sections 5 and 3.2,
// https://www.rfc-editor.org/rfc/rfc4648#section-5;
// GCM: NIST SP 800-38D,
// https://nvlpubs.nist.gov/nistpubs/Legacy/SP/nistspecialpublication800-38d.pdf.)
//
// A wg2 token is also bound to the fields the conversation shows in the
// clear (a result's url and title and the search's query, a citation's
// url and cited_text; see PurposeResult): they are
// part of the additional data instead of being sealed a second time, so
// changing one makes the token fail to open, and the token is about half
// as long as a wg1 token, which sealed copies of them. wg1 tokens, from
// earlier versions, still open; a wg1 token's plaintext carries those
// fields and its callers compare them.
//
// Several keys can be configured. The first seals; all of them open, so an
// operator rotates by adding a new key in front and removing the old one
// once tokens sealed with it no longer matter.
package seal

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// KeySize is the length of a key in bytes (AES-256).
const KeySize = 32

// Token versions: version seals, and Open also reads versionUnbound.
const (
	version        = "wg2"
	versionUnbound = "wg1"
)

// Errors returned by Open. Both mean "do not trust this token".
var (
	// ErrMalformed: the token is not of the wg2.<kid>.<payload> form (or
	// wg1's) or the payload is not valid base64url.
	ErrMalformed = errors.New("seal: malformed token")
	// ErrUnknownKey: the token names a key id this Sealer does not hold
	// (sealed by another process or with a retired key).
	ErrUnknownKey = errors.New("seal: unknown key id")
	// ErrInvalid: authentication failed; the token was tampered with, sealed
	// for another purpose, or sealed with a different key of the same id.
	ErrInvalid = errors.New("seal: authentication failed")
)

// Key is one named key.
type Key struct {
	// ID names the key inside tokens: 1 to 16 characters from [A-Za-z0-9_-].
	ID string
	// Secret is KeySize random bytes.
	Secret []byte
}

// ParseKey parses the configuration form "<id>:<base64 secret>", where the
// secret is standard or URL-safe base64, padded or not, of exactly 32 bytes.
func ParseKey(s string) (Key, error) {
	id, enc, ok := strings.Cut(strings.TrimSpace(s), ":")
	if !ok {
		return Key{}, errors.New(`seal key must look like "<id>:<base64 of 32 bytes>"`)
	}
	if err := validID(id); err != nil {
		return Key{}, err
	}
	secret, err := decodeAnyBase64(enc)
	if err != nil {
		return Key{}, fmt.Errorf("seal key %q: secret is not base64: %w", id, err)
	}
	if len(secret) != KeySize {
		return Key{}, fmt.Errorf("seal key %q: secret is %d bytes, want %d", id, len(secret), KeySize)
	}
	return Key{ID: id, Secret: secret}, nil
}

func decodeAnyBase64(s string) ([]byte, error) {
	s = strings.TrimRight(s, "=")
	if strings.ContainsAny(s, "-_") {
		return base64.RawURLEncoding.DecodeString(s)
	}
	return base64.RawStdEncoding.DecodeString(s)
}

func validID(id string) error {
	if len(id) == 0 || len(id) > 16 {
		return fmt.Errorf("seal key id %q must be 1 to 16 characters", id)
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return fmt.Errorf("seal key id %q may only contain letters, digits, '_' and '-'", id)
		}
	}
	return nil
}

// GenerateKey returns a fresh random key with the given id.
func GenerateKey(id string) (Key, error) {
	if err := validID(id); err != nil {
		return Key{}, err
	}
	secret := make([]byte, KeySize)
	if _, err := rand.Read(secret); err != nil {
		return Key{}, fmt.Errorf("seal: generate key: %w", err)
	}
	return Key{ID: id, Secret: secret}, nil
}

// Sealer seals with its first key and opens with any of its keys. It is
// safe for concurrent use.
type Sealer struct {
	primary string
	aeads   map[string]cipher.AEAD
	// seal and prefix are the primary key's AEAD and "wg2.<kid>.", looked
	// up once here rather than on every Seal.
	seal   cipher.AEAD
	prefix string
	// ads caches additionalData per purpose for the primary key (purpose
	// strings are a handful of constants), saving an allocation per Seal.
	ads  sync.Map // purpose -> []byte
	nads atomic.Int32
}

// maxCachedADs bounds the cache should a caller use many purposes.
const maxCachedADs = 16

// New returns a Sealer over keys; keys[0] seals. Key ids must be unique.
func New(keys ...Key) (*Sealer, error) {
	if len(keys) == 0 {
		return nil, errors.New("seal: at least one key is required")
	}
	s := &Sealer{primary: keys[0].ID, aeads: make(map[string]cipher.AEAD, len(keys))}
	for _, k := range keys {
		if err := validID(k.ID); err != nil {
			return nil, err
		}
		if len(k.Secret) != KeySize {
			return nil, fmt.Errorf("seal key %q: secret is %d bytes, want %d", k.ID, len(k.Secret), KeySize)
		}
		if _, dup := s.aeads[k.ID]; dup {
			return nil, fmt.Errorf("seal key id %q is used twice", k.ID)
		}
		block, err := aes.NewCipher(k.Secret)
		if err != nil {
			return nil, fmt.Errorf("seal key %q: %w", k.ID, err)
		}
		aead, err := cipher.NewGCM(block)
		if err != nil {
			return nil, fmt.Errorf("seal key %q: %w", k.ID, err)
		}
		s.aeads[k.ID] = aead
	}
	s.seal = s.aeads[s.primary]
	s.prefix = version + "." + s.primary + "."
	return s, nil
}

// Ephemeral returns a Sealer with one random key, for processes that were
// given no keys. Its tokens cannot be opened after a restart or by another
// replica, which only matters for clients that replay old turns. The key
// id is random too ("eph-" and 8 hex digits), so such a token is told
// apart as sealed by an unknown key (restored without its sealed text)
// rather than as a forgery under a key of the same name.
func Ephemeral() (*Sealer, error) {
	var id [4]byte
	if _, err := rand.Read(id[:]); err != nil {
		return nil, fmt.Errorf("seal: generate key id: %w", err)
	}
	k, err := GenerateKey(fmt.Sprintf("eph-%x", id))
	if err != nil {
		return nil, err
	}
	return New(k)
}

// FromConfig builds a Sealer from "<id>:<base64>" strings, or an ephemeral
// one when none are given.
func FromConfig(specs []string) (*Sealer, error) {
	if len(specs) == 0 {
		return Ephemeral()
	}
	keys := make([]Key, 0, len(specs))
	for _, s := range specs {
		k, err := ParseKey(s)
		if err != nil {
			return nil, err
		}
		keys = append(keys, k)
	}
	return New(keys...)
}

// additionalData binds a token to its version, purpose and key id, so a
// token sealed as an index cannot be replayed as content and the visible
// key id cannot be swapped. A wg2 token's bound fields follow (see
// appendBound).
func additionalData(v, purpose, kid string) []byte {
	if v == versionUnbound {
		return []byte(v + "\x00" + kid + "\x00" + purpose)
	}
	return []byte(v + "\x00" + kid + "\x00" + purpose + "\x00")
}

// appendBound appends the bound fields to a wg2 token's additional data,
// each as its length (uvarint) and its bytes, so no two lists of fields
// encode alike.
func appendBound(ad []byte, bound []string) []byte {
	for _, f := range bound {
		ad = binary.AppendUvarint(ad, uint64(len(f)))
		ad = append(ad, f...)
	}
	return ad
}

// boundLen is the number of bytes appendBound adds.
func boundLen(bound []string) int {
	n := 0
	for _, f := range bound {
		n += binary.MaxVarintLen64 + len(f)
	}
	return n
}

// Seal encrypts plaintext for purpose (e.g. "web_search_result"), bound to
// the given fields, and returns the token. Open must be given the same
// fields, in the same order.
//
// The nonce is 12 bytes from crypto/rand, GCM's standard random-nonce
// construction: with 96 random bits a repeat is negligible (NIST SP 800-38D
// allows 2^32 messages per key this way) across every process and replica
// sharing the key, with no state to coordinate. crypto/rand reads the
// kernel's getrandom (vDSO where available) and profiles show it at ~1% of
// a fast-path request, so a counter scheme is not worth its risks.
func (s *Sealer) Seal(purpose string, plaintext []byte, bound ...string) (string, error) {
	b, err := s.AppendSeal(make([]byte, 0, s.bufLen(len(plaintext), purpose, bound)), purpose, plaintext, bound...)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// TokenLen returns the length of the token Seal makes from a plaintext of
// n bytes.
func (s *Sealer) TokenLen(n int) int {
	return len(s.prefix) + base64.RawURLEncoding.EncodedLen(s.seal.NonceSize()+n+s.seal.Overhead())
}

// bufLen is what AppendSeal needs beyond len(dst) while it works: the
// token plus room for the raw ciphertext behind it and, with bound
// fields, the additional data behind that.
func (s *Sealer) bufLen(n int, purpose string, bound []string) int {
	l := s.TokenLen(n) + s.seal.NonceSize() + n + s.seal.Overhead()
	if len(bound) > 0 {
		l += len(s.ad(purpose)) + boundLen(bound)
	}
	return l
}

// AppendSeal appends the token Seal would return to dst and returns the
// extended slice. Tokens contain only ASCII letters, digits, '-', '_' and
// '.', so they can be embedded in JSON strings as they are. With enough
// capacity in dst (TokenLen, plus the bound fields' length and a few bytes
// each while it works) it allocates nothing, which lets a caller seal many
// payloads into one buffer.
func (s *Sealer) AppendSeal(dst []byte, purpose string, plaintext []byte, bound ...string) ([]byte, error) {
	aead := s.seal
	ns := aead.NonceSize()
	raw := ns + len(plaintext) + aead.Overhead()
	enc := base64.RawURLEncoding.EncodedLen(raw)
	n := len(dst)
	// The prefix and the base64 text go at the end of dst; the raw
	// nonce||ciphertext is sealed into the space after that text and then
	// encoded forwards into the (larger, non-overlapping) text area. The
	// additional data, when fields are bound, is built after the raw
	// bytes.
	ad := s.ad(purpose)
	adLen := 0
	if len(bound) > 0 {
		adLen = len(ad) + boundLen(bound)
	}
	dst = slices.Grow(dst, len(s.prefix)+enc+raw+adLen)
	buf := dst[n : n+len(s.prefix)+enc+raw+adLen]
	copy(buf, s.prefix)
	tail := buf[len(s.prefix)+enc:]
	if len(bound) > 0 {
		ad = appendBound(append(tail[raw:raw], ad...), bound)
	}
	if _, err := rand.Read(tail[:ns]); err != nil {
		return dst[:n], fmt.Errorf("seal: nonce: %w", err)
	}
	sealed := aead.Seal(tail[:ns], tail[:ns], plaintext, ad)
	base64.RawURLEncoding.Encode(buf[len(s.prefix):len(s.prefix)+enc], sealed)
	return dst[:n+len(s.prefix)+enc], nil
}

// ad returns additionalData(version, purpose, s.primary), cached.
func (s *Sealer) ad(purpose string) []byte {
	if v, ok := s.ads.Load(purpose); ok {
		return v.([]byte)
	}
	ad := additionalData(version, purpose, s.primary)
	if s.nads.Add(1) <= maxCachedADs {
		s.ads.Store(purpose, ad)
	}
	return ad
}

// IsToken reports whether s has the form of a webgate token (either
// version), as opposed to another party's opaque value. It does not
// authenticate it.
func IsToken(s string) bool {
	return len(s) > 4 && s[0] == 'w' && s[1] == 'g' && (s[2] == '1' || s[2] == '2') && s[3] == '.'
}

// Contains reports whether b, a JSON document, holds a string that starts
// with a webgate token: a cheap test, without parsing, of whether a
// request carries values only webgate can read.
func Contains(b []byte) bool {
	for {
		i := bytes.Index(b, quotedPrefix)
		if i < 0 {
			return false
		}
		b = b[i+len(quotedPrefix):]
		if len(b) >= 2 && (b[0] == '1' || b[0] == '2') && b[1] == '.' {
			return true
		}
	}
}

var quotedPrefix = []byte(`"wg`)

// Open authenticates and decrypts a token sealed for purpose and bound to
// the given fields. A wg1 token, sealed before fields were bound, opens
// whatever the fields are: its plaintext holds copies of them, which the
// caller must compare instead.
func (s *Sealer) Open(purpose, token string, bound ...string) ([]byte, error) {
	v, rest, ok := strings.Cut(token, ".")
	if !ok || (v != version && v != versionUnbound) {
		return nil, ErrMalformed
	}
	kid, payload, ok := strings.Cut(rest, ".")
	if !ok {
		return nil, ErrMalformed
	}
	aead, ok := s.aeads[kid]
	if !ok {
		return nil, ErrUnknownKey
	}
	raw, err := base64.RawURLEncoding.DecodeString(payload)
	if err != nil {
		return nil, ErrMalformed
	}
	ns := aead.NonceSize()
	if len(raw) < ns+aead.Overhead() {
		return nil, ErrMalformed
	}
	ad := additionalData(v, purpose, kid)
	if v == version {
		ad = appendBound(ad, bound)
	}
	pt, err := aead.Open(nil, raw[:ns], raw[ns:], ad)
	if err != nil {
		return nil, ErrInvalid
	}
	return pt, nil
}
