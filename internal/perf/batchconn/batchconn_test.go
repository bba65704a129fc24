package batchconn

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// countConn records each write made to it.
type countConn struct {
	net.Conn
	mu     sync.Mutex
	writes []int
	out    bytes.Buffer
}

func (c *countConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.writes = append(c.writes, len(p))
	return c.out.Write(p)
}

func (c *countConn) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.writes)
}

func TestGather(t *testing.T) {
	big := bytes.Repeat([]byte("x"), maxGather)
	for _, tc := range []struct {
		name   string
		gather bool
		chunks [][]byte
		writes int
	}{
		{"not gathering: every write passes", false, [][]byte{[]byte("a"), []byte("bc"), []byte("def")}, 3},
		{"gathering: one write", true, [][]byte{[]byte("a"), []byte("bc"), []byte("def")}, 1},
		{"gathering nothing: no write", true, nil, 0},
		// One writev on a TCP connection; this fake has no writev, so the
		// two buffers arrive as two writes, then the tail at finish.
		{"past the bound: passed on, then gathered again", true, [][]byte{[]byte("head"), big, []byte("tail")}, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			under := &countConn{}
			c := &Conn{Conn: under, armed: true} // as Handler arms it
			ctx := ConnContext(context.Background(), c)
			if tc.gather {
				Gather(ctx)
			}
			var want []byte
			for _, p := range tc.chunks {
				if n, err := c.Write(p); n != len(p) || err != nil {
					t.Fatalf("Write = %d, %v", n, err)
				}
				want = append(want, p...)
			}
			c.finish(httptest.NewRecorder())
			c.finish(httptest.NewRecorder()) // a second finish is a no-op
			if got := under.count(); got != tc.writes {
				t.Errorf("%d writes (%v), want %d", got, under.writes, tc.writes)
			}
			if !bytes.Equal(under.out.Bytes(), want) {
				t.Errorf("bytes differ: got %d, want %d", under.out.Len(), len(want))
			}
			// After finish, writes pass straight on again.
			_, _ = c.Write([]byte("z"))
			if got := under.count(); got != tc.writes+1 {
				t.Errorf("after Send: %d writes, want %d", got, tc.writes+1)
			}
		})
	}
}

// TestGatherUnarmed: without a Handler around the request nothing is
// held, so a handler's Gather can never strand its response.
func TestGatherUnarmed(t *testing.T) {
	Gather(context.Background())
	under := &countConn{}
	c := &Conn{Conn: under}
	Gather(ConnContext(context.Background(), c))
	_, _ = c.Write([]byte("abc"))
	if under.count() != 1 {
		t.Fatalf("unarmed connection held a write")
	}
}

// TestOneWritePerResponse serves a 10 KB response with a known length over
// real TCP and counts the writes that reach the connection: net/http makes
// two (its 4 KiB buffer, then the rest), a gathered response one.
func TestOneWritePerResponse(t *testing.T) {
	body := []byte(strings.Repeat("event: x\ndata: {}\n\n", 500)) // 9.5 KB
	var (
		mu    sync.Mutex
		conns []*countConn
	)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	counting := countingListener{Listener: ln, add: func(c *countConn) { mu.Lock(); conns = append(conns, c); mu.Unlock() }}
	// The layer inside Handler finishes its work (as the access log
	// does) after the handler returns; the client must not see the answer
	// before that.
	var recorded atomic.Bool
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		recorded.Store(false)
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		if r.URL.Path == "/gathered" {
			Gather(r.Context())
		}
		_, _ = w.Write(body)
		time.Sleep(20 * time.Millisecond)
		recorded.Store(true)
	})
	srv := &http.Server{Handler: Handler(inner), ConnContext: ConnContext}
	go srv.Serve(Listener{counting})
	defer srv.Close()

	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	br := bufio.NewReader(c)
	for _, tc := range []struct {
		path   string
		writes int
	}{{"/plain", 2}, {"/gathered", 1}, {"/plain", 2}, {"/gathered", 1}} {
		mu.Lock()
		before := 0
		if len(conns) > 0 {
			before = conns[0].count()
		}
		mu.Unlock()
		if _, err := io.WriteString(c, "GET "+tc.path+" HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || !bytes.Equal(got, body) {
			t.Fatalf("%s: body of %d bytes, err %v", tc.path, len(got), err)
		}
		if tc.path == "/gathered" && !recorded.Load() {
			t.Errorf("%s: the answer arrived before the handler chain returned", tc.path)
		}
		mu.Lock()
		n := conns[0].count() - before
		mu.Unlock()
		if n != tc.writes {
			t.Errorf("%s: %d writes (%v), want %d", tc.path, n, conns[0].writes, tc.writes)
		}
	}
}

type countingListener struct {
	net.Listener
	add func(*countConn)
}

func (l countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	cc := &countConn{Conn: c}
	l.add(cc)
	return passConn{cc}, nil
}

// passConn writes through to the real connection after counting.
type passConn struct{ *countConn }

func (p passConn) Write(b []byte) (int, error) {
	p.countConn.mu.Lock()
	p.countConn.writes = append(p.countConn.writes, len(b))
	p.countConn.mu.Unlock()
	return p.countConn.Conn.Write(b)
}

type oneConnListener struct {
	net.Listener
	c net.Conn
}

func (l oneConnListener) Accept() (net.Conn, error) { return l.c, nil }

// TestListenerLeavesTLSAlone: net/http must still see a *tls.Conn.
func TestListenerLeavesTLSAlone(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	for _, tc := range []struct {
		c    net.Conn
		wrap bool
	}{{a, true}, {tls.Server(b, &tls.Config{}), false}} {
		got, err := Listener{oneConnListener{c: tc.c}}.Accept()
		if err != nil {
			t.Fatal(err)
		}
		if _, wrapped := got.(*Conn); wrapped != tc.wrap {
			t.Errorf("%T: wrapped = %v, want %v", tc.c, wrapped, tc.wrap)
		}
	}
}
