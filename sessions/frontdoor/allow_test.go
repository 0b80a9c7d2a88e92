package frontdoor

import (
	"net/netip"
	"strings"
	"testing"
)

// Issue 11 item 8: an allow-list instead of switching the guard off. The
// guard is serve's and the proxy's (sessions/replay, sessions/proxy).

func TestParseAllowList(t *testing.T) {
	for _, bad := range []string{"", "*", "*.lan", "--cors", "null", "ftp://phone.lan", "http://phone.lan/x", "http://u@phone.lan",
		"phone.lan:99999", "phone.lan:x", "a b", "http://", ":7070"} {
		if _, err := ParseAllowList([]string{bad}); err == nil || !strings.HasPrefix(err.Error(), "--allow-origin ") {
			t.Errorf("%q: error %v, want one naming --allow-origin", bad, err)
		}
	}
	if _, err := ParseAllowList([]string{"--cors"}); err == nil || !strings.Contains(err.Error(), "now takes a value") {
		t.Errorf("a flag as the value: %v", err)
	}
	a, err := ParseAllowList([]string{"phone.lan", "192.168.1.20:7070", "[fd00::5]", "https://Dev.Test.:5173", "HTTP://app.test"})
	if err != nil {
		t.Fatal(err)
	}
	a.AddAddrs(netip.MustParseAddr("10.1.2.3"))
	hosts := map[string]bool{
		"localhost:7070": true, "127.0.0.1": true, "[::1]:9": true, // loopback, always
		"phone.lan:7070": true, "PHONE.LAN.": true, "192.168.1.20:7070": true, "[fd00::5]:7070": true,
		"dev.test:7070": true, "app.test": true, "10.1.2.3:7070": true, // origins' hosts, this machine's address
		"192.168.1.20:8080": false, "attacker.example": false, "phone.lan.attacker.example": false, "10.1.2.4:7070": false, "": false,
	}
	for h, want := range hosts {
		if got := a.Host(h); got != want {
			t.Errorf("Host %q: %v, want %v", h, got, want)
		}
	}
	origins := map[string]bool{
		"http://localhost:5173": true, "http://phone.lan": true, "https://phone.lan:8443": true,
		"https://dev.test:5173": true, "http://dev.test:5173": false, "https://dev.test": false,
		"http://app.test": true, "http://app.test:80": true, "https://app.test": false,
		"http://192.168.1.20:7070": true, "http://192.168.1.20": false, "http://10.1.2.3:5173": true,
		"null": false, "http://attacker.example": false, "file://phone.lan": false,
	}
	for o, want := range origins {
		if got := a.Origin(o); got != want {
			t.Errorf("Origin %q: %v, want %v", o, got, want)
		}
	}
	var none *AllowList
	if !none.Host("localhost") || none.Host("phone.lan") || none.Origin("http://phone.lan") {
		t.Error("the nil list must allow loopback only")
	}
}

func TestLoopbackHost(t *testing.T) {
	for h, want := range map[string]bool{
		"localhost": true, "localhost:7070": true, "LOCALHOST.:1": true, "app.localhost:3000": true,
		"127.0.0.1": true, "127.0.0.1:7070": true, "127.9.8.7:1": true, "[::1]:7070": true, "[::1]": true,
		"[::ffff:127.0.0.1]:80": true,
		// Not loopback:
		"": false, "example.com": false, "localhost.example.com:80": false, "192.168.1.20:7070": false,
		"10.0.0.1": false, "[::2]:80": false, "0.0.0.0:7070": false, "127.0.0.1.nip.io": false,
	} {
		if got := LoopbackHost(h); got != want {
			t.Errorf("LoopbackHost(%q) = %v, want %v", h, got, want)
		}
	}
	for o, want := range map[string]bool{
		"http://localhost:5173": true, "https://127.0.0.1": true, "http://[::1]:8080": true,
		"null": false, "http://evil.example": false, "file://": false, "chrome-extension://abc": false, "": false,
	} {
		if got := LoopbackOrigin(o); got != want {
			t.Errorf("LoopbackOrigin(%q) = %v, want %v", o, got, want)
		}
	}
}
