package dialects

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDetectLangGraph: LangGraph is told by its SSE event names, never by
// JSON keys: its captures (and its real recordings) are detected as
// langgraph, no other dialect's are, and the common words it uses
// (metadata, error, end, values) do not claim a stream alone.
func TestDetectLangGraph(t *testing.T) {
	mine, _ := filepath.Glob("../../testdata/dialects/langgraph/*.sse")
	realMine, _ := filepath.Glob("../../testdata/real/langgraph/*.sse")
	if len(mine) == 0 || len(realMine) == 0 {
		t.Fatal("no langgraph captures")
	}
	for _, f := range append(mine, realMine...) {
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if got := detect(body); got.Name() != "langgraph" {
			t.Errorf("%s detected as %s, want langgraph", f, got.Name())
		}
	}
	others, _ := filepath.Glob("../../testdata/dialects/*/*.sse")
	realOthers, _ := filepath.Glob("../../testdata/real/*/*.sse")
	rules, _ := filepath.Glob("../../testdata/rules/*.sse")
	n := 0
	for _, f := range append(append(others, realOthers...), rules...) {
		if strings.Contains(filepath.ToSlash(f), "/langgraph/") {
			continue
		}
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		n++
		if got := detect(body); got.Name() == "langgraph" {
			t.Errorf("%s (another dialect's) detected as langgraph", f)
		}
	}
	if n < 50 {
		t.Errorf("only %d other captures read", n)
	}
	for body, want := range map[string]string{
		// The LangGraph shape of metadata decides at once.
		"event: metadata\ndata: {\"run_id\":\"r1\",\"attempt\":1}\n\n": "langgraph",
		// A subgraph's namespaced event, and the legacy messages events.
		"event: updates|sub:1\ndata: {\"n\":{}}\n\n":                         "langgraph",
		"event: messages/metadata\ndata: {\"run--1\":{\"metadata\":{}}}\n\n": "langgraph",
		// Common words without the LangGraph shape are not langgraph's
		// ("": whatever else reads them).
		"event: metadata\ndata: {\"model\":\"x\",\"run_id\":\"r\"}\n\n":          "",
		"event: error\ndata: {\"error\":\"E\",\"message\":\"m\"}\n\n":            "",
		"event: end\ndata: {}\n\n":                                               "",
		"event: metadata\ndata: {\"type\":\"message_start\",\"message\":{}}\n\n": "",
	} {
		got := detect([]byte(body))
		if want == "" && got.Name() == "langgraph" || want != "" && got.Name() != want {
			t.Errorf("%q detected as %s, want %s", body, got.Name(), want)
		}
	}
}
