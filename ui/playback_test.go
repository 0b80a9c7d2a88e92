package ui

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"framescope/ui/store"
)

// clockModel is loadModel with a clock the test moves.
func clockModel(t *testing.T, src store.Source, now *time.Time) *Model {
	t.Helper()
	dark := true
	m := NewModel(src.Name, false, Config{Dark: &dark, Now: func() time.Time { return *now }})
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	for _, msg := range feedAll(t, src) {
		m.Update(msg)
	}
	return m
}

// tickAt delivers the playback tick of the current generation at wall
// time w and returns the command it scheduled.
func tickAt(m *Model, w time.Time) tea.Cmd {
	_, cmd := m.Update(playTickMsg{gen: m.play.gen, at: w})
	return cmd
}

// lastDue is the last row whose time is at or before d.
func lastDue(st *store.Store, d time.Duration) int {
	row := 0
	for i := 0; i < st.Len(); i++ {
		if r := st.Row(i); r.HasAt && r.At <= d {
			row = i
		}
	}
	return row
}

func TestPlayFollowsRecordedTime(t *testing.T) {
	now := fixedNow
	m := clockModel(t, openSource(t, filepath.Join(examples, "example-happy.jsonl")), &now)
	st := m.Store()
	start := st.Row(0).At
	_, cmd := m.Update(keyMsg(" "))
	if !m.play.on || cmd == nil {
		t.Fatalf("space starts playback (on %v, cmd %v)", m.play.on, cmd != nil)
	}
	if !strings.Contains(screen(m), "▶ PLAY ×1") {
		t.Errorf("the header shows playback:\n%s", screen(m))
	}
	for _, wall := range []time.Duration{3 * time.Millisecond, 5 * time.Millisecond, 150 * time.Millisecond, 400 * time.Millisecond, 900 * time.Millisecond} {
		tickAt(m, fixedNow.Add(wall))
		if want := lastDue(st, start+wall); m.Selected() != want {
			t.Fatalf("at +%v: row %d, want %d (row times %v…)", wall, m.Selected(), want, st.Row(want).At)
		}
	}
	// Pause: a tick still in flight is stale and does nothing.
	gen := m.play.gen
	sel := m.Selected()
	press(m, " ")
	if m.play.on || !strings.Contains(screen(m), "paused") {
		t.Fatalf("space pauses:\n%s", screen(m))
	}
	if _, cmd := m.Update(playTickMsg{gen: gen, at: fixedNow.Add(time.Hour)}); cmd != nil || m.Selected() != sel {
		t.Errorf("a stale tick moved the cursor to %d (or scheduled more)", m.Selected())
	}
	// Playing to the end stops there.
	now = fixedNow.Add(time.Second)
	press(m, " ")
	if cmd := tickAt(m, now.Add(time.Hour)); cmd != nil {
		t.Errorf("the end schedules no more ticks")
	}
	if m.Selected() != st.Len()-1 || m.play.on || !strings.Contains(screen(m), "playback finished") {
		t.Errorf("end: row %d on %v\n%s", m.Selected(), m.play.on, screen(m))
	}
	// At the end, space plays again from the top.
	press(m, " ")
	if m.Selected() != 0 || !m.play.on {
		t.Errorf("replay: row %d on %v", m.Selected(), m.play.on)
	}
}

