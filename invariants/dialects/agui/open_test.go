package agui

import (
	"fmt"
	"strings"
	"testing"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects/dialecttest"
)

// TestOpenSetIndexed: past scanMax entries the set indexes them; finds,
// removes (which move the last entry) and a reset agree with a plain scan.
func TestOpenSetIndexed(t *testing.T) {
	var s openSet
	key := func(i int) decode.Raw { return decode.Raw(fmt.Sprintf(`"k%d"`, i)) }
	const n = 3 * scanMax
	for i := range n {
		s.add(invariants.SpanMessage, i%2 == 0, false, key(i), i)
	}
	if !s.indexed || s.n != n {
		t.Fatalf("indexed %v, n %d", s.indexed, s.n)
	}
	for i := 0; i < n; i += 3 {
		s.remove(invariants.SpanMessage, i%2 == 0, key(i))
	}
	for i := range n {
		at := s.find(invariants.SpanMessage, i%2 == 0, key(i))
		if gone := i%3 == 0; gone != (at < 0) {
			t.Fatalf("key %d: find %d", i, at)
		}
		if at >= 0 && (s.e[at].frame != i || string(s.e[at].key) != string(key(i))) {
			t.Fatalf("key %d: entry %d is %+v", i, at, s.e[at])
		}
		if s.find(invariants.SpanMessage, i%2 != 0, key(i)) >= 0 {
			t.Fatalf("key %d found as the other kind", i)
		}
	}
	s.reset()
	if s.indexed || s.find(invariants.SpanMessage, false, key(1)) >= 0 {
		t.Fatal("reset kept entries")
	}
}

// TestManyRunsThenLookups: after more runs than the engine holds (it hands
// the older ones out with OnTurnFinal, as check does), a frame that asks
// whether a span or call is open (a thinking message; an interrupt) reads
// the latest run's state: it panicked with an index out of range.
func TestManyRunsThenLookups(t *testing.T) {
	var b strings.Builder
	for i := range 80 {
		fmt.Fprintf(&b, "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r%d\"}\n\ndata: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r%d\"}\n\n", i, i)
	}
	b.WriteString("data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"rx\"}\n\n")
	b.WriteString("data: {\"type\":\"THINKING_START\"}\n\ndata: {\"type\":\"THINKING_TEXT_MESSAGE_START\"}\n\n")
	b.WriteString("data: {\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c\",\"toolCallName\":\"x\"}\n\n")
	b.WriteString("data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"rx\",\"outcome\":{\"type\":\"interrupt\",\"interrupts\":[{\"id\":\"i\",\"reason\":\"confirm\"}]}}\n\n")
	res := dialecttest.RunOpts(Dialect, b.String(), invariants.Options{OnTurnFinal: func(int, invariants.Turn) {}})
	got := strings.Join(dialecttest.Lines(res.Alarms), "|")
	if strings.Contains(got, "span-orphan") || !strings.Contains(got, "tool-unfinished") {
		t.Errorf("alarms %s: the thinking step is open, and the call is unfinished at the interrupt", got)
	}
}
