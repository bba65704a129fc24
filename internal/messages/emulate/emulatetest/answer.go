package emulatetest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strings"
)

// Outcome is what a well-formed answer to POST /v1/messages delivered.
type Outcome int

const (
	// Complete is a whole message: a JSON message, or a stream that
	// ends with message_delta and message_stop.
	Complete Outcome = iota + 1
	// Failed is an Anthropic error: an error response (status 4xx or 5xx
	// with the error envelope), or a stream that ends with an error event.
	Failed
)

func (o Outcome) String() string {
	switch o {
	case Complete:
		return "complete"
	case Failed:
		return "failed"
	}
	return "malformed"
}

// errorTypes are the error types of Anthropic's API
// (https://docs.anthropic.com/en/api/errors).
var errorTypes = map[string]bool{
	"invalid_request_error": true, "authentication_error": true, "billing_error": true,
	"permission_error": true, "not_found_error": true, "request_too_large": true,
	"rate_limit_error": true, "api_error": true, "timeout_error": true, "overloaded_error": true,
}

// CheckAnswer reports whether an answer to POST /v1/messages is well
// formed by the Messages API's rules, and what it delivered: a JSON
// message or error envelope, or an event stream that opens with
// message_start, numbers its blocks from 0, opens each before its deltas
// and closes it before message_delta, and ends with message_stop or an
// error event, with nothing after. Every event's data is JSON whose type
// is the event's name. It is what a client may rely on, whatever the
// upstream did.
func CheckAnswer(status int, h http.Header, body []byte) (Outcome, error) {
	mt, _, _ := mime.ParseMediaType(h.Get("Content-Type"))
	if mt == "text/event-stream" {
		if status != http.StatusOK {
			return 0, fmt.Errorf("event stream with status %d", status)
		}
		return checkStream(body)
	}
	if mt != "application/json" {
		return 0, fmt.Errorf("status %d with Content-Type %q: %.200q", status, h.Get("Content-Type"), body)
	}
	if status >= 400 {
		if err := checkError(body); err != nil {
			return 0, fmt.Errorf("status %d: %w", status, err)
		}
		return Failed, nil
	}
	if status != http.StatusOK {
		return 0, fmt.Errorf("status %d", status)
	}
	return Complete, checkMessage(body)
}

