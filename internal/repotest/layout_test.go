package repotest

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestLayout keeps the README's layout table true (issue 23): every folder
// at the top of the repository and every folder holding Go code under
// cmd/, internal/ and e2e/ has a row, every row names a folder that
// exists, and Go code lives nowhere else. A path segment written <name>
// in a row stands for any one folder.
func TestLayout(t *testing.T) {
	root := Root(t)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(readme), "\n## Layout\n")
	if !ok {
		t.Fatal("README.md has no ## Layout section")
	}
	table, _, _ = strings.Cut(table, "\n## ")

	var rows []string
	cell := regexp.MustCompile("^\\| (.*?) \\|")
	code := regexp.MustCompile("`([^`]+)`")
	for line := range strings.SplitSeq(table, "\n") {
		m := cell.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		for _, c := range code.FindAllStringSubmatch(m[1], -1) {
			rows = append(rows, c[1])
		}
	}
	if len(rows) == 0 {
		t.Fatal("the layout table names no folder")
	}
	named := func(dir string) bool {
		for _, r := range rows {
			if matchRow(r, dir) {
				return true
			}
		}
		return false
	}

	// Every row names a folder that exists.
	for _, r := range rows {
		matches, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(rowGlob(r))))
		found := false
		for _, m := range matches {
			if st, err := os.Stat(m); err == nil && st.IsDir() {
				found = true
			}
		}
		if !found {
			t.Errorf("README layout table names %s, which is not a folder", r)
		}
	}

	// Every top-level folder has a row.
	top, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range top {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if e.Name() == "cmd" || e.Name() == "internal" || e.Name() == "third_party" {
			continue // their sub-folders have rows
		}
		if !named(e.Name()) {
			t.Errorf("top-level folder %s has no row in README's layout table", e.Name())
		}
	}

	// Every folder with Go code has a row, and is under cmd/, internal/
	// or e2e/ (third_party/ is other people's code).
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			switch {
			case rel == ".":
				return nil
			case strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules":
				return filepath.SkipDir
			case strings.HasPrefix(rel, "third_party/"):
				if strings.Count(rel, "/") == 1 && !named(rel) {
					t.Errorf("%s has no row in README's layout table", rel)
				}
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") {
			return nil
		}
		dir := filepath.ToSlash(filepath.Dir(rel))
		switch {
		case dir == ".":
			t.Errorf("%s: Go code at the repository root", rel)
		case !strings.HasPrefix(dir, "cmd/") && !strings.HasPrefix(dir, "internal/") && dir != "e2e" && !strings.HasPrefix(dir, "e2e/"):
			t.Errorf("%s: Go code outside cmd/, internal/ and e2e/", rel)
		case !named(dir):
			t.Errorf("%s has Go code and no row in README's layout table", dir)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// matchRow reports whether row names dir, <name> segments matching any
// one segment.
func matchRow(row, dir string) bool {
	rs, ds := strings.Split(row, "/"), strings.Split(dir, "/")
	if len(rs) != len(ds) {
		return false
	}
	for i := range rs {
		if !isWildcard(rs[i]) && rs[i] != ds[i] {
			return false
		}
	}
	return true
}

func rowGlob(row string) string {
	segs := strings.Split(row, "/")
	for i, s := range segs {
		if isWildcard(s) {
			segs[i] = "*"
		}
	}
	return strings.Join(segs, "/")
}

func isWildcard(seg string) bool { return strings.HasPrefix(seg, "<") && strings.HasSuffix(seg, ">") }

func TestMatchRow(t *testing.T) {
	for _, c := range []struct {
		row, dir string
		want     bool
	}{
		{"internal/search", "internal/search", true},
		{"internal/search/<provider>", "internal/search/brave", true},
		{"internal/search/<provider>", "internal/search", false},
		{"internal/search/<provider>", "internal/search/internal/httpx", false},
		{"internal/fetch", "internal/fetch/render", false},
	} {
		if got := matchRow(c.row, c.dir); got != c.want {
			t.Errorf("matchRow(%q, %q) = %v", c.row, c.dir, got)
		}
	}
}
