package search

import (
	"net/http"
	"slices"
	"testing"
)

func TestRegistrationMissing(t *testing.T) {
	r := Registration{Name: "g", Settings: []Setting{
		{Key: SettingAPIKey, Env: "G_KEY"},
		{Key: SettingCX, Env: "G_CX"},
		{Key: SettingBaseURL, Optional: true},
	}}
	tests := []struct {
		s    Settings
		want string
	}{
		{Settings{}, "providers.g.api_key and providers.g.cx (or G_KEY and G_CX)"},
		{Settings{CX: "c"}, "providers.g.api_key (or G_KEY)"},
		{Settings{APIKey: "k"}, "providers.g.cx (or G_CX)"},
		{Settings{APIKey: "k", CX: "c"}, ""},
	}
	for _, tt := range tests {
		if got := r.Missing(tt.s); got != tt.want {
			t.Errorf("Missing(%+v) = %q, want %q", tt.s, got, tt.want)
		}
	}
	if got := (Registration{Name: "n", Settings: []Setting{{Key: SettingBaseURL}}}).Missing(Settings{}); got != "providers.n.base_url" {
		t.Errorf("no env: Missing = %q", got)
	}
	if got := r.Env(); !slices.Equal(got, []string{"G_KEY", "G_CX"}) {
		t.Errorf("Env() = %v", got)
	}
}

func TestRegisterRejects(t *testing.T) {
	factory := func(Settings, *http.Client) (Provider, error) { return nil, nil }
	Register(Registration{Name: "registry-test-a", Rank: 1 << 30, New: factory})
	for _, r := range []Registration{
		{Name: "registry-test-a", New: factory},
		{Name: "", New: factory},
		{Name: "registry-test-b"},
		{Name: "registry-test-c", New: factory, Settings: []Setting{{Key: "token"}}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register(%q) did not panic", r.Name)
				}
			}()
			Register(r)
		}()
	}
	names := ProviderNames()
	if names[len(names)-1] != "registry-test-a" {
		t.Errorf("ProviderNames() = %v: the highest rank is not last", names)
	}
	if _, ok := Registered("registry-test-b"); ok {
		t.Error("a rejected registration was kept")
	}
}
