package config

import (
	"fmt"
	"path/filepath"
)

// Audit configures the record kept of every search and fetch: one JSON
// line each, with the time, key id, surface, query or URL, provider,
// result count, bytes, latency and outcome. Records are written
// asynchronously through a bounded queue, so auditing never slows or fails
// a request; when the queue is full, records are dropped and counted.
type Audit struct {
	// File configures the JSONL audit file with size-based rotation. No
	// file is written unless file.path is set.
	File AuditFile `yaml:"file"`
	// Queries says how search queries and fetched URLs are recorded:
	// "redact" (the default) replaces anything the query guard recognises
	// as a secret with [REDACTED:<kind>]; "full" keeps them as sent;
	// "hash" keeps only "sha256:" and the first 16 hex digits of their
	// SHA-256, so repeats can be counted without the text (short queries
	// can still be guessed by hashing candidates); "omit" leaves them out.
	// A query refused because it held a secret is always recorded
	// redacted.
	Queries string `yaml:"queries"`
	// QueueSize is how many records may wait to be written. When it is full,
	// new records are dropped (and counted) rather than making a request wait.
	QueueSize int `yaml:"queue_size"`
	// Recent is how many of the latest records are kept in memory for the web
	// console's audit view, whether or not a file is written.
	Recent int `yaml:"recent"`
}

// AuditFile is the rotated JSONL audit file.
type AuditFile struct {
	// Path is the file to append records to, created with mode 0600 along
	// with missing directories. Empty (the default) writes no file.
	Path string `yaml:"path"`
	// MaxSizeMB is the size in megabytes at which the file is rotated: it is
	// renamed with a timestamp and a new file is started.
	MaxSizeMB int `yaml:"max_size_mb"`
	// MaxBackups is how many rotated files are kept; older ones are deleted.
	// -1 keeps all of them.
	MaxBackups int `yaml:"max_backups"`
	// MaxAgeDays deletes rotated files older than this many days. The
	// default, 0, deletes none by age.
	MaxAgeDays int `yaml:"max_age_days"`
	// Compress gzips rotated files. The default is false.
	Compress bool `yaml:"compress"`
}

// Audit query modes.
var auditQueryModes = []string{"redact", "full", "hash", "omit"}

func (a *Audit) applyDefaults() {
	if a.Queries == "" {
		a.Queries = "redact"
	}
	if a.QueueSize == 0 {
		a.QueueSize = 4096
	}
	if a.Recent == 0 {
		a.Recent = 1000
	}
	if a.File.MaxSizeMB == 0 {
		a.File.MaxSizeMB = 100
	}
	if a.File.MaxBackups == 0 {
		a.File.MaxBackups = 10
	}
}

func (a *Audit) validate() []error {
	var errs []error
	ok := false
	for _, m := range auditQueryModes {
		ok = ok || a.Queries == m
	}
	if !ok {
		errs = append(errs, fmt.Errorf("audit.queries: %q must be one of redact, full, hash, omit", a.Queries))
	}
	if a.QueueSize < 1 || a.QueueSize > 1<<20 {
		errs = append(errs, fmt.Errorf("audit.queue_size: %d must be between 1 and 1048576", a.QueueSize))
	}
	if a.Recent < 1 || a.Recent > 1<<20 {
		errs = append(errs, fmt.Errorf("audit.recent: %d must be between 1 and 1048576", a.Recent))
	}
	if a.File.Path != "" && filepath.Base(a.File.Path) == "." {
		errs = append(errs, fmt.Errorf("audit.file.path: %q must name a file", a.File.Path))
	}
	if a.File.MaxSizeMB < 1 {
		errs = append(errs, fmt.Errorf("audit.file.max_size_mb: %d must be at least 1", a.File.MaxSizeMB))
	}
	if a.File.MaxBackups < -1 {
		errs = append(errs, fmt.Errorf("audit.file.max_backups: %d must be -1 (keep all) or more", a.File.MaxBackups))
	}
	if a.File.MaxAgeDays < 0 {
		errs = append(errs, fmt.Errorf("audit.file.max_age_days: %d must not be negative", a.File.MaxAgeDays))
	}
	return errs
}
