package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/internal/sessiontest"
)

// chatTurn is an openai-chat turn whose content arrives late and with a
// long gap: "a" at 1s (frame 1), "b" at 1.1s (frame 2), "c" at 3s
// (frame 3), the terminal and [DONE] at 3.1s.
func chatTurn() *sessiontest.FakeCapture {
	chunk := func(delta, finish string) string {
		return `data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + finish + `}]}` + "\n\n"
	}
	at := func(s float64, data string) sessions.Chunk {
		return sessions.Chunk{Data: []byte(data), T: time.Duration(s * float64(time.Second)), HasTime: true}
	}
	return &sessiontest.FakeCapture{
		Info: sessions.Meta{Name: "turn.jsonl", Kind: sessions.KindJSONL, Timed: true},
		Chunks: []sessions.Chunk{
			at(0.1, chunk(`{"role":"assistant","content":""}`, "null")),
			at(1.0, chunk(`{"content":"alpha"}`, "null")),
			at(1.1, chunk(`{"content":"beta"}`, "null")),
			at(3.0, chunk(`{"content":"gamma"}`, "null")),
			at(3.1, chunk(`{}`, `"stop"`)),
			at(3.1, "data: [DONE]\n\n"),
		},
		Ending: invariants.End{Kind: invariants.EndEOF},
	}
}

// TestBudgetExcerptsNameTheirFrame: the budget alarms are raised at the
// turn's end but name its first content (frame 1) and the end of its
// longest gap (frame 3); each excerpt is of the frame its alarm names,
// never [DONE] (the frame being read when they were raised).
func TestBudgetExcerptsNameTheirFrame(t *testing.T) {
	opts := invariants.Options{MaxFirstContent: 200 * time.Millisecond, MaxGap: 500 * time.Millisecond}
	rep, err := Check(chatTurn(), opts)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		frame int
		text  string
	}{"budget-first-content": {1, "alpha"}, "budget-gap": {3, "gamma"}}
	seen := 0
	for _, a := range rep.Alarms {
		w, ok := want[a.Rule]
		if !ok {
			continue
		}
		seen++
		if a.Frame != w.frame || !strings.Contains(a.Excerpt, w.text) {
			t.Errorf("%s at frame %d: excerpt %q, want frame %d's (%q)", a.Rule, a.Frame, a.Excerpt, w.frame, w.text)
		}
	}
	if seen != 2 {
		t.Fatalf("want both budget alarms, got %+v", rep.Alarms)
	}
	var b bytes.Buffer
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "│ [DONE]") {
		t.Errorf("an excerpt quotes [DONE]:\n%s", b.String())
	}
}

// TestExcerptNeverOfAnotherFrame: an alarm naming a frame the memo did
// not keep gets no excerpt rather than the excerpt of the frame being
// read.
func TestExcerptNeverOfAnotherFrame(t *testing.T) {
	var m *excerptMemo // budgets off: nothing kept
	if ex, off := m.of(4); ex != "" || off != -1 {
		t.Errorf("nil memo gave %q", ex)
	}
	m = &excerptMemo{}
	for i := range memoTurns + 2 {
		m.turn(i).first = memoFrame{index: i * 10, offset: int64(i), excerpt: "x", set: true}
	}
	old, _ := m.of(0)
	last, off := m.of((memoTurns + 1) * 10)
	if len(m.turns) != memoTurns || old != "" || last != "x" || off != memoTurns+1 {
		t.Errorf("memo keeps %d turns, of(0)=%q", len(m.turns), old)
	}
}
