package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestRulesCommand(t *testing.T) {
	r := runCLI(t, "", "rules")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "RULE ") || !strings.Contains(r.stdout, "\nterminal-missing ") {
		t.Errorf("rules: exit %d\n%s", r.code, r.stdout)
	}
	r = runCLI(t, "", "rules", "--format", "json")
	var rules []map[string]string
	if err := json.Unmarshal([]byte(r.stdout), &rules); err != nil || len(rules) < 50 || rules[0]["name"] == "" {
		t.Errorf("rules --format json: %v, %d rules", err, len(rules))
	}
	r = runCLI(t, "", "rules", "span-orphan", "--dialect", "anthropic-messages")
	for _, want := range []string{"span-orphan — error", "anthropic-messages", "testdata/dialects/anthropic-messages/span-orphan.fires.sse"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("rules span-orphan: missing %q in\n%s", want, r.stdout)
		}
	}
	r = runCLI(t, "", "rules", "terminl-missing")
	if r.code != 2 || !strings.Contains(r.stderr, "did you mean terminal-missing") {
		t.Errorf("a mistyped rule: exit %d, %q", r.code, r.stderr)
	}
}
