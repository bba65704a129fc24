package proxy

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
)

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
