package openai

import "strings"

const (
	thinkOpen  = "<think>"
	thinkClose = "</think>"
	// maxThinkLead bounds the leading whitespace held while deciding
	// whether a reply opens with <think>.
	maxThinkLead = 64
)

type thinkState uint8

const (
	thinkUndecided thinkState = iota // nothing but whitespace and a prefix of <think> yet
	thinkInside                      // inside <think>...</think>
	thinkAfter                       // just after </think>: leading newlines are dropped
	thinkPlain                       // ordinary text from here on
)

// thinkSplitter separates a reply that opens with <think>...</think> (the
// way GLM-Z1, MiniMax and models served without a reasoning parser deliver
// their reasoning) into thinking and text, as the content arrives in
// fragments. Only a tag at the very start counts, so text that merely
// mentions <think> later is left alone. Bytes that might be the start of
// a tag are held back until the next fragment decides; at most
// len(</think>)-1 or maxThinkLead bytes are ever held.
type thinkSplitter struct {
	state thinkState
	held  string
	trim  bool // drop newlines at the start of the thinking
}

// split consumes a content fragment and returns what is certainly
// thinking and certainly text so far. Within one fragment thinking always
// precedes text.
func (s *thinkSplitter) split(frag string) (thinking, text string) {
	in := s.held + frag
	s.held = ""
	for in != "" {
		switch s.state {
		case thinkPlain:
			return thinking, text + in
		case thinkUndecided:
			lead := strings.TrimLeft(in, " \t\r\n")
			switch {
			case strings.HasPrefix(lead, thinkOpen):
				s.state = thinkInside
				s.trim = true
				in = lead[len(thinkOpen):]
			case strings.HasPrefix(thinkOpen, lead) && len(in) <= maxThinkLead:
				s.held = in // whitespace or a partial <think>: wait
				return thinking, text
			default:
				s.state = thinkPlain
			}
		case thinkInside:
			if s.trim {
				// The newline models put after <think> is layout.
				if in = strings.TrimLeft(in, "\r\n"); in == "" {
					return thinking, text
				}
				s.trim = false
			}
			if i := strings.Index(in, thinkClose); i >= 0 {
				thinking += in[:i]
				in = in[i+len(thinkClose):]
				s.state = thinkAfter
				continue
			}
			keep := partialSuffix(in, thinkClose)
			s.held = in[len(in)-keep:]
			return thinking + in[:len(in)-keep], text
		case thinkAfter:
			in = strings.TrimLeft(in, "\r\n")
			if in != "" {
				s.state = thinkPlain
			}
		}
	}
	return thinking, text
}

// flush returns what is still held at the end of the reply.
func (s *thinkSplitter) flush() (thinking, text string) {
	h := s.held
	s.held = ""
	if s.state == thinkInside {
		return h, ""
	}
	return "", h
}

// partialSuffix returns the length of the longest suffix of s that is a
// proper prefix of tag.
func partialSuffix(s, tag string) int {
	for n := min(len(s), len(tag)-1); n > 0; n-- {
		if strings.HasSuffix(s, tag[:n]) {
			return n
		}
	}
	return 0
}
