package emulate

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var fastDeltaSeeds = []string{
	`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello"}}`,
	`{"type":"content_block_delta","index":12,"delta":{"type":"text_delta","text":"a \"quoted\" \u00e9 line\nnext"}}`,
	`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"query\": \"go"}}`,
	`{"type":"content_block_delta","index":2,"delta":{"type":"thinking_delta","thinking":"Let me think."}}`,
	`{"type":"content_block_delta","index":3,"delta":{"type":"signature_delta","signature":"abc"}}`,
	`{"type":"content_block_delta","index":01,"delta":{"type":"text_delta","text":"x"}}`,
	`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"},"extra":1}`,
	`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"b"}}`,
	`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"\x"}}`,
	`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"` + "\xff" + `"}}`,
	`{"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "spaced"}}`,
}

// TestFastDelta pins which forms take the fast path.
func TestFastDelta(t *testing.T) {
	want := []bool{true, true, true, true, false, false, false, false, false, true, false}
	for i, s := range fastDeltaSeeds {
		if _, _, _, ok := fastDelta([]byte(s)); ok != want[i] {
			t.Errorf("%s: fast %v, want %v", s, ok, want[i])
		}
		checkFastDelta(t, []byte(s))
	}
}

// FuzzFastDelta checks that whenever fastDelta decodes an event, it
// agrees with encoding/json, which the general path uses.
func FuzzFastDelta(f *testing.F) {
	for _, s := range fastDeltaSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(checkFastDelta)
}

func checkFastDelta(t *testing.T, data []byte) {
	index, raw, d, ok := fastDelta(data)
	if !ok {
		return
	}
	var u upEvent
	if err := json.Unmarshal(data, &u); err != nil {
		t.Fatalf("fast path took %q, encoding/json refuses it: %v", data, err)
	}
	var want delta
	if err := json.Unmarshal(u.Delta, &want); err != nil {
		t.Fatalf("fast path took %q, its delta does not decode: %v", data, err)
	}
	if u.Type != "content_block_delta" || u.Index != index || !bytes.Equal(u.Delta, raw) {
		t.Fatalf("%q: fast (%d, %s), encoding/json (%s, %d, %s)", data, index, raw, u.Type, u.Index, u.Delta)
	}
	if diff := cmp.Diff(want, d); diff != "" {
		t.Fatalf("%q: delta (-encoding/json +fast):\n%s", data, diff)
	}
}
