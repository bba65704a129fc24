package policy

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"math/big"
	"strconv"
	"strings"

	"github.com/webgate/webgate/internal/config"
)

// KeyPrefix starts every key `webgate keys new` generates, so secret
// scanners (webgate's own query guard included) can recognise one.
const KeyPrefix = "wgk_"

// keyLen is the number of base62 characters after the prefix: 43 of them
// carry 256 bits, the size of the random value behind them.
const keyLen = 43

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// GenerateKey returns a new random key and its configuration hash
// ("sha256:<hex>").
func GenerateKey() (key, hash string) {
	var b [32]byte
	_, _ = rand.Read(b[:]) // never fails on supported platforms
	n := new(big.Int).SetBytes(b[:])
	out := make([]byte, keyLen)
	base := big.NewInt(62)
	mod := new(big.Int)
	for i := keyLen - 1; i >= 0; i-- {
		n.DivMod(n, base, mod)
		out[i] = base62[mod.Int64()]
	}
	key = KeyPrefix + string(out)
	return key, HashKey(key)
}

// ContainsKeyShaped reports whether s holds something shaped like a key
// `webgate keys new` generates: KeyPrefix and 43 base62 characters.
func ContainsKeyShaped(s string) bool {
	for {
		i := strings.Index(s, KeyPrefix)
		if i < 0 {
			return false
		}
		s = s[i+len(KeyPrefix):]
		n := 0
		for n < len(s) && n < keyLen && strings.IndexByte(base62, s[n]) >= 0 {
			n++
		}
		if n == keyLen {
			return true
		}
	}
}

// HashKey returns the configuration form of key's hash. A single SHA-256
// is enough because gateway keys are long random values, not passwords: no
// dictionary reaches them, so a slow hash would only slow every request.
func HashKey(key string) string {
	d := sha256.Sum256([]byte(key))
	return config.HashPrefix + hex.EncodeToString(d[:])
}

// Key is one configured gateway key: its id, the digest of its secret, its
// policy, and whether it is disabled.
type Key struct {
	ID       string
	Policy   *Policy
	Disabled bool
	digest   [32]byte
}

// Keyring authenticates presented keys against the configured digests.
type Keyring struct {
	keys []Key
}

// NewKeyring returns a Keyring over keys.
func NewKeyring(keys []Key) *Keyring { return &Keyring{keys: keys} }

// Len reports how many keys are configured; 0 means authentication is off.
func (k *Keyring) Len() int {
	if k == nil {
		return 0
	}
	return len(k.keys)
}

// Authenticate returns the key whose secret is presented. The presented
// value is hashed and compared with every configured digest in constant
// time, with no early exit, so neither the content nor the position of a
// key leaks through timing. Errors are *Denial wrapping ErrNoKey or
// ErrBadKey, with messages that never repeat what was presented.
func (k *Keyring) Authenticate(presented string) (*Key, error) {
	presented = strings.TrimSpace(presented)
	if presented == "" {
		return nil, deny(ErrNoKey, "missing API key: send it as Authorization: Bearer <key> or x-api-key: <key>")
	}
	d := sha256.Sum256([]byte(presented))
	found := -1
	for i := range k.keys {
		if subtle.ConstantTimeCompare(d[:], k.keys[i].digest[:]) == 1 {
			found = i
		}
	}
	if found < 0 {
		return nil, deny(ErrBadKey, "invalid API key")
	}
	key := &k.keys[found]
	if key.Disabled {
		return nil, deny(ErrBadKey, "API key %q is disabled", key.ID)
	}
	return key, nil
}

// KeyringFromConfig builds the keyring from auth.keys (with their
// policies) and the legacy server.auth_tokens, which become unrestricted
// keys with ids "auth_tokens[N]". It returns nil when neither is set.
func KeyringFromConfig(cfg *config.Config) (*Keyring, error) {
	if !cfg.AuthEnabled() {
		return nil, nil
	}
	policies := map[string]*Policy{}
	var keys []Key
	for _, ck := range cfg.Auth.Keys {
		d, err := config.ParseKeyHash(ck.Hash)
		if err != nil {
			return nil, err // Validate has already refused it
		}
		key := Key{ID: ck.ID, Disabled: ck.Disabled, digest: d}
		if cp, name, ok := cfg.Auth.PolicyFor(ck); ok {
			if policies[name] == nil {
				p, err := FromConfig(name, cp)
				if err != nil {
					return nil, err
				}
				policies[name] = p
			}
			key.Policy = policies[name]
		}
		keys = append(keys, key)
	}
	keys = append(keys, KeyringFromTokens(cfg.Server.AuthTokens).keys...)
	return NewKeyring(keys), nil
}

func legacyID(i int) string {
	return "auth_tokens[" + strconv.Itoa(i) + "]"
}

// FromConfig builds a Policy from its configuration.
func FromConfig(name string, c config.Policy) (*Policy, error) {
	d, err := NewDomains(c.AllowedDomains, c.BlockedDomains)
	if err != nil {
		return nil, err
	}
	return &Policy{
		Name: name, Tools: c.Tools, Surfaces: c.Surfaces, Domains: d,
		RateLimit:     Rate{Requests: c.RateLimit.Requests, Per: c.RateLimit.Per},
		DailySearches: c.DailySearches,
	}, nil
}

// KeyringFromTokens returns a keyring of unrestricted keys from plain
// tokens (the older server.auth_tokens), with ids "auth_tokens[N]".
func KeyringFromTokens(tokens []string) *Keyring {
	keys := make([]Key, len(tokens))
	for i, t := range tokens {
		keys[i] = Key{ID: legacyID(i), digest: sha256.Sum256([]byte(strings.TrimSpace(t)))}
	}
	return NewKeyring(keys)
}
