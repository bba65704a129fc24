package tools

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/webgate/webgate/emulate"
	"github.com/webgate/webgate/seal"
)

// errForeignKey means a value webgate cannot read: another party's
// opaque value (Anthropic's own), or a webgate token sealed with a key
// this process does not hold (another replica's ephemeral key, or a
// retired one). Not a forgery, just unreadable.
var errForeignKey = errors.New("sealed with an unknown key")

// openErr maps what package seal reports for a webgate token to the
// toolbox's errors: errForeignKey for a key this process lacks, and
// emulate.ErrInvalidHistory for tokens that fail to authenticate or do not
// match their block.
func openErr(purpose string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, seal.ErrUnknownKey):
		return errForeignKey
	case errors.Is(err, seal.ErrMismatch):
		return fmt.Errorf("%w: %s does not match its block", emulate.ErrInvalidHistory, purpose)
	default:
		// For a wg2 token this is also what an edited url, title, cited
		// text or query gives: they are bound to it.
		return fmt.Errorf("%w: %s does not authenticate against its block (forged, or its url, title, cited text or query edited): %v", emulate.ErrInvalidHistory, purpose, err)
	}
}

// openResult opens a web_search_result's encrypted_content (see
// seal.Sealer.OpenResult), with openErr's errors.
func openResult(s *seal.Sealer, token, url, title, query string) (seal.Result, error) {
	if !seal.IsToken(token) {
		return seal.Result{}, errForeignKey
	}
	r, err := s.OpenResult(token, url, title, query)
	return r, openErr(seal.PurposeResult, err)
}

// openCitation opens a citation's encrypted_index (see
// seal.Sealer.OpenCitation), with openErr's errors.
func openCitation(s *seal.Sealer, token, url, citedText string) (seal.Citation, error) {
	if !seal.IsToken(token) {
		return seal.Citation{}, errForeignKey
	}
	c, err := s.OpenCitation(token, url, citedText)
	return c, openErr(seal.PurposeCitation, err)
}

// sealJSON seals v's JSON for purpose, bound to the block's visible
// fields (see seal.PurposeResult).
func sealJSON(s *seal.Sealer, purpose string, v any, bound ...string) (string, error) {
	pt, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	return s.Seal(purpose, pt, bound...)
}
