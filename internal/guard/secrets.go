package guard

import (
	"errors"
	"fmt"
	"hash/maphash"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
)

// ErrSecret is wrapped by every refusal of the query guard.
var ErrSecret = errors.New("secret detected")

// SecretError is the refusal of a query or URL that looks like it holds a
// secret. Its message names the kinds found, never the text.
type SecretError struct {
	// What is "query" or "URL".
	What string
	// Kinds are the descriptions of what was found, e.g. "a GitHub token".
	Kinds []string
}

func (e *SecretError) Error() string {
	return fmt.Sprintf("the %s appears to contain %s; webgate does not send secrets to search providers or web sites. Remove it and try again",
		e.What, joinKinds(e.Kinds))
}

func (e *SecretError) Unwrap() error { return ErrSecret }

func joinKinds(k []string) string {
	switch len(k) {
	case 0:
		return "a secret"
	case 1:
		return k[0]
	}
	return strings.Join(k[:len(k)-1], ", ") + " and " + k[len(k)-1]
}

// Finding is one secret found in a text: its rule and its byte span.
type Finding struct {
	// Rule is the rule's stable name, such as "github_token".
	Rule string
	// Desc describes it for people: "a GitHub token".
	Desc       string
	Start, End int
}

// rule is one detector. Its regexp finds candidates; group selects the
// secret part of the match (0 for all of it); check, when set, must accept
// the secret part, which is how loose vendor shapes are kept from matching
// ordinary words.
type rule struct {
	name, desc string
	re         *regexp.Regexp
	group      int
	check      func(string) bool
	// inURL says whether the rule also runs on fetch URLs. Rules that
	// would misfire on the long random identifiers URLs legitimately hold
	// (document ids, cache keys) run on queries only.
	inURL bool
	// hints are strings of which one occurs, ignoring case, in every
	// match (a space stands for white space, see keywordSet); minRun is
	// the length of the run of token bytes (tokenish) every match holds;
	// needAny are bytes of which every match holds one. The regexp runs
	// only on texts that pass all three, which a single pass over the
	// text decides (see prefilter).
	hints   []string
	minRun  int
	needAny string
}

