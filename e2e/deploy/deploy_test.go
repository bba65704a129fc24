// Package deploy_test checks the Dockerfile and the example deployments in
// deploy/ (the tests run from that directory). Docker and Kubernetes are not available where the tests run,
// so nothing here is started: the files are parsed, their cross-references
// checked, and the webgate configurations they carry validated against the
// real configuration schema.
package deploy_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/webgate/webgate/internal/config"
	"github.com/webgate/webgate/internal/repotest"
)

var testEnv = map[string]string{
	"WEBGATE_TOKEN":     "0123456789abcdef0123456789abcdef",
	"WEBGATE_REDIS_URL": "redis://redis:6379/0",
}

// TestMain runs the tests from deploy/, the folder whose files they check.
func TestMain(m *testing.M) {
	root, err := repotest.FindRoot()
	if err == nil {
		err = os.Chdir(filepath.Join(root, "deploy"))
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

func lookup(k string) (string, bool) { v, ok := testEnv[k]; return v, ok }

// docs parses every YAML document in path.
func docs(t *testing.T, path string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	var out []map[string]any
	for {
		var m map[string]any
		err := dec.Decode(&m)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if m != nil {
			out = append(out, m)
		}
	}
	return out
}

// dig walks nested maps and lists: keys are map keys or list indexes.
func dig(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				return nil
			}
			v = m[k]
		case int:
			l, ok := v.([]any)
			if !ok || k >= len(l) {
				return nil
			}
			v = l[k]
		}
	}
	return v
}

func str(v any) string { s, _ := v.(string); return s }

func parseWebgateConfig(t *testing.T, name, body string) *config.Config {
	t.Helper()
	c, err := config.Parse(strings.NewReader(body), lookup)
	if err != nil {
		t.Fatalf("%s is not a valid webgate configuration: %v", name, err)
	}
	return c
}

