package extract

import (
	"context"
	"strings"
	"testing"
)

// TestOverlayAtAnySize: a consent manager, a modal dialog and the site
// footer (a <footer>, or an element named as one before HTML5) are
// dropped from the cleaned page even when they hold more words than the
// page's content; a footer or dialog that holds the <h1> or the
// <main> is kept, and so is an article's own footer.
func TestOverlayAtAnySize(t *testing.T) {
	long := func(s string) string { return strings.Repeat(s+" ", 60) }
	thread := `<h1>Which case fits a tall cooler</h1><p>The manual says nothing about the two ports on the back of the case.</p>`
	for _, tc := range []struct {
		name, body string
		keep, drop []string
	}{
		{"consent manager", `<main>` + thread + `</main><div id="onetrust-consent-sdk"><div class="ot-pc"><h2>Privacy Preference Center</h2><p>` + long("Targeting cookies are set by our advertising partners.") + `</p></div></div>`,
			[]string{"two ports"}, []string{"Privacy Preference", "Targeting cookies"}},
		{"modal dialog", `<div>` + thread + `</div><div role="dialog" aria-label="Newsletter"><p>` + long("Sign up for weekly deals and exclusive offers.") + `</p></div>`,
			[]string{"two ports"}, []string{"weekly deals"}},
		{"aria-modal", `<div>` + thread + `</div><div class="region-picker" aria-modal="true"><p>` + long("Choose your country or region to see local prices.") + `</p></div>`,
			[]string{"two ports"}, []string{"local prices"}},
		{"site footer", `<div>` + thread + `</div><footer><p>` + long("Financing is subject to credit approval and the terms of the card issuer.") + `</p></footer>`,
			[]string{"two ports"}, []string{"credit approval"}},
		{"site footer named before HTML5", `<div>` + thread + `</div><div id="footer" class="clearfix"><p>` + long("Financing is subject to credit approval and the terms of the card issuer.") + `</p></div>`,
			[]string{"two ports"}, []string{"credit approval"}},
		{"named footer holding the page", `<div class="site-footer"><h1>Unclosed footer swallows the page</h1><p>` + long("Every word of the story sits in here.") + `</p></div>`,
			[]string{"Unclosed footer", "story sits"}, nil},
		{"footer holding the page", `<footer><h1>Unclosed footer swallows the page</h1><p>` + long("Every word of the story sits in here.") + `</p></footer>`,
			[]string{"Unclosed footer", "story sits"}, nil},
		{"dialog holding main", `<div role="dialog"><main>` + thread + `<p>` + long("A lightbox app renders its page in a dialog.") + `</p></main></div>`,
			[]string{"two ports", "lightbox app"}, nil},
		{"article footer", `<article>` + thread + `<footer><p>` + long("Filed under hardware, cases and cooling by the editors.") + `</p></footer></article>`,
			[]string{"two ports", "Filed under"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := renderText(cleanedPage(parsePage(t, `<html><body>`+tc.body+`</body></html>`)))
			checkKeepDrop(t, got, tc.keep, tc.drop)
		})
	}
}

// TestCleanedPageConsentByWords: a consent notice that neither a consent
// manager's name nor a dialog marks (a site's own banner, or one whose
// names are hashed) is told by its words (consentShaped) and dropped
// from the cleaned page, in any language the vocabulary knows; a
// privacy policy, which is all such words, stays (dropConsent).
func TestCleanedPageConsentByWords(t *testing.T) {
	product := `<div class="x1b2c"><h1>Trail Runner Alpha</h1><p>A cushioned shoe for long mountain runs, with a grippy outsole, a roomy toe box and a rock plate under the forefoot.</p>` +
		`<p>It weighs 280 grams, has an eight millimetre drop and comes in four colours and half sizes from six to thirteen.</p>` +
		`<p>Free returns within sixty days, and a one year warranty against defects in the materials or the stitching.</p></div>`
	notice := `<div class="x7f3a"><p>We and our 600 third-party partners use cookies and other technologies to store and access information on your device, personalise advertising and analyse our traffic.</p>` +
		`<p>With your consent, our partners process personal data such as unique identifiers; some rely on legitimate interest. You can accept all or manage your privacy settings at any time.</p></div>`
	noticeRU := `<div class="x7f3a"><p>Мы и наши партнёры используем файлы cookie, чтобы хранить информацию на вашем устройстве, персонализировать рекламу и анализировать трафик.</p>` +
		`<p>С вашего согласия партнёры обрабатывают персональные данные; вы можете принять все или изменить настройки в политике конфиденциальности.</p></div>`
	policy := `<main><h1>Cookie policy</h1>` + strings.Repeat(`<p>We and our partners use cookies to store and access information on your device. With your consent, partners process personal data for personalised advertising; you can change your privacy settings at any time.</p>`, 4) + `</main>`
	for _, tc := range []struct {
		name, body string
		keep, drop []string
	}{
		{"unnamed notice", product + notice, []string{"rock plate", "one year warranty"}, []string{"600 third-party partners", "legitimate interest"}},
		{"unnamed notice in Russian", product + noticeRU, []string{"rock plate", "one year warranty"}, []string{"Мы и наши партнёры", "политике конфиденциальности"}},
		{"privacy policy", policy, []string{"Cookie policy", "We and our partners use cookies"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := renderText(cleanedPage(parsePage(t, `<html><body>`+tc.body+`</body></html>`)))
			checkKeepDrop(t, got, tc.keep, tc.drop)
		})
	}
}

