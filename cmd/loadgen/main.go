// Command loadgen measures the Anthropic proxy's search fast path from a
// separate process, closer to production than the in-process Go benchmark.
//
// It does two things, each in its own process so neither steals the
// server's scheduler:
//
//	go run ./cmd/loadgen fake -listen 127.0.0.1:8899
//	    serves a fake SearXNG JSON API answering in 0 ms and prints the
//	    webgate config that points the search chain at it, with enrichment
//	    off. Start `webgate serve --config` with that file.
//
//	go run ./cmd/loadgen load -url http://127.0.0.1:8788 -c 50 -d 10s [-vary]
//	    posts Claude Code's recorded search-execution request with c
//	    concurrent keep-alive connections for d, reads each SSE answer to
//	    message_stop and prints throughput and p50/p99/max latency. Without
//	    -vary every request has the same query (a search-cache hit after
//	    the first); with -vary each query is distinct (a cache miss, so
//	    the provider is called every time).
//
// wrk with a Lua script gives comparable figures at lower client cost; see
// docs/benchmarks.md.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: loadgen fake|load [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "fake":
		err = fake(os.Args[2:])
	case "load":
		err = load(os.Args[2:])
	default:
		err = fmt.Errorf("unknown mode %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
}

// fakeResults mirrors the proxy benchmark's four results with snippets.
const fakeResults = `{"query":"q","results":[
{"url":"https://go.dev/doc/tutorial/generics","title":"Tutorial: Getting started with generics","content":"This tutorial introduces the basics of generics in Go. With generics, you can declare and use functions or types that are written to work with any of a set of types provided by calling code.","publishedDate":null},
{"url":"https://go.dev/blog/intro-generics","title":"An Introduction To Generics - The Go Programming Language","content":"Generics are a way of writing code that is independent of the specific types being used. Functions and types may now be written to use any of a set of types.","publishedDate":null},
{"url":"https://gobyexample.com/generics","title":"Go by Example: Generics","content":"Starting with version 1.18, Go has added support for generics, also known as type parameters.","publishedDate":null},
{"url":"https://www.digitalocean.com/community/tutorials/how-to-use-generics-in-go","title":"How To Use Generics in Go | DigitalOcean","content":"In this tutorial, you will create a program that interacts with a deck of cards using generics.","publishedDate":null}
],"unresponsive_engines":[]}`

func fake(args []string) error {
	fs := flag.NewFlagSet("fake", flag.ExitOnError)
	listen := fs.String("listen", "127.0.0.1:8899", "address for the fake SearXNG")
	fs.Parse(args)
	fmt.Printf(`# webgate config for the fast-path load test
listen: 127.0.0.1:8788
search:
  providers: [searxng]
providers:
  searxng: {base_url: "http://%s"}
upstream:
  web_search:
    enrich: false
`, *listen)
	body := []byte(fakeResults)
	return http.ListenAndServe(*listen, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}))
}

// requestBody returns the recorded request's body.
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
	return rec.Body, nil
}

func load(args []string) error {
	fs := flag.NewFlagSet("load", flag.ExitOnError)
	url := fs.String("url", "http://127.0.0.1:8788", "webgate serve base URL")
	conc := fs.Int("c", 50, "concurrent connections")
	dur := fs.Duration("d", 10*time.Second, "duration")
	warm := fs.Duration("warmup", 2*time.Second, "warm-up not measured")
	vary := fs.Bool("vary", false, "make every query distinct (search-cache miss)")
	req := fs.String("request", "/work/shared/protocol/claude-code/search-execution-request.json", "recorded request (JSON with a body member)")
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
