package tools

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/webgate/webgate/emulate"
	"github.com/webgate/webgate/seal"
)

// tokenPrefix starts every token webgate seals (see package seal).
const tokenPrefix = "wg1."

// IsSealed reports whether an encrypted_content or encrypted_index value
// was sealed by webgate, as opposed to Anthropic's own opaque values.
func IsSealed(token string) bool { return strings.HasPrefix(token, tokenPrefix) }

// errForeignKey means a webgate token sealed with a key this process does
// not hold (another replica's ephemeral key, or a retired one): not a
// forgery, just unreadable.
var errForeignKey = errors.New("sealed with an unknown key")

// open authenticates and decodes a token into v. A token that is not
// webgate's, or whose key id is unknown, is errForeignKey; one that fails
// authentication or decoding wraps emulate.ErrInvalidHistory.
func open(s *seal.Sealer, purpose, token string, v any) error {
	if !IsSealed(token) {
		return errForeignKey
	}
	pt, err := s.Open(purpose, token)
	switch {
	case errors.Is(err, seal.ErrUnknownKey):
		return errForeignKey
	case err != nil:
		return fmt.Errorf("%w: %s does not authenticate: %v", emulate.ErrInvalidHistory, purpose, err)
	}
	if err := json.Unmarshal(pt, v); err != nil {
		return fmt.Errorf("%w: %s: %v", emulate.ErrInvalidHistory, purpose, err)
	}
	return nil
}

func sealJSON(s *seal.Sealer, purpose string, v any) (string, error) {
	pt, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	return s.Seal(purpose, pt)
}
