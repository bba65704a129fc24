package guard

import (
	"strings"
	"testing"
)

// TestIsPlainASCII puts one non-ASCII byte at every position of strings
// around the eight-byte stride.
func TestIsPlainASCII(t *testing.T) {
	for n := range 20 {
		plain := strings.Repeat("a", n)
		if !isPlainASCII(plain) {
			t.Errorf("isPlainASCII(%q) = false", plain)
		}
		for i := range n {
			b := []byte(plain)
			b[i] = 0x80
			if isPlainASCII(string(b)) {
				t.Errorf("isPlainASCII(%q) = true", b)
			}
		}
	}
}
