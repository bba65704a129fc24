package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"testing"

	"golang.org/x/net/dns/dnsmessage"
)

// The SSRF matrix (issue 7): every private or special address range, reached
// four ways (as an IP literal, through a DNS name, as a redirect target by
// literal and by name), with allow_private_networks off (the default) and
// on. Nothing here leaves the machine: names resolve through a fake DNS
// server, and every connect the policy lets through is stopped by a test
// hook just before the socket connects, after recording its address.

// nonPublic lists one or two addresses of every range the fetcher must
// refuse by default.
var nonPublic = []struct{ name, addr string }{
	{"loopback 127/8", "127.0.0.1"},
	{"loopback 127/8 top", "127.255.255.254"},
	{"rfc1918 10/8", "10.0.0.1"},
	{"rfc1918 172.16/12", "172.16.0.1"},
	{"rfc1918 172.16/12 top", "172.31.255.254"},
	{"rfc1918 192.168/16", "192.168.1.1"},
	{"link-local 169.254/16", "169.254.1.1"},
	{"cloud metadata", "169.254.169.254"},
	{"cgnat 100.64/10", "100.64.0.1"},
	{"cgnat 100.64/10 top", "100.127.255.254"},
	{"this network 0/8", "0.0.0.0"},
	{"this network 0/8 host", "0.1.2.3"},
	{"multicast 224/4", "224.0.0.1"},
	{"multicast ssdp", "239.255.255.250"},
	{"limited broadcast", "255.255.255.255"},
	{"reserved 240/4", "240.0.0.1"},
	{"ietf 192.0.0/24", "192.0.0.170"},
	{"documentation 192.0.2/24", "192.0.2.1"},
	{"benchmarking 198.18/15", "198.18.0.1"},
	{"6to4 relay anycast", "192.88.99.1"},
	{"ipv6 loopback", "::1"},
	{"ipv6 unspecified", "::"},
	{"ipv6 unique local fc00::/7", "fc00::1"},
	{"ipv6 unique local fd00::/8", "fd12:3456:789a::1"},
	{"ipv6 link-local fe80::/10", "fe80::1"},
	{"ipv6 site-local fec0::/10", "fec0::1"},
	{"ipv6 multicast", "ff02::1"},
	{"ipv4-mapped loopback", "::ffff:127.0.0.1"},
	{"ipv4-mapped rfc1918", "::ffff:10.0.0.1"},
	{"ipv4-mapped metadata", "::ffff:169.254.169.254"},
	{"ipv4-compatible loopback", "::127.0.0.1"},
	{"nat64 loopback", "64:ff9b::127.0.0.1"},
	{"nat64 rfc1918", "64:ff9b::10.0.0.1"},
	{"nat64 metadata", "64:ff9b::169.254.169.254"},
	{"nat64 local-use 64:ff9b:1::/48", "64:ff9b:1::a00:1"},
	{"6to4 of loopback", "2002:7f00:1::1"},
	{"6to4 of rfc1918", "2002:a00:1::1"},
	{"teredo 2001::/32", "2001:0:4136:e378:8000:63bf:3fff:fdd2"},
	{"ipv6 documentation", "2001:db8::1"},
	{"ipv6 discard-only 100::/64", "100::1"},
}

// public addresses must pass the policy (the check must not over-block).
var public = []struct{ name, addr string }{
	{"ipv4", "93.184.215.14"},
	{"ipv4 near cgnat", "100.128.0.1"},
	{"ipv4 near rfc1918", "172.32.0.1"},
	{"ipv6", "2606:4700::1"},
}

// errNoConnect stops a connect the policy allowed; the fetch then fails
// with ErrUnreachable, which is how a test sees "the policy let it through".
var errNoConnect = errors.New("test: connect suppressed")

// dialLog records the addresses the policy let through.
type dialLog struct {
	mu    sync.Mutex
	addrs []netip.Addr
}

func (l *dialLog) add(a netip.Addr) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.addrs = append(l.addrs, a)
}

func (l *dialLog) all() []netip.Addr {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]netip.Addr(nil), l.addrs...)
}

func (l *dialLog) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.addrs = nil
}

// ssrfFetcher is a fetcher whose DNS is fake and whose connects are
// recorded and suppressed, except to the addresses in reachable (the
// loopback test servers).
func ssrfFetcher(t *testing.T, dns *fakeDNS, allowPrivate bool, reachable ...string) (*Fetcher, *dialLog) {
	t.Helper()
	f := newTestFetcher(t, func(o *Options) {
		o.AllowPrivateNetworks = allowPrivate
		o.IgnoreRobots = true
		o.CacheTTL = -1
		o.resolver = dns.resolver()
	})
	ok := map[netip.AddrPort]bool{}
	for _, r := range reachable {
		ok[netip.MustParseAddrPort(r)] = true
	}
	// The test servers are loopback; under the default policy they are
	// exempt by exact address and port, and every other address is judged.
	f.allowDial = func(ap netip.AddrPort) bool { return ok[ap] }
	log := &dialLog{}
	f.onDial = func(ap netip.AddrPort) error {
		if ok[ap] {
			return nil
		}
		log.add(ap.Addr())
		return errNoConnect
	}
	return f, log
}

