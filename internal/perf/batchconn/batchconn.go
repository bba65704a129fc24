// Package batchconn lets a handler hand its whole HTTP response to the
// kernel in one write system call.
//
// net/http writes every response through a 4 KiB buffer per connection, so
// a response larger than that leaves in at least two write(2) calls: the
// full buffer, then the rest. Each call costs the sender the TCP transmit
// path (on loopback, the receiver's delivery too) and can wake the reader
// twice. For Claude Code's search fast path, a 10 KB answer composed in
// about 20 µs, those writes were the largest single cost of a request. A
// handler whose response is complete can gather what net/http writes while
// it sends that response and pass it on at once.
//
// Gathering is opt-in per response because a streaming response must reach
// the client event by event; nothing is held unless a handler asks. The
// gathered bytes leave when the whole handler chain has returned (see
// Handler), so that middleware (access log, metrics) has recorded the
// request before its client can see the answer, as with net/http's own
// final flush.
package batchconn

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"strconv"
	"sync"
)

// maxGather bounds the bytes gathered before they are passed on anyway, so
// a large response costs a bounded buffer, not its own size.
const maxGather = 64 << 10

// Listener wraps each accepted connection in a Conn.
type Listener struct{ net.Listener }

// Accept waits for the next connection and wraps it. A TLS connection is
// returned as it is: net/http looks for *tls.Conn to complete the
// handshake and negotiate HTTP/2, and TLS frames its own records anyway.
func (l Listener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	if _, ok := c.(*tls.Conn); ok {
		return c, nil
	}
	return &Conn{Conn: c}, nil
}

// Conn is a connection whose writes can be gathered; see Gather.
type Conn struct {
	net.Conn

	mu    sync.Mutex
	armed bool    // a Handler serves the current request and will send
	buf   *[]byte // the gathered bytes; non-nil while gathering
}

var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

// Write passes p on, or appends it to the gathered bytes while gathering.
func (c *Conn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.buf == nil {
		return c.Conn.Write(p)
	}
	if len(*c.buf)+len(p) <= maxGather {
		*c.buf = append(*c.buf, p...)
		return len(p), nil
	}
	// Too much to hold: what was gathered and p go out together (one
	// writev), and gathering goes on with an empty buffer.
	bufs := net.Buffers{*c.buf, p}
	held := len(*c.buf)
	n, err := bufs.WriteTo(c.Conn)
	*c.buf = (*c.buf)[:0]
	return max(int(n)-held, 0), err
}

// CloseWrite half-closes the connection when the underlying one can;
// net/http uses it to close a connection gracefully. It runs after the
// handler chain, when nothing is gathered any more.
func (c *Conn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

type ctxKey struct{}

// ConnContext is an http.Server ConnContext hook that makes the
// connection reachable from its requests' contexts, for Gather.
func ConnContext(ctx context.Context, c net.Conn) context.Context {
	if bc, ok := c.(*Conn); ok {
		return context.WithValue(ctx, ctxKey{}, bc)
	}
	return ctx
}

// Handler arms gathering for the requests next serves, and passes on what
// a handler gathered once next has returned: after the middleware inside
// it has finished with the request, and after a panic too. It must be the
// outermost handler, so that nothing runs after the bytes leave.
func Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, _ := r.Context().Value(ctxKey{}).(*Conn)
		if c == nil {
			next.ServeHTTP(w, r)
			return
		}
		c.mu.Lock()
		c.armed = true
		c.mu.Unlock()
		defer c.finish(w)
		next.ServeHTTP(w, r)
	})
}

// finish ends gathering: it flushes net/http's buffers into the gathered
// bytes and passes them on in one write.
func (c *Conn) finish(w http.ResponseWriter) {
	c.mu.Lock()
	c.armed = false
	gathering := c.buf != nil
	c.mu.Unlock()
	if !gathering {
		return
	}
	// Flush goes through c.Write, which gathers; errors surface there.
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(*c.buf) > 0 {
		_, _ = c.Conn.Write(*c.buf) // a failed write means the client went away
	}
	// Write never lets the buffer hold more than maxGather, so its capacity
	// stays within what append grows that to.
	*c.buf = (*c.buf)[:0]
	bufPool.Put(c.buf)
	c.buf = nil
}

// Gather asks for the rest of the response to ctx's request to be
// gathered and handed to the kernel in one write when the handler chain
// returns. The handler then writes its complete response and returns. It
// does nothing without a Conn and a Handler under the request (TLS,
// HTTP/2, tests with a recorder): the response then leaves as usual.
//
// Set Content-Length first (WriteResponse does): the final flush sends the
// headers before net/http could work out a length itself, so a response
// without one would go out chunked, its terminator in a write of its own.
func Gather(ctx context.Context) {
	c, _ := ctx.Value(ctxKey{}).(*Conn)
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.armed || c.buf != nil {
		return
	}
	c.buf = bufPool.Get().(*[]byte)
}

// WriteResponse writes body as the whole response to r with status and a
// Content-Length, gathered into one write when it can be (see Gather). r
// may be nil, for callers without the request.
func WriteResponse(w http.ResponseWriter, r *http.Request, status int, body []byte) error {
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	if r != nil {
		Gather(r.Context())
	}
	w.WriteHeader(status)
	_, err := w.Write(body)
	return err
}
