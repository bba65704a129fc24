package guard

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// Flag is a passage of fetched content that reads like an instruction to
// an AI model: a likely prompt injection. Flags are advice for the model
// and the operator; nothing is removed.
type Flag struct {
	// Rule names the pattern: ignore_instructions, new_instructions,
	// role_marker, addressed_to_ai, exfiltration, tool_call, conceal.
	Rule string `json:"rule"`
	// Excerpt is the passage, cut to about 160 characters.
	Excerpt string `json:"excerpt"`
}

// injectionRules are phrased as tight as possible: each is a construction
// that instructs a reader rather than informs it. The false-alarm rate on
// ordinary web text is measured in TestInjectionHeldOut.
var injectionRules = []struct {
	rule string
	// keys are lower-case words of which one is inside every match; the
	// regexp runs only on windows around them (see Injections).
	keys []string
	// before and after bound, in characters other than white space, how
	// far a match reaches before the start of its keyword and after it
	// (with one to spare for what \b and ^ look at). Every rule's
	// keywords start its match but for "instruction", "system:" and "the
	// user", which a few words can precede.
	before, after int
	re            *regexp.Regexp
}{
	{"ignore_instructions", []string{"ignore", "disregard", "forget", "override", "bypass"}, 8, 120, regexp.MustCompile(`(?i)\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+|my\s+)?(?:previous|prior|above|earlier|preceding|original|system|other)\s+(?:instructions?|prompts?|rules|directions|guidelines|messages?|context)\b`)},
	{"new_instructions", []string{"instruction", "your new", "your real", "your true", "your actual"}, 40, 80, regexp.MustCompile(`(?i)\b(?:new|updated|real|actual|hidden|secret|important)\s+(?:system\s+)?instructions?\s*(?:for\s+(?:the\s+)?(?:ai|assistant|model|agent|llm)\s*)?:|\byour\s+(?:new|real|true|actual)\s+(?:task|instructions?|goal|objective|purpose)\s+(?:is|are)\b`)},
	{"role_marker", []string{"<|", "[inst]", "[/inst]", "<<sys", "<</sys", "<system", "</system", "<instructions", "</instructions", "system:", "system :", "assistant:", "assistant :", "human:"}, 40, 60, regexp.MustCompile(`(?im)<\|(?:im_start|im_end|system|assistant|user|endoftext)\|>|\[/?INST\]|<</?SYS>>|</?(?:system|system-prompt|instructions)>|^\s*(?:###\s*)?(?:system|assistant)\s*:\s*\S|\n\s*\n(?:Human|Assistant):\s`)},
	{"addressed_to_ai", []string{"if you are", "attention", "note to", "message for", "message to"}, 8, 80, regexp.MustCompile(`(?i)\bif\s+you\s+are\s+(?:an?\s+)?(?:ai|llm|large\s+language\s+model|language\s+model|chatbot|ai\s+assistant|assistant|agent|ai\s+agent|gpt|claude)\b|\b(?:attention|note\s+to|message\s+(?:for|to))\s+(?:all\s+)?(?:ai|llms?|language\s+models?|ai\s+assistants?|ai\s+agents?|assistants?)\s*[:,!]`)},
	{"exfiltration", append([]string{"send", "upload", "leak", "exfiltrate", "transmit", "![", "reveal your", "reveal the", "repeat your", "repeat the", "disclose your", "disclose the", "print your", "output your", "show your"}, postKeys...), 8, 400, regexp.MustCompile(`(?i)\b(?:send|post|upload|leak|exfiltrate|transmit)\s+(?:the\s+|all\s+|your\s+|any\s+)?(?:conversation|chat\s+history|context|system\s+prompt|secrets?|api\s+keys?|credentials|passwords?|tokens?|environment\s+variables|private\s+data|user(?:'s)?\s+data)\b.{0,60}?\b(?:to|at|into)\b|!\[[^\]]{0,80}\]\(https?://[^)\s]{0,200}[?&][^)\s=]{1,40}=(?:\{|\$|%7B|<|\[)|\b(?:reveal|repeat|disclose)\s+(?:your|the)\s+(?:system\s+prompt|initial\s+prompt|instructions|hidden\s+instructions)\b|\b(?:print|output|show)\s+your\s+(?:system\s+prompt|initial\s+prompt|instructions|hidden\s+instructions)\b`)},
	{"tool_call", toolCallKeys, 8, 200, regexp.MustCompile(`(?i)\b(?:call|use|invoke|run|execute)\s+(?:the\s+)?(?:web_fetch|web_search|bash|shell|terminal|run_command|execute_command|tool|function)\b[^.\n]{0,80}\b(?:with|on|to)\b[^.\n]{0,40}(?:https?://|curl\s|rm\s+-rf|wget\s)`)},
	{"conceal", []string{"the user"}, 40, 16, regexp.MustCompile(`(?i)\b(?:do\s+not|don't|never)\s+(?:tell|inform|mention\s+(?:this\s+)?to|reveal\s+(?:this\s+)?to|alert|notify|warn)\s+the\s+user\b|\bwithout\s+(?:telling|informing|asking|notifying)\s+the\s+user\b`)},
}

