package render_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webgate/webgate/internal/extract"
	"github.com/webgate/webgate/internal/fetch"
)

// attackHTML is a page whose scripts try every way a page has to reach
// another address: fetch and XMLHttpRequest (by address and by name),
// a WebSocket, an EventSource, a beacon, an iframe, prefetch and
// DNS-prefetch hints, WebRTC with a STUN server (UDP), and finally a
// navigation of the whole page. %[1]s is the forbidden server's
// host:port, %[2]d the UDP port for STUN. It writes what happened into
// the page, so the test also sees that the scripts ran.
const attackHTML = `<!doctype html>
<html><head><meta charset="utf-8"><title>Attack</title>
<link rel="dns-prefetch" href="//forbidden.example">
<link rel="prefetch" href="http://%[1]s/prefetch">
</head>
<body><div id="root"></div>
<iframe src="http://%[1]s/frame"></iframe>
<script>
const lines = [];
const log = (s) => lines.push(s);
const report = (name, p) => p.then(() => log(name + "-REACHED"), () => log(name + "-blocked"));
const jobs = [
  report("fetch", fetch("http://%[1]s/secret").then(r => { if (!r.ok) throw r.status; return r.text(); })),
  report("byname", fetch("http://localhost:%[3]s/secret").then(r => { if (!r.ok) throw r.status; })),
  report("xhr", new Promise((ok, bad) => { const x = new XMLHttpRequest(); x.open("GET", "http://%[1]s/xhr"); x.onload = () => x.status === 200 ? ok() : bad(); x.onerror = bad; x.send(); })),
  report("websocket", new Promise((ok, bad) => { const w = new WebSocket("ws://%[1]s/ws"); w.onopen = ok; w.onerror = bad; })),
  report("eventsource", new Promise((ok, bad) => { const e = new EventSource("http://%[1]s/events"); e.onopen = ok; e.onerror = () => { e.close(); bad(); }; })),
  new Promise(ok => { navigator.sendBeacon("http://%[1]s/beacon", "x"); ok(); }),
  report("webrtc", new Promise((ok, bad) => {
    const pc = new RTCPeerConnection({iceServers: [{urls: "stun:127.0.0.1:%[2]d"}]});
    pc.createDataChannel("x");
    pc.onicecandidate = (e) => { if (e.candidate && e.candidate.type === "srflx") ok(); if (!e.candidate) bad(); };
    pc.createOffer().then(o => pc.setLocalDescription(o));
    setTimeout(bad, 3000);
  })),
];
Promise.allSettled(jobs).then(() => {
  const a = document.createElement("article");
  a.innerHTML = "<h1>Attack finished</h1><p>MARKER-ATTACK-DONE: every attempt above has settled, and this paragraph is long enough for the extractor to take the page as an article worth reading.</p><p>Outcomes: " + lines.join(", ") + ".</p>";
  document.getElementById("root").appendChild(a);
  setTimeout(() => { location.href = "http://%[1]s/navigate"; }, 100);
});
</script></body></html>`

// forbiddenServer counts every TCP connection made to it, and answers
// HTTP so that a request that did get through would succeed.
type forbiddenServer struct {
	addr  netip.AddrPort
	conns atomic.Int64
}

func newForbiddenServer(t *testing.T) *forbiddenServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &forbiddenServer{addr: ln.Addr().(*net.TCPAddr).AddrPort()}
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Access-Control-Allow-Origin", "*")
			fmt.Fprint(w, "SECRET-INTERNAL-DATA")
		}),
		ConnState: func(_ net.Conn, st http.ConnState) {
			if st == http.StateNew {
				s.conns.Add(1)
			}
		},
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return s
}

// udpCounter counts datagrams sent to it (WebRTC's STUN requests).
func udpCounter(t *testing.T) (int, *atomic.Int64) {
	t.Helper()
	pc, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var n atomic.Int64
	go func() {
		buf := make([]byte, 2048)
		for {
			if _, _, err := pc.ReadFrom(buf); err != nil {
				return
			}
			n.Add(1)
		}
	}()
	t.Cleanup(func() { pc.Close() })
	return pc.LocalAddr().(*net.UDPAddr).Port, &n
}

// TestPageCannotReachForbiddenAddress is the guarantee of issue 24: a
// rendered page's scripts reach nothing the address policy forbids. The
// page is served from one loopback port the policy admits; the policy
// refuses every other private address, among them a second loopback
// port, where a server counts connections. The page tries every way it
// has to reach that server; none may open even a TCP connection, and
// WebRTC may send no UDP. A control run, with the second port admitted
// too, shows the same page does reach it when the policy allows.
func TestPageCannotReachForbiddenAddress(t *testing.T) {
	for _, allowForbidden := range []bool{false, true} {
		name := "policy refuses"
		if allowForbidden {
			name = "control: policy admits"
		}
		t.Run(name, func(t *testing.T) {
			bad := newForbiddenServer(t)
			udpPort, udp := udpCounter(t)
			var page netip.AddrPort
			mux := http.NewServeMux()
			mux.HandleFunc("/attack.html", func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				fmt.Fprintf(w, attackHTML, bad.addr.String(), udpPort, fmt.Sprint(bad.addr.Port()))
			})
			srv := newServerFor(t, mux)
			page = srv
			f, _ := newFetcher(t, nil, func(o *fetch.Options) {
				o.AllowPrivateNetworks = false
				o.AllowAddr = func(ap netip.AddrPort) bool {
					return ap == page || (allowForbidden && ap == bad.addr)
				}
			})
			res, err := f.Fetch(context.Background(), fetch.Request{URL: "http://" + page.String() + "/attack.html", Format: extract.Text, Render: fetch.RenderAlways})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("content:\n%s", res.Content)
			if !strings.Contains(res.Content, "MARKER-ATTACK-DONE") {
				t.Fatalf("the page's scripts did not finish")
			}
			if allowForbidden {
				if bad.conns.Load() == 0 || !strings.Contains(res.Content, "fetch-REACHED") {
					t.Errorf("control: the admitted server got %d connections; the test cannot see a leak", bad.conns.Load())
				}
				return
			}
			if n := bad.conns.Load(); n != 0 {
				t.Errorf("the forbidden server got %d TCP connections", n)
			}
			if strings.Contains(res.Content, "REACHED") || strings.Contains(res.Content, "SECRET-INTERNAL-DATA") {
				t.Errorf("a request got through:\n%s", res.Content)
			}
			for _, w := range []string{"fetch-blocked", "byname-blocked", "xhr-blocked", "websocket-blocked", "eventsource-blocked"} {
				if !strings.Contains(res.Content, w) {
					t.Errorf("content lacks %q", w)
				}
			}
			if n := udp.Load(); n != 0 {
				t.Errorf("WebRTC sent %d UDP datagrams to the STUN port", n)
			}
			if !strings.HasSuffix(res.FinalURL, "/attack.html") {
				t.Errorf("final_url = %s: the navigation to the forbidden address was followed", res.FinalURL)
			}
		})
	}
}

// newServerFor serves h on a fresh loopback port and returns its address.
func newServerFor(t *testing.T, h http.Handler) netip.AddrPort {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().(*net.TCPAddr).AddrPort()
}