// TestScreenReaderOnly: text kept for screen readers only (under any
// framework's name for it: hidden.ScreenReaderClass), and text hidden by
// Bootstrap's d-none, is not on the cleaned page; a class that
// merely contains "text" stays, and so does d-none with a breakpoint class
// that shows the element again.
func TestScreenReaderOnly(t *testing.T) {
	page := `<html><body><main><h1>Trail Runner Alpha</h1>
<p>A cushioned shoe for long mountain runs <span class="screen-reader-text">opens in a new window</span></p>
<p class="price"><span class="visuallyhidden">Regular price</span> $120</p>
<p class="body-text">Grippy outsole and a roomy toe box.</p>
<h2 class="element-invisible">Main menu</h2><h2 class="accesshide">Topic outline</h2><p><span class="show-for-sr">Rated</span> 4.5 of 5</p>
<p><span class="d-none">2016-08-05 06:59:35Z</span> Weight 280 g</p>
<p class="d-none d-md-block">Shown from tablets up: free returns.</p></main></body></html>`
	got := renderText(cleanedPage(parsePage(t, page)))
	for _, w := range []string{"opens in a new window", "Regular price", "06:59:35Z", "Main menu", "Topic outline", "Rated"} {
		if strings.Contains(got, w) {
			t.Errorf("kept %q:\n%s", w, got)
		}
	}
	for _, w := range []string{"mountain runs", "$120", "roomy toe box", "4.5 of 5", "Weight 280 g", "free returns"} {
		if !strings.Contains(got, w) {
			t.Errorf("lost %q:\n%s", w, got)
		}
	}
}

// TestConsentForEveryExtractor: on a page that is no article, a consent
// manager, a navigation menu and a site footer, each longer than the
// thread, are gone from the output whichever extractor wins.
func TestConsentForEveryExtractor(t *testing.T) {
	purposes := strings.Repeat(`<p>These cookies may be set through our site by our advertising partners to build a profile of your interests and show you relevant adverts on other sites.</p>`, 12)
	menu := `<nav><ul>` + strings.Repeat(`<li><a href="/x">Mock servers</a> Validate how your interface behaves before you build it, with examples.</li>`, 12) + `</ul></nav>`
	page := `<html><body>` + menu + `<div class="thread"><p class="post">No YouTube stream link this time. The recording goes up on their channel an hour from now.</p>
<p class="post">I am ready for it, and I hope they show the new racing game at last.</p></div>
<div id="onetrust-consent-sdk"><div class="ot-pc-content"><h2>Privacy Preference Center</h2>` + purposes + `</div></div>
<footer><div class="legal">` + strings.Repeat(`<p>Financing is subject to credit approval by the card issuer; offers end when stocks run out and exclude gift cards.</p>`, 12) + `</div></footer></body></html>`
	doc, err := Extract(context.Background(), []byte(page), Options{URL: "https://games.example.com/boards/189706/80702016", Format: Text})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"advertising partners", "credit approval", "Mock servers"} {
		if strings.Contains(doc.Content, w) {
			t.Errorf("kept %q:\n%s", w, doc.Content)
		}
	}
	if !strings.Contains(doc.Content, "stream link") {
		t.Errorf("lost the thread:\n%s", doc.Content)
	}
}

// TestDialogs: the dialogs readability takes in after the text go from
// a picked reading; a story opened in a lightbox, and dialogs that hold a
// quarter of the text, stay.
func TestDialogs(t *testing.T) {
	story := "<p>" + strings.Repeat("Our advisors are always happy to talk savings strategies with you at any age. ", 6) + "</p>"
	checkRule(t, dropDialogs, []ruleCase{
		{"an exit notice and a form popup", story + `<div id="modal_21" class="reveal"><h3>You are leaving our website</h3><p>By proceeding you leave our site.</p></div>` +
			`<div role="dialog"><p>Talk to an expert</p></div><div class="newsletter-popup"><p>Enter your email for early access.</p></div>`,
			[]string{"leaving our website", "Talk to an expert", "early access"}, []string{"Our advisors"}},
		{"a story in a lightbox", `<div class="modal"><article><h1>Story</h1>` + story + `</article></div><div class="modal">Close</div>`,
			[]string{"Close"}, []string{"Our advisors", "Story"}},
		{"dialogs holding a quarter of the text", `<p>Short intro.</p><div class="modal"><p>` + strings.Repeat("Quick view of the product with its price. ", 3) + `</p></div>`,
			nil, []string{"Quick view"}},
	})
}
