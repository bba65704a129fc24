package extract

import (
	nurl "net/url"
	"regexp"
	"strings"
)

// pageKind is the coarse page type that decides which candidate the
// selector trusts. It is inferred from what publishers declare (schema.org
// JSON-LD, og:type) and from URL conventions shared by forum software.
type pageKind int

const (
	kindOther   pageKind = iota // docs, services, listings, anything undeclared
	kindArticle                 // news, blogs, declared articles
	kindForum                   // threads, Q&A
	kindProduct                 // a single product with offers
)

func (k pageKind) String() string {
	return [...]string{"other", "article", "forum", "product"}[k]
}

var articleTypes = map[string]bool{
	"article": true, "newsarticle": true, "blogposting": true, "techarticle": true, "report": true,
	"scholarlyarticle": true, "reviewnewsarticle": true, "analysisnewsarticle": true,
	"opinionnewsarticle": true, "reportagenewsarticle": true, "backgroundnewsarticle": true, "liveblogposting": true,
}

// forumPath matches the URL layouts of Discourse, phpBB, vBulletin,
// XenForo, Reddit, Stack Exchange and similar software.
var forumPath = regexp.MustCompile(`/t/|/threads?/|/topics?/|/forums?/|/questions/\d|showthread|viewtopic|/discussions?/|/comments/|/boards/|/community/`)

// forumHost matches sites named as forums (warriorforum.com,
// forums.example.org, community.example.com, discuss.example.io).
var forumHost = regexp.MustCompile(`forum|^(community|discuss|discourse|boards?)\.`)

func classifyPage(pm pageMeta, base *nurl.URL) pageKind {
	has := func(t string) bool { return contains(pm.schemaTypes, t) }
	if has("discussionforumposting") || has("qapage") || has("question") && has("answer") {
		return kindForum
	}
	if base != nil && (forumPath.MatchString(strings.ToLower(base.Path+"?"+base.RawQuery)) || forumHost.MatchString(strings.ToLower(base.Hostname()))) {
		return kindForum
	}
	if has("product") && has("offer") || pm.ogType == "product" || pm.ogType == "og:product" {
		return kindProduct
	}
	if pm.ogType == "article" {
		return kindArticle
	}
	for _, t := range pm.schemaTypes {
		if articleTypes[t] {
			return kindArticle
		}
	}
	// Microdata on the page (<html itemscope itemtype="./Article">): one
	// article item marks the story; several mark a list of teasers.
	if pm.microArticles == 1 {
		return kindArticle
	}
	return kindOther
}
