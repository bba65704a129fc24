// Package docgen renders the configuration reference (docs/configuration.md)
// from the doc comments on the config package's structs, so the reference
// cannot drift from the code: a test in package config fails when the
// committed file differs from what Generate produces.
package docgen

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strings"
)

// Generate parses the Go package in dir and renders every YAML key reachable
// from the struct named root.
func Generate(dir, root string) ([]byte, error) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []*ast.File
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	structs := map[string]*ast.StructType{}
	typeDocs := map[string]string{}
	for _, f := range files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, s := range gd.Specs {
				ts := s.(*ast.TypeSpec)
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					continue
				}
				structs[ts.Name.Name] = st
				txt := ts.Doc.Text()
				if txt == "" {
					txt = gd.Doc.Text()
				}
				typeDocs[ts.Name.Name] = txt
			}
		}
	}
	if structs[root] == nil {
		return nil, fmt.Errorf("docgen: struct %s not found in %s", root, dir)
	}
	g := &gen{structs: structs, typeDocs: typeDocs}
	var b bytes.Buffer
	b.WriteString(header)
	rootSt := structs[root]
	// Top-level scalars first, then one section per nested struct.
	var scalars []field
	for _, f := range g.fields(rootSt) {
		if _, nested := structs[f.typ]; nested {
			continue
		}
		scalars = append(scalars, f)
	}
	if len(scalars) > 0 {
		b.WriteString("## Top level\n\n")
		g.table(&b, "", scalars)
	}
	for _, f := range g.fields(rootSt) {
		if _, nested := structs[f.typ]; !nested {
			continue
		}
		fmt.Fprintf(&b, "## `%s`\n\n%s\n\n", f.key+f.elem, oneParagraph(f.doc))
		g.section(&b, f.key+f.elem, f.typ, 0)
	}
	return b.Bytes(), nil
}

const header = `# Configuration reference

<!-- Generated from the doc comments in internal/config/*.go by internal/config/docgen.
     Do not edit by hand: run  go test ./internal/config -run TestConfigDoc -update  -->

webgate reads a YAML file given by ` + "`--config FILE`" + ` or the ` + "`WEBGATE_CONFIG`" + `
environment variable. Without one it runs on built-in defaults. Unknown keys
are errors. ` + "`${VAR}`" + ` and ` + "`${VAR:-default}`" + ` are expanded from the
environment (` + "`$$`" + ` is a literal ` + "`$`" + `); referencing an unset variable without a
default is an error, so a missing secret never turns into an empty one.
Durations are written like ` + "`500ms`, `15s` or `10m`" + `.

Provider secrets may also come straight from the environment, where the file
leaves them empty: ` + "`BRAVE_API_KEY`, `TAVILY_API_KEY`, `EXA_API_KEY`, `SERPER_API_KEY`, `SERPAPI_API_KEY`, `GOOGLE_API_KEY` + `GOOGLE_CSE_ID`, `JINA_API_KEY`, `SEARXNG_URL`" + `.

`

type field struct {
	key, typ, goType, doc string
	// elem is how a struct nested in a list or map is addressed below
	// the key: "[]" for list items, ".<name>" for map values, "" for a
	// plain struct field.
	elem string
}

type gen struct {
	structs  map[string]*ast.StructType
	typeDocs map[string]string
}

func (g *gen) fields(st *ast.StructType) []field {
	var out []field
	for _, f := range st.Fields.List {
		if f.Tag == nil || len(f.Names) == 0 {
			continue
		}
		tag := reflect.StructTag(strings.Trim(f.Tag.Value, "`")).Get("yaml")
		key, _, _ := strings.Cut(tag, ",")
		if key == "" || key == "-" {
			continue
		}
		txt := f.Doc.Text()
		if txt == "" {
			txt = f.Comment.Text()
		}
		for range f.Names {
			out = append(out, field{key: key, typ: typeName(f.Type), goType: yamlType(f.Type), doc: txt, elem: elemSuffix(f.Type)})
		}
	}
	return out
}

// section renders the fields of struct typ under prefix; nested structs get
// their own sub-table (or, for the providers map-like struct, one table).
func (g *gen) section(b *bytes.Buffer, prefix, typ string, depth int) {
	var flat []field
	var nested []field
	for _, f := range g.fields(g.structs[typ]) {
		if _, ok := g.structs[f.typ]; ok {
			nested = append(nested, f)
		} else {
			flat = append(flat, f)
		}
	}
	if len(flat) > 0 {
		g.table(b, prefix, flat)
	}
	// Several fields of the same struct type (the providers section) are
	// documented once, with the list of names.
	byType := map[string][]string{}
	var order []string
	for _, f := range nested {
		if _, seen := byType[f.typ]; !seen {
			order = append(order, f.typ)
		}
		byType[f.typ] = append(byType[f.typ], f.key+f.elem)
	}
	for _, t := range order {
		keys := byType[t]
		name := prefix + "." + keys[0]
		if len(keys) > 1 {
			name = prefix + ".<name>"
			fmt.Fprintf(b, "### `%s`\n\n`<name>` is one of: %s.\n\n%s\n\n", name, codeList(keys), oneParagraph(g.typeDocs[t]))
		} else {
			var doc string
			for _, f := range nested {
				if f.typ == t {
					doc = f.doc
				}
			}
			fmt.Fprintf(b, "### `%s`\n\n%s\n\n", name, oneParagraph(doc))
		}
		g.section(b, name, t, depth+1)
	}
}

func (g *gen) table(b *bytes.Buffer, prefix string, fs []field) {
	b.WriteString("| key | type | description |\n|---|---|---|\n")
	for _, f := range fs {
		key := f.key
		if prefix != "" {
			key = prefix + "." + f.key
		}
		fmt.Fprintf(b, "| `%s` | %s | %s |\n", key, f.goType, strings.ReplaceAll(oneParagraph(f.doc), "|", `\|`))
	}
	b.WriteString("\n")
}

// oneParagraph joins a doc comment's lines so it fits a table cell.
func oneParagraph(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func codeList(keys []string) string {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = "`" + k + "`"
	}
	return strings.Join(q, ", ")
}

// typeName is the struct type a field holds directly, through a pointer,
// or as the element of a list or the value of a map.
func typeName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.Ident:
		return t.Name
	case *ast.StarExpr:
		return typeName(t.X)
	case *ast.ArrayType:
		return typeName(t.Elt)
	case *ast.MapType:
		return typeName(t.Value)
	}
	return ""
}

// elemSuffix addresses the struct inside a list ("[]") or map (".<name>").
func elemSuffix(e ast.Expr) string {
	switch e.(type) {
	case *ast.ArrayType:
		return "[]"
	case *ast.MapType:
		return ".<name>"
	}
	return ""
}

// yamlType describes a Go type the way a YAML author thinks of it.
func yamlType(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.Ident:
		switch t.Name {
		case "string":
			return "string"
		case "bool":
			return "bool"
		case "int", "int64", "int32", "uint", "uint64":
			return "integer"
		case "float64", "float32":
			return "number"
		}
		return t.Name
	case *ast.SelectorExpr:
		if t.Sel.Name == "Duration" {
			return "duration"
		}
		return t.Sel.Name
	case *ast.ArrayType:
		return "list of " + yamlType(t.Elt)
	case *ast.MapType:
		return "map of " + yamlType(t.Value)
	case *ast.StarExpr:
		return yamlType(t.X)
	}
	return "value"
}
