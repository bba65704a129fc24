package repotest

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// maxBenchmarksLines is issue 23's bound on docs/benchmarks.md: a summary
// of current figures, not a lab notebook (the history stays in git).
const maxBenchmarksLines = 400

// TestBenchmarksDoc keeps docs/benchmarks.md a summary: at most
// maxBenchmarksLines lines.
func TestBenchmarksDoc(t *testing.T) {
	b, err := os.ReadFile(File(t, "docs/benchmarks.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); n > maxBenchmarksLines {
		t.Errorf("docs/benchmarks.md has %d lines, over the %d issue 23 allows: keep current figures only (the history is in git)", n, maxBenchmarksLines)
	}
}

// TestDocCommands keeps the commands in the docs runnable: every `go
// test`, `go run` and `go build` in README.md and docs/ names package
// directories that exist and hold Go code, and its -run, -bench and -fuzz
// patterns match a test, benchmark or fuzz target of those packages (a
// package moved or a benchmark renamed breaks the command silently
// otherwise). `cmd/loadgen/bench.sh` is given a mode it knows.
func TestDocCommands(t *testing.T) {
	root := Root(t)
	docs := markdownFiles(t, root)
	checked := 0
	for _, rel := range docs {
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range docCommands(string(b)) {
			checked++
			checkCommand(t, root, rel, c)
		}
	}
	if checked == 0 {
		t.Fatal("found no go command in the docs: the parser is broken")
	}
}

// TestDocAnchors keeps links between the docs pointing at headings that
// exist: a heading renamed (or a section summarised away) otherwise leaves
// a link that opens the top of the page.
func TestDocAnchors(t *testing.T) {
	root := Root(t)
	anchors := map[string]map[string]bool{}
	headings := func(rel string) map[string]bool {
		if a, ok := anchors[rel]; ok {
			return a
		}
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			anchors[rel] = nil
			return nil
		}
		anchors[rel] = headingAnchors(string(b))
		return anchors[rel]
	}
	link := regexp.MustCompile(`\]\(([^()#\s]*)#([^()\s]+)\)`)
	for _, rel := range markdownFiles(t, root) {
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(b), -1) {
			target, anchor := m[1], m[2]
			if strings.Contains(target, "://") || (target != "" && !strings.HasSuffix(target, ".md")) {
				continue
			}
			dest := rel
			if target != "" {
				dest = filepath.ToSlash(filepath.Join(filepath.Dir(rel), target))
			}
			a := headings(dest)
			if a == nil {
				t.Errorf("%s: link to %s#%s: no such file", rel, target, anchor)
				continue
			}
			if !a[strings.ToLower(anchor)] {
				t.Errorf("%s: link to %s#%s: %s has no such heading", rel, target, anchor, dest)
			}
		}
	}
}

