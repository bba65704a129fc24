package render

import (
	"os"
	"slices"
	"strconv"

	"github.com/chromedp/chromedp"
)

// allocatorFlags is Chromium's command line. Every flag is here for a
// reason given beside it; chromedp's defaults are not used, so nothing
// is on by accident.
func allocatorFlags(o Options, sinkAddr, dataDir string) []chromedp.ExecAllocatorOption {
	flags := []chromedp.ExecAllocatorOption{
		// A fresh profile per browser process, removed when it stops.
		chromedp.UserDataDir(dataDir),
		chromedp.Flag("headless", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("mute-audio", true),
		// A desktop-sized viewport, so pages lay out their full content.
		chromedp.WindowSize(1280, 1600),

		// The network. The default context (used by no page) goes to a
		// proxy that refuses everything; each page's context gets its own
		// proxy (see pageProxy). "<-loopback>" removes Chromium's implicit
		// rule that sends localhost and 127/8 around the proxy, which would
		// let a page reach local services directly.
		chromedp.Flag("proxy-server", "http://"+sinkAddr),
		chromedp.Flag("proxy-bypass-list", "<-loopback>"),
		// No name is resolved by the browser: with a proxy it never needs
		// to, and this closes DNS prefetching and preconnects as a side
		// channel. The proxy address is an IP literal.
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"),
		// QUIC is UDP and never goes through an HTTP proxy.
		chromedp.Flag("disable-quic", true),
		// WebRTC may use only connections through the proxy: no UDP of its
		// own (STUN, host candidates), which would bypass it.
		chromedp.Flag("force-webrtc-ip-handling-policy", "disable_non_proxied_udp"),
		chromedp.Flag("webrtc-ip-handling-policy", "disable_non_proxied_udp"),
		// No hyperlink-auditing pings.
		chromedp.Flag("no-pings", true),

		// Nothing of the browser's own: no background requests, updates,
		// sync, crash reports, field trials, translation, safe-browsing
		// downloads or DNS-over-HTTPS probes. The sink would refuse them
		// anyway; turning them off keeps the browser quiet and small.
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("no-default-browser-check", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-breakpad", true),
		chromedp.Flag("disable-crash-reporter", true),
		chromedp.Flag("disable-domain-reliability", true),
		chromedp.Flag("disable-client-side-phishing-detection", true),
		chromedp.Flag("safebrowsing-disable-auto-update", true),
		chromedp.Flag("metrics-recording-only", true),
		chromedp.Flag("disable-features", "Translate,MediaRouter,OptimizationHints,DnsOverHttps,AutofillServerCommunication,CertificateTransparencyComponentUpdater,InterestFeedContentSuggestions,PrivacySandboxSettings4"),
		chromedp.Flag("password-store", "basic"),
		chromedp.Flag("use-mock-keychain", true),

		// No prompts: permission requests (camera, location,
		// notifications...) are denied, not left pending.
		chromedp.Flag("deny-permission-prompts", true),
		chromedp.Flag("disable-notifications", true),
		chromedp.Flag("autoplay-policy", "user-gesture-required"),

		// Memory. Containers often have a 64 MB /dev/shm, which Chromium
		// fills and crashes on; one renderer per tab (plus one spare) at
		// most; each renderer's JavaScript heap capped.
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("renderer-process-limit", strconv.Itoa(o.MaxTabs+1)),
		chromedp.Flag("js-flags", "--max-old-space-size=256"),
		// Keep timers and rendering running in tabs the browser considers
		// in the background: every tab here is.
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-hang-monitor", true),
	}
	if slices.Contains(o.Block, "image") {
		// Images are refused at the request anyway; this also skips their
		// layout work.
		flags = append(flags, chromedp.Flag("blink-settings", "imagesEnabled=false"))
	}
	// Chromium refuses to start as root with its sandbox.
	flags = append(flags, chromedp.Flag("no-sandbox", o.NoSandbox || os.Geteuid() == 0))
	return flags
}
