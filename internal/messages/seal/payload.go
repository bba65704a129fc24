package seal

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/webgate/webgate/internal/messages/wire"
)

// Purposes of webgate's tokens. Binding each token to its purpose stops a
// client from passing an encrypted_index where encrypted_content is
// expected.
//
// A result's token is also bound to its block's url and title and to the
// query of the search it answers (the input of the server_tool_use block
// it is paired with), in this order, and a citation's to its url and
// cited_text:
//
//	AppendSeal(dst, PurposeResult, payload, url, title, query)
//	Open(PurposeResult, token, url, title, query)
const (
	PurposeResult   = "web_search_result"
	PurposeCitation = "web_search_result_location"
)

// PayloadVersion is the version of the payloads sealed now. Version 2
// payloads leave out the fields their block shows (see Result and
// Citation), to which their wg2 tokens are bound instead; version 1
// payloads, in wg1 tokens, hold copies of them.
const PayloadVersion = 2

// Result is the plaintext of a web_search_result's encrypted_content:
// everything webgate knew about the hit when it answered, so a later turn
// that sends the block back is restored exactly. Package websearch builds
// it for both the search fast path and the emulated tool, so a token
// sealed by either opens alike in the other.
//
// URL and Title are the block's own url and title, and Query the search's
// query. A version 2 payload leaves them out and its token is bound to
// them (see PurposeResult), so OpenResult fills them in from the
// conversation; a version 1 payload holds them.
type Result struct {
	Version   int       `json:"v"`
	Query     string    `json:"query,omitempty"`
	URL       string    `json:"url,omitempty"`
	Title     string    `json:"title,omitempty"`
	Snippet   string    `json:"snippet,omitempty"`
	PageAge   string    `json:"page_age,omitempty"`
	Passages  []string  `json:"passages,omitempty"`
	Provider  string    `json:"provider,omitempty"`
	Retrieved time.Time `json:"retrieved"`
}

// Citation is the plaintext of a citation's encrypted_index. As with
// Result, a version 2 payload leaves out URL and CitedText, the
// citation's own url and cited_text, and its token is bound to them
// (see PurposeResult).
type Citation struct {
	Version   int    `json:"v"`
	URL       string `json:"url,omitempty"`
	Result    int    `json:"result"`
	CitedText string `json:"cited_text,omitempty"`
}

// ErrMismatch: a wg1 token opened, but the block it came in no longer
// shows what it sealed (it was moved to another result, or the block was
// edited). A wg2 token in that case does not open at all (ErrInvalid).
var ErrMismatch = errors.New("seal: token does not match its block")

// SealResult seals r as a web_search_result's encrypted_content: a
// version PayloadVersion payload, bound to r.URL and r.Title (the block's
// url and title) and r.Query (the search's query), which are left out of
// the plaintext. OpenResult, given the same three, returns r.
//
// The fast path and the emulated tool both seal through here (via package
// websearch), so a token sealed by either opens in the other.
func (s *Sealer) SealResult(r Result) (string, error) {
	b, err := s.AppendResult(nil, &r)
	return string(b), err
}

// AppendResult appends the token SealResult returns for r to dst, so a
// caller can seal many results into one buffer.
func (s *Sealer) AppendResult(dst []byte, r *Result) ([]byte, error) {
	p := *r
	p.Version, p.URL, p.Title, p.Query = PayloadVersion, "", "", ""
	buf := payloadPool.Get().(*[]byte)
	defer payloadPool.Put(buf)
	pt, err := appendResultJSON((*buf)[:0], &p)
	*buf = pt[:0]
	if err != nil {
		return dst, fmt.Errorf("seal: %s payload: %w", PurposeResult, err)
	}
	return s.AppendSeal(dst, PurposeResult, pt, r.URL, r.Title, r.Query)
}

// SealCitation seals c as a citation's encrypted_index: a version
// PayloadVersion payload bound to c.URL and c.CitedText (the citation's
// url and cited_text), which are left out of the plaintext.
func (s *Sealer) SealCitation(c Citation) (string, error) {
	b, err := s.AppendCitation(nil, &c)
	return string(b), err
}

