package guard

import (
	"encoding/base64"
	"math"
	"regexp"
	"strings"
	"unicode"
)

// Checks that keep loose vendor shapes and the generic rules from matching
// ordinary text. They err on the side of flagging: a refused query costs a
// rephrase, a leaked key costs a rotation.

// notExample rejects the placeholder keys vendors print in their docs
// (AWS's AKIAIOSFODNN7EXAMPLE), which people search for verbatim.
func notExample(s string) bool { return !strings.Contains(strings.ToUpper(s), "EXAMPLE") }

// notAllSame rejects "AKIAXXXXXXXXXXXXXXXX" style placeholders.
func notAllSame(s string) bool {
	if !notExample(s) {
		return false
	}
	tail := s[4:]
	return strings.Count(tail, tail[:1]) < len(tail)-2
}

type classes struct{ lower, upper, digit, other, n int }

func classify(s string) classes {
	var c classes
	for _, r := range s {
		c.n++
		switch {
		case r >= 'a' && r <= 'z':
			c.lower++
		case r >= 'A' && r <= 'Z':
			c.upper++
		case r >= '0' && r <= '9':
			c.digit++
		default:
			c.other++
		}
	}
	return c
}

// entropy is the Shannon entropy of s in bits per character.
func entropy(s string) float64 {
	if s == "" {
		return 0
	}
	var counts [256]int
	n := 0
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
		n++
	}
	h := 0.0
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / float64(n)
			h -= p * math.Log2(p)
		}
	}
	return h
}

// mixed accepts a value with letters and digits, as 40-character AWS
// secrets (and most machine-made keys) have.
func mixed(s string) bool {
	c := classify(s)
	return notExample(s) && c.digit > 0 && c.lower+c.upper > 0
}

// random accepts values that look machine-generated rather than written:
// letters and digits, enough character entropy, and letter pairs that do
// not read like English (see wordy).
func random(s string) bool {
	if !notExample(s) {
		return false
	}
	c := classify(s)
	return c.digit > 0 && c.lower+c.upper > 0 && entropy(s) >= 3.3 && !wordy(s)
}

// commonBigrams are the 50 most frequent letter pairs of English text. In
// words, camelCase identifiers and hyphenated names 40 to 55% of the letter
// pairs are among them; in random characters 7% on average, and above 35%
// in well under 1% of random 24-character values (measured on 20,000).
var commonBigrams = func() [26][26]bool {
	var t [26][26]bool
	for _, bg := range strings.Fields(`th he in er an re on at en nd ti es or te of ed is it al ar st to nt ng se ha as ou io le ve co me de hi ri ro ic ne ea ra ce li ch ll be ma si om ur`) {
		t[bg[0]-'a'][bg[1]-'a'] = true
	}
	return t
}()

// wordy reports whether s reads like words: 35% or more of its letter
// pairs are common English bigrams.
func wordy(s string) bool {
	pairs, common := 0, 0
	prev := byte(0)
	for i := 0; i < len(s); i++ {
		b := lowerASCII(s[i])
		if b >= 'a' && b <= 'z' && prev >= 'a' && prev <= 'z' {
			pairs++
			if commonBigrams[prev-'a'][b-'a'] {
				common++
			}
		}
		prev = b
	}
	return pairs >= 4 && float64(common) >= 0.35*float64(pairs)
}

