package e2e

import (
	"strings"
	"testing"
)

// TestProxyRefusesBadGlobs (item 20): a malformed path.Match pattern in
// --mitm-hosts or a --fault match matched nothing, silently (the proxy
// ran, decrypting or faulting nothing); it is refused at start-up, exit
// 2, naming the pattern.
func TestProxyRefusesBadGlobs(t *testing.T) {
	port := phFreePort(t)
	for _, args := range [][]string{
		{"--mitm", "--mitm-hosts", "api.["},
		{"--fault", "drop=1 host=["},
		{"--fault", "drop=1 path=/v1/[a-"},
		{"--fault", "stall=1s@3@/v1/["},
	} {
		all := append([]string{"proxy", "--headless", "--no-save", "--listen", "127.0.0.1:" + port}, args...)
		stderr, code := phRun(t, all...)
		if code != 2 || !strings.Contains(stderr, "is not a glob pattern") || !strings.Contains(stderr, "syntax error in pattern") {
			t.Errorf("%v: exit %d, stderr %q: want 2 and the pattern refused", args, code, stderr)
		}
	}
}
