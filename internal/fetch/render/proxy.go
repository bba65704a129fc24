package render

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"code.dny.dev/ssrf"
)

// pageProxy is the HTTP proxy one rendered page's browser context uses for
// every connection it makes: plain HTTP requests, HTTPS and WebSocket
// tunnels (CONNECT), and WebRTC's relayed traffic (the browser runs with
// the disable_non_proxied_udp policy). It dials only through the fetcher's
// guarded dialer, so the address policy is judged on the resolved address
// at connect time exactly as for the fetcher's own requests, and it counts
// every byte against the page's budget.
//
// Chromium sends it host names, never addresses it resolved itself (the
// browser runs with every local name lookup mapped to "not found"), so
// DNS is resolved here too.
type pageProxy struct {
	ln net.Listener
	// dial is the page's guarded dialer, set when the tab is given its
	// page; until then every connection is refused.
	dial     atomic.Pointer[dialFunc]
	ctx      context.Context
	cancel   context.CancelFunc
	maxBytes int64
	maxConns int32
	log      *slog.Logger
	tr       *http.Transport

	bytes   atomic.Int64
	conns   atomic.Int32 // tunnels and plain requests accepted
	refused atomic.Int32 // refused by the address policy or a limit

	mu   sync.Mutex
	open map[net.Conn]struct{}
	wg   sync.WaitGroup
}

// errBudget ends a connection whose page has used up its byte budget.
var errBudget = errors.New("page byte budget used up")

type dialFunc = func(ctx context.Context, network, address string) (net.Conn, error)

func newPageProxy(maxBytes int64, maxConns int, log *slog.Logger) (*pageProxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	p := &pageProxy{
		ln: ln, ctx: ctx, cancel: cancel, maxBytes: maxBytes, maxConns: int32(maxConns), log: log,
		open: make(map[net.Conn]struct{}),
	}
	p.tr = &http.Transport{
		Proxy:                  nil, // never another proxy: the dial check would mean nothing
		DialContext:            p.dialTo,
		DisableCompression:     true, // pass the page's encodings through untouched
		DisableKeepAlives:      true,
		TLSHandshakeTimeout:    10 * time.Second,
		ResponseHeaderTimeout:  20 * time.Second,
		MaxResponseHeaderBytes: 256 << 10,
	}
	p.wg.Add(1)
	go p.serve()
	return p, nil
}

// setDial gives the proxy the page's guarded dialer.
func (p *pageProxy) setDial(d dialFunc) { p.dial.Store(&d) }

// errNoPage refuses connections of a tab that has no page yet.
var errNoPage = errors.New("no page is being rendered in this tab")

func (p *pageProxy) dialTo(ctx context.Context, network, address string) (net.Conn, error) {
	d := p.dial.Load()
	if d == nil || *d == nil {
		return nil, errNoPage
	}
	return (*d)(ctx, network, address)
}

// addr is the proxy's loopback address, for --proxy-server.
func (p *pageProxy) addr() string { return p.ln.Addr().String() }

// close stops the proxy and every connection it holds, and waits for its
// goroutines.
func (p *pageProxy) close() {
	p.cancel()
	p.ln.Close()
	p.mu.Lock()
	for c := range p.open {
		c.Close()
	}
	p.mu.Unlock()
	p.tr.CloseIdleConnections()
	p.wg.Wait()
}

// track registers c so close can end it; it reports false once the proxy
// is closing.
func (p *pageProxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ctx.Err() != nil {
		return false
	}
	p.open[c] = struct{}{}
	return true
}

func (p *pageProxy) untrack(c net.Conn) {
	p.mu.Lock()
	delete(p.open, c)
	p.mu.Unlock()
	c.Close()
}

func (p *pageProxy) serve() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		if !p.track(c) {
			c.Close()
			return
		}
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			defer p.untrack(c)
			p.handle(c)
		}()
	}
}

// handle serves one connection from the browser: one CONNECT tunnel, or
// one plain request.
func (p *pageProxy) handle(c net.Conn) {
	_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
	br := bufio.NewReaderSize(c, 16<<10)
	req, err := http.ReadRequest(br)
	if err != nil {
		return
	}
	_ = c.SetReadDeadline(time.Time{})
	if p.conns.Add(1) > p.maxConns || p.bytes.Load() >= p.maxBytes {
		p.refused.Add(1)
		writeStatus(c, http.StatusTooManyRequests, "page limit reached")
		return
	}
	if req.Method == http.MethodConnect {
		p.tunnel(c, br, req)
		return
	}
	p.forward(c, req)
}