// Keywords made of the phrases a rule starts with, where single words
// ("post", "tool") are too common in ordinary pages to narrow anything.
var (
	// postKeys: "post" followed by what exfiltration posts.
	postKeys = func() []string {
		out := []string{"post the", "post all", "post your", "post any"}
		for _, o := range []string{"conversation", "chat history", "context", "system prompt", "secret", "api key", "credentials", "password", "token", "environment variables", "private data", "user data", "user's data"} {
			out = append(out, "post "+o)
		}
		return out
	}()
	// toolCallKeys: a verb, maybe "the", and a tool.
	toolCallKeys = func() []string {
		var out []string
		for _, v := range []string{"call", "use", "invoke", "run", "execute"} {
			for _, t := range []string{"web_fetch", "web_search", "bash", "shell", "terminal", "run_command", "execute_command", "tool", "function"} {
				out = append(out, v+" "+t, v+" the "+t)
			}
		}
		return out
	}()
)

// maxFlags bounds the flags of one document.
const maxFlags = 10

// injectionKeys finds every rule's keywords; a keyword's id is its rule's
// index in injectionRules.
var injectionKeys = func() *keywordSet {
	k := new(keywordSet)
	for i, r := range injectionRules {
		for _, w := range r.keys {
			k.add(w, i)
		}
	}
	return k
}()

// Injections returns the passages of text that look like prompt
// injections, at most ten, in order of appearance per rule.
//
// Each rule's regexp runs only on windows around occurrences of its
// keywords, found in one pass over the text, not over the whole text: a
// page is tens of kilobytes, the keywords are rare, and Go's regexps over
// case-insensitive alternations cost up to a microsecond per byte. A
// window reaches the rule's bounds (before, after) in non-space
// characters around its keyword, so it holds every match around that
// keyword with the characters before and after it (which \b and ^ look
// at), and the flags are exactly those of the regexps run over the whole
// text (TestInjectionsWindowed, FuzzPrefilters).
func Injections(text string) []Flag {
	windows := keywordWindows(text)
	var out []Flag
	for i, r := range injectionRules {
		for _, w := range windows[i] {
			for _, loc := range r.re.FindAllStringIndex(text[w[0]:w[1]], maxFlags) {
				out = append(out, Flag{Rule: r.rule, Excerpt: excerpt(text, w[0]+loc[0], w[0]+loc[1])})
				if len(out) == maxFlags {
					return out
				}
			}
		}
	}
	return out
}

// keywordWindows returns, per rule, the merged windows around the
// occurrences of its keywords in text, in order; nil when there are none.
func keywordWindows(text string) [][][2]int {
	var out [][][2]int
	injectionKeys.each(text, func(id, p int) {
		if out == nil {
			out = make([][][2]int, len(injectionRules))
		}
		ws := out[id]
		n := len(ws)
		if n > 0 && p < ws[n-1][1] {
			ws[n-1][1] = windowEnd(text, p, injectionRules[id].after)
			return
		}
		r := &injectionRules[id]
		s := windowStart(text, p, r.before)
		if n > 0 && s <= ws[n-1][1] {
			// Overlapping windows are merged, so no match is found twice.
			ws[n-1][1] = windowEnd(text, p, r.after)
			return
		}
		out[id] = append(ws, [2]int{s, windowEnd(text, p, r.after)})
	})
	if out == nil {
		return make([][][2]int, len(injectionRules))
	}
	return out
}

// windowStart goes back from p over chars characters other than white
// space and returns where it stopped (0 at the start of text).
func windowStart(text string, p, chars int) int {
	n := 0
	for p > 0 {
		p--
		if c := text[p]; utf8.RuneStart(c) && !isRegexpSpace(c) {
			if n++; n == chars {
				return p
			}
		}
	}
	return 0
}

// windowEnd goes forward from p over chars characters other than white
// space and returns the start of the next one (len(text) at the end of
// text).
func windowEnd(text string, p, chars int) int {
	n := 0
	for ; p < len(text); p++ {
		if c := text[p]; utf8.RuneStart(c) && !isRegexpSpace(c) {
			if n == chars {
				return p
			}
			n++
		}
	}
	return len(text)
}

// excerpt returns the match with some context, on one line, at most about
// 160 characters, cut on rune boundaries.
func excerpt(text string, s, e int) string {
	const ctx = 40
	s0, e0 := max(0, s-ctx), min(len(text), e+ctx)
	for s0 > 0 && !utf8.RuneStart(text[s0]) {
		s0--
	}
	for e0 < len(text) && !utf8.RuneStart(text[e0]) {
		e0++
	}
	x := strings.Join(strings.Fields(text[s0:e0]), " ")
	if r := []rune(x); len(r) > 160 {
		x = string(r[:160])
	}
	if s0 > 0 {
		x = "…" + x
	}
	if e0 < len(text) {
		x += "…"
	}
	return x
}
