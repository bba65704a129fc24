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
	re   *regexp.Regexp
}{
	{"ignore_instructions", regexp.MustCompile(`(?i)\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+|my\s+)?(?:previous|prior|above|earlier|preceding|original|system|other)\s+(?:instructions?|prompts?|rules|directions|guidelines|messages?|context)\b`)},
	{"new_instructions", regexp.MustCompile(`(?i)\b(?:new|updated|real|actual|hidden|secret|important)\s+(?:system\s+)?instructions?\s*(?:for\s+(?:the\s+)?(?:ai|assistant|model|agent|llm)\s*)?:|\byour\s+(?:new|real|true|actual)\s+(?:task|instructions?|goal|objective|purpose)\s+(?:is|are)\b`)},
	{"role_marker", regexp.MustCompile(`(?im)<\|(?:im_start|im_end|system|assistant|user|endoftext)\|>|\[/?INST\]|<</?SYS>>|</?(?:system|system-prompt|instructions)>|^\s*(?:###\s*)?(?:system|assistant)\s*:\s*\S|\n\s*\n(?:Human|Assistant):\s`)},
	{"addressed_to_ai", regexp.MustCompile(`(?i)\bif\s+you\s+are\s+(?:an?\s+)?(?:ai|llm|large\s+language\s+model|language\s+model|chatbot|ai\s+assistant|assistant|agent|ai\s+agent|gpt|claude)\b|\b(?:attention|note\s+to|message\s+(?:for|to))\s+(?:all\s+)?(?:ai|llms?|language\s+models?|ai\s+assistants?|ai\s+agents?|assistants?)\s*[:,!]`)},
	{"exfiltration", regexp.MustCompile(`(?i)\b(?:send|post|upload|leak|exfiltrate|transmit)\s+(?:the\s+|all\s+|your\s+|any\s+)?(?:conversation|chat\s+history|context|system\s+prompt|secrets?|api\s+keys?|credentials|passwords?|tokens?|environment\s+variables|private\s+data|user(?:'s)?\s+data)\b.{0,60}?\b(?:to|at|into)\b|!\[[^\]]{0,80}\]\(https?://[^)\s]{0,200}[?&][^)\s=]{1,40}=(?:\{|\$|%7B|<|\[)|\b(?:reveal|repeat|disclose)\s+(?:your|the)\s+(?:system\s+prompt|initial\s+prompt|instructions|hidden\s+instructions)\b|\b(?:print|output|show)\s+your\s+(?:system\s+prompt|initial\s+prompt|instructions|hidden\s+instructions)\b`)},
	{"tool_call", regexp.MustCompile(`(?i)\b(?:call|use|invoke|run|execute)\s+(?:the\s+)?(?:web_fetch|web_search|bash|shell|terminal|run_command|execute_command|tool|function)\b[^.\n]{0,80}\b(?:with|on|to)\b[^.\n]{0,40}(?:https?://|curl\s|rm\s+-rf|wget\s)`)},
	{"conceal", regexp.MustCompile(`(?i)\b(?:do\s+not|don't|never)\s+(?:tell|inform|mention\s+(?:this\s+)?to|reveal\s+(?:this\s+)?to|alert|notify|warn)\s+the\s+user\b|\bwithout\s+(?:telling|informing|asking|notifying)\s+the\s+user\b`)},
}

// maxFlags bounds the flags of one document.
const maxFlags = 10

// Injections returns the passages of text that look like prompt
// injections, at most ten, in order of appearance per rule.
func Injections(text string) []Flag {
	var out []Flag
	for _, r := range injectionRules {
		for _, loc := range r.re.FindAllStringIndex(text, maxFlags) {
			out = append(out, Flag{Rule: r.rule, Excerpt: excerpt(text, loc[0], loc[1])})
			if len(out) == maxFlags {
				return out
			}
		}
	}
	return out
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
