package cli

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/webgate/webgate/internal/policy"
)

// keysCmd manages gateway API keys. Keys are never stored by webgate: the
// configuration holds their SHA-256 hashes, so these commands print what
// to paste into auth.keys.
type keysCmd struct {
	New  keysNewCmd  `cmd:"" help:"Generate a new gateway API key and print its auth.keys entry."`
	Hash keysHashCmd `cmd:"" help:"Read an existing key on standard input and print its auth.keys entry."`
}

var keyIDPattern = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

type keysNewCmd struct {
	ID     string `help:"Id naming the key in audit records and logs (letters, digits, '.', '_', '-')." required:""`
	Policy string `help:"Name of an auth.policies entry to attach." placeholder:"NAME"`
	JSON   bool   `help:"Print {\"id\",\"key\",\"hash\"} as JSON." name:"json"`
}

func (c *keysNewCmd) Run(r *runtime) error {
	if err := checkKeyID(c.ID); err != nil {
		return err
	}
	key, hash := policy.GenerateKey()
	if c.JSON {
		return json.NewEncoder(r.IO.Stdout).Encode(map[string]string{"id": c.ID, "key": key, "hash": hash})
	}
	w := r.IO.Stdout
	fmt.Fprintf(w, "New key for %q. It is shown only now; give it to its user and do not store it in the configuration:\n\n  %s\n\n", c.ID, key)
	fmt.Fprintf(w, "Add this entry under auth.keys in the configuration, then restart webgate serve:\n\n%s", keyEntry(c.ID, hash, c.Policy))
	return nil
}

type keysHashCmd struct {
	ID     string `help:"Id naming the key in audit records and logs." required:""`
	Policy string `help:"Name of an auth.policies entry to attach." placeholder:"NAME"`
}

// Run reads the key from standard input rather than an argument, so it
// never lands in shell history or the process list.
func (c *keysHashCmd) Run(r *runtime) error {
	if err := checkKeyID(c.ID); err != nil {
		return err
	}
	line, err := bufio.NewReader(io.LimitReader(r.IO.Stdin, 4096)).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("read key: %w", err)
	}
	key := strings.TrimSpace(line)
	if len(key) < 16 {
		return &exitError{code: 2, err: errors.New("keys hash: pass the key (at least 16 characters) on standard input, e.g. printf %s \"$KEY\" | webgate keys hash --id NAME")}
	}
	fmt.Fprint(r.IO.Stdout, keyEntry(c.ID, policy.HashKey(key), c.Policy))
	return nil
}

func checkKeyID(id string) error {
	if !keyIDPattern.MatchString(id) {
		return &exitError{code: 2, err: fmt.Errorf("keys: --id %q must be 1 to 64 letters, digits, '.', '_' or '-'", id)}
	}
	return nil
}

// keyEntry is the YAML list item for auth.keys.
func keyEntry(id, hash, pol string) string {
	s := fmt.Sprintf("  - id: %s\n    hash: %s\n", id, hash)
	if pol != "" {
		s += fmt.Sprintf("    policy: %s\n", pol)
	}
	return s
}
