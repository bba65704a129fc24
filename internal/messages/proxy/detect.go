package proxy

import (
	"regexp"
	"strings"

	"github.com/webgate/webgate/internal/messages/websearch"
	"github.com/webgate/webgate/internal/messages/wire"
)

// searchCall is a request recognised as "run one web search": the shape
// Claude Code's WebSearch tool sends to /v1/messages.
type searchCall struct {
	Query  string
	Tool   wire.Tool
	Model  string
	Stream bool
	Req    *wire.Request
}

// queryPattern extracts the query from the single user turn. Claude Code
// has worded the instruction as "Perform a web search for the query: <q>"
// in every version seen so far while its system prompt changed, so the
// system prompt is ignored and only this sentence is matched; the pattern
// tolerates casing, whitespace, a polite prefix and close paraphrases so a
// small wording change does not silently fall back to a model call.
var queryPattern = regexp.MustCompile(`(?is)^\s*(?:please\s*,?\s+)?(?:` +
	`(?:perform|run|do|execute|conduct|make|carry\s+out)\s+(?:a\s+|one\s+)?web[\s-]*search\s+(?:for|on|with|using)\s+(?:the\s+)?(?:following\s+)?(?:search\s+)?query` +
	`|search\s+the\s+web\s+for(?:\s+the)?(?:\s+(?:following\s+)?query)?` +
	`|web[\s-]*search\s+query` +
	`)\s*[:：]\s*(.+?)\s*$`)

// claudeCodeInstruction is the exact wording every recorded Claude Code
// version uses; matching it directly skips the regular expression on the
// common path.
const claudeCodeInstruction = "Perform a web search for the query: "

// instructionQuery returns the query of a search instruction, exactly as
// queryPattern's capture group would.
func instructionQuery(text string) (string, bool) {
	if rest, ok := strings.CutPrefix(text, claudeCodeInstruction); ok {
		// The pattern's \s* around the capture: RE2's \s is [\t\n\f\r ].
		// A blank query is left to the pattern, which then captures one
		// whitespace character.
		if q := strings.Trim(rest, "\t\n\f\r "); q != "" {
			return q, true
		}
	}
	m := queryPattern.FindStringSubmatch(text)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// detect reports whether req is a search-execution request, and if so
// returns it. The test is on shape, never on the system prompt:
//
//   - exactly one message, from the user, made only of text;
//   - exactly one web_search_* server tool, and either no other tool or a
//     tool_choice that forces the web search tool;
//   - tool_choice is not "none" and does not force another tool;
//   - the text is an instruction to search for a query, as matched by
//     queryPattern.
//
// Anything else is a real conversation and goes to the upstream model.
func detect(req *wire.Request) (*searchCall, bool) {
	if len(req.Messages) != 1 || req.Messages[0].Role != "user" {
		return nil, false
	}
	ws := -1
	for i, t := range req.Tools {
		if isWebSearchTool(t) {
			if ws >= 0 {
				return nil, false
			}
			ws = i
		}
	}
	if ws < 0 {
		return nil, false
	}
	tool := req.Tools[ws]
	if tc := req.ToolChoice; tc != nil {
		switch tc.Type {
		case "none":
			return nil, false
		case "tool":
			if tc.Name != tool.Name {
				return nil, false
			}
		}
	}
	forced := req.ToolChoice != nil && req.ToolChoice.Type == "tool"
	if len(req.Tools) > 1 && !forced {
		return nil, false
	}
	text, ok := userText(req.Messages[0])
	if !ok {
		return nil, false
	}
	q, ok := instructionQuery(text)
	if !ok {
		return nil, false
	}
	return &searchCall{
		Query:  normalizeQuery(q),
		Tool:   tool,
		Model:  req.Model,
		Stream: req.Stream,
		Req:    req,
	}, true
}

// isWebSearchTool matches every dated version of Anthropic's web search
// server tool (web_search_20250305 and later).
func isWebSearchTool(t wire.Tool) bool {
	return strings.HasPrefix(t.Type, "web_search_") && t.Name != ""
}

// userText joins the text of a user turn; ok is false when the turn holds
// anything but text (images, documents, tool results), which a
// search-execution request never does.
func userText(m wire.MessageParam) (string, bool) {
	if m.ContentIsString {
		return m.Text, true
	}
	if len(m.Blocks) == 0 {
		return "", false
	}
	if len(m.Blocks) == 1 {
		// Claude Code's case: the text as it is, without a copy.
		return m.Blocks[0].Text, m.Blocks[0].Type == "text"
	}
	var b strings.Builder
	for i, blk := range m.Blocks {
		if blk.Type != "text" {
			return "", false
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(blk.Text)
	}
	return b.String(), true
}

// quotePairs are the quote styles a model or client may wrap a query in.
var quotePairs = [][2]string{{`"`, `"`}, {`'`, `'`}, {"`", "`"}, {"“", "”"}, {"‘", "’"}, {"«", "»"}, {"„", "“"}}

// normalizeQuery collapses whitespace (newlines included) and removes one
// level of wrapping quotes.
func normalizeQuery(q string) string {
	q = websearch.OneLine(q)
	for _, p := range quotePairs {
		if len(q) < len(p[0])+len(p[1]) || !strings.HasPrefix(q, p[0]) || !strings.HasSuffix(q, p[1]) {
			continue
		}
		// `"a" and "b"` is two quoted phrases, not one quoted query.
		inner := q[len(p[0]) : len(q)-len(p[1])]
		if !strings.Contains(inner, p[0]) && !strings.Contains(inner, p[1]) {
			q = strings.TrimSpace(inner)
		}
		break
	}
	return q
}