// hostOf writes addr as a URL host.
func hostOf(addr string) string {
	if strings.Contains(addr, ":") {
		return "[" + addr + "]"
	}
	return addr
}

// nameFor is a DNS name that the fake server resolves to addr.
func nameFor(i int) string { return fmt.Sprintf("h%d.ssrf.webgate.test", i) }

// wantDialed checks that the connects the policy allowed went to want and
// nowhere else. Go dials IPv4-mapped addresses as IPv4, hence Unmap, and
// dials the unspecified address "::" as [::] and then 0.0.0.0.
func wantDialed(t *testing.T, log *dialLog, want netip.Addr) {
	t.Helper()
	got := log.all()
	same := func(a netip.Addr) bool {
		return a.Unmap() == want.Unmap() || (a.IsUnspecified() && want.IsUnspecified())
	}
	if len(got) == 0 || !same(got[0]) || (len(got) > 1 && !(want.IsUnspecified() && len(got) == 2 && same(got[1]))) {
		t.Fatalf("connects allowed: %v, want exactly [%v]", got, want)
	}
}

func TestSSRFMatrix(t *testing.T) {
	dns := newFakeDNS(t)
	for i, r := range append(append([]struct{ name, addr string }{}, nonPublic...), public...) {
		dns.set(nameFor(i), netip.MustParseAddr(r.addr))
	}
	// The "site" a redirect comes from: a loopback server reached through a
	// name, exempt by its exact address; it redirects to ?to=URL.
	site, _ := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if to := r.URL.Query().Get("to"); to != "" {
			http.Redirect(w, r, to, http.StatusFound)
			return
		}
		_, _ = w.Write([]byte("site"))
	}))
	siteAddr := strings.TrimPrefix(site.URL, "http://")
	dns.set("site.webgate.test", netip.MustParseAddrPort(siteAddr).Addr())
	siteURL := "http://site.webgate.test:" + mustPort(t, site.URL) + "/"

	for _, allow := range []bool{false, true} {
		f, log := ssrfFetcher(t, dns, allow, siteAddr)
		// The site itself is reachable in both modes.
		if res, err := f.Fetch(context.Background(), Request{URL: siteURL}); err != nil || res.Content != "site" {
			t.Fatalf("allow=%v: the redirecting site is unreachable: %v", allow, err)
		}
		for i, r := range nonPublic {
			addr := netip.MustParseAddr(r.addr)
			targets := map[string]string{
				"literal":           "http://" + hostOf(r.addr) + "/latest/meta-data/",
				"dns name":          "http://" + nameFor(i) + "/latest/meta-data/",
				"redirect literal":  siteURL + "?to=" + url.QueryEscape("http://"+hostOf(r.addr)+"/x"),
				"redirect dns name": siteURL + "?to=" + url.QueryEscape("http://"+nameFor(i)+"/x"),
			}
			for how, u := range targets {
				t.Run(fmt.Sprintf("allow=%v/%s/%s", allow, r.name, how), func(t *testing.T) {
					log.reset()
					_, err := f.Fetch(context.Background(), Request{URL: u})
					if !allow {
						wantSentinel(t, err, ErrBlockedAddress)
						if got := log.all(); len(got) != 0 {
							t.Fatalf("blocked address reached the connect: %v", got)
						}
						if !strings.Contains(err.Error(), "allow_private_networks") {
							t.Errorf("error %q does not say how to allow it", err)
						}
						return
					}
					// Allowed: the policy lets the connect go to exactly
					// this address (and the hook stops it there).
					wantSentinel(t, err, ErrUnreachable)
					if !errors.Is(err, errNoConnect) && !strings.Contains(err.Error(), errNoConnect.Error()) {
						t.Fatalf("error %v did not come from the suppressed connect", err)
					}
					wantDialed(t, log, addr)
				})
			}
		}
		for j, r := range public {
			i := len(nonPublic) + j
			t.Run(fmt.Sprintf("allow=%v/public %s", allow, r.name), func(t *testing.T) {
				for _, u := range []string{"http://" + hostOf(r.addr) + "/", "http://" + nameFor(i) + "/"} {
					log.reset()
					_, err := f.Fetch(context.Background(), Request{URL: u})
					wantSentinel(t, err, ErrUnreachable)
					wantDialed(t, log, netip.MustParseAddr(r.addr))
				}
			})
		}
	}
}

