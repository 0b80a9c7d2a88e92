package ui

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"framescope/invariants"
	"framescope/invariants/dialects/pc3"
	"framescope/invariants/machine"
	"framescope/ui/store"
)

var axis2 = filepath.Join(examples, "example-axis2-recovered.sse")

// sseFrame is one raw SSE event of a v0.5 frame of turn rid.
func sseFrame(typ, rid, extra string) string {
	data := fmt.Sprintf(`{"event_type":%q,"version":"0.5","timestamp":"2026-05-15T18:00:00.000Z","response_id":%q`, typ, rid)
	if extra != "" {
		data += "," + extra
	}
	return "event: " + typ + "\ndata: " + data + "}\n\n"
}

// writeSSE writes a capture made of events and returns its path.
func writeSSE(t testing.TB, events []string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "capture.sse")
	if err := os.WriteFile(p, []byte(strings.Join(events, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// clientView is the client pane's plain view with the cursor on row.
func clientView(m *Model, row int) string {
	m.timeline.SetCursor(row)
	m.syncSelection()
	return ansi.Strip(m.client.View())
}

// TestGoldenClient pins the client pane at two sizes, dark and light, on
// the axis2 example at the error frame (where the v0.4 client diverges)
// and at the end of the stream.
func TestGoldenClient(t *testing.T) {
	for _, tc := range []struct {
		w, h int
		dark bool
	}{{80, 22, true}, {80, 22, false}, {60, 30, true}, {60, 30, false}} {
		theme := "light"
		if tc.dark {
			theme = "dark"
		}
		t.Run(fmt.Sprintf("%dx%d-%s", tc.w, tc.h, theme), func(t *testing.T) {
			m := loadModel(t, axis2, 160, 48, tc.dark)
			m.client.SetSize(tc.w, tc.h)
			for name, row := range map[string]int{"error": 4, "end": m.Store().Len() - 1} {
				m.timeline.SetCursor(row)
				m.syncSelection()
				v := m.client.View()
				t.Run(name, func(t *testing.T) {
					checkBlock(t, v)
					if got := len(strings.Split(v, "\n")); got != tc.h {
						t.Errorf("%d lines, want %d", got, tc.h)
					}
					t.Run("styled", func(t *testing.T) { golden.RequireEqual(t, styled(t, v)) })
					t.Run("plain", func(t *testing.T) { golden.RequireEqual(t, ansi.Strip(v)) })
				})
			}
		})
	}
}

// TestClientStepsThroughAxis2 steps the cursor with j through the axis2
// example (a non-terminal CCS_ENVELOPE_ERROR, the apology text, completed)
// and checks at each frame what the pane says of both clients: v0.5 takes
// the degraded path and completes, v0.4 ends the turn at the error.
func TestClientStepsThroughAxis2(t *testing.T) {
	m := loadModel(t, axis2, 160, 48, true)
	press(m, "g")
	want := []struct {
		title string   // the pane's title
		has   []string // in the view
		not   []string
	}{
		{"Client v0.5 · turn_open", []string{"frame 0 response_id", "[turn_open]", "bind_turn", "§5.5, FR-2"}, []string{"diverges"}},
		{"Client v0.5 · streaming · v0.4 turn_open ◆", []string{"◆ the v0.4 client diverges at this frame", "progress: ‹none› thinking [status]", "Looking up your purchases..."}, nil},
		{"Client v0.5 · streaming", []string{"call_9=running", "open_tool_indicator"}, []string{"◆"}},
		{"Client v0.5 · streaming", []string{"call_9=done", "≠ the v0.4 client reads this frame otherwise (diverged at frame 1)"}, []string{"◆"}},
		{"Client v0.5 · streaming · v0.4 failed ◆", []string{
			"◆ the v0.4 client diverges at this frame", "ends the turn as failed",
			"[is_final_false]", "degraded: intact → degraded  mark_degraded", "‹failed›", "‹intact› [degraded]",
			"v0.4 on error streaming → failed end_turn_failed",
		}, nil},
		{"Client v0.5 · streaming · v0.4 failed", []string{"\"I wasn't able to look that up right now.\"", "append_text", "v0.4 on text failed → failed ignore", "diverged at frame 4"}, []string{"◆"}},
		{"Client v0.5 · completed · v0.4 failed", []string{"[completed]", "outcome:    completed", "degraded:   yes"}, nil},
		{"Client v0.5 · closed (completed) · v0.4 closed (failed)", []string{
			"frame 7 [DONE] · then eof", "[closed]", "outcome:    completed · [DONE]",
			"outcome:    failed: a generic apology", "v0.4 divergences so far: 2 (first at frame 1)",
		}, nil},
	}
	m.client.SetSize(100, 80) // room for every line
	for i, w := range want {
		if i > 0 {
			press(m, "j")
		}
		if m.Selected() != i {
			t.Fatalf("j: row %d, want %d", m.Selected(), i)
		}
		v := ansi.Strip(m.client.View())
		if got := m.client.Title(); got != w.title {
			t.Errorf("frame %d: title %q, want %q", i, got, w.title)
		}
		for _, s := range w.has {
			if !strings.Contains(v, s) {
				t.Errorf("frame %d: no %q in\n%s", i, s, v)
			}
		}
		for _, s := range w.not {
			if strings.Contains(v, s) {
				t.Errorf("frame %d: %q in\n%s", i, s, v)
			}
		}
	}
}

// TestClientPaneIsATab: at 80×24 the pane is one more tab, reached with
// tab, and its title follows the cursor.
func TestClientPaneIsATab(t *testing.T) {
	m := loadModel(t, axis2, 80, 24, true)
	press(m, "G")
	for i := 0; i < int(numPanes) && m.Focused() != PaneClient; i++ {
		press(m, "tab")
	}
	if m.Focused() != PaneClient {
		t.Fatalf("tab never reached the client pane")
	}
	s := screen(m)
	for _, want := range []string{" Client ", "frame 7 [DONE] · then eof", "v0.5 closed (completed)", "v0.4 closed (failed)"} {
		if !strings.Contains(s, want) {
			t.Errorf("no %q on the screen:\n%s", want, s)
		}
	}
}

// TestClientWideLayout: in the wide layouts the pane has a place of its
// own and every pane keeps a readable size.
func TestClientWideLayout(t *testing.T) {
	for _, sz := range [][2]int{{160, 48}, {200, 60}} {
		m := loadModel(t, axis2, sz[0], sz[1], true)
		for id := PaneTimeline; id < numPanes; id++ {
			r := m.rects[id]
			if r.w < 30 || r.h < 5 {
				t.Errorf("%dx%d: %v is %dx%d", sz[0], sz[1], id, r.w, r.h)
			}
		}
		if !strings.Contains(screen(m), "Client v0.5 · turn_open") {
			t.Errorf("%dx%d: the client pane's title is not on the screen:\n%s", sz[0], sz[1], screen(m))
		}
	}
}

// TestClientTransportEvents: before and without frames, the machines stand
// where the store's connection state puts them.
func TestClientTransportEvents(t *testing.T) {
	for _, tc := range []struct {
		name  string
		batch store.Batch
		want  string
	}{
		{"connecting", store.Batch{}, "Client v0.5 · connecting"},
		{"open", store.Batch{Conn: &store.ConnUpdate{State: store.ConnOpen, HTTPStatus: 200}}, "Client v0.5 · awaiting_first_frame"},
		{"http error", store.Batch{Conn: &store.ConnUpdate{State: store.ConnOpen, HTTPStatus: 503}, End: &invariants.End{Kind: "eof"}}, "Client v0.5 · http_failed"},
		{"eof before any frame", store.Batch{Conn: &store.ConnUpdate{State: store.ConnOpen}, End: &invariants.End{Kind: "eof"}}, "Client v0.5 · ended_without_terminal (connection_lost)"},
		{"broken", store.Batch{End: &invariants.End{Kind: "error", Detail: "reset"}}, "Client v0.5 · ended_without_terminal (connection_lost)"},
		{"user cancel", store.Batch{Conn: &store.ConnUpdate{State: store.ConnOpen}, End: &invariants.End{Kind: "cancelled"}}, "Client v0.5 · cancelled"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := NewModel("x", false, Config{Now: func() time.Time { return fixedNow }})
			m.Update(tea80x24)
			b := tc.batch
			m.Update(batchMsg{&b})
			if got := m.client.Title(); got != tc.want {
				t.Errorf("title %q, want %q\n%s", got, tc.want, ansi.Strip(m.client.View()))
			}
		})
	}
}

// TestClientStreamEnd: a turn cut off without its terminal ends, at the
// last row, where the eof leaves it; a row earlier it is still streaming.
func TestClientStreamEnd(t *testing.T) {
	p := writeSSE(t, []string{
		sseFrame("response_id", "r1", ""),
		sseFrame("text", "r1", `"chunk":"Hel"`),
		sseFrame("text", "r1", `"chunk":"lo"`),
	})
	m := loadModel(t, p, 160, 48, true)
	m.client.SetSize(100, 60)
	if v := clientView(m, 1); !strings.Contains(v, "v0.5 streaming") || strings.Contains(v, "then eof") {
		t.Errorf("frame 1:\n%s", v)
	}
	v := clientView(m, m.Store().Len()-1)
	for _, want := range []string{"then eof", "v0.5 ended_without_terminal (connection_lost)", "\"Hello\"", "check: terminal-missing"} {
		if !strings.Contains(v, want) {
			t.Errorf("the end: no %q in\n%s", want, v)
		}
	}
}

// TestClientViolation: a frame the v0.5 client has no row for (a
// tool_completed nobody opened) shows as a violation.
func TestClientViolation(t *testing.T) {
	p := writeSSE(t, []string{
		sseFrame("response_id", "r1", ""),
		sseFrame("tool_completed", "r1", `"tool_call":{"id":"ghost","name":"x","type":"function"}`),
		sseFrame("completed", "r1", ""),
	})
	m := loadModel(t, p, 160, 48, true)
	m.client.SetSize(100, 60)
	v := clientView(m, 1)
	for _, want := range []string{"✖ no transition", "tools: no tool_call opened this id", "check: tool-orphan", "v0.5 violations so far: 1 (last at frame 1)"} {
		if !strings.Contains(v, want) {
			t.Errorf("no %q in\n%s", want, v)
		}
	}
	if v := clientView(m, 0); strings.Contains(v, "no transition") {
		t.Errorf("frame 0 is no violation:\n%s", v)
	}
}

// unstyled is a Styles that emits no escape sequence at all, so that any
// ESC or C1 byte in a view came from a frame.
func unstyled() *Styles {
	s := NewStyles(true, true)
	v := reflect.ValueOf(s).Elem()
	plain := reflect.ValueOf(lipgloss.NewStyle())
	for i := 0; i < v.NumField(); i++ {
		if f := v.Field(i); f.Type() == plain.Type() {
			f.Set(plain)
		}
	}
	return s
}

// TestClientHostileFrame: escape sequences, C1 controls, bidi and
// zero-width characters in a text chunk, a tool name and a data.id reach
// the pane escaped, never raw.
func TestClientHostileFrame(t *testing.T) {
	evil := `\u001b]52;c;cHduZWQ=\u0007\u001b[2J\u009b31m\u202eevil\u200b`
	p := writeSSE(t, []string{
		sseFrame("response_id", "r1", ""),
		sseFrame("status", "r1", `"data":{"event_id":"e`+evil+`","message":"m`+evil+`"}`),
		sseFrame("tool_call", "r1", `"tool_call":{"id":"c`+evil+`","name":"n`+evil+`","type":"function"}`),
		sseFrame("data_loading", "r1", `"data":{"id":"d`+evil+`","type":"t`+evil+`"}`),
		sseFrame("text", "r1", `"chunk":"hi `+evil+`"`),
	})
	m := loadModel(t, p, 160, 48, true)
	m.setStyles(unstyled())
	m.client.SetSize(120, 80)
	v := clientView(m, m.Store().Len()-1) + m.client.Title()
	for _, r := range v {
		if r == 0x1b || r >= 0x80 && r <= 0x9f || r == 0x202e || r == 0x200b || r == 0x07 {
			t.Fatalf("raw control %U in the pane:\n%q", r, v)
		}
	}
	if !strings.Contains(v, `\x1b]52;c;`) || !strings.Contains(v, `\u202e`) {
		t.Errorf("the escapes are not shown:\n%s", v)
	}
}

// TestClientCheckpoints: the pane's state at any frame, replayed from its
// checkpoints, is the state of runs fed every frame from the start (a
// long turn, a second turn on the same stream, frames around the
// checkpoint boundaries).
func TestClientCheckpoints(t *testing.T) {
	var evs []string
	evs = append(evs, sseFrame("response_id", "r1", ""), sseFrame("tool_call", "r1", `"tool_call":{"id":"c1","name":"x","type":"function"}`))
	for i := 0; i < 3*store.ClientEvery; i++ {
		evs = append(evs, sseFrame("text", "r1", fmt.Sprintf(`"chunk":"w%d "`, i)))
		if i == store.ClientEvery {
			evs = append(evs, sseFrame("error", "r1", `"error":{"code":"CCS_ENVELOPE_ERROR"},"is_final":false`))
		}
	}
	evs = append(evs, sseFrame("completed", "r1", ""), "data: [DONE]\n\n", sseFrame("response_id", "r2", ""))
	for i := 0; i < store.ClientEvery+10; i++ {
		evs = append(evs, sseFrame("text", "r2", fmt.Sprintf(`"chunk":"v%d "`, i)))
	}
	m := loadModel(t, writeSSE(t, evs), 160, 48, true)
	st := m.Store()
	// The reference: both runs fed every frame, a view string per frame.
	ref := store.StartClientPair(st.Machine(), st.HTTPStatus, true)
	var want05, want04 []string
	for n := 0; n < st.Frames; n++ {
		ref.Step(st.RowFrame(st.RowOfFrame(n)))
		want05 = append(want05, pc3View(ref.Ref).String())
		want04 = append(want04, pc3View(ref.Dep).String())
	}
	frames := []int{0, 1, store.ClientEvery - 2, store.ClientEvery - 1, store.ClientEvery, store.ClientEvery + 1, st.Frames - 2}
	rnd := rand.New(rand.NewSource(1))
	for i := 0; i < 20; i++ {
		frames = append(frames, rnd.Intn(st.Frames-1))
	}
	for _, n := range frames {
		m.timeline.SetCursor(st.RowOfFrame(n))
		s := m.client.current()
		if !s.ready {
			t.Fatalf("frame %d: not ready", n)
		}
		if got := pc3View(s.ref).String(); got != want05[n] {
			t.Errorf("frame %d v0.5:\n%s\nwant\n%s", n, got, want05[n])
		}
		if got := pc3View(s.dep).String(); got != want04[n] {
			t.Errorf("frame %d v0.4:\n%s\nwant\n%s", n, got, want04[n])
		}
	}
	// Checkpoints: one before any frame, then at least ClientEvery and at
	// most 2*ClientEvery frames apart, at the start of a turn when one
	// begins in that window (the frame after [DONE] here).
	cpAt := st.ClientCheckpoints()
	if st.ClientRead() != st.Frames || len(cpAt) < 2 || cpAt[0] != 0 {
		t.Fatalf("%d checkpoints at %v over %d of %d frames", len(cpAt), cpAt, st.ClientRead(), st.Frames)
	}
	second := st.Turns[1].FirstFrame + 1 // after the frame that begins turn 1
	for k := 1; k < len(cpAt); k++ {
		gap := cpAt[k] - cpAt[k-1]
		if gap < store.ClientEvery || gap > 2*store.ClientEvery || gap < 2*store.ClientEvery && cpAt[k] != second {
			t.Errorf("checkpoint %d after %d frames (gap %d; turn 1 begins at frame %d)", k, cpAt[k], gap, second-1)
		}
	}
	if i := sort.SearchInts(cpAt, second); i == len(cpAt) || cpAt[i] != second {
		t.Errorf("no checkpoint where turn 1 begins (%d): %v", second, cpAt)
	}
}

// TestClientCheckpointsWhileStreaming: the machines run on a goroutine of
// their own beside the pipeline and their checkpoints arrive with the
// batches — no command, no reading in Update — while the pane replays from
// them on the UI goroutine, catching up itself on frames the machines have
// not reached yet; the last batch carries every frame's step (run with
// -race: the front run and the checkpoints share no bytes they write).
func TestClientCheckpointsWhileStreaming(t *testing.T) {
	n := 5*store.ClientEvery + 17
	evs := []string{sseFrame("response_id", "r1", "")}
	for i := 0; i < n; i++ {
		evs = append(evs, sseFrame("text", "r1", fmt.Sprintf(`"chunk":"w%d "`, i)))
	}
	path := writeSSE(t, evs)
	m := NewModel("x", false, Config{})
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	msgs := make(chan tea.Msg, 4)
	f := start(context.Background(), openSource(t, path), func(msg tea.Msg) { msgs <- msg }, time.Microsecond)
	go func() { <-f.Sent(); close(msgs) }()
	rnd := rand.New(rand.NewSource(2))
	for msg := range msgs {
		if _, cmd := m.Update(msg); cmd != nil {
			t.Fatalf("a batch returned a command (%T): the machines must not run in Update", cmd())
		}
		st := m.Store()
		if st.ClientRead() > st.Frames {
			t.Fatalf("the machines read %d frames, the store has %d", st.ClientRead(), st.Frames)
		}
		if st.Frames > 0 {
			m.timeline.SetCursor(st.RowOfFrame(rnd.Intn(st.Frames)))
			_ = m.client.View()
			if s := m.client.current(); !s.ready {
				t.Fatalf("frame %d not ready", s.frame)
			}
		}
	}
	st := m.Store()
	if st.ClientRead() != st.Frames {
		t.Fatalf("after the last batch the machines read %d of %d frames", st.ClientRead(), st.Frames)
	}
	press(m, "G")
	want := 0
	for i := 0; i < n; i++ {
		want += len(fmt.Sprintf("w%d ", i))
	}
	if got := pc3View(m.client.current().ref).TextLen(); got != want {
		t.Errorf("the bubble holds %d bytes at the end, want the whole turn's %d", got, want)
	}
	// One long turn: a checkpoint every 2*ClientEvery frames.
	if len(st.ClientCheckpoints()) != st.Frames/(2*store.ClientEvery)+1 {
		t.Errorf("%d checkpoints for %d frames", len(st.ClientCheckpoints()), st.Frames)
	}
	if got := m.client.Title(); got != "Client v0.5 · ended_without_terminal (connection_lost)" {
		t.Errorf("at the end: %q", got)
	}
}

// BenchmarkClientPaneCursor moves the cursor to random frames of a
// ~200k-frame turn and renders the pane (the checkpoints came with the
// batches, built on the pipeline goroutine).
func BenchmarkClientPaneCursor(b *testing.B) {
	const n = 200_000
	var sb strings.Builder
	sb.WriteString(sseFrame("response_id", "r1", ""))
	for i := 0; i < n; i++ {
		sb.WriteString(sseFrame("text", "r1", fmt.Sprintf(`"chunk":"word%d "`, i%1000)))
	}
	sb.WriteString(sseFrame("completed", "r1", "") + "data: [DONE]\n\n")
	p := filepath.Join(b.TempDir(), "flood.sse")
	if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	m := loadModel(b, p, 160, 48, true)
	if st := m.Store(); st.ClientRead() != st.Frames {
		b.Fatalf("the machines read %d of %d frames", st.ClientRead(), st.Frames)
	}
	rows := m.Store().Len()
	rnd := rand.New(rand.NewSource(1))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.timeline.SetCursor(rnd.Intn(rows))
		m.syncSelection()
		_ = m.client.View()
	}
}

// pc3View is the view of the PC3 run behind a machine.Run.
func pc3View(r machine.Run) *pc3.ClientView {
	return r.(interface{ View() *pc3.ClientView }).View()
}
