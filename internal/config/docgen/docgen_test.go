package docgen

import (
	"reflect"
	"testing"
	"time"
)

func TestFormatDefault(t *testing.T) {
	on := true
	tests := []struct {
		name string
		v    any
		key  string
		want string
	}{
		{"zero int", 0, "retries", ""},
		{"int", 10, "max_results", "`10`"},
		{"bytes in MiB", int64(10 << 20), "max_body_bytes", "`10485760` (10 MiB)"},
		{"bytes not whole", int64(1500), "max_body_bytes", "`1500`"},
		{"memory in GiB", int64(2 << 30), "extract_memory", "`2147483648` (2 GiB)"},
		{"not a size", 2048, "max_url_length", "`2048`"},
		{"minutes", 10 * time.Minute, "cache_ttl", "`10m`"},
		{"hours", time.Hour, "ttl", "`1h`"},
		{"mixed", 90 * time.Second, "ttl", "`1m30s`"},
		{"milliseconds", 250 * time.Millisecond, "timeout", "`250ms`"},
		{"string", "auto", "render", "`auto`"},
		{"pipe escaped", "a|b", "x", "`a\\|b`"},
		{"list", []string{"image", "font"}, "block", "`[image, font]`"},
		{"pointer", &on, "enabled", "`true`"},
		{"nil pointer", (*bool)(nil), "enabled", ""},
		{"map", map[string]int{"a": 1}, "policies", ""},
	}
	for _, tt := range tests {
		if got := formatDefault(reflect.ValueOf(tt.v), tt.key); got != tt.want {
			t.Errorf("%s: formatDefault(%v) = %q, want %q", tt.name, tt.v, got, tt.want)
		}
	}
	if got := formatDefault(reflect.Value{}, "x"); got != "" {
		t.Errorf("invalid value: %q", got)
	}
}

func TestFieldValue(t *testing.T) {
	type inner struct{ N int }
	type outer struct {
		In  inner
		P   *inner
		Nil *inner
	}
	v := reflect.ValueOf(&outer{In: inner{N: 1}, P: &inner{N: 2}})
	if got := fieldValue(fieldValue(v, field{name: "In"}), field{name: "N"}); got.Int() != 1 {
		t.Errorf("In.N = %v", got)
	}
	if got := fieldValue(fieldValue(v, field{name: "P"}), field{name: "N"}); got.Int() != 2 {
		t.Errorf("P.N = %v", got)
	}
	if got := fieldValue(fieldValue(v, field{name: "Nil"}), field{name: "N"}); got.IsValid() {
		t.Errorf("Nil.N = %v, want no value", got)
	}
}
