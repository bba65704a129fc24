package emulate

import (
	"strconv"
	"strings"
	"time"
)

// citeInstruction is added to the system prompt of every emulated
// request. The model is asked for bracketed numbers because every model
// follows that convention well; the Engine turns them into Anthropic's
// citations and removes them from the text the client sees.
const citeInstruction = "Results of the web_search and web_fetch tools are numbered sources such as [1] and [2]. " +
	"When a sentence of your answer relies on a source, cite it by writing its number in square brackets " +
	"right after that sentence, for example: \"Go 1.18 added generics [1].\" or \"... as both pages say [2][3].\" " +
	"Only cite numbers that appear in the results, and do not add a separate list of sources at the end."

// renderResult is what the model reads for the result of call id: the
// rendered report, marked as untrusted web content when it holds any.
func (e *Engine) renderResult(id string, r *Report) string {
	text := render(r)
	if r.Error != "" || len(r.Sources) == 0 {
		return text
	}
	what, source := "web search results", ""
	if r.Kind == KindWebFetch {
		what, source = "web page", r.Sources[0].URL
	}
	return e.o.Untrusted.WrapID(what, source, id, text)
}

// render writes what the model reads for one tool result. Sources must be
// numbered already. The format is stable: the same report restored from
// history renders to the same bytes, which keeps upstream prompt caches
// warm across turns.
func render(r *Report) string {
	if r.Error != "" {
		return r.Error
	}
	var b strings.Builder
	if r.Header != "" {
		b.WriteString(r.Header)
		b.WriteString(":\n")
	}
	if r.Kind == KindWebSearch && len(r.Sources) == 0 {
		b.WriteString("\nNo results.")
		return b.String()
	}
	for i := range r.Sources {
		s := &r.Sources[i]
		if i > 0 || r.Header != "" {
			b.WriteByte('\n')
		}
		renderSource(&b, s)
	}
	return strings.TrimRight(b.String(), "\n")
}

func renderSource(b *strings.Builder, s *Source) {
	b.WriteByte('[')
	b.WriteString(strconv.Itoa(s.Number))
	b.WriteString("] ")
	b.WriteString(oneLine(s.Title))
	b.WriteString("\nURL: ")
	b.WriteString(s.URL)
	b.WriteByte('\n')
	if s.PageAge != "" {
		b.WriteString("Published: ")
		b.WriteString(oneLine(s.PageAge))
		b.WriteByte('\n')
	}
	if !s.Retrieved.IsZero() {
		b.WriteString("Retrieved: ")
		b.WriteString(s.Retrieved.UTC().Format(time.RFC3339))
		b.WriteByte('\n')
	}
	if s.Snippet != "" {
		b.WriteString(oneLine(s.Snippet))
		b.WriteByte('\n')
	}
	for _, p := range s.Passages {
		b.WriteString("> ")
		b.WriteString(oneLine(p))
		b.WriteByte('\n')
	}
	switch {
	case s.Note != "":
		b.WriteString(s.Note)
		b.WriteByte('\n')
	case s.Kind == KindWebFetch:
		b.WriteString("\n")
		b.WriteString(s.Document)
		b.WriteByte('\n')
	}
}

// oneLine collapses whitespace, so a title or snippet cannot break the
// layout the model relies on.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\n\r\t") && !strings.Contains(s, "  ") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}