// vendorRules recognise specific credential formats. Each shape comes from
// the issuer's documentation or the widely used detector sets (gitleaks,
// GitHub secret scanning); names are stable and appear in audit records.
var vendorRules = []rule{
	{name: "private_key", hints: []string{"private key"}, desc: "a private key", inURL: true,
		re: regexp.MustCompile(`-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----`)},
	{name: "aws_access_key", hints: []string{"akia", "asia", "abia", "acca", "a3t"}, minRun: 20, desc: "an AWS access key id", inURL: true,
		re: regexp.MustCompile(`\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b`), check: notAllSame},
	{name: "aws_secret_key", hints: []string{"aws"}, minRun: 40, desc: "an AWS secret access key", inURL: true,
		re: regexp.MustCompile(`(?i)aws.{0,24}?(?:secret|private)?.{0,8}?(?:key|access).{0,8}?[:=\s"']+([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+]|$)`), group: 1, check: mixed},
	{name: "github_token", hints: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}, desc: "a GitHub token", inURL: true,
		re: regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{22,242})\b`)},
	{name: "gitlab_token", hints: []string{"glpat-", "gldt-", "glptt-", "glrt-", "glcbt-", "glimt-", "glft-", "gloas-", "glsoat-", "gr1348941"}, desc: "a GitLab token", inURL: true,
		re: regexp.MustCompile(`\b(?:gl(?:pat|dt|ptt|rt|cbt|imt|ft|oas|soat)-[A-Za-z0-9_-]{20,}|GR1348941[A-Za-z0-9_-]{20,})`)},
	{name: "slack_token", hints: []string{"xox", "xapp-"}, desc: "a Slack token", inURL: true,
		re: regexp.MustCompile(`\b(?:xox[abposrec]-[0-9A-Za-z-]{10,}|xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+)`)},
	{name: "slack_webhook", hints: []string{"hooks.slack.com"}, desc: "a Slack webhook URL", inURL: true,
		re: regexp.MustCompile(`hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/]{20,}`)},
	{name: "stripe_key", hints: []string{"sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_"}, desc: "a Stripe secret key", inURL: true,
		re: regexp.MustCompile(`\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,247}\b|\bwhsec_[0-9A-Za-z]{24,}\b`)},
	{name: "anthropic_key", hints: []string{"sk-ant-"}, desc: "an Anthropic API key", inURL: true,
		re: regexp.MustCompile(`\bsk-ant-[a-z]{2,10}\d{2}-[A-Za-z0-9_-]{32,}`)},
	{name: "openai_key", hints: []string{"sk-"}, minRun: 23, desc: "an OpenAI API key", inURL: true,
		re: regexp.MustCompile(`\bsk-(?:(?:proj|svcacct|admin|None)-)?([A-Za-z0-9_-]{20,})`), group: 1, check: random},
	{name: "google_api_key", hints: []string{"aiza"}, desc: "a Google API key", inURL: true,
		re: regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}(?:[^0-9A-Za-z_-]|$)`)},
	{name: "google_oauth", hints: []string{"gocspx-", "ya29."}, desc: "a Google OAuth secret or token", inURL: true,
		re: regexp.MustCompile(`\bGOCSPX-[A-Za-z0-9_-]{28}\b|\bya29\.[0-9A-Za-z_-]{30,}`)},
	{name: "azure_key", hints: []string{"accountkey=", "sharedaccesskey=", "sig=", "q~"}, desc: "an Azure key or SAS signature", inURL: true,
		re: regexp.MustCompile(`(?i)(?:AccountKey|SharedAccessKey|sig)=([A-Za-z0-9+/%]{40,}={0,2})|\b[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}\b`)},
	{name: "huggingface_token", hints: []string{"hf_"}, desc: "a Hugging Face token", inURL: true,
		re: regexp.MustCompile(`\bhf_[A-Za-z0-9]{34,}\b`), check: random},
	{name: "npm_token", hints: []string{"npm_"}, desc: "an npm token", inURL: true,
		re: regexp.MustCompile(`\bnpm_[A-Za-z0-9]{36}\b`)},
	{name: "pypi_token", hints: []string{"pypi-"}, desc: "a PyPI token", inURL: true,
		re: regexp.MustCompile(`\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}`)},
	{name: "sendgrid_key", hints: []string{"sg."}, desc: "a SendGrid API key", inURL: true,
		re: regexp.MustCompile(`\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b`)},
	{name: "twilio_key", hints: []string{"sk"}, minRun: 34, desc: "a Twilio API key", inURL: true,
		re: regexp.MustCompile(`\bSK[0-9a-f]{32}\b`)},
	{name: "digitalocean_token", hints: []string{"dop_v1_", "doo_v1_", "dor_v1_"}, minRun: 71, desc: "a DigitalOcean token", inURL: true,
		re: regexp.MustCompile(`\bdo[opr]_v1_[a-f0-9]{64}\b`)},
	{name: "shopify_token", hints: []string{"shpat_", "shpss_", "shpca_", "shppa_"}, minRun: 38, desc: "a Shopify token", inURL: true,
		re: regexp.MustCompile(`\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}\b`)},
	{name: "databricks_token", hints: []string{"dapi"}, desc: "a Databricks token", inURL: true,
		re: regexp.MustCompile(`\bdapi[a-f0-9]{32}(?:-\d)?\b`)},
	{name: "telegram_bot_token", hints: []string{":aa"}, minRun: 35, desc: "a Telegram bot token", inURL: true,
		re: regexp.MustCompile(`\b\d{8,10}:AA[0-9A-Za-z_-]{33}\b`)},
	{name: "discord_token", minRun: 24, needAny: ".", desc: "a Discord bot token", inURL: true,
		re: regexp.MustCompile(`\b[MNO][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}\b`), check: random},
	{name: "atlassian_token", hints: []string{"atatt3"}, desc: "an Atlassian API token", inURL: true,
		re: regexp.MustCompile(`\bATATT3[A-Za-z0-9_=-]{150,}`)},
	{name: "linear_key", hints: []string{"lin_api_"}, desc: "a Linear API key", inURL: true,
		re: regexp.MustCompile(`\blin_api_[A-Za-z0-9]{40}\b`)},
	{name: "age_secret_key", hints: []string{"age-secret-key-1"}, desc: "an age secret key", inURL: true,
		re: regexp.MustCompile(`\bAGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}\b`)},
	{name: "webgate_key", hints: []string{"wgk_"}, desc: "a webgate API key", inURL: true,
		re: regexp.MustCompile(`\bwgk_[0-9A-Za-z]{43}\b`)},
	{name: "jwt", hints: []string{"eyj"}, desc: "a JSON Web Token", inURL: true,
		re: regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}`)},
	{name: "url_credentials", hints: []string{"://"}, needAny: "@", desc: "a password in a URL", inURL: true,
		re: regexp.MustCompile(`\b[a-zA-Z][a-zA-Z0-9+.-]{1,20}://[^/\s:@]{1,64}:([^/\s:@]{3,128})@`), group: 1, check: notPlaceholder},
	{name: "basic_auth", hints: []string{"basic "}, minRun: 8, desc: "HTTP basic-auth credentials", inURL: false,
		re: regexp.MustCompile(`(?i)\bbasic\s+([A-Za-z0-9+/]{8,}={0,2})`), group: 1, check: basicCredentials},
	{name: "credential_assignment", hints: []string{"key", "secret", "token", "bearer", "passw", "pwd"}, needAny: ":=", desc: "a credential", inURL: false,
		re: regexp.MustCompile(`(?i)\b(?:api[_-]?key|apikey|secret[_-]?key|client[_-]?secret|access[_-]?token|auth[_-]?token|bearer|password|passwd|pwd|secret|token)\b["']?\s*[:=]\s*["']?([^\s"'<>,;]{8,200})`), group: 1, check: credentialValue},
	{name: "secret_url_param", hints: []string{"token=", "key=", "auth=", "secret=", "password=", "session=", "sessionid=", "sig=", "signature="}, desc: "a credential in a URL parameter", inURL: true,
		re: regexp.MustCompile(`(?i)[?&](?:access_token|api[_-]?key|apikey|auth|client_secret|key|password|private_token|secret|session(?:id)?|sig|signature|token|x-amz-signature|x-goog-signature)=([^&#\s]{16,})`), group: 1, check: random},
}

