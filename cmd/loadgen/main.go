// Command loadgen measures the Anthropic proxy's search fast path with the
// server and the load generator in separate processes.
//
//	go run ./cmd/loadgen serve [-listen 127.0.0.1:8788] [-config file] [-log-level info] [-static]
//	    runs the HTTP stack `webgate serve` runs (app.Service.ServerOptions:
//	    server.Serve with its middleware, authentication and metrics, the
//	    JSON API, MCP and the Anthropic proxy, over the audit -> policy ->
//	    guard chain and the real search engine with its cache) but with
//	    the search providers replaced by one in-process provider that
//	    answers in 0 ms: a Go search.Provider, not a loopback HTTP service
//	    whose CPU would compete with the server's for the same cores.
//	    Enrichment is off. Without -config it runs the zero-config
//	    defaults, as `webgate serve` does.
//	    A distinct query per request therefore reaches the provider every
//	    time (engine cache miss); a repeated query is an engine cache hit.
//	    -static instead answers every request with the bytes of one real
//	    answer from bare net/http (server.HTTPServer, one-write transport):
//	    the floor the stack is compared against. -cpuprofile and
//	    -memprofile write the run's CPU and allocation profiles.
//
//	go run ./cmd/loadgen load -url http://127.0.0.1:8788 -c 50 -d 10s [-vary]
//	    posts Claude Code's recorded search-execution request over c
//	    keep-alive connections for d, reads each SSE answer to
//	    message_stop and prints throughput and p50/p90/p99/max latency.
//	    -vary makes every query distinct (cache miss).
//
//	go run ./cmd/loadgen body [-request file]
//	    prints the recorded request's body, for wrk.
//
// wrk (cmd/loadgen/fastpath.lua, driven by cmd/loadgen/bench.sh) costs
// the machine far less CPU per request than this Go client, so the figures
// in docs/benchmarks.md come from wrk; `load` remains for machines
// without it.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/signal"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/webgate/webgate/internal/app"
	"github.com/webgate/webgate/internal/config"
	"github.com/webgate/webgate/internal/httplog"
	"github.com/webgate/webgate/internal/perf/batchconn"
	"github.com/webgate/webgate/internal/search"
	"github.com/webgate/webgate/internal/server"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: loadgen serve|load|body [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "serve":
		err = serve(os.Args[2:])
	case "load":
		err = load(os.Args[2:])
	case "body":
		err = printBody(os.Args[2:])
	default:
		err = fmt.Errorf("unknown mode %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
}

// zeroProvider answers every query at once with four results shaped like
// a real provider's (titles, URLs, snippets), the same for every query.
type zeroProvider struct{}

// providerCalls counts searches that reached the provider (engine cache
// misses); serve prints it on exit.
var providerCalls atomic.Int64

func (zeroProvider) Name() string { return "zero" }

func (zeroProvider) Search(ctx context.Context, q search.Query) ([]search.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	providerCalls.Add(1)
	// A fresh slice per call, as a provider decoding a response would
	// return: the engine owns (and may reorder or trim) what it gets.
	return slices.Clone(zeroResults), nil
}

var zeroResults = []search.Result{
	{URL: "https://go.dev/doc/tutorial/generics", Title: "Tutorial: Getting started with generics", Provider: "zero", Rank: 1,
		Snippet: "This tutorial introduces the basics of generics in Go. With generics, you can declare and use functions or types that are written to work with any of a set of types provided by calling code."},
	{URL: "https://go.dev/blog/intro-generics", Title: "An Introduction To Generics - The Go Programming Language", Provider: "zero", Rank: 2,
		Snippet: "Generics are a way of writing code that is independent of the specific types being used. Functions and types may now be written to use any of a set of types."},
	{URL: "https://gobyexample.com/generics", Title: "Go by Example: Generics", Provider: "zero", Rank: 3,
		Snippet: "Starting with version 1.18, Go has added support for generics, also known as type parameters."},
	{URL: "https://www.digitalocean.com/community/tutorials/how-to-use-generics-in-go", Title: "How To Use Generics in Go | DigitalOcean", Provider: "zero", Rank: 4,
		Snippet: "In this tutorial, you will create a program that interacts with a deck of cards using generics."},
}

// stack builds what `webgate serve` serves (Service.ServerOptions: every
// surface, authentication, the metrics observer, and the audit -> policy
// -> guard chain in front of the engine) with the provider chain replaced
// by zeroProvider and enrichment off. Call release when done: it flushes
// the audit log and closes connections.
func stack(cfg *config.Config, log *slog.Logger) (opts server.Options, release func(), err error) {
	off := false
	cfg.Upstream.WebSearch.Enrich = &off
	svc, err := app.NewWithProviders(cfg, log, []search.Provider{zeroProvider{}})
	if err != nil {
		return server.Options{}, nil, err
	}
	// "dev" is what an unstamped webgate build reports.
	opts, closeUp, err := svc.ServerOptions("dev")
	if err != nil {
		svc.Shutdown()
		return server.Options{}, nil, err
	}
	return opts, func() {
		closeUp()
		svc.Shutdown()
	}, nil
}

func serve(args []string) error {
	fs := flag.NewFlagSet("serve", flag.ExitOnError)
	listen := fs.String("listen", "127.0.0.1:8788", "address to listen on")
	cfgPath := fs.String("config", "", "webgate config file (default: the zero-config defaults)")
	level := fs.String("log-level", "info", "log level (webgate serve's default is info: one access-log line per request)")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the whole run to this file")
	static := fs.Bool("static", false, "answer every request with the bytes of one real answer, from a bare net/http server with webgate's server settings and one-write transport: the floor of any net/http design on this machine, to compare the stack against")
	rec := fs.String("request", defaultRecording, "with -static: the recorded request whose answer is served")
	memprofile := fs.String("memprofile", "", "write an allocation profile of the whole run to this file (sampling every 4 KiB allocated)")
	fs.Parse(args)
	if *memprofile != "" {
		// Set before anything allocates, so the profile covers the run.
		runtime.MemProfileRate = 4096
		defer func() {
			f, err := os.Create(*memprofile)
			if err != nil {
				fmt.Fprintf(os.Stderr, "loadgen: %v\n", err)
				return
			}
			defer f.Close()
			if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
				fmt.Fprintf(os.Stderr, "loadgen: %v\n", err)
			}
		}()
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer func() { pprof.StopCPUProfile(); f.Close() }()
	}

	cfg, err := config.Load(*cfgPath, os.LookupEnv)
	if err != nil {
		return err
	}
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(*level)); err != nil {
		return fmt.Errorf("-log-level: %w", err)
	}
	// As cli's serverLogger: text lines, batched.
	lw := server.NewLogWriter(os.Stderr, 0)
	defer lw.Flush()
	log := slog.New(httplog.NewTextHandler(lw, &slog.HandlerOptions{Level: lv}))
	opts, release, err := stack(cfg, log)
	if err != nil {
		return err
	}
	defer release()
	defer app.HeapFloor(cfg, os.LookupEnv, log)()
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *static {
		h, err := staticAnswer(server.Handler(opts), *rec)
		if err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "loadgen: one recorded answer from bare net/http on http://%s (pid %d)\n", ln.Addr(), os.Getpid())
		return serveBare(ctx, ln, h)
	}
	fmt.Fprintf(os.Stderr, "loadgen: webgate stack with a 0 ms in-process provider on http://%s (pid %d)\n", ln.Addr(), os.Getpid())
	err = server.Serve(ctx, ln, opts)
	fmt.Fprintf(os.Stderr, "loadgen: provider calls: %d\n", providerCalls.Load())
	return err
}

