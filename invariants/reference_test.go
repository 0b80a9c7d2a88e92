package invariants

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the reference goldens and docs/client-state-machine.md")

// golden compares got with a file, or rewrites it under -update.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run: go test ./invariants -run %s -update)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is out of date (run: go test ./invariants -run %s -update)\n%s", path, t.Name(), firstDiff(want, got))
	}
}

func firstDiff(want, got []byte) string {
	wl, gl := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return "line " + itoa(int64(i+1)) + ":\n want: " + clip(w, 200) + "\n  got: " + clip(g, 200)
		}
	}
	return ""
}

func render(t *testing.T, format string, p Profile) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := RenderReference(&b, format, p); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestReferenceGolden(t *testing.T) {
	for _, tc := range []struct{ format, file string }{
		{"md", "machine.md"},
		{"mermaid", "machine.mmd"},
		{"dot", "machine.dot"},
		{"json", "machine.json"},
	} {
		t.Run(tc.format, func(t *testing.T) {
			golden(t, filepath.Join("testdata", "reference", tc.file), render(t, tc.format, ProfileV05))
		})
	}
}

// TestDocsUpToDate: docs/client-state-machine.md is the md rendering.
func TestDocsUpToDate(t *testing.T) {
	golden(t, filepath.Join("..", "docs", "client-state-machine.md"), render(t, "md", ProfileV05))
}

func TestRenderReferenceErrors(t *testing.T) {
	var b bytes.Buffer
	if err := RenderReference(&b, "svg", ProfileV05); err == nil {
		t.Error("unknown format accepted")
	}
	if err := RenderReference(&b, "md", "v0.6"); err == nil {
		t.Error("unknown profile accepted")
	}
	if v04 := render(t, "mermaid", ProfileV04); bytes.Equal(v04, render(t, "mermaid", ProfileV05)) {
		t.Error("the v0.4 diagram is the v0.5 one")
	}
}

// TestReferenceMarkdownComplete: every state, region and row is in the
// document, and every row names a clause.
func TestReferenceMarkdownComplete(t *testing.T) {
	md := string(ReferenceMarkdown())
	for _, m := range []*Machine{ClientV05, ClientV04} {
		for _, s := range m.States {
			if !strings.Contains(md, "### "+string(s.ID)+"\n") {
				t.Errorf("state %s has no section", s.ID)
			}
			if n := strings.Count(s.About, ". "); n < 1 || !strings.HasSuffix(s.About, ".") {
				t.Errorf("state %s: explanation should be two sentences: %q", s.ID, s.About)
			}
		}
		for _, r := range m.Regions {
			if !strings.Contains(md, "### "+r.Name+"\n") {
				t.Errorf("region %s has no section", r.Name)
			}
		}
		for _, tr := range append(m.Transitions, regionRows(m)...) {
			if tr.Clause == "" || tr.Why == "" {
				t.Errorf("%s row %s --%s--> %s lacks a clause or why", m.Profile, tr.From, tr.Input, tr.To)
			}
		}
	}
	for _, tr := range ClientV05.Transitions {
		cell := "| `" + string(tr.Input) + "` | " + mdCode(string(tr.Guard)) + " | `" + string(tr.To) + "` | `" + string(tr.Action) + "` |"
		if !strings.Contains(md, cell) {
			t.Errorf("row missing from the md: %s", cell)
		}
	}
	if !strings.Contains(md, "## The v0.4 client") || !strings.Contains(md, "`is_final_false` → `streaming` `dispatch`") {
		t.Error("the v0.4 and divergence sections are incomplete")
	}
}

func regionRows(m *Machine) []Transition {
	var out []Transition
	for _, r := range m.Regions {
		out = append(out, r.Transitions...)
	}
	return out
}

// TestReferenceDiagramsWellFormed checks the diagram syntax the renderers
// rely on: every mermaid transition line has one " : " label without the
// characters stateDiagram-v2 would read as syntax; every DOT edge's
// endpoints are declared nodes; braces balance.
func TestReferenceDiagramsWellFormed(t *testing.T) {
	for _, p := range Profiles() {
		mm := string(render(t, "mermaid", p))
		if !strings.HasPrefix(strings.SplitN(mm, "\n", 2)[1], "stateDiagram-v2\n") {
			t.Errorf("%s mermaid does not start with stateDiagram-v2", p)
		}
		if strings.Count(mm, "{") != strings.Count(mm, "}") {
			t.Errorf("%s mermaid braces do not balance", p)
		}
		edges := 0
		for _, l := range strings.Split(mm, "\n") {
			if !strings.Contains(l, " --> ") || strings.Contains(l, "[*]") {
				continue
			}
			edges++
			parts := strings.SplitN(l, " : ", 2)
			if len(parts) != 2 || strings.ContainsAny(parts[1], ":;#{}<>") {
				t.Errorf("%s mermaid label not plain: %q", p, l)
			}
		}
		if edges < 20 {
			t.Errorf("%s mermaid has only %d edges", p, edges)
		}

		dot := string(render(t, "dot", p))
		if strings.Count(dot, "{") != strings.Count(dot, "}") {
			t.Errorf("%s dot braces do not balance", p)
		}
		nodes := map[string]bool{}
		nodeRe := regexp.MustCompile(`(?m)^\s+("[^"]+") \[`)
		for _, mt := range nodeRe.FindAllStringSubmatch(dot, -1) {
			nodes[mt[1]] = true
		}
		edgeRe := regexp.MustCompile(`(?m)^\s+("[^"]+"|start) -> ("[^"]+")`)
		for _, mt := range edgeRe.FindAllStringSubmatch(dot, -1) {
			for _, n := range mt[1:] {
				if n != "start" && !nodes[n] {
					t.Errorf("%s dot edge to undeclared node %s", p, n)
				}
			}
		}
	}
}

func TestReferenceJSONRoundTrip(t *testing.T) {
	b, err := ReferenceJSON()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Profiles []Machine `json:"profiles"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Profiles) != 2 || doc.Profiles[0].Profile != ProfileV05 || doc.Profiles[1].Profile != ProfileV04 {
		t.Fatalf("profiles: %+v", len(doc.Profiles))
	}
	if got, want := len(doc.Profiles[0].Transitions), len(ClientV05.Transitions); got != want {
		t.Errorf("v0.5 transitions %d, want %d", got, want)
	}
}
