package seal

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

// TestPayloadEncoding pins the hand-written payload encoders to
// json.Marshal byte for byte, so tokens keep their exact plaintext.
func TestPayloadEncoding(t *testing.T) {
	awkward := "a <b> & \"c\" \\ \n\t\x01 é \u2028 \xff"
	now := time.Date(2026, 11, 22, 7, 1, 2, 345600000, time.UTC)
	results := []Result{
		{Version: 1, Query: "q", URL: "https://x.test/", Title: "t", Retrieved: now},
		{Version: 1, Query: awkward, URL: "https://x.test/?a=1&b=<2>", Title: awkward, Snippet: awkward,
			PageAge: "May 1, 2025", Passages: []string{awkward, "p2"}, Provider: "searxng", Retrieved: now.Truncate(time.Second)},
		{Version: 1, Retrieved: time.Date(2026, 1, 1, 0, 0, 0, 1, time.FixedZone("x", 3600))},
		{Version: PayloadVersion, Query: "q", Snippet: "s", Provider: "brave", Retrieved: now},
	}
	for _, r := range results {
		want, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		got, err := appendResultJSON(nil, &r)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("sealed result:\ngot  %s\nwant %s", got, want)
		}
	}
	bad := Result{Retrieved: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}
	if _, err := appendResultJSON(nil, &bad); err == nil {
		t.Error("year 10000: want json.Marshal's error")
	}
	for _, c := range []Citation{{}, {Version: 1, URL: "https://x.test/<&>", Result: 3, CitedText: awkward}, {Version: PayloadVersion, Result: 2}} {
		want, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendCitationJSON(nil, &c); !bytes.Equal(got, want) {
			t.Errorf("sealed citation:\ngot  %s\nwant %s", got, want)
		}
	}
}