// markdownFiles returns README.md and every .md file under docs/,
// slash-separated and relative to root.
func markdownFiles(t *testing.T, root string) []string {
	t.Helper()
	files := []string{"README.md"}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".md") {
			rel, _ := filepath.Rel(root, path)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// headingAnchors returns the anchors GitHub gives a page's headings:
// lower case, punctuation dropped, spaces as hyphens, "-1", "-2" ... on
// repeats.
func headingAnchors(md string) map[string]bool {
	a := map[string]bool{}
	seen := map[string]int{}
	fenced := false
	for line := range strings.SplitSeq(md, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		if fenced || !strings.HasPrefix(line, "#") {
			continue
		}
		text := strings.TrimSpace(strings.TrimLeft(line, "#"))
		var s strings.Builder
		for _, r := range strings.ToLower(text) {
			switch {
			case r == ' ':
				s.WriteByte('-')
			case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 0x7f && !isPunct(r):
				s.WriteRune(r)
			}
		}
		slug := s.String()
		if n := seen[slug]; n > 0 {
			a[slug+"-"+strconv.Itoa(n)] = true
		} else {
			a[slug] = true
		}
		seen[slug]++
	}
	return a
}

// isPunct reports the non-ASCII punctuation GitHub drops from anchors
// that the docs' headings use.
func isPunct(r rune) bool { return strings.ContainsRune("–—…“”‘’→×", r) }

// docCommand is one go command found in a doc: its verb (test, run,
// build), its words after the verb, and the line it starts on.
type docCommand struct {
	line  int
	verb  string
	words []string
	// benchMode is set for cmd/loadgen/bench.sh: its first argument.
	benchMode *string
}

// docCommands finds the go commands in a Markdown page: in fenced blocks
// (a line ending in \ continues on the next) and in inline code spans
// (which may wrap onto the next line).
func docCommands(md string) []docCommand {
	var out []docCommand
	lines := strings.Split(md, "\n")
	fenced := false
	inline := regexp.MustCompile("`([^`]+)`")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		start := i + 1
		if fenced {
			for strings.HasSuffix(line, `\`) && i+1 < len(lines) {
				i++
				line = strings.TrimSuffix(line, `\`) + " " + lines[i]
			}
			out = append(out, commandsIn(line, start)...)
			continue
		}
		// An inline code span left open at the end of the line goes on
		// on the next one.
		if strings.Count(line, "`")%2 == 1 && i+1 < len(lines) {
			line += " " + lines[i+1]
			i++
		}
		for _, m := range inline.FindAllStringSubmatch(line, -1) {
			out = append(out, commandsIn(m[1], start)...)
		}
	}
	return out
}

var goCommand = regexp.MustCompile(`(?:^|[\s(;&|])go (test|run|build)(\s|$)`)

func commandsIn(s string, line int) []docCommand {
	var out []docCommand
	for _, loc := range goCommand.FindAllStringSubmatchIndex(s, -1) {
		verb := s[loc[2]:loc[3]]
		out = append(out, docCommand{line: line, verb: verb, words: shellWords(s[loc[3]:])})
	}
	if _, rest, ok := strings.Cut(s, "cmd/loadgen/bench.sh"); ok {
		mode := ""
		if w := shellWords(rest); len(w) > 0 {
			mode = w[0]
		}
		out = append(out, docCommand{line: line, verb: "bench.sh", benchMode: &mode})
	}
	return out
}

// shellWords splits s into words the way sh would, up to the end of the
// simple command (an unquoted |, ;, &, ), # or a backtick).
func shellWords(s string) []string {
	var words []string
	var w strings.Builder
	inWord := false
	var quote rune
	flush := func() {
		if inWord {
			words = append(words, w.String())
			w.Reset()
			inWord = false
		}
	}
	for _, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				w.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			flush()
		case strings.ContainsRune("|;&)`<>", r) || r == '#' && !inWord:
			flush()
			return words
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	flush()
	return words
}

func checkCommand(t *testing.T, root, doc string, c docCommand) {
	t.Helper()
	where := doc + ":" + strconv.Itoa(c.line)
	if c.benchMode != nil {
		if m := *c.benchMode; m != "" && m != "hit" && m != "miss" && m != "[hit|miss]" {
			t.Errorf("%s: cmd/loadgen/bench.sh %q: the mode is hit or miss", where, m)
		}
		return
	}
	var pkgs []string
	patterns := map[string]string{} // flag -> pattern
	for i := 0; i < len(c.words); i++ {
		w := c.words[i]
		if strings.HasPrefix(w, "./") {
			pkgs = append(pkgs, w)
			if c.verb == "run" {
				break // the rest are the program's arguments
			}
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(w, "-"), "=")
		if !strings.HasPrefix(w, "-") || (name != "run" && name != "bench" && name != "fuzz") {
			continue
		}
		if !hasValue && i+1 < len(c.words) {
			i++
			value = c.words[i]
		}
		patterns[name] = value
	}
	var funcs []string
	recursive := false
	for _, p := range pkgs {
		dir := strings.TrimSuffix(strings.TrimSuffix(p, "..."), "/")
		if strings.HasSuffix(p, "...") {
			recursive = true
		}
		abs := filepath.Join(root, filepath.FromSlash(dir))
		goFiles, _ := filepath.Glob(filepath.Join(abs, "*.go"))
		if len(goFiles) == 0 && !strings.HasSuffix(p, "...") {
			t.Errorf("%s: go %s %s: no Go package in %s", where, c.verb, p, dir)
			continue
		}
		funcs = append(funcs, testFuncs(t, abs)...)
	}
	if len(pkgs) == 0 || recursive {
		return // the current directory, or a tree: nothing to match names against
	}
	kinds := map[string][]string{"run": {"Test", "Fuzz", "Example"}, "bench": {"Benchmark"}, "fuzz": {"Fuzz"}}
	for flag, pat := range patterns {
		if pat == "^$" || pat == "XXX" {
			continue // runs none on purpose
		}
		first := topLevelPrefix(pat)
		re, err := regexp.Compile(first)
		if err != nil {
			t.Errorf("%s: -%s %q is not a regular expression: %v", where, flag, pat, err)
			continue
		}
		found := false
		for _, f := range funcs {
			for _, k := range kinds[flag] {
				if strings.HasPrefix(f, k) && re.MatchString(f) {
					found = true
				}
			}
		}
		if !found {
			t.Errorf("%s: go %s %s -%s %q matches no %s function in those packages", where, c.verb, strings.Join(pkgs, " "), flag, pat, strings.Join(kinds[flag], "/"))
		}
	}
}

// topLevelPrefix returns pat up to its first slash outside brackets and
// parentheses: the part go test matches against top-level names.
func topLevelPrefix(pat string) string {
	depth := 0
	for i, r := range pat {
		switch r {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case '/':
			if depth == 0 {
				return pat[:i]
			}
		}
	}
	return pat
}

// testFuncs returns the names of the Test, Benchmark, Fuzz and Example
// functions in dir's _test.go files, whatever their build tags.
func testFuncs(t *testing.T, dir string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	decl := regexp.MustCompile(`(?m)^func ((?:Test|Benchmark|Fuzz|Example)\w*)\(`)
	var names []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range decl.FindAllSubmatch(b, -1) {
			names = append(names, string(m[1]))
		}
	}
	return names
}
