package live

import (
	"net/url"
	"strings"
	"testing"
)

// TestEnvProxyFor: which variable would proxy a URL (curl's names, either
// case), its password masked, and NO_PROXY's exemptions.
func TestEnvProxyFor(t *testing.T) {
	for _, name := range []string{"http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"} {
		t.Setenv(name, "")
	}
	u := func(s string) *url.URL { v, _ := url.Parse(s); return v }
	if got := envProxyFor(u("http://api.example/x")); got != "" {
		t.Errorf("no proxy set: %q", got)
	}
	t.Setenv("HTTPS_PROXY", "http://user:PW@proxy.corp:3128")
	if got := envProxyFor(u("http://api.example/x")); got != "" {
		t.Errorf("HTTPS_PROXY for http: %q", got)
	}
	got := envProxyFor(u("https://api.example/x"))
	if got != "HTTPS_PROXY=http://user:xxxxx@proxy.corp:3128" || strings.Contains(got, "PW") {
		t.Errorf("https: %q", got)
	}
	t.Setenv("all_proxy", "socks5://proxy.corp:1080")
	if got := envProxyFor(u("http://api.example/x")); got != "all_proxy=socks5://proxy.corp:1080" {
		t.Errorf("all_proxy: %q", got)
	}
	for list, exempt := range map[string]bool{
		"*": true, "api.example": true, ".example": true, "example:443": true, "10.0.0.0/8": false,
		"other.example, api.example": true, "i.example": false, "": false,
	} {
		t.Setenv("NO_PROXY", list)
		if got := envProxyFor(u("https://api.example/x")) == ""; got != exempt {
			t.Errorf("NO_PROXY=%q: exempt %v, want %v", list, got, exempt)
		}
	}
	t.Setenv("NO_PROXY", "10.0.0.0/8")
	if envProxyFor(u("https://10.1.2.3/x")) != "" {
		t.Error("CIDR not exempt")
	}
}
