package pc3

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"framescope/invariants"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

const platformYAML = `- id: searching_offers
  description: Sub-agent is searching for offers
  default_render_key: status.searching_offers
  default_policy: transform
  emitter_subagents: [shop]
  lifecycle: active
- id: old_lookup
  default_policy: transform
  lifecycle: deprecated
`

func TestLoadRegistryMerges(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "platform", "status_events.yaml"), platformYAML)
	writeFile(t, filepath.Join(dir, "verticals", "shop", "status_events.yaml"), "- id: hidden_step\n  default_policy: suppress\n")
	reg, err := LoadRegistry(dir)
	if err != nil {
		t.Fatal(err)
	}
	if reg.Len() != 3 {
		t.Fatalf("len %d", reg.Len())
	}
	if e, ok := reg.Lookup("old_lookup"); !ok || e.Lifecycle != "deprecated" {
		t.Errorf("old_lookup %+v", e)
	}
	if e, ok := reg.Lookup("hidden_step"); !ok || e.Policy != "suppress" || e.Lifecycle != "active" {
		t.Errorf("hidden_step %+v", e)
	}

	stream := newTurn("r1").open().
		f("status", `"data":{"event_id":"searching_offers","message":"a"}`).
		f("status", `"data":{"event_id":"old_lookup","message":"b"}`).
		f("status", `"data":{"event_id":"hidden_step","message":"c"}`).
		f("status", `"data":{"event_id":"nobody_knows","message":"d"}`).
		completed().done().String()
	got := check(t, stream, invariants.Options{Registry: reg}, eof())
	var rules []string
	for _, g := range got {
		if !strings.HasPrefix(g, "client-divergence") {
			rules = append(rules, g)
		}
	}
	want := "status-deprecated warn 2,status-suppressed warn 3,status-unregistered error 4"
	if strings.Join(rules, ",") != want {
		t.Fatalf("got %v, want %s", rules, want)
	}
}

func TestLoadRegistryErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string // substrings of the error
	}{
		{"duplicate across fragments", map[string]string{
			"platform/status_events.yaml":         "- id: a_b\n  default_policy: transform\n",
			"verticals/shop/status_events.yaml":   "- id: ok_one\n  default_policy: forward\n",
			"verticals/travel/status_events.yaml": "- id: a_b\n  default_policy: batch\n",
		}, []string{`"a_b" is defined twice`, "platform/status_events.yaml:1", "verticals/travel/status_events.yaml:1"}},
		{"bad policy", map[string]string{"platform/status_events.yaml": "- id: x\n  default_policy: shout\n"}, []string{`default_policy "shout"`, "status_events.yaml:1"}},
		{"missing id", map[string]string{"platform/status_events.yaml": "- default_policy: transform\n"}, []string{"has no id"}},
		{"prose id", map[string]string{"platform/status_events.yaml": "- id: Searching now\n  default_policy: transform\n"}, []string{"not an identifier"}},
		{"bad lifecycle", map[string]string{"platform/status_events.yaml": "- id: x\n  default_policy: transform\n  lifecycle: retired\n"}, []string{`lifecycle "retired"`}},
		{"not a list", map[string]string{"platform/status_events.yaml": "id: x\n"}, []string{"want a list"}},
		{"bad yaml", map[string]string{"platform/status_events.yaml": "- id: [\n"}, []string{"status_events.yaml"}},
		{"no fragments", map[string]string{"README": "x"}, []string{"has no platform/status_events.yaml"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range tt.files {
				writeFile(t, filepath.Join(dir, name), content)
			}
			_, err := LoadRegistry(dir)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
	if _, err := LoadRegistry(filepath.Join(t.TempDir(), "nope")); err == nil {
		t.Error("missing dir accepted")
	}
}

func TestParseTimestamp(t *testing.T) {
	good := []string{"2026-05-15T18:00:00.300Z", "2026-05-15T18:00:00Z", "2026-05-15T18:00:00+02:00", "2026-05-15T18:00:00.123456789-0530",
		"2026-05-15t18:00:00z", "2026-05-15 18:00:00Z", "2026-05-15T18:00:00", "2024-02-29T00:00:00Z", "2026-12-31T23:59:60Z"}
	bad := []string{"", "yesterday", "1715796000", "2026/05/15 18:00", "2026-05-15", "2026-13-01T00:00:00Z", "2026-02-29T00:00:00Z",
		"2026-05-15T25:00:00Z", "2026-05-15T18:00:00.Z", "2026-05-15T18:00:00+2", "2026-05-15T18:00:00Zjunk", "2026-05-15T18:00"}
	for _, s := range good {
		if _, ok := ParseTimestamp(s); !ok {
			t.Errorf("rejected %q", s)
		}
	}
	for _, s := range bad {
		if _, ok := ParseTimestamp(s); ok {
			t.Errorf("accepted %q", s)
		}
	}
	a, _ := ParseTimestamp("2026-05-15T18:00:00+02:00")
	b, _ := ParseTimestamp("2026-05-15T16:00:00Z")
	if !a.Equal(b) {
		t.Errorf("offset not applied: %v vs %v", a, b)
	}
}

func TestCatalogCoversRules(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Catalog {
		if seen[r.Name] {
			t.Errorf("duplicate rule %s", r.Name)
		}
		seen[r.Name] = true
		if _, ok := invariants.ParseSeverity(string(r.Severity)); !ok || r.Clause == "" || r.Summary == "" {
			t.Errorf("incomplete rule %+v", r)
		}
	}
}

func TestEveryRaisedRuleIsInCatalog(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, part := range strings.Split(string(src), `c.raise("`)[1:] {
			name := part[:strings.IndexByte(part, '"')]
			if _, ok := LookupRule(name); !ok {
				t.Errorf("%s raises %q, which is not in the catalog", f, name)
			}
		}
	}
}
