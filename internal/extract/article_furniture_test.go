package extract

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// TestLeadingDateline: an undeclared page's one date stamp above its
// first paragraph goes; a listing's per-item dates and a date inside the
// story stay.
func TestLeadingDateline(t *testing.T) {
	story := "<p>" + strings.Repeat("The old mill on the main street will be restored from next month. ", 3) + "</p>"
	checkRule(t, dropLabelLines, []ruleCase{
		{"stamp above the story", `<p class="datum">Eingestellt am 14.05.2008 von Hans Müller</p>` + story + story,
			[]string{"Eingestellt"}, []string{"The old mill"}},
		{"a spelled stamp naming the author", `<p class="datum">geschrieben am 12. September 2011 von Peter</p>` + story + story,
			[]string{"geschrieben"}, []string{"The old mill"}},
		{"an info box's term whose descriptions went", `<dl class="article-info"><dt>Details</dt><dd>Kategorie: <a href="/k">Aktuelles</a></dd><dd>Zugriffe: 1873</dd></dl>` + story + story +
			`<dl><dt>Kläranlage</dt><dd>Die Anlage, die das Abwasser der Gemeinde reinigt.</dd></dl>`,
			[]string{"Details", "Zugriffe"}, []string{"The old mill", "Kläranlage", "Abwasser"}},
		{"a listing's dates", `<p>Posted 12 May 2025</p>` + story + `<p>Posted 11 May 2025</p>` + story,
			nil, []string{"Posted 12 May", "Posted 11 May"}},
		{"a date after the story began", story + `<p>Updated 14 May 2025</p>` + story,
			nil, []string{"Updated 14 May"}},
	})
}

