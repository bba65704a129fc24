package wire

import (
	"strconv"
	"unicode/utf8"
)

// Hand-written encoders for the stream events the search fast path sends.
// encoding/json spends most of its time on reflection and on re-validating
// the output of MarshalJSON methods; these append the same bytes directly.
// TestAppendMatchesEncodingJSON and FuzzAppendString check they stay
// byte-for-byte identical to Marshal (compact, no HTML escaping).

const hexDigits = "0123456789abcdef"

// safeASCII marks the bytes that never need escaping: a table lookup keeps
// the per-byte loop (long base64 tokens, snippets) to one load and branch.
var safeASCII = func() (t [utf8.RuneSelf]bool) {
	for b := 0x20; b < utf8.RuneSelf; b++ {
		t[b] = b != '"' && b != '\\' && b != '<' && b != '>' && b != '&'
	}
	return t
}()

// appendString appends s as a JSON string exactly as encoding/json does with
// SetEscapeHTML(false): quotes, backslashes and control characters escaped
// (the characters RFC 8259 section 7 requires escaped,
// https://www.rfc-editor.org/rfc/rfc8259#section-7),
// invalid UTF-8 replaced by \ufffd, U+2028 and U+2029 escaped for
// JavaScript; <, > and & left literal, as Anthropic does.
func appendString(dst []byte, s string) []byte { return appendStringEsc(dst, s, false) }

// AppendString appends s as a JSON string, byte for byte as
// encoding/json.Marshal (escapeHTML true) or an Encoder with
// SetEscapeHTML(false) (escapeHTML false) would write it. It lets other
// packages hand-encode hot payloads without changing a byte.
func AppendString(dst []byte, s string, escapeHTML bool) []byte {
	return appendStringEsc(dst, s, escapeHTML)
}

func appendStringEsc(dst []byte, s string, escapeHTML bool) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if safeASCII[b] || !escapeHTML && (b == '<' || b == '>' || b == '&') {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

func appendUsage(dst []byte, u *Usage) []byte {
	dst = append(dst, `{"input_tokens":`...)
	dst = strconv.AppendInt(dst, int64(u.InputTokens), 10)
	dst = append(dst, `,"cache_creation_input_tokens":`...)
	dst = strconv.AppendInt(dst, int64(u.CacheCreationInputTokens), 10)
	dst = append(dst, `,"cache_read_input_tokens":`...)
	dst = strconv.AppendInt(dst, int64(u.CacheReadInputTokens), 10)
	dst = append(dst, `,"output_tokens":`...)
	dst = strconv.AppendInt(dst, int64(u.OutputTokens), 10)
	if u.ServerToolUse != nil {
		dst = append(dst, `,"server_tool_use":{"web_search_requests":`...)
		dst = strconv.AppendInt(dst, int64(u.ServerToolUse.WebSearchRequests), 10)
		dst = append(dst, '}')
	}
	return append(dst, '}')
}

func appendNullableString(dst []byte, s *string) []byte {
	if s == nil {
		return append(dst, "null"...)
	}
	return appendString(dst, *s)
}

// appendMessageStart encodes a message_start payload; ok is false for
// shapes it does not cover (a message that already has content), which
// the caller then encodes with encoding/json.
func appendMessageStart(dst []byte, m *Message) ([]byte, bool) {
	if m == nil || m.Content == nil || len(m.Content) > 0 {
		return dst, false
	}
	dst = append(dst, `{"type":"message_start","message":{"id":`...)
	dst = appendString(dst, m.ID)
	dst = append(dst, `,"type":`...)
	dst = appendString(dst, m.Type)
	dst = append(dst, `,"role":`...)
	dst = appendString(dst, m.Role)
	dst = append(dst, `,"model":`...)
	dst = appendString(dst, m.Model)
	dst = append(dst, `,"content":[],"stop_reason":`...)
	dst = appendNullableString(dst, m.StopReason)
	dst = append(dst, `,"stop_sequence":`...)
	dst = appendNullableString(dst, m.StopSequence)
	dst = append(dst, `,"usage":`...)
	dst = appendUsage(dst, &m.Usage)
	return append(dst, "}}"...), true
}

func appendCitation(dst []byte, c *Citation) []byte {
	dst = append(dst, `{"type":"web_search_result_location","url":`...)
	dst = appendString(dst, c.URL)
	dst = append(dst, `,"title":`...)
	dst = appendString(dst, c.Title)
	dst = append(dst, `,"encrypted_index":`...)
	dst = appendString(dst, c.EncryptedIndex)
	dst = append(dst, `,"cited_text":`...)
	dst = appendString(dst, c.CitedText)
	return append(dst, '}')
}

// appendBlock encodes the content blocks the fast path sends; ok is false
// for anything else.
func appendBlock(dst []byte, b ContentBlock) ([]byte, bool) {
	switch b := b.(type) {
	case TextBlock:
		dst = append(dst, `{"type":"text","text":`...)
		dst = appendString(dst, b.Text)
		if len(b.Citations) > 0 {
			dst = append(dst, `,"citations":[`...)
			for i := range b.Citations {
				if i > 0 {
					dst = append(dst, ',')
				}
				dst = appendCitation(dst, &b.Citations[i])
			}
			dst = append(dst, ']')
		}
		return append(dst, '}'), true
	case ServerToolUseBlock:
		// Other inputs would need compacting as encoding/json does.
		if b.Input != nil && string(b.Input) != "{}" {
			return dst, false
		}
		dst = append(dst, `{"type":"server_tool_use","id":`...)
		dst = appendString(dst, b.ID)
		dst = append(dst, `,"name":`...)
		dst = appendString(dst, b.Name)
		return append(dst, `,"input":{}}`...), true
	case WebSearchToolResultBlock:
		dst = append(dst, `{"type":"web_search_tool_result","tool_use_id":`...)
		dst = appendString(dst, b.ToolUseID)
		dst = append(dst, `,"content":`...)
		if b.Error != nil {
			dst = append(dst, `{"type":"web_search_tool_result_error","error_code":`...)
			dst = appendString(dst, b.Error.ErrorCode)
			return append(dst, "}}"...), true
		}
		dst = append(dst, '[')
		for i := range b.Results {
			r := &b.Results[i]
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"type":"web_search_result","title":`...)
			dst = appendString(dst, r.Title)
			dst = append(dst, `,"url":`...)
			dst = appendString(dst, r.URL)
			dst = append(dst, `,"encrypted_content":`...)
			dst = appendString(dst, r.EncryptedContent)
			dst = append(dst, `,"page_age":`...)
			dst = appendNullableString(dst, r.PageAge)
			dst = append(dst, '}')
		}
		return append(dst, "]}"...), true
	}
	return dst, false
}
