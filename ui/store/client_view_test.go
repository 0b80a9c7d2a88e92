package store

import (
	"fmt"
	"strings"
	"testing"
)

// chatChoices is an openai-chat completion of n chunks alternating two
// choices, each delta "w<i> ".
func chatChoices(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":%d,"delta":{"content":"w%d "},"finish_reason":null}]}`+"\n\n", i%2, i)
	}
	for c := 0; c < 2; c++ {
		fmt.Fprintf(&b, `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":%d,"delta":{},"finish_reason":"stop"}]}`+"\n\n", c)
	}
	b.WriteString("data: [DONE]\n\n")
	return b.String()
}

// Each choice's bubble holds its own deltas only, its tail when long, as
// of any frame.
func TestClientViewChoicesTail(t *testing.T) {
	st := storeOf(t, readerSource(t, "two.sse", chatChoices(1000)))
	v := st.ClientViewAsOf(0, st.Frames-1, 40)
	if len(v.Bubbles) != 2 || v.Bubbles[0].Label != "choice 0" || v.Bubbles[1].Label != "choice 1" {
		t.Fatalf("bubbles %+v", v.Bubbles)
	}
	b0, b1 := v.Bubbles[0], v.Bubbles[1]
	if b0.Deltas != 500 || !strings.HasSuffix(b0.Text, "w998 ") || strings.Contains(b0.Text, "w999") || len(b0.Text) > 40 {
		t.Errorf("choice 0: %d deltas, text %q", b0.Deltas, b0.Text)
	}
	if !strings.HasSuffix(b1.Text, "w999 ") || strings.Contains(b1.Text, "w998") {
		t.Errorf("choice 1: text %q", b1.Text)
	}
	if !v.Ended || v.Outcome != "completed" || v.CarrierFrame != 1001 {
		t.Errorf("end: %+v", v)
	}
	// As of frame 2: w0 w2 / w1.
	v = st.ClientViewAsOf(0, 2, 0)
	if v.Bubbles[0].Text != "w0 w2 " || v.Bubbles[1].Text != "w1 " || v.Ended {
		t.Errorf("as of frame 2: %+v", v)
	}
}

// BenchmarkClientViewTwoChoices: the Client pane's view at the end of a
// 200,000-delta completion of two choices (4 KB tail each).
func BenchmarkClientViewTwoChoices(b *testing.B) {
	st := storeOf(b, readerSource(b, "two.sse", chatChoices(200000)))
	n := st.Frames - 1
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if v := st.ClientViewAsOf(0, n, 4000); len(v.Bubbles) != 2 {
			b.Fatal(len(v.Bubbles))
		}
	}
}

// Thinking is its own bubble, shown apart from the answer as a client
// does; the answer's text (TextAsOf, the Status pane) stays the answer.
func TestClientViewReasoningApart(t *testing.T) {
	const ollama = `{"model":"m","created_at":"2025-08-21T09:55:17.1Z","response":"","thinking":"The user","done":false}
{"model":"m","created_at":"2025-08-21T09:55:17.2Z","response":"","thinking":" asks.","done":false}
{"model":"m","created_at":"2025-08-21T09:55:17.3Z","response":"Fluffy,","done":false}
{"model":"m","created_at":"2025-08-21T09:55:17.4Z","response":" swift.","done":false}
{"model":"m","created_at":"2025-08-21T09:55:17.5Z","response":"","done":true,"done_reason":"stop"}
`
	st := storeOf(t, readerSource(t, "think.ndjson", ollama))
	v := st.ClientViewAsOf(0, st.Frames-1, 0)
	if len(v.Bubbles) != 2 {
		t.Fatalf("bubbles %+v", v.Bubbles)
	}
	th, ans := v.Bubbles[0], v.Bubbles[1]
	if !th.Reasoning || th.Label != "reasoning" || th.Text != "The user asks." || th.Deltas != 2 {
		t.Errorf("thinking bubble %+v", th)
	}
	if ans.Reasoning || ans.Label != "" || ans.Text != "Fluffy, swift." {
		t.Errorf("answer bubble %+v", ans)
	}
	if txt, total, _ := st.TextAsOf(0, st.Frames-1, 0); txt != "Fluffy, swift." || total != len(txt) {
		t.Errorf("TextAsOf = %q (%d)", txt, total)
	}
	// As of frame 1 the client shows thinking and no answer yet.
	if v := st.ClientViewAsOf(0, 1, 0); len(v.Bubbles) != 1 || !v.Bubbles[0].Reasoning {
		t.Errorf("as of frame 1: %+v", v.Bubbles)
	}
}
