package cli

import (
	"strings"
	"testing"
)

// TestResolveDialectSuggests: an unknown --dialect names the closest
// dialects (the helper demo's scenarios use); a known one or "" passes.
func TestResolveDialectSuggests(t *testing.T) {
	if err := resolveDialect(""); err != nil {
		t.Errorf("detect: %v", err)
	}
	if err := resolveDialect("anthropic-messages"); err != nil {
		t.Errorf("known: %v", err)
	}
	err := resolveDialect("anthropic")
	if err == nil || !strings.Contains(err.Error(), "did you mean anthropic-messages?") {
		t.Errorf("anthropic: %v", err)
	}
	if err := resolveDialect("zzzzzz"); err == nil || strings.Contains(err.Error(), "did you mean") {
		t.Errorf("zzzzzz: %v", err)
	}
}

// TestSeverityFlagAnyCase: --fail-on WARN is warn.
func TestSeverityFlagAnyCase(t *testing.T) {
	for in, want := range map[string]string{"WARN": "warn", "Error": "error", " info ": "info", "Warning": "warn"} {
		if got, ok := parseSeverityFlag(in); !ok || string(got) != want {
			t.Errorf("%q: %q %v", in, got, ok)
		}
	}
	if _, ok := parseSeverityFlag("loud"); ok {
		t.Error("loud accepted")
	}
}