func checkError(body []byte) error {
	var e struct {
		Type  string `json:"type"`
		Error *struct {
			Type    string  `json:"type"`
			Message *string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(body, &e); err != nil {
		return fmt.Errorf("error body is not JSON: %v: %.200q", err, body)
	}
	if e.Type != "error" || e.Error == nil || !errorTypes[e.Error.Type] || e.Error.Message == nil {
		return fmt.Errorf("not an Anthropic error envelope: %.300s", body)
	}
	return nil
}

func checkMessage(body []byte) error {
	var m struct {
		ID         string            `json:"id"`
		Type       string            `json:"type"`
		Role       string            `json:"role"`
		Content    []json.RawMessage `json:"content"`
		StopReason string            `json:"stop_reason"`
		Usage      json.RawMessage   `json:"usage"`
	}
	if err := json.Unmarshal(body, &m); err != nil {
		return fmt.Errorf("message is not JSON: %v: %.200q", err, body)
	}
	if m.ID == "" || m.Type != "message" || m.Role != "assistant" || m.Content == nil || m.StopReason == "" || len(m.Usage) == 0 {
		return fmt.Errorf("not a finished message: %.300s", body)
	}
	for i, b := range m.Content {
		if err := checkBlock(b); err != nil {
			return fmt.Errorf("content[%d]: %w", i, err)
		}
	}
	return nil
}

func checkBlock(b json.RawMessage) error {
	var blk struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(b, &blk); err != nil || blk.Type == "" {
		return fmt.Errorf("not a content block: %.200s", b)
	}
	return nil
}

// streamEvent is the union of the members checkStream reads.
type streamEvent struct {
	Type    string `json:"type"`
	Index   *int   `json:"index"`
	Message *struct {
		ID      string            `json:"id"`
		Role    string            `json:"role"`
		Content []json.RawMessage `json:"content"`
	} `json:"message"`
	ContentBlock json.RawMessage `json:"content_block"`
	Delta        *struct {
		Type       string  `json:"type"`
		StopReason *string `json:"stop_reason"`
	} `json:"delta"`
	Error *struct {
		Type    string  `json:"type"`
		Message *string `json:"message"`
	} `json:"error"`
}

func checkStream(body []byte) (Outcome, error) {
	if !bytes.HasSuffix(body, []byte("\n\n")) {
		return 0, fmt.Errorf("stream does not end with a complete event: %.200q", tail(body))
	}
	var (
		started, delta, ended bool
		open                  = map[int]bool{}
		next                  int
		outcome               Outcome
	)
	for i, raw := range strings.Split(strings.TrimSuffix(string(body), "\n\n"), "\n\n") {
		name, data, err := parseEvent(raw)
		if err != nil {
			return 0, fmt.Errorf("event %d: %w", i, err)
		}
		if ended {
			return 0, fmt.Errorf("event %d (%s) after the stream ended", i, name)
		}
		var ev streamEvent
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			return 0, fmt.Errorf("event %d (%s): data is not JSON: %v: %.200q", i, name, err, data)
		}
		if ev.Type != name {
			return 0, fmt.Errorf("event %d: %s event carries type %q", i, name, ev.Type)
		}
		if !started && name != "message_start" {
			return 0, fmt.Errorf("event %d: %s before message_start", i, name)
		}
		bad := func(format string, a ...any) error {
			return fmt.Errorf("event %d (%s): %s", i, name, fmt.Sprintf(format, a...))
		}
		switch name {
		case "message_start":
			if started {
				return 0, bad("a second message_start")
			}
			if ev.Message == nil || ev.Message.ID == "" || ev.Message.Role != "assistant" || ev.Message.Content == nil {
				return 0, bad("not a message: %.200s", data)
			}
			started = true
		case "ping":
		case "content_block_start":
			switch {
			case delta:
				return 0, bad("after message_delta")
			case ev.Index == nil || *ev.Index != next:
				return 0, bad("index %v, want %d", ev.Index, next)
			}
			if err := checkBlock(ev.ContentBlock); err != nil {
				return 0, bad("%v", err)
			}
			open[next] = true
			next++
		case "content_block_delta":
			if ev.Index == nil || !open[*ev.Index] || ev.Delta == nil || ev.Delta.Type == "" {
				return 0, bad("not a delta of an open block: %.200s", data)
			}
		case "content_block_stop":
			if ev.Index == nil || !open[*ev.Index] {
				return 0, bad("stops a block that is not open: %.200s", data)
			}
			delete(open, *ev.Index)
		case "message_delta":
			switch {
			case delta:
				return 0, bad("a second message_delta")
			case len(open) > 0:
				return 0, bad("with blocks still open")
			case ev.Delta == nil || ev.Delta.StopReason == nil || *ev.Delta.StopReason == "":
				return 0, bad("no valid stop_reason: %.200s", data)
			}
			delta = true
		case "message_stop":
			if !delta {
				return 0, bad("without message_delta")
			}
			ended, outcome = true, Complete
		case "error":
			if ev.Error == nil || !errorTypes[ev.Error.Type] || ev.Error.Message == nil {
				return 0, bad("not an Anthropic error: %.200s", data)
			}
			ended, outcome = true, Failed
		default:
			return 0, bad("unknown event")
		}
	}
	if !ended {
		return 0, errors.New("stream ends without message_stop or an error event")
	}
	return outcome, nil
}

// parseEvent reads one event of the form webgate writes: an event line
// and a data line.
func parseEvent(raw string) (name, data string, err error) {
	for _, line := range strings.Split(raw, "\n") {
		switch {
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			if data != "" {
				return "", "", fmt.Errorf("two data lines: %.200q", raw)
			}
			data = strings.TrimPrefix(line, "data: ")
		default:
			return "", "", fmt.Errorf("unexpected line %.200q", line)
		}
	}
	if name == "" || data == "" {
		return "", "", fmt.Errorf("event without a name or data: %.200q", raw)
	}
	return name, data, nil
}

func tail(b []byte) []byte {
	if len(b) > 200 {
		return b[len(b)-200:]
	}
	return b
}