// AppendCitation appends the token SealCitation returns for c to dst.
func (s *Sealer) AppendCitation(dst []byte, c *Citation) ([]byte, error) {
	p := *c
	p.Version, p.URL, p.CitedText = PayloadVersion, "", ""
	buf := payloadPool.Get().(*[]byte)
	defer payloadPool.Put(buf)
	pt := appendCitationJSON((*buf)[:0], &p)
	*buf = pt[:0]
	return s.AppendSeal(dst, PurposeCitation, pt, c.URL, c.CitedText)
}

// payloadPool recycles the buffers payloads are encoded into before they
// are sealed.
var payloadPool = sync.Pool{New: func() any { b := make([]byte, 0, 1<<10); return &b }}

// appendResultJSON appends r encoded exactly as json.Marshal(r) would
// (field order, omitempty, HTML escaping, RFC 3339 time): the fast path
// seals a payload per result on every answer, and reflection-based
// encoding was a visible share of its CPU. TestPayloadEncoding pins the
// equivalence, so tokens keep their exact plaintext.
func appendResultJSON(b []byte, r *Result) ([]byte, error) {
	if y := r.Retrieved.Year(); y < 0 || y > 9999 {
		// json.Marshal's error case for times; let it produce the error.
		p, err := json.Marshal(r)
		return append(b, p...), err
	}
	b = append(b, `{"v":`...)
	b = strconv.AppendInt(b, int64(r.Version), 10)
	b = appendField(b, `,"query":`, r.Query)
	b = appendField(b, `,"url":`, r.URL)
	b = appendField(b, `,"title":`, r.Title)
	b = appendField(b, `,"snippet":`, r.Snippet)
	b = appendField(b, `,"page_age":`, r.PageAge)
	if len(r.Passages) > 0 {
		b = append(b, `,"passages":[`...)
		for i, p := range r.Passages {
			if i > 0 {
				b = append(b, ',')
			}
			b = wire.AppendString(b, p, true)
		}
		b = append(b, ']')
	}
	b = appendField(b, `,"provider":`, r.Provider)
	b = append(b, `,"retrieved":"`...)
	b = r.Retrieved.AppendFormat(b, time.RFC3339Nano)
	return append(b, `"}`...), nil
}

// appendCitationJSON appends c encoded exactly as json.Marshal(c) would.
func appendCitationJSON(b []byte, c *Citation) []byte {
	b = append(b, `{"v":`...)
	b = strconv.AppendInt(b, int64(c.Version), 10)
	b = appendField(b, `,"url":`, c.URL)
	b = append(b, `,"result":`...)
	b = strconv.AppendInt(b, int64(c.Result), 10)
	b = appendField(b, `,"cited_text":`, c.CitedText)
	return append(b, '}')
}

// appendField appends an omitempty string member: key (with its leading
// comma and colon) and v, unless v is empty.
func appendField(b []byte, key, v string) []byte {
	if v == "" {
		return b
	}
	return wire.AppendString(append(b, key...), v, true)
}

// OpenResult opens a web_search_result's encrypted_content, given the
// block's url and title and the search's query, and returns the result
// with URL, Title and Query set. A version 1 payload keeps its own title
// and query and must name the same url.
func (s *Sealer) OpenResult(token, url, title, query string) (Result, error) {
	var r Result
	if err := s.openJSON(PurposeResult, token, &r, url, title, query); err != nil {
		return Result{}, err
	}
	if r.Version < 2 {
		if r.URL != url {
			return Result{}, ErrMismatch
		}
		return r, nil
	}
	r.URL, r.Title, r.Query = url, title, query
	return r, nil
}

// OpenCitation opens a citation's encrypted_index, given the citation's
// url and cited_text, and returns it with URL and CitedText set. A version
// 1 payload must name the same url and cited text.
func (s *Sealer) OpenCitation(token, url, citedText string) (Citation, error) {
	var c Citation
	if err := s.openJSON(PurposeCitation, token, &c, url, citedText); err != nil {
		return Citation{}, err
	}
	if c.Version < 2 {
		if c.URL != url || c.CitedText != citedText {
			return Citation{}, ErrMismatch
		}
		return c, nil
	}
	c.URL, c.CitedText = url, citedText
	return c, nil
}

func (s *Sealer) openJSON(purpose, token string, v any, bound ...string) error {
	pt, err := s.Open(purpose, token, bound...)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(pt, v); err != nil {
		// Only webgate seals, so this is a bug, not a forgery; the
		// token is unusable either way.
		return fmt.Errorf("%w: %s payload: %v", ErrInvalid, purpose, err)
	}
	return nil
}