// Detector finds secrets. It is safe for concurrent use.
type Detector struct {
	rules       []rule
	highEntropy bool
	// noPrefilter runs every rule on every text, without the memo: the
	// reference the prefilter is tested against.
	noPrefilter bool
	internal    []string // lower-case domain suffixes, without a leading dot
	allow       []*regexp.Regexp
	clean       cleanMemo
}

// cleanMemo remembers recent texts Scan found nothing in. The same query
// is scanned twice per search (the guard's check, then the audit
// record's redaction) and again when the search is repeated; by then the
// rules' tables are cold in the CPU's caches, and a pass over them cost
// about 2% of a cached answer's CPU, where a hash and a comparison cost
// next to nothing. Only clean results are kept, and a hit compares the
// whole text, so the memo never changes what Scan returns.
type cleanMemo struct {
	seed  maphash.Seed // set by NewDetector
	slots [cleanMemoSlots]atomic.Pointer[string]
}

const (
	cleanMemoSlots = 64
	// maxMemoText bounds what the memo holds (queries, not pages).
	maxMemoText = 1 << 10
)

// slot returns the slot text belongs in, or nil for a text too long to
// remember.
func (m *cleanMemo) slot(text string) *atomic.Pointer[string] {
	if len(text) > maxMemoText {
		return nil
	}
	return &m.slots[maphash.String(m.seed, text)%cleanMemoSlots]
}

// remembered reports whether slot (from cleanMemo.slot) holds text.
func remembered(slot *atomic.Pointer[string], text string) bool {
	if slot == nil {
		return false
	}
	p := slot.Load()
	return p != nil && *p == text
}

// Options configures a Detector.
type Options struct {
	// HighEntropy turns on the generic random-token rule.
	HighEntropy bool
	// InternalHosts are domain names (covering their subdomains) that must
	// not appear; builtinInternal is always added.
	InternalHosts []string
	// Allow are patterns; a finding whose whole text one matches is
	// dropped.
	Allow []*regexp.Regexp
}

// NewDetector returns a Detector with every vendor rule and the options.
func NewDetector(opts Options) *Detector {
	d := &Detector{rules: vendorRules, highEntropy: opts.HighEntropy, allow: opts.Allow}
	d.clean.seed = maphash.MakeSeed()
	for _, h := range opts.InternalHosts {
		h = strings.Trim(strings.ToLower(strings.TrimSpace(h)), ".")
		h = strings.TrimPrefix(h, "*.")
		if h != "" {
			d.internal = append(d.internal, h)
		}
	}
	d.internal = append(d.internal, builtinInternal...)
	return d
}

// Scan returns the secrets in a search query, ordered by position, with
// overlapping findings merged into the earliest, most specific one.
func (d *Detector) Scan(text string) []Finding {
	return d.scan(text, false)
}

// ScanURL returns the secrets in a URL about to be fetched. It runs the
// rules that hold for URLs, checks the host against the internal names,
// and skips the generic random-token rule, which long ids in ordinary URLs
// would trip.
func (d *Detector) ScanURL(rawURL string) []Finding {
	return d.scan(rawURL, true)
}

