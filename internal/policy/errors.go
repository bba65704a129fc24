package policy

import (
	"errors"
	"fmt"
	"time"
)

// ErrDenied is wrapped by every refusal in this package, so the audit log
// and metrics can tell "refused by policy" from failures.
var ErrDenied = errors.New("denied by policy")

// Kinds of refusal. Every *Denial wraps exactly one of them (and
// ErrDenied), and each surface maps them to its own status and error type
// in one place.
var (
	// ErrNoKey: the request carried no key and the server requires one.
	ErrNoKey = errors.New("missing api key")
	// ErrBadKey: the key is unknown or disabled.
	ErrBadKey = errors.New("invalid api key")
	// ErrSurface: the key may not be used on this surface.
	ErrSurface = errors.New("surface not allowed")
	// ErrTool: the key may not use this tool (search or fetch).
	ErrTool = errors.New("tool not allowed")
	// ErrDomain: the request asks for domains outside the key's rules, or
	// the URL to fetch is outside them.
	ErrDomain = errors.New("domain not allowed")
	// ErrRateLimited: the key's rate limit is used up for this window;
	// see RetryAfterOf.
	ErrRateLimited = errors.New("rate limit exceeded")
	// ErrBudget: the key's daily search budget is used up; see
	// RetryAfterOf.
	ErrBudget = errors.New("daily search budget exhausted")
)

// Denial is a refusal: a kind, a message meant for the caller (never
// holding key material), and for limits how long to wait.
type Denial struct {
	Kind       error
	Msg        string
	RetryAfter time.Duration
}

func (d *Denial) Error() string { return d.Msg }

// Unwrap makes errors.Is match both the kind and ErrDenied.
func (d *Denial) Unwrap() []error { return []error{d.Kind, ErrDenied} }

func deny(kind error, format string, args ...any) *Denial {
	return &Denial{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// RetryAfterOf returns how long a rate-limited or budget-exhausted caller
// should wait, or 0.
func RetryAfterOf(err error) time.Duration {
	var d *Denial
	if errors.As(err, &d) {
		return d.RetryAfter
	}
	return 0
}

// IsDenial reports whether err is a refusal by policy.
func IsDenial(err error) bool { return errors.Is(err, ErrDenied) }

// ErrorType names the refusal for JSON error objects: unauthenticated,
// invalid_key, surface_not_allowed, tool_not_allowed, domain_not_allowed,
// rate_limited or budget_exhausted. The names are a public contract
// (docs/security.md); fetch.ErrorType reports them for per-URL errors.
func (d *Denial) ErrorType() string {
	switch d.Kind {
	case ErrNoKey:
		return "unauthenticated"
	case ErrBadKey:
		return "invalid_key"
	case ErrSurface:
		return "surface_not_allowed"
	case ErrTool:
		return "tool_not_allowed"
	case ErrDomain:
		return "domain_not_allowed"
	case ErrRateLimited:
		return "rate_limited"
	case ErrBudget:
		return "budget_exhausted"
	}
	return "denied"
}
