package ui

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"framescope/invariants"
	"framescope/sessions/capture"
	"framescope/ui/source"
)

// TestFloodHeapBounded: a `data: x` flood forced to PC3, every frame an
// alarm, opened in the model the way the program does (feeder goroutine,
// client machines, batches): what the open session keeps is a few bytes a
// frame — packed rows, the type index as one run, alarm groups, shared
// client checkpoints — plus a few MB that do not grow with the stream.
// At 2 M frames that is 2.7–4.5 B a frame; HEAD's tree before this round
// kept 11–14 (the type index alone 4, a fork of both runs every 512
// frames 2.4, the client queue's room after the stream ended).
func TestFloodHeapBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("opens a 2 M-frame flood: not under -short")
	}
	const frames = 1 << 21
	path := filepath.Join(t.TempDir(), "flood.sse")
	if err := os.WriteFile(path, bytes.Repeat([]byte("data: x\n\n"), frames), 0o600); err != nil {
		t.Fatal(err)
	}
	heap := func() uint64 {
		runtime.GC()
		runtime.GC() // and the batches' room recycled in a sync.Pool
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	before := heap()
	dark := true
	m := NewModel("flood.sse", false, Config{Dark: &dark, Now: func() time.Time { return fixedNow }})
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
	l := newLoop(m)
	c, err := capture.Open(path, capture.OpenOptions{Entry: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	start(context.Background(), source.Capture("flood.sse", c, invariants.Options{Dialect: "pc3"}), l.send, 0)
	l.run()
	after := heap()
	if p := os.Getenv("FRAMESCOPE_HEAP_PROFILE"); p != "" {
		writeHeapProfile(t, p)
	}
	st := m.Store()
	if st.Frames != frames || st.AlarmTotal() < frames {
		t.Fatalf("%d frames, %d alarms; want %d frames, each an alarm", st.Frames, st.AlarmTotal(), frames)
	}
	perFrame := (float64(after) - float64(before)) / frames
	t.Logf("heap %d → %d bytes: %.2f B a frame", before, after, perFrame)
	if perFrame > 6 {
		t.Errorf("the open flood keeps %.2f B a frame, want ≤ 6", perFrame)
	}
	runtime.KeepAlive(m)
}
