// Package docgen renders the configuration reference (docs/configuration.md)
// from the doc comments on the config package's structs and the values of
// config.Default(), so the reference cannot drift from the code: a test in
// package config fails when the committed file differs from what Generate
// produces.
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
	"time"
)

// Options carries what the doc comments cannot say.
type Options struct {
	// Defaults is the default value of the root struct (config.Default()):
	// every key's default is rendered from it, so no comment needs to
	// repeat it. Zero values, and keys inside lists and maps, show none.
	Defaults any
	// Names lists, for a top-level map keyed by name (e.g. "providers"),
	// the names its entries may have.
	Names map[string][]string
	// Env lists the environment variables provider secrets may come from,
	// one group per provider (a group's variables are joined with " + ").
	Env [][]string
}

// Generate parses the Go package in dir and renders every YAML key reachable
// from the struct named root.
func Generate(dir, root string, o Options) ([]byte, error) {
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
	named := map[string]ast.Expr{}
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
					named[ts.Name.Name] = ts.Type
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
	g := &gen{structs: structs, named: named, typeDocs: typeDocs}
	var b bytes.Buffer
	b.WriteString(header)
	if len(o.Env) > 0 {
		groups := make([]string, len(o.Env))
		for i, vars := range o.Env {
			groups[i] = codeList(vars, " + ")
		}
		fmt.Fprintf(&b, "Provider secrets may also come straight from the environment, where the file\nleaves them empty: %s.\n\n", strings.Join(groups, ", "))
	}
	defaults := reflect.ValueOf(o.Defaults)
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
		g.table(&b, "", scalars, defaults)
	}
	for _, f := range g.fields(rootSt) {
		if _, nested := structs[f.typ]; !nested {
			continue
		}
		if f.elem == ".<name>" && o.Names[f.key] != nil {
			// A map keyed by a known set of names (the providers).
			name := f.key + f.elem
			fmt.Fprintf(&b, "## `%s`\n\n%s\n\n", f.key, oneParagraph(f.doc))
			fmt.Fprintf(&b, "### `%s`\n\n`<name>` is one of: %s.\n\n%s\n\n", name, codeList(o.Names[f.key], ", "), oneParagraph(typeDocs[f.typ]))
			g.section(&b, name, f.typ, reflect.Value{})
			continue
		}
		fmt.Fprintf(&b, "## `%s`\n\n%s\n\n", f.key+f.elem, oneParagraph(f.doc))
		g.section(&b, f.key+f.elem, f.typ, fieldValue(defaults, f))
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
Durations are written like ` + "`500ms`, `15s` or `10m`" + `. The default
column shows the value a key takes when it is left out; where it is empty,
the description says what an unset key means.

`

type field struct {
	key, typ, goType, doc string
	// name is the Go field name, to find the default value.
	name string
	// elem is how a struct nested in a list or map is addressed below
	// the key: "[]" for list items, ".<name>" for map values, "" for a
	// plain struct field.
	elem string
}

type gen struct {
	structs map[string]*ast.StructType
	// named holds the package's named types that are not structs (such
	// as a map type), to see through them.
	named    map[string]ast.Expr
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
		t := f.Type
		if id, ok := t.(*ast.Ident); ok && g.named[id.Name] != nil {
			t = g.named[id.Name]
		}
		for _, n := range f.Names {
			out = append(out, field{key: key, name: n.Name, typ: typeName(t), goType: yamlType(t), doc: txt, elem: elemSuffix(t)})
		}
	}
	return out
}

// section renders the fields of struct typ under prefix, with defaults
// from v (the struct's default value; invalid for none); nested structs
// get their own sub-table (several fields of one struct type, one table).
func (g *gen) section(b *bytes.Buffer, prefix, typ string, v reflect.Value) {
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
		g.table(b, prefix, flat, v)
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
		var sub reflect.Value
		if len(keys) > 1 {
			name = prefix + ".<name>"
			fmt.Fprintf(b, "### `%s`\n\n`<name>` is one of: %s.\n\n%s\n\n", name, codeList(keys, ", "), oneParagraph(g.typeDocs[t]))
		} else {
			var doc string
			for _, f := range nested {
				if f.typ == t {
					doc = f.doc
					sub = fieldValue(v, f)
				}
			}
			fmt.Fprintf(b, "### `%s`\n\n%s\n\n", name, oneParagraph(doc))
		}
		g.section(b, name, t, sub)
	}
}

func (g *gen) table(b *bytes.Buffer, prefix string, fs []field, v reflect.Value) {
	b.WriteString("| key | type | default | description |\n|---|---|---|---|\n")
	for _, f := range fs {
		key := f.key
		if prefix != "" {
			key = prefix + "." + f.key
		}
		fmt.Fprintf(b, "| `%s` | %s | %s | %s |\n", key, f.goType, formatDefault(fieldValue(v, f), f.key), strings.ReplaceAll(oneParagraph(f.doc), "|", `\|`))
	}
	b.WriteString("\n")
}

// fieldValue is field f of the struct v (through pointers), or an invalid
// Value when v is invalid, nil or not a struct (a list or map element).
func fieldValue(v reflect.Value, f field) reflect.Value {
	v = deref(v)
	if !v.IsValid() || v.Kind() != reflect.Struct {
		return reflect.Value{}
	}
	return v.FieldByName(f.name)
}

// deref follows pointers from v to the value they point at, or returns an
// invalid Value at a nil pointer.
func deref(v reflect.Value) reflect.Value {
	for v.IsValid() && v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return reflect.Value{}
		}
		v = v.Elem()
	}
	return v
}

// formatDefault renders the default value of key as a YAML author would
// write it, or "" for an invalid or zero value. Sizes in bytes (keys that
// name bytes or memory) are also shown in KiB, MiB or GiB.
func formatDefault(v reflect.Value, key string) string {
	v = deref(v)
	if !v.IsValid() || v.IsZero() {
		return ""
	}
	if d, ok := v.Interface().(time.Duration); ok {
		return "`" + formatDuration(d) + "`"
	}
	switch v.Kind() {
	case reflect.Slice:
		items := make([]string, v.Len())
		for i := range items {
			items[i] = fmt.Sprint(v.Index(i).Interface())
		}
		return "`[" + strings.Join(items, ", ") + "]`"
	case reflect.Map, reflect.Struct:
		return ""
	case reflect.Int, reflect.Int64:
		if strings.Contains(key, "bytes") || strings.Contains(key, "memory") {
			return fmt.Sprintf("`%d`%s", v.Int(), binarySize(v.Int()))
		}
	}
	return "`" + strings.ReplaceAll(fmt.Sprint(v.Interface()), "|", `\|`) + "`"
}

// binarySize is " (n MiB)" and the like for a whole number of KiB, MiB
// or GiB, else "".
func binarySize(n int64) string {
	for _, u := range []struct {
		name string
		size int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.size && n%u.size == 0 {
			return fmt.Sprintf(" (%d %s)", n/u.size, u.name)
		}
	}
	return ""
}

// formatDuration drops the zero units time.Duration.String keeps: 10m, not
// 10m0s; 1h, not 1h0m0s.
func formatDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// oneParagraph joins a doc comment's lines so it fits a table cell.
func oneParagraph(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func codeList(keys []string, sep string) string {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = "`" + k + "`"
	}
	return strings.Join(q, sep)
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