// TestSSRFNumericForms covers the IPv4 spellings browsers and inet_aton
// accept and Go's parsers do not: each is read as the address it means and
// judged as such, before any DNS query.
func TestSSRFNumericForms(t *testing.T) {
	forms := []struct{ host, means string }{
		{"2130706433", "127.0.0.1"},
		{"017700000001", "127.0.0.1"},
		{"0x7f000001", "127.0.0.1"},
		{"0177.0.0.1", "127.0.0.1"},
		{"0x7f.1", "127.0.0.1"},
		{"127.1", "127.0.0.1"},
		{"0x7F.0x0.0x0.0x1", "127.0.0.1"},
		{"127.0.1", "127.0.0.1"},
		{"2852039166", "169.254.169.254"},
		{"0xa9fea9fe", "169.254.169.254"},
		{"0251.0376.0251.0376", "169.254.169.254"},
		{"169.254.43518", "169.254.169.254"},
		{"10.1", "10.0.0.1"},
		{"0xa.0.0.1", "10.0.0.1"},
		{"3232235521", "192.168.0.1"},
		{"0", "0.0.0.0"},
		{"0x0", "0.0.0.0"},
		{"4294967295", "255.255.255.255"},
	}
	dns := newFakeDNS(t) // answers nothing: a DNS query would be a bug
	for _, allow := range []bool{false, true} {
		f, log := ssrfFetcher(t, dns, allow)
		for _, fm := range forms {
			t.Run(fmt.Sprintf("allow=%v/%s", allow, fm.host), func(t *testing.T) {
				log.reset()
				_, err := f.Fetch(context.Background(), Request{URL: "http://" + fm.host + "/"})
				if !allow {
					wantSentinel(t, err, ErrBlockedAddress)
					if !strings.Contains(err.Error(), fm.means) {
						t.Errorf("error %q does not name %s", err, fm.means)
					}
					if len(log.all()) != 0 {
						t.Fatalf("connect attempted: %v", log.all())
					}
					return
				}
				wantSentinel(t, err, ErrUnreachable)
				wantDialed(t, log, netip.MustParseAddr(fm.means))
			})
		}
	}
}

// TestSSRFDNSRebinding resolves one name to a "public" server (the test's
// loopback stand-in, exempt by exact address) and then, on the next
// connection, to a private address: the second connection is refused,
// because the check runs on every connect, not once per URL.
func TestSSRFDNSRebinding(t *testing.T) {
	srv, _ := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("public"))
	}))
	srvAddr := netip.MustParseAddrPort(strings.TrimPrefix(srv.URL, "http://"))
	dns := newFakeDNS(t)
	var mu sync.Mutex
	queries := 0
	dns.setFunc("rebind.webgate.test", func(typ dnsmessage.Type) []netip.Addr {
		if typ != dnsmessage.TypeA {
			return nil
		}
		mu.Lock()
		defer mu.Unlock()
		queries++
		if queries == 1 {
			return []netip.Addr{srvAddr.Addr()}
		}
		return []netip.Addr{netip.MustParseAddr("10.0.0.1")}
	})
	f, log := ssrfFetcher(t, dns, false, srvAddr.String())
	u := "http://rebind.webgate.test:" + mustPort(t, srv.URL) + "/"
	if res, err := f.Fetch(context.Background(), Request{URL: u}); err != nil || res.Content != "public" {
		t.Fatalf("first fetch: %v", err)
	}
	f.Close() // drop the kept-alive connection so the next fetch dials again
	_, err := f.Fetch(context.Background(), Request{URL: u})
	wantSentinel(t, err, ErrBlockedAddress)
	if !strings.Contains(err.Error(), "10.0.0.1") {
		t.Errorf("error %q does not name the rebound address", err)
	}
	if len(log.all()) != 0 {
		t.Errorf("private address reached the connect: %v", log.all())
	}
}

// TestSSRFMixedAnswers gives a name a private and a public address: the
// private one is never connected to, the public one serves the page.
func TestSSRFMixedAnswers(t *testing.T) {
	srv, _ := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("public"))
	}))
	srvAddr := netip.MustParseAddrPort(strings.TrimPrefix(srv.URL, "http://"))
	dns := newFakeDNS(t)
	dns.set("mixed.webgate.test", netip.MustParseAddr("169.254.169.254"), srvAddr.Addr())
	f, log := ssrfFetcher(t, dns, false, srvAddr.String())
	res, err := f.Fetch(context.Background(), Request{URL: "http://mixed.webgate.test:" + mustPort(t, srv.URL) + "/"})
	if err != nil || res.Content != "public" {
		t.Fatalf("Fetch() = %v", err)
	}
	if len(log.all()) != 0 {
		t.Errorf("private address reached the connect: %v", log.all())
	}
}
