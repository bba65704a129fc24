package extract

import (
	"context"
	"testing"
)

// TestForumChrome: on a forum page the member panel beside each post, the
// signature under it and its action bar are dropped; the post, its author and its date
// stay, and so does Stack Exchange's "post-signature" author card. Other
// pages keep blocks of those names.
func TestForumChrome(t *testing.T) {
	post := func(user, text string) string {
		return `<article class="message"><div class="message-userDetails"><h4>` + user + `</h4></div>
<dl class="pairs pairs--justified message-userExtras"><dt>Joined</dt><dd>Oct 5, 2011</dd><dt>Messages</dt><dd>6,217</dd></dl>
<div class="postprofile">Rank: Negotiator. Posts: 6217. Location: Civil Rights Lovefest</div>
<div class="message-content"><p>` + text + `</p></div>
<div class="post-signature">answered Jul 7, 2012 by ` + user + `</div>
<div class="signature">Pillars of modern warfare have no place in Valentia.</div>
<div class="message-actionBar"><a href="#">Report</a> <a href="#">Like</a> <a href="#">Quote</a> <a href="#">Reply</a></div></article>`
	}
	page := `<html><body><main><h1>Which case fits a tall cooler</h1>` +
		post("Rabbids", "The manual says nothing about the two ports on the back of the case, does anyone know what they are for?") +
		post("Minoa", "The rear one is for an external connection to the lighting hub, the bottom one powers the fans directly.") +
		`</main></body></html>`
	for _, tc := range []struct {
		url  string
		keep []string
		drop []string
	}{
		{"https://forum.example.org/threads/tall-cooler.42/",
			[]string{"two ports", "lighting hub", "Rabbids", "Minoa", "answered Jul 7"},
			[]string{"Joined", "Posts: 6217", "Valentia", "Report"}},
		{"https://shop.example.com/blog/tall-cooler",
			[]string{"two ports", "lighting hub", "Posts: 6217", "Valentia"}, nil},
	} {
		t.Run(tc.url, func(t *testing.T) {
			doc, err := Extract(context.Background(), []byte(page), Options{URL: tc.url, Format: Text})
			if err != nil {
				t.Fatal(err)
			}
			checkKeepDrop(t, doc.Content, tc.keep, tc.drop)
		})
	}
}
