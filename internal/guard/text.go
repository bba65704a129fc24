package guard

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// CleanText removes invisible Unicode from text a model will read, and
// reports how many characters it removed. What goes:
//
//   - tag characters (U+E0000–U+E007F), which render as nothing and can
//     spell out a whole hidden ASCII message ("ASCII smuggling");
//   - bidirectional embedding, override and isolate controls
//     (U+202A–U+202E, U+2066–U+2069), which reorder what is displayed
//     ("Trojan Source");
//   - zero-width and other invisible format characters: zero-width space,
//     word joiner, invisible operators, soft hyphen, BOM, Mongolian vowel
//     separator, interlinear annotation marks, Hangul fillers and the
//     like (every character of Unicode category Cf, less the few visible
//     ones);
//   - runs of two or more variation selectors, which can carry hidden
//     bytes, and a variation selector that follows nothing visible.
//
// Invalid UTF-8 comes back as U+FFFD. What stays: a single zero-width joiner or non-joiner between two
// visible characters (emoji sequences, Persian and Indic scripts need
// them), a single variation selector after a visible character (emoji
// presentation), and left-to-right / right-to-left marks, which steer
// display of mixed-direction text without hiding anything.
func CleanText(s string) (string, int) {
	if isPlainASCII(s) {
		return s, 0
	}
	if !utf8.ValidString(s) {
		// Removing a character between two stray bytes could join them
		// into a new one; invalid bytes become U+FFFD first.
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	var b strings.Builder
	removed := 0
	started := false     // b holds s[:i] minus what was removed
	prevVisible := false // the last kept rune shows as something
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			// A run of ASCII is kept whole: nothing in it is invisible,
			// and after it the last byte decides what is visible.
			j := i + 1
			for j < len(s) && s[j] < utf8.RuneSelf {
				j++
			}
			if started {
				b.WriteString(s[i:j])
			}
			c := s[j-1]
			prevVisible = c > ' ' && c != 0x7f
			i = j
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		drop := 0 // bytes to drop from i
		switch {
		case r == 0x200C || r == 0x200D:
			next, nsize := utf8.DecodeRuneInString(s[i+size:])
			if !prevVisible || nsize == 0 || !visible(next) {
				drop = size
			}
		case isVariationSelector(r):
			next, _ := utf8.DecodeRuneInString(s[i+size:])
			if !prevVisible || isVariationSelector(next) {
				// After nothing visible, or a run: the whole run goes.
				n := 0
				for drop < len(s)-i {
					r2, s2 := utf8.DecodeRuneInString(s[i+drop:])
					if !isVariationSelector(r2) {
						break
					}
					drop += s2
					n++
				}
				removed += n - 1 // the last one is counted below
			}
		case invisible(r):
			drop = size
		}
		if drop > 0 {
			if !started {
				started = true
				b.Grow(len(s))
				b.WriteString(s[:i])
			}
			removed++
			i += drop
			// What follows a removed character is not "after a visible
			// one": "a<ZWJ><ZWJ>b" loses both joiners.
			prevVisible = false
			continue
		}
		if started {
			b.WriteString(s[i : i+size])
		}
		// A kept variation selector or joiner does not change whether
		// the character before was visible.
		if !isVariationSelector(r) && r != 0x200C && r != 0x200D {
			prevVisible = visible(r)
		} else if isVariationSelector(r) {
			prevVisible = false
		}
		i += size
	}
	if removed == 0 {
		return s, 0
	}
	return b.String(), removed
}

func isPlainASCII(s string) bool {
	// Eight bytes at a time first: titles and snippets are checked on
	// every search answered, cached or not.
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if t := s[i : i+8]; t[0]|t[1]|t[2]|t[3]|t[4]|t[5]|t[6]|t[7] >= utf8.RuneSelf {
			return false
		}
	}
	for ; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func isVariationSelector(r rune) bool {
	return r >= 0xFE00 && r <= 0xFE0F || r >= 0xE0100 && r <= 0xE01EF || r >= 0x180B && r <= 0x180D || r == 0x180F
}

// visibleFormat are format (Cf) characters that do display something.
var visibleFormat = map[rune]bool{
	0x0600: true, 0x0601: true, 0x0602: true, 0x0603: true, 0x0604: true, 0x0605: true,
	0x06DD: true, 0x070F: true, 0x0890: true, 0x0891: true, 0x08E2: true, 0x110BD: true, 0x110CD: true,
	// Left-to-right and right-to-left marks steer, they do not hide.
	0x200E: true, 0x200F: true, 0x061C: true,
}

// invisible reports characters that are removed outright.
func invisible(r rune) bool {
	switch {
	case r >= 0xE0000 && r <= 0xE007F: // tags
		return true
	case r == 0x115F || r == 0x1160 || r == 0x3164 || r == 0xFFA0: // Hangul fillers
		return true
	case r == 0x17B4 || r == 0x17B5 || r == 0x034F || r == 0x180E: // Khmer inherent vowels, CGJ, Mongolian vowel separator
		return true
	case r == 0x2800: // braille blank renders as white space
		return false
	}
	return unicode.Is(unicode.Cf, r) && !visibleFormat[r]
}

// visible reports whether r shows as something (not white space, not a
// control or format character).
func visible(r rune) bool {
	return r != utf8.RuneError && !unicode.IsSpace(r) && !unicode.IsControl(r) && !unicode.Is(unicode.Cf, r) && !isVariationSelector(r)
}