func TestDockerfile(t *testing.T) {
	b, err := os.ReadFile("../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	df := string(b)
	from := regexp.MustCompile(`(?m)^FROM\s`).FindAllString(df, -1)
	if len(from) < 2 {
		t.Errorf("want a multi-stage build, found %d FROM lines", len(from))
	}
	for _, want := range []string{"CGO_ENABLED=0", "HEALTHCHECK", "ENTRYPOINT", "./cmd/webgate", "healthcheck", "-X github.com/webgate/webgate/internal/cli.Version="} {
		if !strings.Contains(df, want) {
			t.Errorf("Dockerfile lacks %q", want)
		}
	}
	users := regexp.MustCompile(`(?m)^USER\s+(\S+)`).FindAllStringSubmatch(df, -1)
	if len(users) == 0 {
		t.Fatal("Dockerfile sets no USER: the container would run as root")
	}
	if u := users[len(users)-1][1]; u == "root" || u == "0" || strings.HasPrefix(u, "0:") {
		t.Errorf("the final USER is %q", u)
	}
	if _, err := os.Stat("../cmd/webgate/main.go"); err != nil {
		t.Errorf("the build target is gone: %v", err)
	}
	// The image with a browser for fetch.render is a target of its own;
	// the default (last) stage stays the static, browser-less one.
	stages := regexp.MustCompile(`(?m)^FROM\s+(\S+)(?:\s+AS\s+(\S+))?`).FindAllStringSubmatch(df, -1)
	if last := stages[len(stages)-1][1]; !strings.Contains(last, "distroless") {
		t.Errorf("the default target is %s, not the distroless image", last)
	}
	chromium := regexp.MustCompile(`(?s)FROM \S+ AS chromium\n(.*?)(?:\nFROM |$)`).FindStringSubmatch(df)
	if chromium == nil {
		t.Fatal("no chromium target")
	}
	for _, want := range []string{"apt-get install", " chromium", "USER 65532", "ENTRYPOINT", "HEALTHCHECK"} {
		if !strings.Contains(chromium[1], want) {
			t.Errorf("the chromium target lacks %q", want)
		}
	}
}

func TestCompose(t *testing.T) {
	d := docs(t, "compose/compose.yaml")
	if len(d) != 1 {
		t.Fatalf("compose.yaml has %d documents", len(d))
	}
	svcs, _ := d[0]["services"].(map[string]any)
	for _, name := range []string{"webgate", "redis", "lb"} {
		if svcs[name] == nil {
			t.Fatalf("compose.yaml has no %s service", name)
		}
	}
	wg := svcs["webgate"]
	if n, _ := dig(wg, "deploy", "replicas").(int); n < 2 {
		t.Errorf("webgate replicas = %v, want several", dig(wg, "deploy", "replicas"))
	}
	if str(dig(wg, "deploy", "resources", "limits", "memory")) == "" {
		t.Error("webgate has no memory limit")
	}
	if str(dig(svcs["redis"], "healthcheck", "test", 1)) != "redis-cli" {
		t.Error("redis has no health check")
	}
	if str(dig(wg, "depends_on", "redis", "condition")) != "service_healthy" {
		t.Error("webgate does not wait for a healthy redis")
	}
	if str(dig(wg, "build", "context")) != "../.." {
		t.Errorf("webgate builds from %v, want the repository root", dig(wg, "build", "context"))
	}
	// The mounted files exist.
	for _, svc := range []any{wg, svcs["lb"]} {
		vols, _ := dig(svc, "volumes").([]any)
		for _, v := range vols {
			src, _, _ := strings.Cut(str(v), ":")
			if _, err := os.Stat(filepath.Join("compose", src)); err != nil {
				t.Errorf("volume %q: %v", v, err)
			}
		}
	}
	// The configuration is valid, uses Redis, and drains within the
	// container's stop grace period.
	b, err := os.ReadFile("compose/webgate.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cfg := parseWebgateConfig(t, "compose/webgate.yaml", string(b))
	if !cfg.Redis.Enabled() || cfg.Log.Format != "json" || len(cfg.Server.AuthTokens) == 0 {
		t.Errorf("compose config: redis %v, log %s, tokens %d", cfg.Redis.Enabled(), cfg.Log.Format, len(cfg.Server.AuthTokens))
	}
	grace, err := time.ParseDuration(str(dig(wg, "stop_grace_period")))
	if err != nil || grace <= cfg.Server.ShutdownTimeout {
		t.Errorf("stop_grace_period %v must exceed server.shutdown_timeout %s", dig(wg, "stop_grace_period"), cfg.Server.ShutdownTimeout)
	}
	if env := str(dig(wg, "environment", "WEBGATE_REDIS_URL")); !strings.Contains(env, "//redis:") {
		t.Errorf("WEBGATE_REDIS_URL %q does not name the redis service", env)
	}
	nginx, err := os.ReadFile("compose/nginx.conf")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"proxy_buffering off", "http://webgate:8788", "listen 8788", "resolver 127.0.0.11"} {
		if !strings.Contains(string(nginx), want) {
			t.Errorf("nginx.conf lacks %q", want)
		}
	}
}

func TestKubernetes(t *testing.T) {
	kust := docs(t, "kubernetes/kustomization.yaml")[0]
	byKind := map[string][]map[string]any{}
	res, _ := kust["resources"].([]any)
	files, _ := filepath.Glob("kubernetes/*.yaml")
	if len(res) != len(files)-1 {
		t.Errorf("kustomization lists %d resources; the directory has %d other files", len(res), len(files)-1)
	}
	for _, r := range res {
		for _, d := range docs(t, filepath.Join("kubernetes", str(r))) {
			kind, name := str(d["kind"]), str(dig(d, "metadata", "name"))
			if str(d["apiVersion"]) == "" || kind == "" || name == "" {
				t.Errorf("%s: a document without apiVersion, kind or metadata.name", r)
			}
			byKind[kind] = append(byKind[kind], d)
		}
	}
	find := func(kind, name string) map[string]any {
		for _, d := range byKind[kind] {
			if str(dig(d, "metadata", "name")) == name {
				return d
			}
		}
		t.Fatalf("no %s %s", kind, name)
		return nil
	}
	dep := find("Deployment", "webgate")
	pod := dig(dep, "spec", "template", "spec")
	c := dig(pod, "containers", 0)
	if p := str(dig(c, "livenessProbe", "httpGet", "path")); p != "/healthz" {
		t.Errorf("liveness probe on %q, want /healthz", p)
	}
	if p := str(dig(c, "readinessProbe", "httpGet", "path")); p != "/readyz" {
		t.Errorf("readiness probe on %q, want /readyz", p)
	}
	if n, _ := dig(dep, "spec", "replicas").(int); n < 2 {
		t.Errorf("replicas = %v", dig(dep, "spec", "replicas"))
	}
	if dig(pod, "securityContext", "runAsNonRoot") != true {
		t.Error("webgate pods may run as root")
	}
	// Every container of every Deployment has limits.
	for _, d := range byKind["Deployment"] {
		cs, _ := dig(d, "spec", "template", "spec", "containers").([]any)
		for _, ct := range cs {
			if str(dig(ct, "resources", "limits", "memory")) == "" || dig(ct, "resources", "limits", "cpu") == nil {
				t.Errorf("%s/%s has no cpu and memory limits", str(dig(d, "metadata", "name")), str(dig(ct, "name")))
			}
		}
	}
	// The Secret and the ConfigMap the pod uses exist; the selectors match.
	secret := find("Secret", str(dig(c, "envFrom", 0, "secretRef", "name")))
	if _, ok := dig(secret, "stringData", "WEBGATE_TOKEN").(string); !ok {
		t.Error("the Secret has no WEBGATE_TOKEN")
	}
	cm := find("ConfigMap", str(dig(pod, "volumes", 0, "configMap", "name")))
	svc := find("Service", "webgate")
	if str(dig(svc, "spec", "selector", "app.kubernetes.io/name")) != str(dig(dep, "spec", "template", "metadata", "labels", "app.kubernetes.io/name")) {
		t.Error("the Service does not select the webgate pods")
	}
	// The configuration is valid, points at the Redis Service, and drains
	// before the kubelet's SIGKILL.
	cfg := parseWebgateConfig(t, "configmap webgate.yaml", str(dig(cm, "data", "webgate.yaml")))
	find("Service", "webgate-redis")
	if !strings.Contains(cfg.Redis.URL, "//webgate-redis:6379") {
		t.Errorf("redis.url %q does not name the webgate-redis Service", cfg.Redis.URL)
	}
	grace, _ := dig(pod, "terminationGracePeriodSeconds").(int)
	sleep, _ := dig(c, "lifecycle", "preStop", "sleep", "seconds").(int)
	if time.Duration(grace-sleep)*time.Second <= cfg.Server.ShutdownTimeout {
		t.Errorf("terminationGracePeriodSeconds %d minus the preStop sleep %d must exceed server.shutdown_timeout %s", grace, sleep, cfg.Server.ShutdownTimeout)
	}
	if v := dig(c, "ports", 0, "containerPort"); v != 8788 || !strings.HasSuffix(cfg.Listen, ":8788") {
		t.Errorf("container port %v, listen %s", v, cfg.Listen)
	}
	if find("PodDisruptionBudget", "webgate") == nil {
		t.Error("no PodDisruptionBudget")
	}
}
