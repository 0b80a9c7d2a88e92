package pc3

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"framescope/decode"
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
		t.Fatalf("%v (run: go test ./invariants/dialects/pc3 -run %s -update)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is out of date (run: go test ./invariants/dialects/pc3 -run %s -update)\n%s", path, t.Name(), firstDiff(want, got))
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
			return "line " + itoa(int64(i+1)) + ":\n want: " + decode.Clip(w, 200) + "\n  got: " + decode.Clip(g, 200)
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
	// Every diagram, as DOT (what `dot -Tsvg` renders) and Mermaid.
	for _, d := range ReferenceDiagrams() {
		for _, format := range []string{"dot", "mermaid"} {
			ext := map[string]string{"dot": ".dot", "mermaid": ".mmd"}[format]
			t.Run(d+ext, func(t *testing.T) {
				golden(t, filepath.Join("testdata", "reference", "diagrams", d+ext), renderDiagram(t, format, ProfileV05, d))
			})
		}
	}
}

func renderDiagram(t *testing.T, format string, p Profile, d string) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := RenderReferenceDiagram(&b, format, p, d); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestDiagramsRenderWithDot renders every DOT diagram of both profiles
// with Graphviz when it is installed.
func TestDiagramsRenderWithDot(t *testing.T) {
	dot, err := exec.LookPath("dot")
	if err != nil {
		t.Skip("Graphviz dot is not installed")
	}
	for _, p := range Profiles() {
		for _, d := range ReferenceDiagrams() {
			cmd := exec.Command(dot, "-Tsvg")
			cmd.Stdin = bytes.NewReader(renderDiagram(t, "dot", p, d))
			out, err := cmd.CombinedOutput()
			if err != nil || !bytes.Contains(out, []byte("<svg")) || bytes.Contains(out, []byte("Warning")) {
				t.Errorf("%s %s: dot -Tsvg: %v\n%.300s", p, d, err, out)
			}
		}
	}
}

// TestRenderReferenceDiagramErrors: unknown names and formats are refused.
func TestRenderReferenceDiagramErrors(t *testing.T) {
	var b bytes.Buffer
	for _, tc := range [][3]string{{"md", "v0.5", "core"}, {"dot", "v0.5", "nope"}, {"dot", "v0.6", "core"}} {
		if err := RenderReferenceDiagram(&b, tc[0], Profile(tc[1]), tc[2]); err == nil {
			t.Errorf("%v accepted", tc)
		}
	}
}

