package proxy

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/webgate/webgate/internal/messages/wire"
	"github.com/webgate/webgate/internal/search"
)

func TestToolErrorCode(t *testing.T) {
	pe := func(kind error, msg string) error {
		return fmt.Errorf("search: %w", &search.ProviderError{Provider: "p", Kind: kind, Err: errors.New(msg)})
	}
	tests := []struct {
		err  error
		want string
	}{
		{fmt.Errorf("x: %w", errQueryTooLong), wire.ErrCodeQueryTooLong},
		{fmt.Errorf("x: %w", errMaxUsesExceeded), wire.ErrCodeMaxUsesExceeded},
		{fmt.Errorf("x: %w", errInvalidInput), wire.ErrCodeInvalidToolInput},
		{pe(search.ErrInvalidQuery, "unsupported operator"), wire.ErrCodeInvalidToolInput},
		{pe(search.ErrInvalidQuery, "Query too long (max 400)"), wire.ErrCodeQueryTooLong},
		{pe(search.ErrRateLimited, ""), wire.ErrCodeTooManyRequests},
		{errors.Join(pe(search.ErrUnavailable, ""), pe(search.ErrRateLimited, "")), wire.ErrCodeTooManyRequests},
		{pe(search.ErrAuth, ""), wire.ErrCodeUnavailable},
		{pe(search.ErrQuota, ""), wire.ErrCodeUnavailable},
		{pe(search.ErrBlocked, ""), wire.ErrCodeUnavailable},
		{fmt.Errorf("search: %w", search.ErrNoProviders), wire.ErrCodeUnavailable},
		{context.DeadlineExceeded, wire.ErrCodeUnavailable},
	}
	for _, tt := range tests {
		if got := toolErrorCode(tt.err); got != tt.want {
			t.Errorf("toolErrorCode(%v) = %s, want %s", tt.err, got, tt.want)
		}
	}
}

func TestAPIError(t *testing.T) {
	tests := []struct {
		err    error
		status int
		typ    string
	}{
		{fmt.Errorf("x: %w", errBodyTooLarge), http.StatusRequestEntityTooLarge, "request_too_large"},
		{&http.MaxBytesError{Limit: 1}, http.StatusRequestEntityTooLarge, "request_too_large"},
		{fmt.Errorf("%w: eof", errBadBody), http.StatusBadRequest, "invalid_request_error"},
		{fmt.Errorf("x: %w", errNotFound), http.StatusNotFound, "not_found_error"},
		{fmt.Errorf("%w: dial", errUpstreamUnreachable), http.StatusBadGateway, "api_error"},
		{fmt.Errorf("upstream: %w", context.DeadlineExceeded), http.StatusGatewayTimeout, "api_error"},
		{errors.New("boom"), http.StatusInternalServerError, "api_error"},
	}
	for _, tt := range tests {
		status, body := apiError(tt.err)
		if status != tt.status || body.Type != "error" || body.Error.Type != tt.typ {
			t.Errorf("apiError(%v) = %d %+v, want %d %s", tt.err, status, body, tt.status, tt.typ)
		}
	}
}
