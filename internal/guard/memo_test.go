package guard

import (
	"fmt"
	"strings"
	"testing"
)

// TestCleanMemo: a clean text is remembered and a second scan of it
// skips the rules; a text with a secret, a URL scan and an overlong text
// are never remembered; texts that share a slot do not confuse it.
func TestCleanMemo(t *testing.T) {
	d := NewDetector(Options{HighEntropy: true})
	clean, secret := "golang generics tutorial", "key ghp_"+strings.Repeat("a1B2", 9)
	if fs := d.Scan(clean); fs != nil {
		t.Fatalf("Scan(%q) = %v", clean, fs)
	}
	if !memoHas(&d.clean, clean) {
		t.Error("a clean query is not remembered")
	}
	for range 2 {
		if fs := d.Scan(secret); len(fs) == 0 {
			t.Fatalf("Scan(%q) found nothing", secret)
		}
	}
	if memoHas(&d.clean, secret) {
		t.Error("a text with a secret is remembered as clean")
	}
	d.ScanURL("https://example.com/clean")
	if memoHas(&d.clean, "https://example.com/clean") {
		t.Error("a URL scan is remembered")
	}
	long := strings.Repeat("plain words ", maxMemoText/12+1)
	d.Scan(long)
	if memoHas(&d.clean, long) {
		t.Error("an overlong text is remembered")
	}
	// Fill every slot with other clean texts: the secret stays a secret
	// whatever slot it shares, and the first clean text is scanned afresh
	// once pushed out.
	for i := range 4 * cleanMemoSlots {
		d.Scan(fmt.Sprintf("query number %d", i))
	}
	if fs := d.Scan(secret); len(fs) == 0 {
		t.Error("after many clean texts, the secret is no longer found")
	}
	if fs := d.Scan(clean); fs != nil {
		t.Errorf("Scan(%q) = %v after the memo turned over", clean, fs)
	}
}

// memoHas reports whether m remembers text as clean.
func memoHas(m *cleanMemo, text string) bool {
	return remembered(m.slot(text), text)
}