// requestBody returns the recorded request's body as Claude Code sent it.
func requestBody(path string) ([]byte, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rec struct {
		Body json.RawMessage `json:"body"`
	}
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, err
	}
	// The recording is indented for reading; Claude Code sends compact
	// JSON.
	var b bytes.Buffer
	if err := json.Compact(&b, rec.Body); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

const defaultRecording = "/work/shared/protocol/claude-code/search-execution-request.json"

func printBody(args []string) error {
	fs := flag.NewFlagSet("body", flag.ExitOnError)
	req := fs.String("request", defaultRecording, "recorded request (JSON with a body member)")
	fs.Parse(args)
	body, err := requestBody(*req)
	if err != nil {
		return err
	}
	_, err = os.Stdout.Write(body)
	return err
}

func load(args []string) error {
	fs := flag.NewFlagSet("load", flag.ExitOnError)
	url := fs.String("url", "http://127.0.0.1:8788", "webgate serve base URL")
	conc := fs.Int("c", 50, "concurrent connections")
	dur := fs.Duration("d", 10*time.Second, "duration")
	warm := fs.Duration("warmup", 2*time.Second, "warm-up not measured")
	vary := fs.Bool("vary", false, "make every query distinct (search-cache miss)")
	req := fs.String("request", defaultRecording, "recorded request (JSON with a body member)")
	fs.Parse(args)
	body, err := requestBody(*req)
	if err != nil {
		return err
	}
	// The recorded query; -vary appends a counter to it.
	const marker = "Perform a web search for the query: "
	i := bytes.Index(body, []byte(marker))
	if i < 0 {
		return fmt.Errorf("no %q in the recorded request", marker)
	}
	qEnd := i + len(marker) + bytes.IndexByte(body[i+len(marker):], '"')
	tr := &http.Transport{MaxIdleConnsPerHost: *conc, MaxConnsPerHost: *conc, DisableCompression: true}
	client := &http.Client{Transport: tr}
	var seq atomic.Int64
	one := func() (time.Duration, error) {
		b := body
		if *vary {
			n := seq.Add(1)
			b = slices.Concat(body[:qEnd], []byte(fmt.Sprintf(" %d", n)), body[qEnd:])
		}
		start := time.Now()
		resp, err := client.Post(*url+"/v1/messages?beta=true", "application/json", bytes.NewReader(b))
		if err != nil {
			return 0, err
		}
		defer resp.Body.Close()
		if resp.StatusCode != 200 {
			return 0, fmt.Errorf("status %s", resp.Status)
		}
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "event: message_stop") {
				d := time.Since(start)
				io.Copy(io.Discard, resp.Body)
				return d, nil
			}
		}
		return 0, fmt.Errorf("no message_stop (%v)", sc.Err())
	}
	var (
		mu   sync.Mutex
		lat  []time.Duration
		errs atomic.Int64
		wg   sync.WaitGroup
	)
	t0 := time.Now()
	measureFrom, stop := t0.Add(*warm), t0.Add(*warm+*dur)
	for range *conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			for {
				s := time.Now()
				if s.After(stop) {
					break
				}
				d, err := one()
				if err != nil {
					if errs.Add(1) == 1 {
						fmt.Fprintln(os.Stderr, "first error:", err)
					}
					continue
				}
				if s.After(measureFrom) {
					mine = append(mine, d)
				}
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	if len(lat) == 0 {
		return fmt.Errorf("no successful requests (%d errors)", errs.Load())
	}
	slices.Sort(lat)
	pct := func(p float64) float64 {
		return float64(lat[int(p*float64(len(lat)-1))]) / float64(time.Millisecond)
	}
	fmt.Printf("c=%d vary=%v requests=%d errors=%d throughput=%.0f req/s p50=%.3f ms p90=%.3f ms p99=%.3f ms max=%.3f ms\n",
		*conc, *vary, len(lat), errs.Load(), float64(len(lat))/dur.Seconds(), pct(0.50), pct(0.90), pct(0.99), pct(1))
	return nil
}

