package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"gopkg.in/natefinch/lumberjack.v2"
)

// FileOptions configures a FileSink.
type FileOptions struct {
	// Path is the JSONL file. Missing directories are created (0755) and
	// the file with mode 0600.
	Path string
	// MaxSizeMB rotates the file at this size (default 100).
	MaxSizeMB int
	// MaxBackups is how many rotated files to keep; 0 keeps all.
	MaxBackups int
	// MaxAgeDays deletes rotated files older than this; 0 keeps them.
	MaxAgeDays int
	// Compress gzips rotated files.
	Compress bool
}

// FileSink appends records as JSON lines to a file rotated by size.
// Rotation, backup pruning and compression are lumberjack's: a small,
// long-stable library that does exactly this and is the usual choice
// for Go services, rather than a hand-written rename-and-prune loop.
// After its first rotation lumberjack keeps one background goroutine for
// pruning, for the life of the process.
type FileSink struct {
	mu  sync.Mutex
	lj  *lumberjack.Logger
	buf bytes.Buffer
}

// NewFileSink opens (creating if needed) the file at opts.Path, so a bad
// path or permission fails at start-up rather than at the first record.
func NewFileSink(opts FileOptions) (*FileSink, error) {
	if opts.MaxSizeMB <= 0 {
		opts.MaxSizeMB = 100
	}
	lj := &lumberjack.Logger{
		Filename: opts.Path, MaxSize: opts.MaxSizeMB, MaxBackups: opts.MaxBackups,
		MaxAge: opts.MaxAgeDays, Compress: opts.Compress, LocalTime: false,
	}
	if err := os.MkdirAll(filepath.Dir(opts.Path), 0o755); err != nil {
		return nil, fmt.Errorf("audit file: %w", err)
	}
	if _, err := lj.Write(nil); err != nil {
		return nil, fmt.Errorf("audit file: %w", err)
	}
	return &FileSink{lj: lj}, nil
}

// Write appends recs, one JSON object per line, in one write so a batch
// is not interleaved with anything else.
func (f *FileSink) Write(_ context.Context, recs []Record) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.buf.Reset()
	enc := json.NewEncoder(&f.buf)
	enc.SetEscapeHTML(false)
	for i := range recs {
		if err := enc.Encode(&recs[i]); err != nil {
			return fmt.Errorf("audit file: encode: %w", err)
		}
	}
	if _, err := f.lj.Write(f.buf.Bytes()); err != nil {
		return fmt.Errorf("audit file: %w", err)
	}
	if f.buf.Cap() > 4<<20 {
		f.buf = bytes.Buffer{} // do not hold on to a huge batch's buffer
	}
	return nil
}

// Rotate starts a new file now (for example on SIGHUP, after an external
// tool moved the old one).
func (f *FileSink) Rotate() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.lj.Rotate()
}

// Close closes the file.
func (f *FileSink) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.lj.Close()
}
