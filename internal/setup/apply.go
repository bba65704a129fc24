package setup

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// maxConfigBytes bounds the files setup reads; client configs are small,
// and ~/.claude.json, the largest, stays well under this.
const maxConfigBytes = 32 << 20

// Change reports what Apply did to one file.
type Change struct {
	Path string
	// Backup is the copy made before writing; empty for a new file.
	Backup string
	// Created reports a file that did not exist before.
	Created bool
}

// Apply merges the plan into the client's files. Each existing file is
// first copied to <file>.webgate-backup-<UTC timestamp>; the new content is
// written to a temporary file and renamed over the old one, so a crash
// never leaves a half-written config. now stamps the backup names.
func (p *Plan) Apply(now time.Time) ([]Change, error) {
	var changes []Change
	for _, e := range p.edits {
		c, err := e.apply(now)
		if err != nil {
			return changes, fmt.Errorf("%s: %w", e.path, err)
		}
		changes = append(changes, c)
	}
	return changes, nil
}

func (e edit) apply(now time.Time) (Change, error) {
	c := Change{Path: e.path}
	old, mode, err := readConfig(e.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		c.Created = true
		mode = 0o600 // may hold tokens or header references
	case err != nil:
		return c, err
	}
	var out []byte
	if e.json != nil {
		doc := map[string]any{}
		if len(bytes.TrimSpace(old)) > 0 {
			dec := json.NewDecoder(bytes.NewReader(old))
			dec.UseNumber() // keep numbers exactly as written
			if err := dec.Decode(&doc); err != nil {
				return c, fmt.Errorf("cannot parse as JSON (%v); comments are not supported, so add the snippet by hand", err)
			}
		}
		if err := e.json(doc); err != nil {
			return c, err
		}
		out, err = json.MarshalIndent(doc, "", "  ")
		if err != nil {
			return c, err
		}
		out = append(out, '\n')
	} else {
		s, err := e.text(string(old))
		if err != nil {
			return c, err
		}
		out = []byte(s)
	}
	if bytes.Equal(out, old) {
		return c, nil // already set up; no backup, no write
	}
	if err := os.MkdirAll(filepath.Dir(e.path), 0o700); err != nil {
		return c, err
	}
	if !c.Created {
		c.Backup = fmt.Sprintf("%s.webgate-backup-%s", e.path, now.UTC().Format("20060102T150405Z"))
		if err := writeFile(c.Backup, old, mode); err != nil {
			return c, fmt.Errorf("backup: %w", err)
		}
	}
	return c, writeFile(e.path, out, mode)
}

func readConfig(path string) ([]byte, fs.FileMode, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, 0, err
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, fmt.Errorf("not a regular file")
	}
	if fi.Size() > maxConfigBytes {
		return nil, 0, fmt.Errorf("file is larger than %d bytes", maxConfigBytes)
	}
	b, err := os.ReadFile(path)
	return b, fi.Mode().Perm(), err
}

// writeFile writes atomically: temp file in the same directory, fsync,
// rename.
func writeFile(path string, data []byte, mode fs.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // no-op after a successful rename
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(mode); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
