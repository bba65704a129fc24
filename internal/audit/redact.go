package audit

import (
	"crypto/sha256"
	"encoding/hex"
)

// Query modes (audit.queries).
const (
	QueriesRedact = "redact" // secrets replaced by [REDACTED:<kind>]
	QueriesFull   = "full"   // as sent
	QueriesHash   = "hash"   // "sha256:" and 16 hex digits
	QueriesOmit   = "omit"   // left out
)

// Redaction decides how queries, URLs and error messages are recorded.
type Redaction struct {
	// Mode is one of the Queries* constants; "" means QueriesRedact.
	Mode string
	// Secrets replaces the secrets in a text (package guard's detector);
	// nil leaves text as is.
	Secrets func(string) string
}

// Text returns s as it should be recorded. forceSecrets applies secret
// redaction even in full mode, for queries refused because they held a
// secret: the record exists to say one was caught, not to keep it.
func (r Redaction) Text(s string, forceSecrets bool) string {
	if s == "" {
		return ""
	}
	switch r.Mode {
	case QueriesOmit:
		return ""
	case QueriesHash:
		d := sha256.Sum256([]byte(s))
		return "sha256:" + hex.EncodeToString(d[:8])
	case QueriesFull:
		if !forceSecrets {
			return s
		}
	}
	return r.secrets(s)
}

// Message returns an error message as it should be recorded. Messages
// can quote the query or URL they are about, so in hash and omit modes
// only class, a short description of the kind of failure, is kept; in the
// other modes the message with secrets redacted.
func (r Redaction) Message(msg, class string) string {
	if r.Mode == QueriesOmit || r.Mode == QueriesHash {
		return class
	}
	return r.secrets(msg)
}

func (r Redaction) secrets(s string) string {
	if r.Secrets == nil {
		return s
	}
	return r.Secrets(s)
}
