// Package console serves webgate's web console: one server-rendered page
// at / with four views (Status, Playground, Audit, Setup), a small script
// that fills them from the console's JSON API under /console/api/, and
// nothing else. Every byte is embedded in the binary; nothing is loaded
// from another origin, and a strict Content-Security-Policy forbids inline
// scripts and styles.
//
// The page and its assets hold no data, so they are served without a key;
// the JSON API is what the server puts behind its keys (on the console
// surface). A person signs in by pasting a gateway key into the page,
// which keeps it in the tab's sessionStorage and sends it as a bearer
// header with each fetch(): never in a URL and never in a cookie, so no
// other site can make the browser use it.
package console

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"html/template"
	"log/slog"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/webgate/webgate/internal/audit"
	"github.com/webgate/webgate/internal/fetch"
	"github.com/webgate/webgate/internal/httpapi"
	"github.com/webgate/webgate/internal/metrics"
	"github.com/webgate/webgate/internal/search"
	"github.com/webgate/webgate/internal/setup"
)

// Paths the console owns. The server mounts the handler at PagePath and
// under Prefix, and puts APIPrefix behind its keys.
const (
	PagePath  = "/"
	Prefix    = "/console/"
	APIPrefix = "/console/api/"
)

// AuditSource is where the Audit view reads records; *audit.Logger
// implements it.
type AuditSource interface {
	Recent(audit.Filter) []audit.Record
}

// Options configures the console. Searcher and Fetcher are required.
type Options struct {
	// Searcher and Fetcher run the playground's searches and fetches. They
	// are the service's (behind audit, policy and guard), so the
	// playground is audited and limited like any other surface, under the
	// console surface the server's authentication puts in the context.
	Searcher search.Searcher
	Fetcher  fetch.Getter
	// Digest renders a search response as the Markdown an agent reads
	// (mcpserver.SearchText), fetching the top results' pages when
	// includeContent is set, as web_search's include_content does; nil
	// shows a plain numbered list.
	Digest func(ctx context.Context, resp *search.Response, includeContent bool) string
	// Snapshot returns the in-process metrics for the Status view
	// ((*metrics.Recorder).Snapshot); nil shows empty charts.
	Snapshot func() metrics.Snapshot
	// Audit serves the Audit view; nil shows no records.
	Audit AuditSource
	// Operators are the key ids that see every key's audit records; other
	// keys see only their own. Anonymous callers (no keys configured) see
	// everything.
	Operators []string
	// Setup is the template for the Setup view's snippets: Binary,
	// ConfigFile, Home and Env as `webgate setup` would use them. Client,
	// HTTP, URL and TokenEnv are set per request.
	Setup setup.Options
	// TokenEnv names the environment variable the HTTP snippets read the
	// gateway key from when keys are required (default WEBGATE_TOKEN).
	TokenEnv string
	// MaxRawBytes caps the raw page the fetch playground returns beside
	// the extracted content (default 256 KiB).
	MaxRawBytes int
	// Version is shown in the page footer and the status view.
	Version string
	// Logger receives handler errors; nil discards.
	Logger *slog.Logger
}

// Console is the console's http.Handler.
type Console struct {
	opts    Options
	log     *slog.Logger
	mux     *http.ServeMux
	page    []byte
	pageGz  []byte
	assets  map[string]asset
	started time.Time
}

type asset struct {
	body, gz []byte
	ctype    string
	etag     string
}

//go:embed web
var webFS embed.FS

// CSP allows only this origin's scripts, styles, images and fetch
// calls; no inline code, no framing, no form posts elsewhere. Trusted
// Types are required and no policy may be made, so even a bug that passed
// web content to innerHTML would throw rather than inject markup (the
// script only ever writes text).
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
	"form-action 'self'; frame-ancestors 'none'; base-uri 'none'; require-trusted-types-for 'script'; trusted-types 'none'"