func TestPlaySpeed(t *testing.T) {
	now := fixedNow
	m := clockModel(t, openSource(t, filepath.Join(examples, "example-happy.jsonl")), &now)
	st := m.Store()
	start := st.Row(0).At
	for _, c := range []struct {
		key  string
		want string
	}{{"+", "×2"}, {"+", "×4"}, {"-", "×2"}, {"-", "×1"}, {"-", "×0.5"}, {"-", "×0.25"}, {"-", "×0.25"}} {
		press(m, c.key)
		if got := m.play.speedText(); got != c.want {
			t.Fatalf("%s: speed %s, want %s", c.key, got, c.want)
		}
	}
	for range 3 {
		press(m, "+")
	}
	press(m, " ")
	if !strings.Contains(screen(m), "▶ PLAY ×2") {
		t.Errorf("the header shows the speed:\n%s", screen(m))
	}
	// ×2: 150ms of wall time is 300ms of the recording.
	tickAt(m, fixedNow.Add(150*time.Millisecond))
	if want := lastDue(st, start+300*time.Millisecond); m.Selected() != want {
		t.Fatalf("×2 at +150ms: row %d, want %d", m.Selected(), want)
	}
	// Changing speed while playing keeps the position and re-times: the
	// tick scheduled before is stale.
	now = fixedNow.Add(150 * time.Millisecond)
	old := m.play.gen
	press(m, "+")
	if m.play.gen == old {
		t.Fatalf("a speed change must re-time the ticks")
	}
	sel := m.Selected()
	m.Update(playTickMsg{gen: old, at: now.Add(time.Hour)})
	if m.Selected() != sel {
		t.Fatalf("a stale tick moved the cursor")
	}
	// ×4 from stream time start+300ms: 100ms later is start+700ms.
	tickAt(m, now.Add(100*time.Millisecond))
	if want := lastDue(st, start+700*time.Millisecond); m.Selected() != want {
		t.Errorf("×4: row %d, want %d", m.Selected(), want)
	}
}

func TestPlayUntimedAtFixedPace(t *testing.T) {
	var b strings.Builder
	for range 6 {
		b.WriteString(`data: {"event_type":"text","version":"0.5","response_id":"r","chunk":"x"}` + "\n\n")
	}
	now := fixedNow
	m := clockModel(t, readerSource(t, "untimed.sse", b.String()), &now)
	press(m, " ")
	if !strings.Contains(screen(m), "10 rows/s") {
		t.Errorf("untimed playback says its pace:\n%s", screen(m))
	}
	tickAt(m, fixedNow.Add(250*time.Millisecond))
	if m.Selected() != 2 {
		t.Errorf("10 rows/s at +250ms: row %d, want 2", m.Selected())
	}
}

func TestPlayPicksUpAfterTheUserMoves(t *testing.T) {
	now := fixedNow
	m := clockModel(t, openSource(t, filepath.Join(examples, "example-happy.jsonl")), &now)
	press(m, " ")
	tickAt(m, fixedNow.Add(400*time.Millisecond))
	press(m, "g")
	// The next tick re-anchors at row 0 instead of rushing forward.
	tickAt(m, fixedNow.Add(5*time.Second))
	if m.Selected() != 0 || !m.play.on {
		t.Errorf("after g: row %d on %v", m.Selected(), m.play.on)
	}
}

func TestStepFrames(t *testing.T) {
	var b strings.Builder
	b.WriteString(frame("response_id", "r1", 0, ""))
	b.WriteString(": keepalive\n\n")
	b.WriteString(": keepalive\n\n")
	b.WriteString(frame("text", "r1", 10, `,"chunk":"a"`))
	b.WriteString(frame("completed", "r1", 20, ""))
	now := fixedNow
	m := clockModel(t, readerSource(t, "steps.sse", b.String()), &now)
	if m.Store().Len() != 5 {
		t.Fatalf("%d rows", m.Store().Len())
	}
	press(m, " ")
	for _, s := range []struct {
		key  string
		want int
	}{{"right", 3}, {"right", 4}, {"right", 4}, {"left", 3}, {"left", 0}, {"left", 0}} {
		press(m, s.key)
		if m.Selected() != s.want {
			t.Fatalf("%s: row %d, want %d", s.key, m.Selected(), s.want)
		}
		if m.play.on {
			t.Fatalf("stepping pauses playback")
		}
	}
	if !strings.Contains(screen(m), "no frame before this row") {
		t.Errorf("stepping off the start says so:\n%s", screen(m))
	}
}

func TestPlayIsOffWhileLive(t *testing.T) {
	msgs := feedAll(t, openSource(t, filepath.Join(examples, "example-happy.jsonl")))
	batches := splitBatches(t, msgs, 4)
	dark := true
	m := NewModel("live", true, Config{Dark: &dark})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m.Update(batchMsg{batches[0]})
	if _, cmd := m.Update(keyMsg(" ")); cmd != nil || m.play.on || !strings.Contains(screen(m), "this stream is live") {
		t.Fatalf("playback while live:\n%s", screen(m))
	}
	for _, b := range batches[1:] {
		m.Update(batchMsg{b})
	}
	press(m, " ")
	if !m.play.on {
		t.Errorf("an ended live session plays like a recording")
	}
}
