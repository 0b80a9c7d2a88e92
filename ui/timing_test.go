package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"framescope/ui/source"
)

// stallBurstJSONL is a timed capture of one PC3 turn: three deltas paced
// 100 ms apart, a 6.1 s silence (a stall), then eight deltas, the
// completed frame and [DONE] in one read (a burst).
func stallBurstJSONL() string {
	var b strings.Builder
	b.WriteString(`{"framescope_capture":1,"url":"http://127.0.0.1:9/api/chat","method":"POST","status":200,"response_headers":{"Content-Type":"text/event-stream"},"started_at":"2026-06-02T19:54:00.000Z"}` + "\n")
	line := func(at float64, typ, extra string) {
		data := fmt.Sprintf("event: %s\ndata: {\"event_type\":%q,\"version\":\"0.5\",\"timestamp\":\"2026-06-02T19:54:%06.3fZ\",\"response_id\":\"resp_t\"%s}\n\n", typ, typ, at, extra)
		if typ == "[DONE]" {
			data = "data: [DONE]\n\n"
		}
		j, _ := json.Marshal(map[string]any{"t": at, "data": data})
		b.Write(j)
		b.WriteByte('\n')
	}
	line(0.05, "response_id", "")
	for i, at := range []float64{0.2, 0.3, 0.4} {
		line(at, "text", fmt.Sprintf(`,"chunk":"word %d "`, i))
	}
	for i := range 8 {
		line(6.5, "text", fmt.Sprintf(`,"chunk":"late %d "`, i))
	}
	line(6.5, "completed", "")
	line(6.5, "[DONE]", "")
	b.WriteString(`{"t":6.6,"end":"eof"}` + "\n")
	return b.String()
}

func timingModel(t *testing.T, w, h int) *Model {
	t.Helper()
	dark := true
	m := NewModel("stall.jsonl", false, Config{Dark: &dark, Now: func() time.Time { return fixedNow }})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	for _, msg := range feedAll(t, readerSource(t, "stall.jsonl", stallBurstJSONL())) {
		m.Update(msg)
	}
	return m
}

// TestGoldenTiming pins the Timing view (i) on a turn with a stall and a
// burst: as of frame 3 (before the stall: no stall yet in the figures),
// and as of the end (the stall counted, the delivery-stall alarm under
// Delivery). Update with go test ./ui -run Golden -update.
func TestGoldenTiming(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			m := timingModel(t, size[0], size[1])
			press(m, "i")
			if m.Focused() != PaneClient || m.Pane(PaneClient) != Pane(m.timing) {
				t.Fatalf("i did not show the Timing view: focus %v", m.Focused())
			}
			m.timeline.SetCursor(3)
			m.syncSelection()
			views := map[string]string{"AsOf3": m.timing.View()}
			m.timeline.SetCursor(m.Store().Len() - 1)
			m.syncSelection()
			views["End"] = m.timing.View()
			views["Screen"] = m.Render()
			if !strings.Contains(ansi.Strip(views["End"]), "delivery-stall") {
				t.Errorf("the diagnosis lacks delivery-stall:\n%s", ansi.Strip(views["End"]))
			}
			if v := ansi.Strip(views["AsOf3"]); strings.Contains(v, "stalls 1") || strings.Contains(v, "delivery-stall") {
				t.Errorf("as of frame 3 the stall is not there yet:\n%s", ansi.Strip(views["AsOf3"]))
			}
			for name, v := range views {
				t.Run(name, func(t *testing.T) {
					checkBlock(t, v)
					t.Run("styled", func(t *testing.T) { golden.RequireEqual(t, styled(t, v)) })
					t.Run("plain", func(t *testing.T) { golden.RequireEqual(t, ansi.Strip(v)) })
				})
			}
			press(m, "i")
			if m.Pane(PaneClient) != Pane(m.client) {
				t.Error("i again did not bring the Client pane back")
			}
		})
	}
}

// TestTimingUntimedCapture: a raw SSE capture says it has no times.
func TestTimingUntimedCapture(t *testing.T) {
	m := loadModel(t, examples+"/example-happy.sse", 120, 40, true)
	press(m, "i")
	if v := ansi.Strip(m.timing.View()); !strings.Contains(v, "untimed") {
		t.Errorf("untimed capture:\n%s", v)
	}
}

// TestE2EDemoBuffered: the buffered demo (the happy turn held back by
// the relay after its first frame until its end) shows the diagnosis in
// the Timing view.
func TestE2EDemoBuffered(t *testing.T) {
	url := relayURL(t, "buffered", 2) // ~1.3 s: over delivery-buffered's 1 s floor
	out := &source.LiveOutcome{}
	m := NewModel("demo buffered", true, darkCfg())
	tm := newTestProgram(t, m, 160, 48)
	f := start(context.Background(), source.Live("demo buffered", liveOpts(url), out), tm.Send, 0)
	waitSent(t, f)
	tm.Type("i")
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("delivery-buffered"))
	}, teatest.WithDuration(e2eTimeout))
	fm := finalModel(t, tm)
	st := fm.Store()
	as := st.DeliveryAlarms(0)
	if len(as) != 1 || as[0].Rule != "delivery-buffered" || !strings.Contains(as[0].Message, "held back and delivered at once") {
		t.Fatalf("delivery alarms %+v", as)
	}
	// The first frame passes, the rest arrive in one read: no ttfe, one
	// alarm for one defect.
	for _, a := range st.Alarms {
		if a.Rule == "ttfe" {
			t.Errorf("ttfe as well: %+v", a)
		}
	}
	if s := st.TimingAsOf(0, st.Frames); s.Reads != 2 || s.Frames < 8 {
		t.Errorf("timing %+v", s)
	}
}

// TestTimingShowsTokens: where the dialect reported usage, the figures as
// of the turn's end say the output tokens and their rate.
func TestTimingShowsTokens(t *testing.T) {
	m := loadModel(t, filepath.Join(examples, "example-happy.jsonl"), 160, 48, true)
	press(m, "i")
	m.timeline.SetCursor(12)
	m.syncSelection()
	// The figures' lines (the wide grid's pane shows a dozen lines; they
	// scroll).
	v := ansi.Strip(strings.Join(m.timing.figures(m.Store().TimingAsOf(0, 12)), "\n"))
	if !strings.Contains(v, "output tokens 64") || !strings.Contains(v, "tokens/s over the content") {
		t.Errorf("the figures lack the tokens:\n%s", v)
	}
}
