package proxy

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webgate/webgate/internal/config"
)

// BenchmarkBodyMemory sends 16 concurrent 30 MB Messages requests (the
// load that left a replica at 514 MB RSS) and reports the peak heap the
// proxy reached, with upstream.max_body_bytes_in_flight at its default
// and, for comparison, as good as unbounded. The request bodies are
// generated as they are sent and the fake upstreams discard what they
// receive, so the heap is the proxy's own. Paths: passthrough, an
// emulated turn on kind anthropic and on kind openai.
//
//	go test ./internal/messages/proxy -run '^$' -bench BodyMemory -benchtime 1x
func BenchmarkBodyMemory(b *testing.B) {
	const (
		clients = 16
		size    = 30 << 20
	)
	for _, path := range []string{"passthrough", "emulated-anthropic", "emulated-openai"} {
		for _, budget := range []int64{0, 1 << 40} {
			name := fmt.Sprintf("%s/budget=default", path)
			if budget != 0 {
				name = fmt.Sprintf("%s/budget=unbounded", path)
			}
			b.Run(name, func(b *testing.B) {
				for range b.N {
					peak, refused := bodyMemoryRun(b, path, budget, clients, size)
					b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
					b.ReportMetric(float64(refused), "refused")
				}
			})
		}
	}
}

func bodyMemoryRun(b *testing.B, path string, budget int64, clients, size int) (peak uint64, refused int64) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		switch path {
		case "passthrough":
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`)
		case "emulated-anthropic":
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}}\n\n"+
				"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"+
				"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"ok\"}}\n\n"+
				"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n"+
				"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":1}}\n\n"+
				"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
		default:
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, `data: {"choices":[{"index":0,"delta":{"role":"assistant","content":"ok"},"finish_reason":null}]}`+"\n\n"+
				`data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1}}`+"\n\n"+
				"data: [DONE]\n\n")
		}
	}))
	defer up.Close()
	cfg := config.Upstream{BaseURL: up.URL, MaxBodyBytesInFlight: budget, WebSearch: noEnrich().WebSearch}
	if path == "emulated-openai" {
		cfg.Kind, cfg.BaseURL = "openai", up.URL+"/v1"
	}
	h := newHandler(b, Options{Searcher: results(), Upstream: cfg})
	h.budgetWait = 10 * time.Minute // measure memory, not refusals
	srv := httptest.NewServer(h)
	defer srv.Close()

	runtime.GC()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var peakHeap atomic.Uint64
	wg.Add(1)
	go func() {
		defer wg.Done()
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		tk := time.NewTicker(2 * time.Millisecond)
		defer tk.Stop()
		for {
			metrics.Read(s)
			if v := s[0].Value.Uint64(); v > peakHeap.Load() {
				peakHeap.Store(v)
			}
			select {
			case <-stop:
				return
			case <-tk.C:
			}
		}
	}()
	base := peakHeap.Load()
	var clientsWG sync.WaitGroup
	var nRefused atomic.Int64
	for range clients {
		clientsWG.Add(1)
		go func() {
			defer clientsWG.Done()
			tools := ""
			if path != "passthrough" {
				tools = `"tools":[{"type":"web_search_20250305","name":"web_search"}],`
			}
			prefix := `{"model":"claude-sonnet-4-5","max_tokens":16,` + tools + `"messages":[{"role":"user","content":"`
			suffix := `"}]}`
			body := &genBody{prefix: prefix, n: size - len(prefix) - len(suffix), suffix: suffix}
			req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, srv.URL+"/v1/messages", body)
			req.ContentLength = int64(size)
			resp, err := srv.Client().Do(req)
			if err != nil {
				b.Error(err)
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == 529 {
				nRefused.Add(1)
			} else if resp.StatusCode != http.StatusOK {
				b.Errorf("status %d", resp.StatusCode)
			}
		}()
	}
	clientsWG.Wait()
	close(stop)
	wg.Wait()
	return peakHeap.Load() - min(base, peakHeap.Load()), nRefused.Load()
}

// genBody produces prefix, n bytes of 'x' and suffix without holding them.
type genBody struct {
	prefix, suffix string
	n              int
	off            int
}

func (g *genBody) Read(p []byte) (int, error) {
	total := len(g.prefix) + g.n + len(g.suffix)
	if g.off >= total {
		return 0, io.EOF
	}
	w := 0
	for w < len(p) && g.off < total {
		switch {
		case g.off < len(g.prefix):
			c := copy(p[w:], g.prefix[g.off:])
			w += c
			g.off += c
		case g.off < len(g.prefix)+g.n:
			c := min(len(p)-w, len(g.prefix)+g.n-g.off)
			for i := range c {
				p[w+i] = 'x'
			}
			w += c
			g.off += c
		default:
			c := copy(p[w:], g.suffix[g.off-len(g.prefix)-g.n:])
			w += c
			g.off += c
		}
	}
	return w, nil
}

// BenchmarkBodyLiveHeap reports the live heap (after a full GC) that one
// 30 MiB request holds while the upstream is working on it, in multiples
// of its body: the cost the body budget charges (1 for passthrough,
// turnCost for an emulated turn).
//
//	go test ./internal/messages/proxy -run '^$' -bench BodyLiveHeap -benchtime 1x
func BenchmarkBodyLiveHeap(b *testing.B) {
	const size = 30 << 20
	for _, path := range []string{"passthrough", "emulated-anthropic", "emulated-openai"} {
		b.Run(path, func(b *testing.B) {
			for range b.N {
				entered, release := make(chan struct{}), make(chan struct{})
				up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					_, _ = io.Copy(io.Discard, r.Body)
					close(entered)
					<-release
					w.WriteHeader(http.StatusInternalServerError)
				}))
				cfg := config.Upstream{BaseURL: up.URL, WebSearch: noEnrich().WebSearch}
				if path == "emulated-openai" {
					cfg.Kind, cfg.BaseURL = "openai", up.URL+"/v1"
				}
				srv := httptest.NewServer(newHandler(b, Options{Searcher: results(), Upstream: cfg}))
				before := liveHeap()
				done := make(chan struct{})
				go func() {
					defer close(done)
					tools := ""
					if path != "passthrough" {
						tools = `"tools":[{"type":"web_search_20250305","name":"web_search"}],`
					}
					prefix := `{"model":"claude-sonnet-4-5","max_tokens":16,` + tools + `"messages":[{"role":"user","content":"`
					suffix := `"}]}`
					req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1/messages", &genBody{prefix: prefix, n: size - len(prefix) - len(suffix), suffix: suffix})
					req.ContentLength = size
					if resp, err := srv.Client().Do(req); err == nil {
						_, _ = io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
					}
				}()
				<-entered
				during := liveHeap()
				close(release)
				<-done
				srv.Close()
				up.Close()
				b.ReportMetric(float64(during-before)/size, "bodies-live")
			}
		})
	}
}