// New returns the console handler.
func New(opts Options) (*Console, error) {
	if opts.MaxRawBytes <= 0 {
		opts.MaxRawBytes = 256 << 10
	}
	if opts.TokenEnv == "" {
		opts.TokenEnv = "WEBGATE_TOKEN"
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	c := &Console{opts: opts, log: opts.Logger, assets: map[string]asset{}, started: time.Now()}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	if err := c.loadAssets(); err != nil {
		return nil, err
	}
	c.mux = http.NewServeMux()
	c.mux.HandleFunc("GET /{$}", c.servePage)
	c.mux.HandleFunc("GET /console/{$}", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, PagePath, http.StatusMovedPermanently)
	})
	c.mux.HandleFunc("GET /console/assets/{name}", c.serveAsset)
	c.mux.HandleFunc("GET /console/api/session", c.session)
	c.mux.HandleFunc("GET /console/api/status", c.status)
	c.mux.HandleFunc("GET /console/api/audit", c.audit)
	c.mux.HandleFunc("GET /console/api/setup", c.setup)
	c.mux.HandleFunc("POST /console/api/search", c.search)
	c.mux.HandleFunc("POST /console/api/fetch", c.fetch)
	c.mux.HandleFunc("/console/api/", func(w http.ResponseWriter, r *http.Request) {
		httpapi.WriteErrorBody(w, http.StatusNotFound, "not_found", "no such console endpoint: "+r.Method+" "+r.URL.Path, 0)
	})
	c.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		httpapi.WriteErrorBody(w, http.StatusNotFound, "not_found", "no such endpoint: "+r.URL.Path, 0)
	})
	return c, nil
}

func (c *Console) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", CSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	c.mux.ServeHTTP(w, r)
}

// pageData fills the page template. It must hold nothing secret: the page
// is served without a key.
type pageData struct {
	Version string
	// Assets maps an asset's name to its URL, which carries the content
	// hash so a new binary's assets are never mixed with cached old ones.
	Assets map[string]string
}

// loadAssets reads the embedded files, renders the page once and
// compresses everything once, so serving is a copy.
func (c *Console) loadAssets() error {
	data := pageData{Version: c.opts.Version, Assets: map[string]string{}}
	for _, name := range []string{"console.css", "console.js", "icon.svg"} {
		body, err := webFS.ReadFile("web/" + name)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(body)
		a := asset{body: body, gz: gz(body), ctype: contentType(name), etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
		c.assets[name] = a
		data.Assets[name] = Prefix + "assets/" + name + "?v=" + strings.Trim(a.etag, `"`)
	}
	tmpl, err := template.ParseFS(webFS, "web/index.html")
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := tmpl.Execute(&b, data); err != nil {
		return err
	}
	c.page, c.pageGz = b.Bytes(), gz(b.Bytes())
	return nil
}

func (c *Console) servePage(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-cache")
	writeAsset(w, r, "text/html; charset=utf-8", c.page, c.pageGz)
}

func (c *Console) serveAsset(w http.ResponseWriter, r *http.Request) {
	a, ok := c.assets[r.PathValue("name")]
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("ETag", a.etag)
	if r.URL.Query().Get("v") == strings.Trim(a.etag, `"`) {
		// The URL names this exact content: it never changes.
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		w.Header().Set("Cache-Control", "no-cache")
	}
	if match := r.Header.Get("If-None-Match"); match != "" && strings.Contains(match, a.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	writeAsset(w, r, a.ctype, a.body, a.gz)
}

// writeAsset sends body, or its gzip form when the client accepts it.
func writeAsset(w http.ResponseWriter, r *http.Request, ctype string, body, gzBody []byte) {
	h := w.Header()
	h.Set("Content-Type", ctype)
	h.Add("Vary", "Accept-Encoding")
	if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		h.Set("Content-Encoding", "gzip")
		body = gzBody
	}
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(body)
}

func gz(b []byte) []byte {
	var out bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&out, gzip.BestCompression)
	_, _ = zw.Write(b)
	_ = zw.Close()
	return out.Bytes()
}

func contentType(name string) string {
	switch path.Ext(name) {
	case ".css":
		return "text/css; charset=utf-8"
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	}
	return "application/octet-stream"
}