func lowerASCII(b byte) byte {
	if b >= 'A' && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

// digitLetterSwitchRate is the share of adjacent alphanumeric pairs that
// switch between a digit and a letter: high when digits are sprinkled
// through a random value, low for "ubuntu2204" or "release20240115".
func digitLetterSwitchRate(s string) float64 {
	pairs, switches := 0, 0
	prev := byte(0)
	for i := 0; i < len(s); i++ {
		b := s[i]
		if isAlnum(b) && isAlnum(prev) {
			pairs++
			if isDigit(b) != isDigit(prev) {
				switches++
			}
		}
		prev = b
	}
	if pairs == 0 {
		return 0
	}
	return float64(switches) / float64(pairs)
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }
func isAlnum(b byte) bool {
	return isDigit(b) || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

var placeholders = []string{"password", "passwd", "pass", "pwd", "secret", "changeme", "token", "apikey", "api_key", "yourpassword", "mypassword", "redacted", "hunter2", "guest", "admin", "root", "user", "test", "demo", "null", "none", "undefined", "string", "required", "optional", "true", "false"}

// notPlaceholder rejects template values and the words people put where a
// password goes in examples ("user:password@host").
func notPlaceholder(s string) bool {
	l := strings.ToLower(s)
	if strings.Trim(l, "*x.") == "" || strings.ContainsAny(s[:1], "$<{%[(") ||
		strings.Contains(l, "your") || strings.Contains(l, "xxxx") || screamingCase.MatchString(s) {
		return false
	}
	for _, p := range placeholders {
		if l == p {
			return false
		}
	}
	return notExample(s)
}

// screamingCase matches environment variable names used as placeholders
// (YOUR_API_KEY, API_TOKEN).
var screamingCase = regexp.MustCompile(`^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$`)

// codeLike matches values that are expressions, not literals:
// os.environ["X"], process.env.X, getenv("X"), response.json().
var codeLike = regexp.MustCompile(`[()\[\]]|^(?:os\.|process\.|env\.|self\.|this\.|config\.|settings\.|request\.|req\.)`)

// credentialValue accepts the value of "password=...", "api_key: ..."
// when it looks like a literal secret: not a placeholder, not code, not a
// plain word, with at least two kinds of character.
func credentialValue(s string) bool {
	if !notPlaceholder(s) || codeLike.MatchString(s) {
		return false
	}
	c := classify(s)
	kinds := 0
	for _, k := range []int{c.lower, c.upper, c.digit, c.other} {
		if k > 0 {
			kinds++
		}
	}
	if kinds < 2 || c.lower+c.upper == 0 {
		return false
	}
	// "token: Bearer" style prose: one capitalised word.
	if c.digit == 0 && c.other == 0 && c.upper == 1 && unicode.IsUpper(rune(s[0])) {
		return false
	}
	return true
}

// tokenRuns returns the spans of runs of 24 or more characters random
// tokens are made of, with up to two characters of base64 padding. '/',
// '.' and '=' inside are left out: they separate path segments, file
// names, host labels and name=value pairs far more often than they appear
// inside keys. (A hand-written scan: the equivalent regexp, with its
// 24-fold repetition, cost more than all the vendor rules together.)
func tokenRuns(text string) [][2]int {
	var out [][2]int
	for i := 0; i < len(text); {
		if !isTokenByte(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isTokenByte(text[j]) {
			j++
		}
		if j-i >= minTokenRun {
			e := j
			for k := 0; k < 2 && e < len(text) && text[e] == '='; k++ {
				e++
			}
			out = append(out, [2]int{i, e})
		}
		i = j
	}
	return out
}

// minTokenRun is the shortest token the generic rule considers.
const minTokenRun = 24

func isTokenByte(b byte) bool { return isAlnum(b) || b == '_' || b == '+' || b == '-' }

// uuidRe finds UUIDs inside longer tokens ("PartUUID-4a67b082-...").
var uuidRe = regexp.MustCompile(`[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}`)

var hexLike = regexp.MustCompile(`^[0-9a-fA-F-]+$`)

// highEntropyTokens is the generic rule: runs of 24 or more token
// characters that look machine-generated. Hexadecimal strings (git commit
// ids, content hashes, UUIDs) are never matched: they are far more often
// identifiers people search for than secrets, and hex keys of known
// formats have vendor rules.
func highEntropyTokens(text string) []Finding {
	var out []Finding
	for _, loc := range tokenRuns(text) {
		s, e := loc[0], loc[1]
		tok := strings.Trim(uuidRe.ReplaceAllString(text[s:e], ""), "_-=+")
		if len(tok) < minTokenRun {
			continue
		}
		if looksRandom(tok) {
			out = append(out, Finding{Rule: "high_entropy", Desc: "a long random token (possibly a key or password)", Start: s, End: e})
		}
	}
	return out
}

func looksRandom(tok string) bool {
	if hexLike.MatchString(strings.TrimPrefix(tok, "0x")) || !notExample(tok) || publicID(tok) {
		return false
	}
	c := classify(tok)
	if c.digit == 0 || c.lower+c.upper == 0 {
		return false
	}
	// Hyphenated or underscored phrases ("my-long-package-name-v2") are
	// words; a random value has long unbroken stretches.
	longest := 0
	for _, seg := range strings.FieldsFunc(tok, func(r rune) bool { return r == '-' || r == '_' || r == '+' || r == '=' }) {
		longest = max(longest, len(seg))
	}
	if longest < 16 || wordy(tok) || isPrintableBase64(tok) {
		return false
	}
	h := entropy(tok)
	if c.lower > 0 && c.upper > 0 {
		return h >= 3.6
	}
	// One letter case plus digits (base36-style keys): the digits must
	// be scattered, not a version or date glued to a word.
	return h >= 3.6 && digitLetterSwitchRate(tok) >= 0.15
}

// publicIDPrefixes start object ids that APIs print in responses, logs and
// dashboards. They look random but grant nothing, and people search for
// them when debugging.
var publicIDPrefixes = []string{
	// Stripe objects.
	"cus_", "card_", "src_", "ba_", "pi_", "pm_", "price_", "prod_", "sub_", "in_", "ch_", "evt_", "acct_", "seti_", "txn_", "cs_", "po_", "re_", "si_", "il_", "ii_",
	// Anthropic and OpenAI ids.
	"msg_", "req_", "toolu_", "srvtoolu_", "msgbatch_", "file_", "chatcmpl-", "asst_", "thread_", "run_", "batch_",
	// Vercel and others.
	"dpl_", "prj_", "team_",
	// Subresource integrity hashes.
	"sha256-", "sha384-", "sha512-",
	// Base64 of SSH public-key algorithm names (public keys).
	"AAAAB3NzaC1", "AAAAC3NzaC1", "AAAAE2VjZHNh",
	// Base64 of file signatures (PNG, GIF, PDF, ZIP) in data URIs.
	"iVBORw0KGgo", "R0lGOD", "JVBERi0", "UEsDB",
}

var (
	// ulid is a ULID: 26 Crockford base32 characters, a timestamp first.
	ulid = regexp.MustCompile(`^[0-7][0-9A-HJKMNP-TV-Z]{25}$`)
	// base58Address is a Bitcoin address (base58, no 0, O, I or l).
	base58Address = regexp.MustCompile(`^[13][1-9A-HJ-NP-Za-km-z]{25,34}$`)
)

// publicID reports whether tok has the shape of a public identifier.
func publicID(tok string) bool {
	for _, p := range publicIDPrefixes {
		if strings.HasPrefix(tok, p) {
			return true
		}
	}
	return ulid.MatchString(tok) || base58Address.MatchString(tok)
}

// isPrintableBase64 reports whether tok decodes as base64 to ordinary
// text (words and spaces), which is an encoded sentence someone is asking
// about rather than a key. Encoded credentials ("user:password") hold a
// colon and are not excused.
func isPrintableBase64(tok string) bool {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		b, err := enc.DecodeString(tok)
		if err != nil {
			continue
		}
		printable, spaces := 0, 0
		for _, c := range b {
			if c == ' ' {
				spaces++
			}
			if c >= 0x20 && c < 0x7f || c == '\n' {
				printable++
			}
			if c == ':' {
				return false
			}
		}
		return len(b) > 0 && printable == len(b) && spaces > 0
	}
	return false
}

// basicCredentials accepts a basic-auth value that decodes to
// "user:password".
func basicCredentials(s string) bool {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return false
	}
	user, pass, ok := strings.Cut(string(b), ":")
	return ok && user != "" && len(pass) >= 3 && notPlaceholder(pass)
}
