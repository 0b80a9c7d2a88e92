package faults

import (
	"bytes"
	"runtime"
	"testing"
)

// TestHoldBudgetBoundsStreams (item 19): --fault buffer= held up to
// MaxHold per stream with no bound across streams (200 × 8 MiB was 2.83
// GB); Writers sharing a HoldBudget hold at most its limit together,
// and every byte still reaches each stream in order. Bounded heap: 40
// streams asking to hold 2 MiB each (80 MiB unbounded) under an 8 MiB
// budget.
func TestHoldBudgetBoundsStreams(t *testing.T) {
	const streams, hold, chunk = 40, 2 << 20, 64 << 10
	budget := NewHoldBudget(8 << 20)
	outs := make([]bytes.Buffer, streams)
	ws := make([]*Writer, streams)
	for i := range ws {
		ws[i] = NewWriter(&outs[i], Set{Buffer: hold}, Out{MaxHold: MaxHold, Budget: budget})
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	p := bytes.Repeat([]byte("data: x\n\n"), chunk/9)
	sent := 0
	for sent+len(p) < hold {
		for _, w := range ws {
			if _, err := w.Send(p, 1); err != nil {
				t.Fatal(err)
			}
		}
		sent += len(p)
		if budget.Used() > 8<<20 {
			t.Fatalf("held %d bytes, over the budget", budget.Used())
		}
	}
	// What is held now, and what the outputs got, minus the outputs' own
	// copies (they are the app's bytes, sent).
	var outBytes int
	for i := range outs {
		outBytes += outs[i].Cap()
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	growth := int64(after.HeapAlloc) - int64(before.HeapAlloc) - int64(outBytes)
	t.Logf("%d streams × %d bytes sent: %d held (budget 8 MiB), heap growth besides the outputs %.1f MiB", streams, sent, budget.Used(), float64(growth)/(1<<20))
	if growth > 24<<20 {
		t.Errorf("heap grew %d bytes holding back (want about the 8 MiB budget)", growth)
	}
	for i, w := range ws {
		if err := w.Finish(true); err != nil {
			t.Fatal(err)
		}
		if outs[i].Len() != sent {
			t.Errorf("stream %d got %d bytes of %d", i, outs[i].Len(), sent)
		}
	}
	if budget.Used() != 0 {
		t.Errorf("%d bytes still counted held after every stream finished", budget.Used())
	}
}
