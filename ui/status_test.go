package ui

import (
	"framescope/invariants/dialects/pc3"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// TestStatusRegistryAndBatch: with --registry the Status pane gives each
// status frame the registry's verdict (the same facts the status-* rules
// judge), and a status frame sent while two calls run is marked as the
// batch of AC-2; each line carries the frame's time.
func TestStatusRegistryAndBatch(t *testing.T) {
	reg, err := pc3.LoadRegistry(filepath.Join("..", "testdata", "rules", "registry"))
	if err != nil {
		t.Fatal(err)
	}
	tool := func(typ, id string) string {
		return sseFrame(typ, "r1", `"tool_call":{"id":"`+id+`","name":"n_`+id+`","type":"mcp"}`)
	}
	status := func(id string) string {
		return sseFrame("status", "r1", `"data":{"event_id":"`+id+`","message":"msg `+id+`"}`)
	}
	path := writeSSE(t, []string{
		sseFrame("response_id", "r1", ""),
		status("loading_legacy_profile"), // 1: deprecated
		tool("tool_call", "a"), tool("tool_call", "b"),
		status("gathering_results"), // 4: batch policy, two calls running
		status("not_registered_here"),
		tool("tool_completed", "a"), tool("tool_completed", "b"),
		sseFrame("completed", "r1", ""), "data: [DONE]\n\n",
	})
	dark := true
	m := NewModel("x", false, Config{Dark: &dark, Now: func() time.Time { return fixedNow }, Registry: reg})
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	for _, msg := range feedAll(t, openSource(t, path)) {
		m.Update(msg)
	}
	view := func(frame int) string {
		m.timeline.SetCursor(m.Store().RowOfFrame(frame))
		m.syncSelection()
		p := m.Pane(PaneStatus)
		p.SetSize(120, 20)
		return ansi.Strip(p.View())
	}
	v := view(1)
	for _, want := range []string{"loading_legacy_profile · frame 1 · +0.000s", "registry: ▲ deprecated (", "status_events.yaml:"} {
		if !strings.Contains(v, want) {
			t.Errorf("frame 1 lacks %q:\n%s", want, v)
		}
	}
	v = view(4)
	for _, want := range []string{"covers 2 concurrent calls (AC-2 batch)", "registry: ✓ batch · active", "1 · +0.000s  loading_legacy_profile → msg loading_legacy_profile  [▲ deprecated"} {
		if !strings.Contains(v, want) {
			t.Errorf("frame 4 lacks %q:\n%s", want, v)
		}
	}
	v = view(5)
	if !strings.Contains(v, "registry: ✖ not in the registry") || !strings.Contains(v, "concurrent calls") {
		t.Errorf("frame 5:\n%s", v)
	}
	// Without a registry there is no verdict line.
	m.sh.registry = nil
	if v := view(5); strings.Contains(v, "registry:") {
		t.Errorf("a verdict without a registry:\n%s", v)
	}
}

// TestComponentsTimeToFill: a filled placeholder says how long its
// skeleton showed; one still loading, for how long so far.
func TestComponentsTimeToFill(t *testing.T) {
	m := loadModel(t, filepath.Join(examples, "example-happy.jsonl"), 160, 48, true)
	view := func(frame int) string {
		m.timeline.SetCursor(m.Store().RowOfFrame(frame))
		m.syncSelection()
		p := m.Pane(PaneComponents)
		p.SetSize(100, 10)
		return ansi.Strip(p.View())
	}
	if v := view(12); !strings.Contains(v, "✓ offer-list-1 offer_list") || !strings.Contains(v, "loaded in 500ms · 2 items · frames 6→7") {
		t.Errorf("filled:\n%s", v)
	}
	if v := view(6); !strings.Contains(v, "loading for 0ms · since frame 6") {
		t.Errorf("at its data_loading:\n%s", v)
	}
}