func (d *Detector) scan(text string, isURL bool) []Finding {
	// One hash serves both the lookup and, for a clean text, the store.
	var memo *atomic.Pointer[string]
	if !isURL && !d.noPrefilter {
		memo = d.clean.slot(text)
	}
	if remembered(memo, text) {
		return nil
	}
	var out []Finding
	hinted, run := d.prefilter(text)
	for i := range d.rules {
		r := &d.rules[i]
		if isURL && !r.inURL || hinted&(1<<i) == 0 || run < r.minRun ||
			r.needAny != "" && !strings.ContainsAny(text, r.needAny) {
			continue
		}
		for _, m := range r.re.FindAllStringSubmatchIndex(text, -1) {
			s, e := m[2*r.group], m[2*r.group+1]
			if s < 0 {
				continue
			}
			if r.check != nil && !r.check(text[s:e]) || !notExample(text[s:e]) {
				continue
			}
			out = append(out, Finding{Rule: r.name, Desc: r.desc, Start: s, End: e})
		}
	}
	if d.highEntropy && !isURL && run >= minTokenRun {
		out = append(out, highEntropyTokens(text)...)
	}
	if strings.IndexByte(text, '.') >= 0 {
		out = append(out, d.internalHosts(text)...)
	}
	if len(out) == 0 {
		if memo != nil {
			memo.Store(&text)
		}
		return nil
	}
	out = slices.DeleteFunc(out, func(f Finding) bool { return d.allowed(text[f.Start:f.End]) })
	return mergeOverlaps(out)
}

func (d *Detector) allowed(s string) bool {
	for _, re := range d.allow {
		if loc := re.FindStringIndex(s); loc != nil && loc[0] == 0 && loc[1] == len(s) {
			return true
		}
	}
	return false
}

// mergeOverlaps sorts findings by start and keeps, of overlapping ones,
// the first found (vendor rules run first, so they win over the generic
// rules) grown to cover the others.
func mergeOverlaps(fs []Finding) []Finding {
	if len(fs) < 2 {
		return fs
	}
	order := make([]int, len(fs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return fs[order[a]].Start < fs[order[b]].Start })
	var out []Finding
	var outIdx []int // original index of each kept finding, for precedence
	for _, i := range order {
		f := fs[i]
		if n := len(out); n > 0 && f.Start < out[n-1].End {
			last := &out[n-1]
			if i < outIdx[n-1] { // earlier rule: more specific
				f.Start, f.End = min(f.Start, last.Start), max(f.End, last.End)
				*last, outIdx[n-1] = f, i
			} else {
				last.End = max(last.End, f.End)
			}
			continue
		}
		out = append(out, f)
		outIdx = append(outIdx, i)
	}
	return out
}

// Kinds returns the distinct descriptions of fs, in order.
func Kinds(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		if !slices.Contains(out, f.Desc) {
			out = append(out, f.Desc)
		}
	}
	return out
}

// Redact replaces each finding in text with repl(f).
func Redact(text string, fs []Finding, repl func(Finding) string) string {
	if len(fs) == 0 {
		return text
	}
	var b strings.Builder
	b.Grow(len(text))
	prev := 0
	for _, f := range fs {
		b.WriteString(text[prev:f.Start])
		b.WriteString(repl(f))
		prev = f.End
	}
	b.WriteString(text[prev:])
	return b.String()
}

// RedactSecrets returns text with every secret replaced by
// "[REDACTED:<rule>]", for logs and audit records.
func (d *Detector) RedactSecrets(text string) string {
	return Redact(text, d.Scan(text), func(f Finding) string { return "[REDACTED:" + f.Rule + "]" })
}

// ErrorType names the refusal for JSON error objects.
func (e *SecretError) ErrorType() string { return "secret_detected" }

// ruleHints finds the vendor rules' hints; a keyword's id is its rule's
// index in vendorRules.
var ruleHints = func() *keywordSet {
	if len(vendorRules) > 64 {
		panic("guard: more vendor rules than prefilter bits")
	}
	k := new(keywordSet)
	for i, r := range vendorRules {
		for _, h := range r.hints {
			k.add(h, i)
		}
	}
	return k
}()

// prefilter is the single pass over text that decides which rules can
// match it: hinted has bit i set when rule i has no hints or one of them
// occurs; run is the length of the longest run of tokenish bytes. A
// clean query (no hint, short words) runs no regexp and allocates
// nothing.
func (d *Detector) prefilter(text string) (hinted uint64, run int) {
	if d.noPrefilter || foldsToASCII(text) {
		return ^uint64(0), len(text)
	}
	for i := range d.rules {
		if len(d.rules[i].hints) == 0 {
			hinted |= 1 << i
		}
	}
	ruleHints.each(text, func(id, _ int) { hinted |= 1 << id })
	cur := 0
	for i := 0; i < len(text); i++ {
		if tokenish[text[i]] {
			cur++
			run = max(run, cur)
		} else {
			cur = 0
		}
	}
	return hinted, run
}

// tokenish are the bytes keys and tokens are made of: [A-Za-z0-9_+/-].
var tokenish = func() (t [256]bool) {
	for c := range 256 {
		b := byte(c)
		t[c] = isAlnum(b) || b == '_' || b == '+' || b == '/' || b == '-'
	}
	return t
}()
