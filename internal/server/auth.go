package server

import (
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"

	"github.com/webgate/webgate/internal/policy"
)

// ErrorWriter writes a refusal (a *policy.Denial) in one surface's own
// error format.
type ErrorWriter func(w http.ResponseWriter, r *http.Request, err error)

// Auth authenticates requests with gateway keys and puts the
// policy.Caller in each request's context, so the layers behind the
// surfaces know who asked and through which door. A nil keyring (no keys
// configured) lets every request through as an anonymous caller.
type Auth struct {
	keys *policy.Keyring
	log  *slog.Logger
}

// NewAuth returns an Auth over keys; log may be nil.
func NewAuth(keys *policy.Keyring, log *slog.Logger) *Auth {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Auth{keys: keys, log: log}
}

// Enabled reports whether requests need a key.
func (a *Auth) Enabled() bool { return a.keys.Len() > 0 }

// Wrap guards next, which serves surface (a policy.Surface* constant):
// the request must carry a valid key that its policy allows on surface,
// or onErr answers it in the surface's format. Every header that carries
// a gateway key is removed before next runs (see scrubKeys), so no
// gateway key is ever forwarded (the Messages proxy passes client
// credentials upstream when it has none of its own).
func (a *Auth) Wrap(surface string, onErr ErrorWriter, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !a.Enabled() {
			next.ServeHTTP(w, r.WithContext(policy.WithCaller(r.Context(), policy.Caller{Surface: surface})))
			return
		}
		given, header := Credential(r.Header)
		key, err := a.keys.Authenticate(given)
		if err == nil && !key.Policy.AllowsSurface(surface) {
			err = &policy.Denial{Kind: policy.ErrSurface, Msg: "API key " + quote(key.ID) + " may not be used on the " + surface + " surface (allowed: " + strings.Join(key.Policy.Surfaces, ", ") + ")"}
		}
		if err != nil {
			// Which key (never the key material) and why, for operators
			// chasing a misconfigured client.
			attrs := []any{"surface", surface, "remote", r.RemoteAddr, "reason", kindOf(err)}
			if key != nil {
				attrs = append(attrs, "key_id", key.ID)
			}
			a.log.WarnContext(r.Context(), "request refused", attrs...)
			if errors.Is(err, policy.ErrNoKey) || errors.Is(err, policy.ErrBadKey) {
				// A 401 carries a challenge (RFC 9110 section 11.6.1,
				// https://www.rfc-editor.org/rfc/rfc9110#section-11.6.1;
				// the Bearer scheme: RFC 6750 section 3).
				w.Header().Set("WWW-Authenticate", `Bearer realm="webgate"`)
			}
			onErr(w, r, err)
			return
		}
		r = r.Clone(policy.WithCaller(r.Context(), policy.Caller{KeyID: key.ID, Surface: surface, Policy: key.Policy}))
		r.Header.Del(header)
		scrubKeys(r.Header, given)
		next.ServeHTTP(w, r)
	})
}

// minScanLen is the shortest presented key looked for inside other
// header values; configured keys are longer (server.auth_tokens need 16
// characters, generated keys have 47), so this only guards the scan.
const minScanLen = 16

// scrubKeys removes from h every header that carries a gateway key: the
// key presented, wherever it appears (inside Basic credentials too: a
// client may have put it in both Authorization and x-api-key, or in any
// other header), and anything shaped like a generated webgate key (another
// key of the same client). A webgate key is webgate's business; no
// upstream may see one.
func scrubKeys(h http.Header, presented string) {
	for name, vals := range h {
		for _, v := range vals {
			if carriesKey(v, presented) {
				delete(h, name)
				break
			}
		}
	}
}

// carriesKey reports whether a header value holds key or a webgate-shaped
// key, as it is or base64-encoded in Basic credentials.
func carriesKey(v, key string) bool {
	holds := func(s string) bool {
		return s == key || (len(key) >= minScanLen && strings.Contains(s, key)) || policy.ContainsKeyShaped(s)
	}
	if holds(strings.TrimSpace(v)) {
		return true
	}
	if scheme, cred, ok := strings.Cut(strings.TrimSpace(v), " "); ok && strings.EqualFold(scheme, "Basic") {
		cred = strings.TrimSpace(cred)
		d, err := base64.StdEncoding.DecodeString(cred)
		if err != nil {
			if d, err = base64.RawStdEncoding.DecodeString(cred); err != nil {
				return false
			}
		}
		user, pass, _ := strings.Cut(string(d), ":")
		return holds(user) || holds(pass) || holds(string(d))
	}
	return false
}

// Credential returns the key a request presents and the header it came
// in: "Authorization: Bearer <key>" (RFC 6750 section 2.1,
// https://www.rfc-editor.org/rfc/rfc6750#section-2.1; the scheme is
// case-insensitive, RFC 9110 section 11.1) wins over "x-api-key: <key>"
// (which Anthropic clients send: https://docs.anthropic.com/en/api/overview),
// so a client can authenticate to webgate with the first and still pass an
// upstream key in the second.
func Credential(h http.Header) (key, header string) {
	if auth := h.Get("Authorization"); auth != "" {
		scheme, tok, ok := strings.Cut(auth, " ")
		if ok && strings.EqualFold(scheme, "Bearer") {
			return strings.TrimSpace(tok), "Authorization"
		}
	}
	return strings.TrimSpace(h.Get("x-api-key")), "X-Api-Key"
}

func kindOf(err error) string {
	var d *policy.Denial
	if errors.As(err, &d) {
		return d.ErrorType()
	}
	return "error"
}

func quote(s string) string { return `"` + s + `"` }

// ErrExposed is returned by CheckExposure for a non-loopback listener
// without authentication.
var ErrExposed = errors.New("refusing to serve on a non-loopback address without authentication")

// CheckExposure refuses a listener reachable from other machines when no
// key is configured, unless insecure is set (something in front of
// webgate authenticates, or the network is trusted).
func CheckExposure(addr net.Addr, authEnabled, insecure bool) error {
	if authEnabled || insecure {
		return nil
	}
	tcp, ok := addr.(*net.TCPAddr)
	if !ok || tcp.IP.IsLoopback() {
		return nil
	}
	return fmt.Errorf("%w: anyone who can reach %s could search and fetch through it. Add a key (webgate keys new --id NAME, then paste the entry under auth.keys), listen on 127.0.0.1, or pass --insecure if a proxy in front of webgate authenticates", ErrExposed, addr)
}
