package audit

import (
	"log/slog"

	"github.com/webgate/webgate/internal/config"
)

// FromConfig builds the Logger for the audit section with a file sink
// when audit.file.path is set, plus any extra sinks (such as the Redis
// stream), and the redaction it asks for. secrets redacts secrets in a
// text (the query guard's detector).
func FromConfig(c config.Audit, secrets func(string) string, log *slog.Logger, extra ...Sink) (*Logger, Redaction, error) {
	sinks := append([]Sink(nil), extra...)
	if c.File.Path != "" {
		backups := c.File.MaxBackups
		if backups < 0 {
			backups = 0 // lumberjack's "keep all"
		}
		fs, err := NewFileSink(FileOptions{
			Path: c.File.Path, MaxSizeMB: c.File.MaxSizeMB, MaxBackups: backups,
			MaxAgeDays: c.File.MaxAgeDays, Compress: c.File.Compress,
		})
		if err != nil {
			return nil, Redaction{}, err
		}
		sinks = append(sinks, fs)
	}
	l := New(Options{Sinks: sinks, QueueSize: c.QueueSize, Recent: c.Recent, Logger: log})
	return l, Redaction{Mode: c.Queries, Secrets: secrets}, nil
}
