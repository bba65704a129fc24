package config

import (
	"strings"
	"testing"
)

func TestConsole(t *testing.T) {
	const hash = "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
	tests := []struct {
		name, yaml    string
		wantErr       string
		enabled       bool
		wantOperators int
	}{
		{name: "default on", yaml: "", enabled: true},
		{name: "off", yaml: "console: {enabled: false}\n", enabled: false},
		{name: "operators", yaml: "auth: {keys: [{id: root, hash: " + hash + "}]}\nconsole: {operators: [root]}\n", enabled: true, wantOperators: 1},
		{name: "unknown operator", yaml: "auth: {keys: [{id: root, hash: " + hash + "}]}\nconsole: {operators: [rot]}\n", wantErr: `console.operators[0]: "rot" is not the id of any auth.keys entry`},
		{name: "metrics path under console", yaml: "metrics: {path: /console/metrics}\n", wantErr: "metrics.path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse(strings.NewReader(tt.yaml), func(string) (string, bool) { return "", false })
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Console.ConsoleEnabled() != tt.enabled || len(c.Console.Operators) != tt.wantOperators {
				t.Errorf("console = %+v", c.Console)
			}
		})
	}
}
