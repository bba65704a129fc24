package tools

import (
	"errors"
	"fmt"
	"strings"

	"github.com/webgate/webgate/internal/messages/emulate"
	"github.com/webgate/webgate/internal/messages/seal"
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

// errNoToken is a result or citation without its opaque value: neither
// webgate nor Anthropic ever sends one (both APIs require it), so the
// block was edited.
var errNoToken = errors.New("is missing or empty")

// openResult opens a web_search_result's encrypted_content (see
// seal.Sealer.OpenResult), with openErr's errors. An empty value wraps
// emulate.ErrInvalidHistory; one that is not webgate's is errForeignKey.
func openResult(s *seal.Sealer, token, url, title, query string) (seal.Result, error) {
	if strings.TrimSpace(token) == "" {
		return seal.Result{}, fmt.Errorf("%w: encrypted_content %w", emulate.ErrInvalidHistory, errNoToken)
	}
	if !seal.IsToken(token) {
		return seal.Result{}, errForeignKey
	}
	r, err := s.OpenResult(token, url, title, query)
	return r, openErr(seal.PurposeResult, err)
}

// openCitation opens a citation's encrypted_index (see
// seal.Sealer.OpenCitation), with openErr's errors.
func openCitation(s *seal.Sealer, token, url, citedText string) (seal.Citation, error) {
	if strings.TrimSpace(token) == "" {
		return seal.Citation{}, fmt.Errorf("%w: encrypted_index %w", emulate.ErrInvalidHistory, errNoToken)
	}
	if !seal.IsToken(token) {
		return seal.Citation{}, errForeignKey
	}
	c, err := s.OpenCitation(token, url, citedText)
	return c, openErr(seal.PurposeCitation, err)
}