// specText is the PC3 spec text when FRAMESCOPE_PC3_SPEC names it. The
// test suite reads nothing outside the repository by itself (the spec set
// is not part of it), so checking the quotes against the spec is opt-in:
// FRAMESCOPE_PC3_SPEC=/path/to/pc3-execution-modes-event-streaming.txt go test ./invariants/dialects/pc3 -run Citations
func specText(t *testing.T) string {
	path := os.Getenv("FRAMESCOPE_PC3_SPEC")
	if path == "" {
		return ""
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return string(b)
}

// TestCitationsExact: every clause a row or the document cites has a
// citation, every citation is used, and — when the spec text is at hand —
// each citation's heading and quote are verbatim in it.
func TestCitationsExact(t *testing.T) {
	cited := map[string]bool{}
	for _, m := range []*Machine{ClientV05(), ClientV04()} {
		for _, tr := range append(m.Transitions, regionRows(m)...) {
			for _, c := range splitClauses(tr.Clause) {
				cited[c] = true
				if _, ok := LookupCitation(c); !ok {
					t.Errorf("%s row %s --%s--> %s cites %q, which has no citation", m.Profile, tr.From, tr.Input, tr.To, c)
				}
			}
		}
	}
	md := string(ReferenceMarkdown())
	body := md[:strings.Index(md, "## Citations")]
	for _, c := range CitedClauses(body) {
		cited[c] = true
		if _, ok := LookupCitation(c); !ok {
			t.Errorf("the document cites %q, which has no citation", c)
		}
	}
	for _, c := range Citations {
		if !cited[c.Clause] {
			t.Errorf("citation %s is cited nowhere", c.Clause)
		}
	}
	for _, q := range docQuotes {
		if !strings.Contains(body, "\""+q+"\"") {
			t.Errorf("the document does not quote %q", q)
		}
	}
	spec := specText(t)
	if spec == "" {
		t.Skip("the PC3 spec text is not at hand (set FRAMESCOPE_PC3_SPEC)")
	}
	for _, q := range docQuotes {
		if !strings.Contains(spec, q) {
			t.Errorf("the document quotes %q, which is not in the spec", q)
		}
	}
	for _, c := range Citations {
		if !strings.Contains(spec, c.Heading) {
			t.Errorf("%s: heading %q is not in the spec", c.Clause, c.Heading)
		}
		if !strings.Contains(spec, c.Quote) {
			t.Errorf("%s: quote %q is not in the spec", c.Clause, c.Quote)
		}
		if strings.HasPrefix(c.Clause, "§") && !strings.Contains(spec, c.Clause) && !strings.Contains(spec, strings.TrimPrefix(c.Clause, "§")+" ") {
			t.Errorf("%s: no such section", c.Clause)
		}
	}
}

// TestWireExamples: each worked example is one frame that the decoder and
// the machine read as the input it illustrates, and every frame input has
// one.
func TestWireExamples(t *testing.T) {
	have := map[Input]bool{}
	for _, ex := range wireExamples {
		fm := decode.NewFramer()
		var frames []*decode.Frame
		emit := func(ev *decode.Event) {
			if ev.Dispatched() {
				e := ev.Clone()
				frames = append(frames, indexedFrame(&e, 0))
			}
		}
		fm.Feed([]byte(ex.SSE+"\n"), emit)
		fm.Close(emit)
		if len(frames) != 1 {
			t.Errorf("%s: %d frames", ex.Input, len(frames))
			continue
		}
		if got := ClassifyFrame(frames[0]); got != ex.Input {
			t.Errorf("%s example reads as %s", ex.Input, got)
		}
		if ex.Input != InUndecodable && ex.Input != InDone && !frames[0].Decoded() {
			t.Errorf("%s example does not decode", ex.Input)
		}
		have[ex.Input] = true
		// In an open turn bound to resp_abc, the example takes a row.
		r := NewClientRun(ProfileV05)
		r.Transport(TransportEvent{Input: InConnect})
		r.Transport(TransportEvent{Input: InFirstByte})
		r.Step(mkFrame("response_id", "0.5", "resp_abc", ""))
		if ex.Input == InToolCompleted {
			r.Step(mkFrame("tool_call", "0.5", "resp_abc", `"tool_call":{"id":"call_1","name":"search_offers","type":"mcp"}`))
		}
		if s := r.Step(frames[0]); s.Violation {
			t.Errorf("%s example is a violation in an open turn: %s", ex.Input, s.Note)
		}
	}
	for _, in := range allFrameInputs {
		if !have[in] {
			t.Errorf("no worked example for %s", in)
		}
	}
}

// TestCoreDiagramMatchesRows: every edge of the core-lifecycle picture
// summarises real rows: some row from a member of its source, on one of its
// inputs (with its guard), leads to a member of its target.
func TestCoreDiagramMatchesRows(t *testing.T) {
	for _, e := range coreEdges {
		for _, in := range e.inputs {
			found := false
			for _, from := range coreMembersOf(e.from) {
				for _, to := range coreMembersOf(e.to) {
					for _, tr := range ClientV05().Transitions {
						if tr.From == from && tr.To == to && Matches(tr.Input, in) && (e.guard == GuardNone || tr.Guard == e.guard) {
							found = true
						}
					}
				}
			}
			if !found {
				t.Errorf("core edge %s → %s on %s has no row", e.from, e.to, in)
			}
		}
	}
}

// TestDocsUpToDate: docs/client-state-machine.md is the md rendering.
func TestDocsUpToDate(t *testing.T) {
	golden(t, filepath.Join("..", "..", "..", "docs", "client-state-machine.md"), render(t, "md", ProfileV05))
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
	for _, m := range []*Machine{ClientV05(), ClientV04()} {
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
	for _, tr := range ClientV05().Transitions {
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
		if !strings.HasPrefix(strings.SplitN(mm, "\n", 3)[2], "stateDiagram-v2\n") {
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
	if got, want := len(doc.Profiles[0].Transitions), len(ClientV05().Transitions); got != want {
		t.Errorf("v0.5 transitions %d, want %d", got, want)
	}
}