// staticAnswer asks stack for the answer to the recorded request once and
// returns a handler that reads each request's body and sends those bytes,
// with the same headers, in one write: everything net/http and the kernel
// cost per request, and none of webgate's own work.
func staticAnswer(stack http.Handler, recording string) (http.Handler, error) {
	body, err := requestBody(recording)
	if err != nil {
		return nil, err
	}
	rr := httptest.NewRecorder()
	stack.ServeHTTP(rr, httptest.NewRequest(http.MethodPost, "/v1/messages?beta=true", bytes.NewReader(body)))
	if rr.Code != http.StatusOK || rr.Body.Len() < 1000 {
		return nil, fmt.Errorf("static answer: status %d, %d bytes", rr.Code, rr.Body.Len())
	}
	answer := rr.Body.Bytes()
	header := rr.Header().Clone()
	header.Del("Content-Length")
	return batchconn.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.Copy(io.Discard, r.Body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		for k, v := range header {
			w.Header()[k] = v
		}
		_ = batchconn.WriteResponse(w, r, http.StatusOK, answer)
	})), nil
}

// serveBare serves h with the http.Server settings server.Serve uses.
func serveBare(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := server.HTTPServer(h, slog.New(slog.DiscardHandler), ctx)
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	if err := srv.Serve(batchconn.Listener{Listener: ln}); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
