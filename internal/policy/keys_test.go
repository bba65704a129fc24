package policy

import "testing"

func TestContainsKeyShaped(t *testing.T) {
	key, _ := GenerateKey()
	for _, tt := range []struct {
		in   string
		want bool
	}{
		{key, true},
		{"Bearer " + key, true},
		{"token=" + key + "&x=1", true},
		{"wgk_short", false},
		{"wgk_" + key[4:46], false},
		{"no key here", false},
		{"wgk_wgk_" + key[4:], true},
	} {
		if got := ContainsKeyShaped(tt.in); got != tt.want {
			t.Errorf("ContainsKeyShaped(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
