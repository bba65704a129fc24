package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/temoto/robotstxt"

	"github.com/webgate/webgate/internal/cache"
)

// maxRobotsBytes bounds a robots.txt. Google reads the first 500 KiB, the
// least RFC 9309 lets a crawler parse (https://www.rfc-editor.org/rfc/rfc9309#section-2.5);
// rules past that are ignored, so a larger file is cut rather than rejected.
const maxRobotsBytes = 500 << 10

// robotsRedirects is how many redirects a robots.txt fetch follows (RFC 9309
// section 2.3.1.2 asks for at least five: https://www.rfc-editor.org/rfc/rfc9309#section-2.3.1.2).
const robotsRedirects = 5

// robotsChecker answers "may we fetch this URL" from each origin's
// robots.txt (the Robots Exclusion Protocol, RFC 9309: https://www.rfc-editor.org/rfc/rfc9309),
// fetched through the fetcher's own safe client and cached (for
// Options.RobotsCacheTTL, well inside the 24 hours of RFC 9309 section 2.4).
type robotsChecker struct {
	f     *Fetcher
	agent string // product token matched against User-agent lines
	cache *cache.Local[*robotstxt.RobotsData]

	mu       sync.Mutex
	inflight map[string]*robotsCall // one fetch per origin at a time
}

type robotsCall struct {
	done chan struct{}
	data *robotstxt.RobotsData
}

func newRobotsChecker(f *Fetcher) *robotsChecker {
	return &robotsChecker{
		f:        f,
		agent:    productToken(f.opts.UserAgent),
		cache:    cache.NewLocal[*robotstxt.RobotsData](1000),
		inflight: make(map[string]*robotsCall),
	}
}

// productToken is the name a robots.txt addresses us by: the first word of
// the user agent without its version ("webgate/0.1 (+...)" -> "webgate"),
// the product token RFC 9309 section 2.2.1 matches User-agent lines against
// (https://www.rfc-editor.org/rfc/rfc9309#section-2.2.1).
func productToken(ua string) string {
	tok, _, _ := strings.Cut(strings.TrimSpace(ua), " ")
	tok, _, _ = strings.Cut(tok, "/")
	if tok == "" {
		return "webgate"
	}
	return tok
}

// check returns an error wrapping ErrRobots if u is disallowed. Failure to
// read robots.txt is not an error: a missing file (4xx) allows everything
// by the standard (RFC 9309 section 2.3.1.3, https://www.rfc-editor.org/rfc/rfc9309#section-2.3.1.3),
// and an unreachable or failing one (5xx) is treated as allow too. RFC 9309
// section 2.3.1.4 (https://www.rfc-editor.org/rfc/rfc9309#section-2.3.1.4)
// suggests "disallow" for 5xx, but that is meant for
// crawlers sweeping a site; webgate fetches one page a person or agent asked
// for, and the page fetch itself will meet the same outage and say so.
func (r *robotsChecker) check(ctx context.Context, u *url.URL) error {
	if u.Path == "/robots.txt" {
		return nil
	}
	data, err := r.get(ctx, u)
	if err != nil {
		return err
	}
	path := u.EscapedPath()
	if u.RawQuery != "" {
		path += "?" + u.RawQuery
	}
	if !data.TestAgent(path, r.agent) {
		return fmt.Errorf("%s: %w (user agent %q)", redactedURL(u), ErrRobots, r.agent)
	}
	return nil
}

func (r *robotsChecker) get(ctx context.Context, u *url.URL) (*robotstxt.RobotsData, error) {
	origin := u.Scheme + "://" + u.Host
	if d, ok := r.cache.Get(ctx, origin); ok {
		return d, nil
	}
	r.mu.Lock()
	if c, ok := r.inflight[origin]; ok {
		r.mu.Unlock()
		select {
		case <-c.done:
			return c.data, nil
		case <-ctx.Done():
			return nil, ctxError(ctx, "robots.txt")
		}
	}
	c := &robotsCall{done: make(chan struct{})}
	r.inflight[origin] = c
	r.mu.Unlock()

	data, cacheable, err := r.fetch(ctx, origin)
	if err == nil {
		c.data = data
		if cacheable {
			r.cache.Set(ctx, origin, data, r.f.opts.RobotsCacheTTL)
		}
	} else {
		// Waiters must not see a nil; they get "allow" and their own fetch
		// reports the real problem.
		c.data = allowAllRobots
	}
	r.mu.Lock()
	delete(r.inflight, origin)
	r.mu.Unlock()
	close(c.done)
	return data, err
}

var allowAllRobots, _ = robotstxt.FromStatusAndBytes(http.StatusNotFound, nil)

// fetch reads origin's robots.txt. Only our own deadline is an error;
// everything else resolves to a policy. cacheable is false for transient
// failures so the next fetch asks again.
func (r *robotsChecker) fetch(ctx context.Context, origin string) (_ *robotstxt.RobotsData, cacheable bool, _ error) {
	log := r.f.opts.Logger
	u, err := url.Parse(origin + "/robots.txt")
	if err != nil {
		return allowAllRobots, true, nil
	}
	// A slow robots.txt must not eat the page's whole deadline: it gets a
	// third of it (at most 10s), and running out counts as unreachable.
	rctx, cancel := context.WithTimeout(ctx, min(10*time.Second, r.f.opts.Timeout/3))
	defer cancel()
	resp, final, release, err := r.f.get(rctx, u, "text/plain, */*;q=0.1", robotsRedirects, false)
	if err != nil {
		if ctx.Err() != nil {
			return nil, false, ctxError(ctx, "robots.txt")
		}
		var se *StatusError
		if errors.As(err, &se) && se.Code >= 400 && se.Code < 500 {
			return allowAllRobots, true, nil
		}
		log.DebugContext(ctx, "robots.txt unavailable, allowing", "origin", origin, "err", err)
		return allowAllRobots, false, nil
	}
	defer release()
	defer resp.Body.Close()
	body, err := readBody(resp.Body, contentEncoding(resp.Header), maxRobotsBytes, r.f.opts.MaxCompressionRatio, resp.ContentLength)
	if err != nil {
		var be *bodyError
		if errors.As(err, &be) && errors.Is(be.kind, ErrTooLarge) {
			log.DebugContext(ctx, "robots.txt too large, allowing", "url", final.String())
			return allowAllRobots, true, nil
		}
		if ctx.Err() != nil {
			return nil, false, ctxError(ctx, "robots.txt")
		}
		return allowAllRobots, false, nil
	}
	data, err := robotstxt.FromBytes(body)
	if err != nil {
		log.DebugContext(ctx, "robots.txt unparsable, allowing", "url", final.String(), "err", err)
		return allowAllRobots, true, nil
	}
	return data, true, nil
}
