package server

import (
	"net/http"
	"strings"
)

// Browsers say who asked for a request. Fetch Metadata's Sec-Fetch-Site
// (https://www.w3.org/TR/fetch-metadata/#sec-fetch-site-header) tells
// whether the page that caused it is of the same origin ("same-origin"),
// another origin of the same site ("same-site"), another site
// ("cross-site"), or no page at all ("none": typed into the address bar,
// a bookmark). Every browser sends it on every request to a potentially
// trustworthy URL, which http://127.0.0.1 and http://localhost are.
// Origin is sent on cross-origin requests in CORS mode and on POSTs, but
// not on a no-cors GET: an <img src>, <script src> or fetch(url,
// {mode: "no-cors"}) to http://127.0.0.1:8788/v1/search?q=... carries
// Sec-Fetch-Site: cross-site and no Origin. The page cannot read the
// answer, but the search runs, and on a loopback server without keys
// (the default) any web page could spend the user's provider quota and
// rate limits that way.

// crossSiteNoOrigin reports a request a browser sent on behalf of a page
// of another origin without saying which: Sec-Fetch-Site is cross-site or
// same-site and there is no Origin to check against the allowed ones.
func crossSiteNoOrigin(r *http.Request) bool {
	if r.Header.Get("Origin") != "" {
		return false
	}
	switch strings.ToLower(r.Header.Get("Sec-Fetch-Site")) {
	case "cross-site", "same-site":
		return true
	}
	return false
}

// workSurface reports the paths whose requests do work on the caller's
// behalf (search, fetch, model turns, the console's API), and so must not
// be triggered by foreign pages. The console page and its assets, the
// probes and /openapi.json stay reachable by a link from anywhere.
func workSurface(path string) bool {
	switch {
	case path == "/mcp" || strings.HasPrefix(path, "/mcp/"):
		return true
	case strings.HasPrefix(path, "/console/api/"):
		return true
	case path == "/openapi.json":
		return false
	}
	return strings.HasPrefix(path, "/v1/")
}
