package extract

import (
	"strings"

	"golang.org/x/net/html"
)

// A forum post's content is its author, its date and what it says. Forum
// software renders around each post what describes the member rather than
// the post: the profile panel (rank, post count, join date, location,
// reaction score) and the signature under every post, repeated on each
// post of the same member. Their containers are named after what they
// hold in phpBB, vBulletin, XenForo, Invision and their themes.

// forumChromeWords are class/id words of those parts.
var forumChromeWords = wordSet(`signature signaturecontainer sig postprofile userextras extras userstats userinfo`)

// forumControlPairs are two-word class names of the controls under each
// post (report, like, quote, reply, share) and of the "Click to expand"
// link of a long quote, as the same software names them
// ("message-actionBar", "postcontrols", "post-buttons", "bbCodeBlock-expandLink").
var forumControlPairs = wordSet(`actionbar postcontrols postbuttons postactions postmenu expandlink reactionsbar`)

// pruneForumChrome removes member panels and signatures from a forum page.
func pruneForumChrome(root *html.Node) {
	removeElements(root, isForumChrome)
}

func isForumChrome(n *html.Node) bool {
	for _, name := range append(strings.Fields(attr(n, "class")), attr(n, "id")) {
		ws := nameWords(name)
		for i, w := range ws {
			if forumChromeWords[w] && !(w == "signature" && i > 0 && ws[i-1] == "post") {
				return true
			}
			if i > 0 && forumControlPairs[ws[i-1]+w] {
				return true
			}
		}
	}
	return false
}
