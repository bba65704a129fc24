package openai

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// scanAll feeds in whole and byte by byte; both must agree.
func scanAll(t *testing.T, in []byte) objectScanner {
	t.Helper()
	var whole, split objectScanner
	whole.feed(in)
	for i := range in {
		split.feed(in[i : i+1])
	}
	if whole.complete != split.complete || whole.invalid != split.invalid {
		t.Fatalf("%q: whole complete=%v invalid=%v, split complete=%v invalid=%v", in, whole.complete, whole.invalid, split.complete, split.invalid)
	}
	return whole
}

// isObject reports what the scanner must accept: valid JSON whose
// top-level value is an object.
func isObject(b []byte) bool {
	t := bytes.TrimLeft(b, " \t\r\n")
	return json.Valid(b) && len(t) > 0 && t[0] == '{'
}

func TestObjectScannerTable(t *testing.T) {
	for _, c := range []struct {
		in               string
		complete, broken bool
	}{
		{`{}`, true, false},
		{` {"a" : [1, -2.5e3, true, false, null, "x\u00e9\n"], "b": {}} `, true, false},
		{`{"a":`, false, false},
		{`{"a":"\u12`, false, false},
		{`{"a":1`, false, false},
		{`{"a":1.`, false, false},
		{`{"a":01}`, false, true},
		{`{"a":1.}`, false, true},
		{`{"a":-}`, false, true},
		{`{"a":1e}`, false, true},
		{`{"a":tru}`, false, true},
		{`{"a":"\x"}`, false, true},
		{"{\"a\":\"\t\"}", false, true},
		{`{"a" 1}`, false, true},
		{`{"a":1,}`, false, true},
		{`{,}`, false, true},
		{`{"a":[1,]}`, false, true},
		{`{"a":[}`, false, true},
		{`{} {}`, true, true},
		{`[]`, false, true},
		{`null`, false, true},
		{`"{}"`, false, true},
		{strings.Repeat(`{"a":`, maxScanDepth+1), false, true},
	} {
		s := scanAll(t, []byte(c.in))
		if s.complete != c.complete || s.invalid != c.broken {
			t.Errorf("%q: complete=%v invalid=%v, want %v %v", c.in, s.complete, s.invalid, c.complete, c.broken)
		}
	}
}

// FuzzObjectScanner checks the scanner against encoding/json: it accepts
// exactly the valid objects, calls no prefix of a valid object invalid,
// and agrees with itself however the input is split.
func FuzzObjectScanner(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":[1,2,{"b":null}],"c":"\u00e9\"x"}`, `{"n":-0.1e-5}`, `{"a":}`, `[1]`, ` {"k":true} `} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if bytes.Count(in, []byte("{"))+bytes.Count(in, []byte("[")) >= maxScanDepth {
			return // the depth limit is checked by the table test
		}
		s := scanAll(t, in)
		ok := s.complete && !s.invalid
		if want := isObject(in); ok != want {
			t.Fatalf("%q: scanner accepts=%v, encoding/json object=%v", in, ok, want)
		}
		if isObject(in) {
			for i := range in {
				var p objectScanner
				p.feed(in[:i])
				if p.invalid {
					t.Fatalf("prefix %q of valid %q called invalid", in[:i], in)
				}
			}
		}
	})
}
