package guard

import (
	"bufio"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// The secret-detection corpus: templates of queries and URLs that hold a
// secret (secrets-positive.txt, filled with generated values) and real
// text that holds none (secrets-negative.txt). TestSecretCorpus reports
// precision and recall and fails below the floors; run it with -v to see
// every miss and false alarm.

const (
	alnum    = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	b64      = alnum + "+/"
	b64url   = alnum + "-_"
	hexLower = "0123456789abcdef"
	lowerNum = "0123456789abcdefghijklmnopqrstuvwxyz"
	upperNum = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	base32   = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
)

type gen struct{ r *rand.Rand }

func (g gen) s(alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[g.r.IntN(len(alphabet))]
	}
	return string(b)
}

func (g gen) jwt() string {
	enc := base64.RawURLEncoding
	h := enc.EncodeToString([]byte(`{"alg":"RS256","typ":"JWT","kid":"` + g.s(alnum, 8) + `"}`))
	p := enc.EncodeToString([]byte(fmt.Sprintf(`{"sub":"%d","iat":%d,"exp":%d}`, g.r.IntN(1e9), 1.7e9+g.r.IntN(1e7), 1.8e9+g.r.IntN(1e7))))
	return h + "." + p + "." + g.s(b64url, 86)
}

// values maps each placeholder to a generator.
func (g gen) values() map[string]func() string {
	hexN := func(n int) string { return g.s(hexLower, n) }
	return map[string]func() string{
		"aws_akid":   func() string { return "AKIA" + g.s(base32, 16) },
		"aws_secret": func() string { return g.s(b64, 40) },
		"ghp":        func() string { return "ghp_" + g.s(alnum, 36) },
		"gho":        func() string { return "gho_" + g.s(alnum, 36) },
		"ghs":        func() string { return "ghs_" + g.s(alnum, 36) },
		"github_pat": func() string { return "github_pat_" + g.s(alnum, 22) + "_" + g.s(alnum, 59) },
		"glpat":      func() string { return "glpat-" + g.s(b64url, 20) },
		"slack_bot": func() string {
			return "xoxb-" + g.s("0123456789", 12) + "-" + g.s("0123456789", 13) + "-" + g.s(alnum, 24)
		},
		"slack_user": func() string {
			return "xoxp-" + g.s("0123456789", 12) + "-" + g.s("0123456789", 12) + "-" + g.s("0123456789", 13) + "-" + hexN(32)
		},
		"slack_webhook": func() string {
			return "https://hooks.slack.com/services/T" + g.s(upperNum, 8) + "/B" + g.s(upperNum, 10) + "/" + g.s(alnum, 24)
		},
		"slack_webhook_host": func() string {
			return "hooks.slack.com/services/T" + g.s(upperNum, 8) + "/B" + g.s(upperNum, 10) + "/" + g.s(alnum, 24)
		},
		"stripe_live":   func() string { return "sk_live_" + g.s(alnum, 24) },
		"stripe_test":   func() string { return "sk_test_" + g.s(alnum, 24) },
		"stripe_rk":     func() string { return "rk_live_" + g.s(alnum, 99) },
		"openai_proj":   func() string { return "sk-proj-" + g.s(b64url, 156) },
		"openai_legacy": func() string { return "sk-" + g.s(alnum, 20) + "T3BlbkFJ" + g.s(alnum, 20) },
		"anthropic":     func() string { return "sk-ant-api03-" + g.s(b64url, 93) + "AA" },
		"google":        func() string { return "AIza" + g.s(b64url, 35) },
		"gcp_secret":    func() string { return "GOCSPX-" + g.s(b64url, 28) },
		"ya29":          func() string { return "ya29." + g.s(b64url, 120) },
		"azure_conn": func() string {
			return "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=" + g.s(b64, 86) + "==;EndpointSuffix=core.windows.net"
		},
		"azure_ad":     func() string { return g.s(alnum, 3) + g.s("0123456789", 1) + "Q~" + g.s(alnum+"_~.-", 34) },
		"hf":           func() string { return "hf_" + g.s(alnum, 34) },
		"npm":          func() string { return "npm_" + g.s(alnum, 36) },
		"pypi":         func() string { return "pypi-AgEIcHlwaS5vcmc" + g.s(b64url, 70) },
		"sendgrid":     func() string { return "SG." + g.s(b64url, 22) + "." + g.s(b64url, 43) },
		"twilio":       func() string { return "SK" + hexN(32) },
		"do":           func() string { return "dop_v1_" + hexN(64) },
		"shopify":      func() string { return "shpat_" + hexN(32) },
		"databricks":   func() string { return "dapi" + hexN(32) },
		"telegram":     func() string { return g.s("123456789", 10) + ":AA" + g.s(b64url, 33) },
		"discord":      func() string { return "M" + g.s(b64url, 23) + "." + g.s(b64url, 6) + "." + g.s(b64url, 27) },
		"atlassian":    func() string { return "ATATT3" + g.s(b64url, 180) },
		"linear":       func() string { return "lin_api_" + g.s(alnum, 40) },
		"age":          func() string { return "AGE-SECRET-KEY-1" + g.s("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58) },
		"wgk":          func() string { return "wgk_" + g.s(alnum, 43) },
		"jwt":          g.jwt,
		"pem_rsa":      func() string { return "-----BEGIN RSA PRIVATE KEY-----" },
		"pem_openssh":  func() string { return "-----BEGIN OPENSSH PRIVATE KEY-----" },
		"pem_pkcs8":    func() string { return "-----BEGIN PRIVATE KEY-----" },
		"pem_ec":       func() string { return "-----BEGIN EC PRIVATE KEY-----" },
		"pem_pgp":      func() string { return "-----BEGIN PGP PRIVATE KEY BLOCK-----" },
		"pgurl":        func() string { return "postgres://app:" + g.s(alnum, 20) + "@db.prod.example.com:5432/app" },
		"mongourl":     func() string { return "mongodb+srv://svc:" + g.s(alnum, 18) + "@cluster0.abcde.mongodb.net/prod" },
		"password":     func() string { return g.s(alnum, 6) + "!" + g.s(alnum, 5) },
		"rand16":       func() string { return g.s(alnum, 16) },
		"rand24":       func() string { return g.s(alnum, 24) },
		"hex32":        func() string { return g.s(hexLower, 32) },
		"basic":        func() string { return base64.StdEncoding.EncodeToString([]byte("svc-deploy:" + g.s(alnum, 18))) },
		"rand32":       func() string { return g.s(alnum, 32) },
		"rand40":       func() string { return g.s(alnum, 40) },
		"randlower32":  func() string { return g.s(lowerNum, 32) },
		"randlower40":  func() string { return g.s(lowerNum, 40) },
		"randupper32":  func() string { return g.s(upperNum, 32) },
		"randb64url48": func() string { return g.s(b64url, 48) },
	}
}

var placeholderRe = regexp.MustCompile(`\{([a-z0-9_]+)\}`)

type corpusCase struct {
	want string // expected rule; "" for a negative
	text string
	url  bool
	line int
}

func readCorpus(t *testing.T, path string, positive bool, g gen) []corpusCase {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	vals := g.values()
	var out []corpusCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		c := corpusCase{line: n}
		if positive {
			var ok bool
			c.want, line, ok = strings.Cut(line, "\t")
			if !ok {
				t.Fatalf("%s:%d: want <rule>\\t<text>", path, n)
			}
		}
		line = placeholderRe.ReplaceAllStringFunc(line, func(m string) string {
			fn := vals[m[1:len(m)-1]]
			if fn == nil {
				t.Fatalf("%s:%d: unknown placeholder %s", path, n, m)
			}
			return fn()
		})
		c.text, c.url = strings.CutPrefix(line, "url:")
		out = append(out, c)
	}
	return out
}

// corpusDetector is configured as a team would: with its internal domains.
func corpusDetector() *Detector {
	return NewDetector(Options{HighEntropy: true, InternalHosts: []string{"corp.acme.com", "acme.internal"}})
}

// Floors the corpus must stay above. Raise them when the detector improves.
const (
	minPrecision = 0.95
	minRecall    = 0.97
)

func TestSecretCorpus(t *testing.T) {
	g := gen{rand.New(rand.NewPCG(7, 11))}
	pos := readCorpus(t, "testdata/secrets-positive.txt", true, g)
	neg := readCorpus(t, "testdata/secrets-negative.txt", false, g)
	d := corpusDetector()
	scan := func(c corpusCase) []Finding {
		if c.url {
			return d.ScanURL(c.text)
		}
		return d.Scan(c.text)
	}
	var tp, fn, fp, tn, wrongRule int
	missedBy := map[string]int{}
	for _, c := range pos {
		fs := scan(c)
		if len(fs) == 0 {
			fn++
			missedBy[c.want]++
			t.Logf("MISSED (line %d, %s): %s", c.line, c.want, c.text)
			continue
		}
		tp++
		found := false
		for _, f := range fs {
			found = found || f.Rule == c.want
		}
		if !found {
			wrongRule++
			t.Logf("other rule (line %d): want %s, got %v: %s", c.line, c.want, rules(fs), c.text)
		}
	}
	for _, c := range neg {
		fs := scan(c)
		if len(fs) == 0 {
			tn++
			continue
		}
		fp++
		t.Logf("FALSE ALARM (line %d, %v): %s", c.line, rules(fs), c.text)
	}
	precision := float64(tp) / float64(tp+fp)
	recall := float64(tp) / float64(tp+fn)
	t.Logf("secret corpus: %d positives, %d negatives; TP %d FN %d FP %d TN %d; precision %.3f recall %.3f; %d found under another rule",
		len(pos), len(neg), tp, fn, fp, tn, precision, recall, wrongRule)
	if precision < minPrecision || recall < minRecall {
		keys := make([]string, 0, len(missedBy))
		for k := range missedBy {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		t.Errorf("precision %.3f (floor %.2f), recall %.3f (floor %.2f); missed rules: %v", precision, minPrecision, recall, minRecall, keys)
	}
}

func rules(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Rule)
	}
	return out
}
