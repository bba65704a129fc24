package anthropic

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/webgate/webgate/internal/messages/emulate"
	wire "github.com/webgate/webgate/internal/messages/wire"
)

var _ emulate.Model = (*Client)(nil)

// maxErrorBody bounds an upstream error body kept for the client, and a
// whole non-streamed reply.
const (
	maxErrorBody = 1 << 20
	maxReplyBody = 32 << 20
)

// Stream implements emulate.Model: it POSTs body to <base_url>/v1/messages
// with the client's headers (credentials swapped for upstream.api_key when
// configured, compression left to the transport so the events can be
// read) and returns the upstream's events as they arrive. A non-2xx answer
// is an *emulate.UpstreamError with the upstream's status, headers and
// body. An upstream that answers with a whole JSON message instead of a
// stream gets it replayed as events.
func (c *Client) Stream(ctx context.Context, hdr http.Header, body []byte) (emulate.Events, error) {
	target := *c.base
	target.Path = strings.TrimSuffix(c.base.Path, "/") + "/v1/messages"
	target.RawPath, target.RawQuery = "", ""
	reqCtx, cancel := context.WithCancelCause(ctx)
	req, err := http.NewRequestWithContext(reqCtx, http.MethodPost, target.String(), bytes.NewReader(body))
	if err != nil {
		cancel(nil)
		return nil, fmt.Errorf("build upstream request: %w", err)
	}
	req.Header = CleanHeader(hdr)
	for _, k := range []string{"Host", "Content-Length", "Accept-Encoding"} {
		req.Header.Del(k)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	if c.apiKey != "" {
		req.Header.Del("Authorization")
		req.Header.Set("X-Api-Key", c.apiKey)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		cancel(nil)
		return nil, fmt.Errorf("upstream POST /v1/messages: %w", err)
	}
	// Once the upstream has begun answering, a silence longer than
	// response_header_timeout ends the reply (see IdleError).
	resp.Body = newIdleBody(reqCtx, cancel, resp.Body, c.idle)
	if resp.StatusCode/100 != 2 {
		defer resp.Body.Close()
		b, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		return nil, &emulate.UpstreamError{Status: resp.StatusCode, Header: CleanHeader(resp.Header), Body: b}
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt == "application/json" {
		defer resp.Body.Close()
		b, err := io.ReadAll(io.LimitReader(resp.Body, maxReplyBody))
		if err != nil {
			return nil, fmt.Errorf("upstream reply: %w", err)
		}
		return replay(b)
	}
	return &events{rd: wire.NewReader(resp.Body, 0, 0), body: resp.Body}, nil
}

// events reads an upstream event stream.
type events struct {
	rd   *wire.Reader
	body io.Closer
}

func (e *events) Next() (wire.Event, error) { return e.rd.Next() }
func (e *events) Close() error              { return e.body.Close() }

// replayed is a whole message turned into the events that stream it.
type replayed struct{ evs []wire.Event }

func (r *replayed) Next() (wire.Event, error) {
	if len(r.evs) == 0 {
		return wire.Event{}, io.EOF
	}
	ev := r.evs[0]
	r.evs = r.evs[1:]
	return ev, nil
}

func (r *replayed) Close() error { return nil }

// replay turns a non-streamed Messages reply into the events a stream of
// it would carry.
func replay(body []byte) (emulate.Events, error) {
	var msg map[string]json.RawMessage
	if err := json.Unmarshal(body, &msg); err != nil {
		return nil, fmt.Errorf("upstream reply is not a message: %w", err)
	}
	var content []json.RawMessage
	if err := json.Unmarshal(msg["content"], &content); err != nil {
		return nil, errors.New("upstream reply has no content array")
	}
	r := &replayed{}
	add := func(name string, v any) {
		b, _ := wire.Marshal(v)
		r.evs = append(r.evs, wire.Event{Name: name, Data: b})
	}
	start := map[string]json.RawMessage{}
	for k, v := range msg {
		start[k] = v
	}
	start["content"] = json.RawMessage("[]")
	start["stop_reason"], start["stop_sequence"] = json.RawMessage("null"), json.RawMessage("null")
	add("message_start", map[string]any{"type": "message_start", "message": start})
	for i, blk := range content {
		var b map[string]json.RawMessage
		if err := json.Unmarshal(blk, &b); err != nil {
			return nil, fmt.Errorf("upstream reply content[%d]: %w", i, err)
		}
		var typ string
		_ = json.Unmarshal(b["type"], &typ)
		var d any
		switch typ {
		case "text":
			var text string
			_ = json.Unmarshal(b["text"], &text)
			b["text"] = json.RawMessage(`""`)
			d = map[string]string{"type": "text_delta", "text": text}
		case "tool_use", "server_tool_use":
			in := b["input"]
			b["input"] = json.RawMessage("{}")
			d = map[string]string{"type": "input_json_delta", "partial_json": string(in)}
		}
		add("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": b})
		if d != nil {
			add("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": d})
		}
		add("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	add("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]json.RawMessage{"stop_reason": msg["stop_reason"], "stop_sequence": orNull(msg["stop_sequence"])},
		"usage": msg["usage"]})
	add("message_stop", map[string]string{"type": "message_stop"})
	return r, nil
}

func orNull(v json.RawMessage) json.RawMessage {
	if v == nil {
		return json.RawMessage("null")
	}
	return v
}
