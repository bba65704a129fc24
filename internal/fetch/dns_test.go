package fetch

import (
	"context"
	"net"
	"net/netip"
	"strings"
	"sync"
	"testing"

	"golang.org/x/net/dns/dnsmessage"
)

// fakeDNS is a loopback DNS server for tests: names resolve to whatever a
// test says, so the dialer's real resolution path (net.Dialer with a Go
// resolver) can be driven to any address without the internet.
type fakeDNS struct {
	conn net.PacketConn

	mu      sync.Mutex
	answers map[string]func(dnsmessage.Type) []netip.Addr // by FQDN, lower case
}

func newFakeDNS(t testing.TB) *fakeDNS {
	t.Helper()
	conn, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	d := &fakeDNS{conn: conn, answers: map[string]func(dnsmessage.Type) []netip.Addr{}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		d.serve()
	}()
	t.Cleanup(func() {
		_ = conn.Close()
		<-done
	})
	return d
}

// set makes name resolve to addrs (A records for IPv4, AAAA for IPv6,
// including IPv4-mapped forms).
func (d *fakeDNS) set(name string, addrs ...netip.Addr) {
	d.setFunc(name, func(dnsmessage.Type) []netip.Addr { return addrs })
}

// setFunc answers name from fn on each query, for names whose answer
// changes (DNS rebinding).
func (d *fakeDNS) setFunc(name string, fn func(dnsmessage.Type) []netip.Addr) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.answers[strings.ToLower(strings.TrimSuffix(name, "."))+"."] = fn
}

// resolver is a Go resolver that sends every query to this server,
// whatever /etc/resolv.conf says.
func (d *fakeDNS) resolver() *net.Resolver {
	addr := d.conn.LocalAddr().String()
	return &net.Resolver{
		PreferGo: true,
		Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var nd net.Dialer
			return nd.DialContext(ctx, "udp", addr)
		},
	}
}

func (d *fakeDNS) serve() {
	buf := make([]byte, 1500)
	for {
		n, from, err := d.conn.ReadFrom(buf)
		if err != nil {
			return
		}
		if resp := d.answer(buf[:n]); resp != nil {
			_, _ = d.conn.WriteTo(resp, from)
		}
	}
}

func (d *fakeDNS) answer(query []byte) []byte {
	var p dnsmessage.Parser
	h, err := p.Start(query)
	if err != nil {
		return nil
	}
	q, err := p.Question()
	if err != nil {
		return nil
	}
	d.mu.Lock()
	fn := d.answers[strings.ToLower(q.Name.String())]
	d.mu.Unlock()

	rh := dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true, RecursionDesired: h.RecursionDesired, RecursionAvailable: true}
	if fn == nil {
		rh.RCode = dnsmessage.RCodeNameError
	}
	b := dnsmessage.NewBuilder(nil, rh)
	b.EnableCompression()
	if b.StartQuestions() != nil || b.Question(q) != nil || b.StartAnswers() != nil {
		return nil
	}
	if fn != nil {
		rr := dnsmessage.ResourceHeader{Name: q.Name, Class: dnsmessage.ClassINET, TTL: 0}
		for _, a := range fn(q.Type) {
			switch {
			case q.Type == dnsmessage.TypeA && a.Is4():
				if b.AResource(rr, dnsmessage.AResource{A: a.As4()}) != nil {
					return nil
				}
			case q.Type == dnsmessage.TypeAAAA && a.Is6():
				if b.AAAAResource(rr, dnsmessage.AAAAResource{AAAA: a.As16()}) != nil {
					return nil
				}
			}
		}
	}
	msg, err := b.Finish()
	if err != nil {
		return nil
	}
	return msg
}

// TestFakeDNS checks the helper itself, so the SSRF tests built on it can
// be trusted.
func TestFakeDNS(t *testing.T) {
	d := newFakeDNS(t)
	d.set("both.webgate.test", netip.MustParseAddr("10.1.2.3"), netip.MustParseAddr("fd00::5"))
	got, err := d.resolver().LookupNetIP(context.Background(), "ip", "both.webgate.test")
	if err != nil {
		t.Fatal(err)
	}
	var s []string
	for _, a := range got {
		s = append(s, a.String())
	}
	if strings.Join(s, " ") != "10.1.2.3 fd00::5" && strings.Join(s, " ") != "fd00::5 10.1.2.3" {
		t.Errorf("resolved %v", s)
	}
	if _, err := d.resolver().LookupNetIP(context.Background(), "ip", "nowhere.webgate.test"); err == nil {
		t.Error("unknown name resolved")
	}
}
