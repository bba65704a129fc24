package seal

import "time"

// Purposes of webgate's tokens. Binding each token to its purpose stops a
// client from passing an encrypted_index where encrypted_content is
// expected.
const (
	PurposeResult   = "web_search_result"
	PurposeCitation = "web_search_result_location"
)

// Result is the plaintext of a web_search_result's encrypted_content:
// everything webgate knew about the hit when it answered, so a later turn
// that sends the block back is restored exactly. The search fast path
// (package proxy) and the emulated tools (package emulate/tools) both seal
// and open it, so a token sealed by either opens in the other.
type Result struct {
	Version   int       `json:"v"`
	Query     string    `json:"query"`
	URL       string    `json:"url"`
	Title     string    `json:"title"`
	Snippet   string    `json:"snippet,omitempty"`
	PageAge   string    `json:"page_age,omitempty"`
	Passages  []string  `json:"passages,omitempty"`
	Provider  string    `json:"provider,omitempty"`
	Retrieved time.Time `json:"retrieved"`
}

// Citation is the plaintext of a citation's encrypted_index.
type Citation struct {
	Version   int    `json:"v"`
	URL       string `json:"url"`
	Result    int    `json:"result"`
	CitedText string `json:"cited_text"`
}