// tunnel dials the CONNECT target through the guard and splices bytes
// both ways, counted against the page's budget.
func (p *pageProxy) tunnel(c net.Conn, br *bufio.Reader, req *http.Request) {
	host := req.Host
	if host == "" {
		host = req.URL.Host
	}
	up, err := p.dialTarget(host)
	if err != nil {
		p.refuse(c, host, err)
		return
	}
	if !p.track(up) {
		up.Close()
		return
	}
	defer p.untrack(up)
	if _, err := io.WriteString(c, "HTTP/1.1 200 Connection Established\r\n\r\n"); err != nil {
		return
	}
	if n := br.Buffered(); n > 0 {
		b, _ := br.Peek(n)
		if _, err := up.Write(b); err != nil {
			return
		}
		p.bytes.Add(int64(n))
	}
	done := make(chan struct{}, 2)
	go func() { p.copy(up, c); up.Close(); done <- struct{}{} }()
	go func() { p.copy(c, up); c.Close(); done <- struct{}{} }()
	<-done
	<-done
}

// forward sends one plain HTTP request on through the guard.
func (p *pageProxy) forward(c net.Conn, req *http.Request) {
	if req.URL.Scheme != "http" || req.URL.Host == "" {
		writeStatus(c, http.StatusBadRequest, "only absolute http URLs and CONNECT")
		return
	}
	out := req.Clone(p.ctx)
	out.RequestURI = ""
	out.Close = true
	for _, h := range []string{"Proxy-Connection", "Proxy-Authorization", "Connection", "Keep-Alive", "Upgrade", "Te", "Trailer"} {
		out.Header.Del(h)
	}
	if req.Body != nil {
		out.Body = io.NopCloser(p.limited(req.Body))
	}
	resp, err := p.tr.RoundTrip(out)
	if err != nil {
		p.refuse(c, req.URL.Host, err)
		return
	}
	defer resp.Body.Close()
	resp.Close = true
	resp.Body = io.NopCloser(p.limited(resp.Body))
	_ = resp.Write(c)
}

// dialTarget connects to host:port through the guarded dialer.
func (p *pageProxy) dialTarget(host string) (net.Conn, error) {
	if _, _, err := net.SplitHostPort(host); err != nil {
		host = net.JoinHostPort(strings.Trim(host, "[]"), "443")
	}
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	return p.dialTo(ctx, "tcp", host)
}

// refuse answers a request the proxy could not carry: 403 when the
// address policy refused it, 502 when the site could not be reached.
func (p *pageProxy) refuse(c net.Conn, host string, err error) {
	code := http.StatusBadGateway
	if isPolicyRefusal(err) {
		code = http.StatusForbidden
		p.refused.Add(1)
		p.log.Debug("rendered page: connection refused by the address policy", "host", host, "err", err)
	}
	writeStatus(c, code, "webgate: "+firstLine(err.Error()))
}

// copy moves bytes from src to dst until either ends or the page's budget
// is used up.
func (p *pageProxy) copy(dst io.Writer, src io.Reader) {
	_, _ = io.Copy(dst, p.limited(src))
}

// limited counts what r yields against the page's byte budget and fails
// once it is used up.
func (p *pageProxy) limited(r io.Reader) io.Reader { return &budgetReader{r: r, p: p} }

type budgetReader struct {
	r io.Reader
	p *pageProxy
}

func (b *budgetReader) Read(buf []byte) (int, error) {
	if b.p.bytes.Load() >= b.p.maxBytes {
		return 0, errBudget
	}
	n, err := b.r.Read(buf)
	b.p.bytes.Add(int64(n))
	return n, err
}

// writeStatus answers with a short plain-text error and closes.
func writeStatus(c net.Conn, code int, msg string) {
	body := msg + "\n"
	_, _ = fmt.Fprintf(c, "HTTP/1.1 %d %s\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
		code, http.StatusText(code), len(body), body)
}

// isPolicyRefusal reports whether err is the address policy refusing a
// connection.
func isPolicyRefusal(err error) bool {
	return errors.Is(err, ssrf.ErrProhibitedIP) || errors.Is(err, ssrf.ErrProhibitedNetwork) ||
		errors.Is(err, ssrf.ErrProhibitedPort) || errors.Is(err, ssrf.ErrInvalidHostPort)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// sink is the proxy of the browser's default context, which no page
// uses: anything the browser itself tries to reach (updates, telemetry,
// a feature no flag turned off) gets 403 and goes nowhere.
type sink struct {
	ln  net.Listener
	log *slog.Logger
	wg  sync.WaitGroup
}

func newSink(log *slog.Logger) (*sink, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &sink{ln: ln, log: log}
	s.wg.Add(1)
	go s.serve()
	return s, nil
}

func (s *sink) addr() string { return s.ln.Addr().String() }

func (s *sink) serve() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer c.Close()
			_ = c.SetDeadline(time.Now().Add(5 * time.Second))
			if req, err := http.ReadRequest(bufio.NewReader(c)); err == nil {
				s.log.Debug("browser request outside any page refused", "method", req.Method, "host", req.Host)
			}
			writeStatus(c, http.StatusForbidden, "webgate: no page is being rendered")
		}()
	}
}

func (s *sink) close() {
	s.ln.Close()
	s.wg.Wait()
}
