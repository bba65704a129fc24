package textx

import (
	"testing"
	"time"
)

func TestClean(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain  text\n here", "plain text here"},
		{"The <strong>Go</strong> 1.18 release", "The Go 1.18 release"},
		{"we&#x27;ve &amp; they&#39;re &mdash; ok", "we've & they're — ok"},
		{"a < b and c > d", "a < b and c > d"},
		{"line<br>break<p>para</p>", "line break para"},
		{"<b>unclosed", "unclosed"},
		{"nbsp\u00a0...", "nbsp ..."},
		{"", ""},
	}
	for _, tc := range tests {
		if got := Clean(tc.in); got != tc.want {
			t.Errorf("Clean(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestParseTime(t *testing.T) {
	utc := func(y int, m time.Month, d, h, min, s int) time.Time {
		return time.Date(y, m, d, h, min, s, 0, time.UTC)
	}
	tests := []struct {
		in   string
		want time.Time
	}{
		{"2024-02-06T10:11:12Z", utc(2024, 2, 6, 10, 11, 12)},
		{"2024-02-06T10:11:12.123Z", utc(2024, 2, 6, 10, 11, 12).Add(123 * time.Millisecond)},
		{"2022-03-22T10:00:00-07:00", utc(2022, 3, 22, 17, 0, 0)},
		{"2024-02-06T00:00:00", utc(2024, 2, 6, 0, 0, 0)},
		{"2024-02-06T00:00:00.0000000", utc(2024, 2, 6, 0, 0, 0)},
		{"2024-02-06", utc(2024, 2, 6, 0, 0, 0)},
		{"Mar 22, 2022", utc(2022, 3, 22, 0, 0, 0)},
		{"March 22, 2022", utc(2022, 3, 22, 0, 0, 0)},
		{"Tue, 22 Mar 2022 00:00:00 GMT", utc(2022, 3, 22, 0, 0, 0)},
		{"3 days ago", time.Time{}},
		{"", time.Time{}},
	}
	for _, tc := range tests {
		if got := ParseTime(tc.in); !got.Equal(tc.want) {
			t.Errorf("ParseTime(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
