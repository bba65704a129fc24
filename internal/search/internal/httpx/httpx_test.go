package httpx

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/webgate/webgate/internal/search"
)

func TestEndpoint(t *testing.T) {
	tests := []struct {
		base, def, path, want string
		wantErr               bool
	}{
		{base: "", def: "https://api.example.com", path: "/search", want: "https://api.example.com/search"},
		{base: "http://127.0.0.1:8080/", def: "https://x", path: "/search", want: "http://127.0.0.1:8080/search"},
		{base: "https://proxy.internal/brave", def: "https://x", path: "/res/v1/web/search", want: "https://proxy.internal/brave/res/v1/web/search"},
		{base: "ftp://x", def: "", path: "/", wantErr: true},
		{base: "", def: "", path: "/", wantErr: true},
		{base: "example.com", def: "", path: "/", wantErr: true},
	}
	for _, tc := range tests {
		got, err := Endpoint(tc.base, tc.def, tc.path)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("Endpoint(%q, %q, %q) = %q, %v; want %q, err %v", tc.base, tc.def, tc.path, got, err, tc.want, tc.wantErr)
		}
	}
}

func TestStatusError(t *testing.T) {
	tests := []struct {
		name       string
		status     int
		header     http.Header
		body       string
		phrases    []string
		kind       error
		retryAfter time.Duration
	}{
		{name: "quota phrase wins over 429", status: 429, header: http.Header{"Retry-After": {"30"}}, body: `{"error":"Your account has run out of searches."}`, phrases: []string{"run out of searches"}, kind: search.ErrQuota},
		{name: "quota phrase wins over 400", status: 400, body: `{"message":"Not enough credits"}`, phrases: []string{"not enough credits"}, kind: search.ErrQuota},
		{name: "Retry-After", status: 429, header: http.Header{"Retry-After": {"7"}}, kind: search.ErrRateLimited, retryAfter: 7 * time.Second},
		{name: "X-RateLimit-Reset fallback", status: 429, header: http.Header{"X-Ratelimit-Reset": {"3, 86400"}}, kind: search.ErrRateLimited, retryAfter: 3 * time.Second},
		{name: "402", status: 402, kind: search.ErrQuota},
		{name: "503", status: 503, kind: search.ErrUnavailable},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := tc.header
			if h == nil {
				h = http.Header{}
			}
			r := &Response{StatusCode: tc.status, Header: h, Body: []byte(tc.body), raw: &http.Response{StatusCode: tc.status, Header: h}}
			e := New("p", nil, 0).StatusError(r, tc.phrases...)
			if !errors.Is(e, tc.kind) || e.RetryAfter != tc.retryAfter || e.Provider != "p" || e.Status != tc.status {
				t.Errorf("StatusError = %+v, want kind %v, RetryAfter %s", e, tc.kind, tc.retryAfter)
			}
		})
	}
}

func TestDoSetsDefaultsAndBounds(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("User-Agent") != UserAgent {
			w.WriteHeader(400)
			return
		}
		w.Write([]byte("ok"))
	}))
	defer srv.Close()
	c := New("p", srv.Client(), 0)
	if c.Timeout != DefaultTimeout {
		t.Errorf("Timeout = %s, want %s", c.Timeout, DefaultTimeout)
	}
	req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
	resp, err := c.Do(context.Background(), req)
	if err != nil || resp.StatusCode != 200 || string(resp.Body) != "ok" {
		t.Fatalf("Do = %+v, %v", resp, err)
	}
}
