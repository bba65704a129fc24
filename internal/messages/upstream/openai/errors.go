package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/webgate/webgate/internal/messages/emulate"
	"github.com/webgate/webgate/internal/messages/wire"
)

// ErrUpstream wraps errors the upstream reported or malformed replies.
var ErrUpstream = errors.New("openai upstream")

// ClientError maps an error Model.Stream returned (so before any event
// was produced) to the HTTP status and Anthropic error body the client is
// answered with. It is the one place where this upstream kind's failures
// (https://platform.openai.com/docs/guides/error-codes) meet Anthropic's
// error types (https://docs.anthropic.com/en/api/errors):
//
//	upstream 400, 422        400 invalid_request_error ("prompt is too long: ..."
//	                         for context-length errors, the wording Claude
//	                         Code compacts on)
//	upstream 401             401 authentication_error
//	upstream 402             402 billing_error
//	upstream 403             403 permission_error
//	upstream 404             404 not_found_error
//	upstream 408, 504        same status, timeout_error
//	upstream 413             413 request_too_large
//	upstream 429             429 rate_limit_error
//	upstream 503, 529        529 overloaded_error (Anthropic's status for it)
//	other upstream 5xx       same status, api_error
//	other upstream 4xx       same status, invalid_request_error
//	malformed request        400 invalid_request_error
//	(anthropic.ErrInvalidRequest)
//	upstream unreachable     502 api_error
//	upstream too slow        504 timeout_error
//
// The message is the upstream's own (from its error JSON, or the start of
// its body), so the client sees why.
func ClientError(err error) (int, wire.ErrorResponse) {
	var ue *emulate.UpstreamError
	var ne net.Error
	switch {
	case errors.As(err, &ue):
		status, typ := statusType(ue.Status)
		msg := upstreamMessage(ue.Body)
		if msg == "" {
			msg = "upstream answered " + strconv.Itoa(ue.Status) + " " + http.StatusText(ue.Status)
		}
		if typ == "invalid_request_error" && contextTooLong(ue.Body) {
			msg = "prompt is too long: " + msg
		}
		return status, wire.NewError(typ, msg)
	case errors.Is(err, wire.ErrInvalidRequest):
		return http.StatusBadRequest, wire.NewError("invalid_request_error", err.Error())
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return http.StatusGatewayTimeout, wire.NewError("timeout_error", "the upstream did not answer in time: "+err.Error())
	}
	return http.StatusBadGateway, wire.NewError("api_error", "the upstream could not be reached: "+err.Error())
}

// ClientError implements emulate.ErrorMapper with the function of the
// same name, so the emulation answers this upstream kind's failures in
// Anthropic's shape.
func (m *Model) ClientError(err error) (int, wire.ErrorResponse) { return ClientError(err) }

var _ emulate.ErrorMapper = (*Model)(nil)

// statusType maps an upstream status to the client's status and
// Anthropic error type.
func statusType(status int) (int, string) {
	switch status {
	case 400, 422:
		return 400, "invalid_request_error"
	case 401:
		return 401, "authentication_error"
	case 402:
		return 402, "billing_error"
	case 403:
		return 403, "permission_error"
	case 404:
		return 404, "not_found_error"
	case 408, 504:
		return status, "timeout_error"
	case 413:
		return 413, "request_too_large"
	case 429:
		return 429, "rate_limit_error"
	case 503, 529:
		return 529, "overloaded_error"
	}
	if status >= 500 {
		return status, "api_error"
	}
	if status >= 400 {
		return status, "invalid_request_error"
	}
	// A 2xx reply that was an error after all.
	return http.StatusBadGateway, "api_error"
}

// errorBody is every error shape seen from compatible servers: OpenAI's
// {"error":{...}}, a bare {"error":"..."}, vLLM's
// {"object":"error","message":...}, FastAPI's {"detail":...}.
type errorBody struct {
	Error   *ChatError      `json:"error"`
	Message string          `json:"message"`
	Detail  json.RawMessage `json:"detail"`
}

// upstreamMessage extracts the error message from an upstream body, or
// returns its start when it is not JSON.
func upstreamMessage(body []byte) string {
	var e errorBody
	if json.Unmarshal(body, &e) == nil {
		switch {
		case e.Error != nil && e.Error.Message != "":
			return e.Error.Message
		case e.Message != "":
			return e.Message
		case len(e.Detail) > 0:
			var s string
			if json.Unmarshal(e.Detail, &s) == nil {
				return s
			}
			return truncate(string(e.Detail), 512)
		}
	}
	return strings.TrimSpace(truncate(string(body), 512))
}

// contextTooLong reports an error body about the prompt exceeding the
// model's context window, in the words vLLM, OpenAI, DeepSeek, Ollama and
// llama.cpp use.
func contextTooLong(body []byte) bool {
	b := bytes.ToLower(body)
	for _, s := range []string{"context_length_exceeded", "context length", "context window", "maximum context", "prompt is too long", "too many tokens", "exceed_context_size"} {
		if bytes.Contains(b, []byte(s)) {
			return true
		}
	}
	return false
}

// errorStatus is the status a 2xx reply carrying an error object stands
// for: the error's numeric code when it is an HTTP status (OpenRouter),
// else 502.
func errorStatus(e *ChatError) int {
	if n, err := strconv.Atoi(strings.Trim(string(e.Code), `"`)); err == nil && n >= 400 && n <= 599 {
		return n
	}
	return http.StatusBadGateway
}