// TestLabelOpeners: a label line still reads as one when it opens with a
// bracket, a bullet or an arrow; a sentence in brackets does not.
func TestLabelOpeners(t *testing.T) {
	for _, tc := range []struct {
		html string
		want bool
	}{
		{`<p>(Foto: dpa)</p>`, true},
		{`<p>[Bild: Verkehrsverbund Harz]</p>`, true},
		{`<p>► Follow us on <a href="/i">Instagram</a></p>`, true},
		{`<p>» Tags: <a href="/t/1">Bahn</a>, <a href="/t/2">Verkehr</a></p>`, true},
		{`<p>(The photographer, who asked not to be named, took the picture from the bridge.)</p>`, false},
		{`<p>READ MORE ↓</p>`, true}, // a toggle's caption, its arrow trimmed
		{`<p>See less</p>`, true},
	} {
		t.Run(tc.html, func(t *testing.T) {
			b := findFirst(parseFragment(t, tc.html), func(n *html.Node) bool { return isElem(n, atom.P) })
			if got := isLabelLine(b); got != tc.want {
				t.Errorf("isLabelLine = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestFlankedCards: on a page that declares no article, a card teasing
// another story between the story's paragraphs goes, while a list of
// cards (a listing's content as often as a column of teasers) stays.
func TestFlankedCards(t *testing.T) {
	para := `<p>The council approved the new budget after a long debate on Tuesday night, the mayor said.</p>`
	card := func(s string) string {
		return `<div><h3><a href="/` + s + `">` + s + ` opens</a></h3><p>A summary of another story on the site.</p></div>`
	}
	root := parseFragment(t, `<div><div>`+para+card("Station")+para+`</div></div><section><article>`+para+`</article>`+card("Pool")+card("Library")+`</section>`)
	dropFlankedCards(root)
	checkGoneKept(t, collapseSpace(textOf(root)), []string{"Station opens"}, []string{"Pool opens", "Library opens", "The council approved"})

	// A kicker over the headline, which readability wraps in a <p>.
	root = parseFragment(t, `<div>`+para+`<div class="teaser"><p><a href="/bus"><img src="/t.jpg" alt=""></a></p><div><p><span>Transport</span></p>`+
		`<h3><a href="/bus">New bus lines in December</a></h3><p>Several routes change with the new timetable.</p></div></div>`+para+`</div>`)
	dropFlankedCards(root)
	checkGoneKept(t, collapseSpace(textOf(root)), []string{"Transport", "New bus lines"}, []string{"The council approved"})
}

// TestTokenedLabelWords: every rule that reads a label line's tokens
// judges lines no longer than the ones isLabelLine tokenizes.
func TestTokenedLabelWords(t *testing.T) {
	for name, n := range map[string]int{"ad label": maxAdLabelWords, "follow prompt": maxFollowWords, "newsletter prompt": maxSignupWords} {
		if n > maxTokenedLabelWords {
			t.Errorf("%s lines run to %d words, tokens only to %d", name, n, maxTokenedLabelWords)
		}
	}
}

// TestTrailingRelated: the label of a related rail that ends a page's
// text goes (its cards went as chrome); a last sentence, a label with
// text after it and a page that is only the label stay.
func TestTrailingRelated(t *testing.T) {
	story := "<p>" + strings.Repeat("The ferry will run six times a day from July, the operator said. ", 3) + "</p>"
	checkRule(t, dropTrailingRelated, []ruleCase{
		{"a rail's label", story + `<h3 class="rail-title">You may also like</h3>`, []string{"You may also like"}, []string{"The ferry"}},
		{"a label and a link under it", story + `<div>More from Top Gear</div><p><a href="/electric">See more on Electric</a></p>`,
			[]string{"More from Top Gear", "See more"}, []string{"The ferry"}},
		{"a label with a colon", story + `<p><strong>Recommended:</strong></p>`, []string{"Recommended"}, []string{"The ferry"}},
		{"the story's last sentence", story + `<p>Read more about the new timetable.</p>`, nil, []string{"Read more about"}},
		{"a sentence with a link in it", story + `<p>Read more about the <a href="/timetable">timetable</a> here</p>`, nil, []string{"Read more about"}},
		{"a label over a paragraph", story + `<h3>Related reading</h3>` + story, nil, []string{"Related reading"}},
		{"a line too long for a label", story + `<p>Related stories from our archive about ferries and harbours in the north</p>`, nil, []string{"Related stories"}},
		{"only the label", `<h2>Most popular</h2>`, nil, []string{"Most popular"}},
	})
}

// TestOrphanContents checks that the title of a table of contents goes
// when its entries are gone, and stays over them.
func TestOrphanContents(t *testing.T) {
	story := "<p>" + strings.Repeat("The ferry will run six times a day from July, the operator said. ", 3) + "</p>"
	checkRule(t, dropLabelLines, []ruleCase{
		{"a title over the first section", `<h2>Table of Contents</h2><h2 id="timetable">The timetable</h2>` + story,
			[]string{"Table of Contents"}, []string{"The timetable", "The ferry"}},
		{"a title with its toggle", `<div class="toc-title">Contents [hide]</div>` + story, []string{"Contents"}, []string{"The ferry"}},
		{"a German title in a nav", `<nav id="toc"><p>Inhaltsverzeichnis</p></nav>` + story, []string{"Inhaltsverzeichnis"}, []string{"The ferry"}},
		{"a title over its entries", `<h2>Table of Contents</h2><ol><li><a href="#timetable">The timetable</a></li><li><a href="#fares">Fares</a></li></ol>` + story,
			nil, []string{"Table of Contents", "The timetable", "The ferry"}},
		{"a heading that says more", `<h2>Contents of the new timetable</h2>` + story, nil, []string{"Contents of the new timetable"}},
		{"a title with a full stop", `<p>In this article.</p>` + story, []string{"In this article"}, []string{"The ferry"}},
	})
}

// TestReadingMeta checks that an article's meta line that starts or ends
// with the reading time goes, and that lines only like it stay.
func TestReadingMeta(t *testing.T) {
	story := "<p>" + strings.Repeat("The ferry will run six times a day from July, the operator said. ", 3) + "</p>"
	checkRule(t, dropArticleFurniture, []ruleCase{
		{"a date and the reading time", `<p>October 16, 2020 · 8 min read</p>` + story, []string{"8 min read"}, []string{"The ferry"}},
		{"a team and the reading time", `<div class="meta">Bridgestone Team | 5 min read</div>` + story, []string{"Bridgestone Team"}, []string{"The ferry"}},
		{"the reading time first", `<p>Lesezeit: 4 Minuten • 12. März 2024</p>` + story, []string{"Lesezeit"}, []string{"The ferry"}},
		{"a sentence before it", `<p>We timed how long the new crossing takes on a calm day | 5 min read</p>` + story, nil, []string{"We timed how long"}},
		{"no separator", `<p>It takes 5 min to read the timetable</p>` + story, nil, []string{"It takes 5 min"}},
		{"a recipe's step", `<p>Stir · 5 min</p>` + story, nil, []string{"Stir · 5 min"}},
	})
}

// TestSentence checks the marks that end a sentence, in several scripts,
// against an ellipsis and labels.
func TestSentence(t *testing.T) {
	for text, want := range map[string]bool{
		"Read more about ad blocking here.": true,
		"Was it worth it?":                  true,
		"More from the newsroom...":         false,
		"You may also like":                 false,
		"了解更多关于广告拦截的信息。":                    true,
		"这值得吗？":                             true,
		"詳しくはこちら！":                          true,
		"और पढ़ें।":                         true,
		"هل يستحق ذلك؟":                     true,
		"相关阅读":                              false,
		"関連記事：":                             false,
	} {
		if got := sentence(text); got != want {
			t.Errorf("sentence(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestDropConsentNeighbours: in a reading that flattened a notice into
// paragraphs, its title line and a paragraph between two of its
// paragraphs go with them; a story's last line, a quote that closes after
// its full stop, stays.
func TestDropConsentNeighbours(t *testing.T) {
	story := strings.Repeat("<p>The harbour bridge will close to all traffic on Sunday while engineers replace two cracked expansion joints.</p>", 4)
	notice := "<p>We and our 142 partners use cookies to store and access information on your device and to personalise advertising and content.</p>"
	weak := "<p>Some of them process data on the basis of their interest, which you can object to in the settings.</p>"
	notice2 := "<p>By clicking accept, you consent to the processing of your personal data by us and our partners, as described in our privacy policy.</p>"
	for _, tc := range []struct {
		name, body string
		keep, drop []string
	}{
		{"title and middle paragraph", story + "<p>Your choices on this site</p>" + notice + weak + notice2,
			[]string{"harbour bridge"}, []string{"Your choices", "142 partners", "object to in the settings", "By clicking accept"}},
		{"the story's closing quote", story + "<p>“We will be back next year.”</p>" + notice + notice2,
			[]string{"harbour bridge", "back next year"}, []string{"142 partners", "By clicking accept"}},
		{"the story's last picture", story + `<p><img src="/bridge.jpg" alt=""></p>` + notice + notice2,
			[]string{"harbour bridge", "bridge.jpg"}, []string{"142 partners", "By clicking accept"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := parseFragment(t, tc.body)
			dropConsent(root)
			var b strings.Builder
			if err := html.Render(&b, root); err != nil {
				t.Fatal(err)
			}
			checkKeepDrop(t, b.String(), tc.keep, tc.drop)
		})
	}
}
