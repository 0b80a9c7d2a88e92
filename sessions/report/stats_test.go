package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"framescope/invariants"
)

// A figure keeps every value up to statsExact, then a bounded reservoir:
// the count and the max stay exact, the quantiles near.
func TestStatsFigureSampleIsBounded(t *testing.T) {
	var f figureSample
	const n = 4 * statsExact
	for i := range n {
		f.add(float64(i % 1000))
	}
	if len(f.vals) != statsExact || f.n != n || f.max != 999 {
		t.Fatalf("kept %d values of %d, max %v", len(f.vals), f.n, f.max)
	}
	if p := f.quantile(0.5); p < 450 || p > 550 {
		t.Errorf("p50 %v, want about 500", p)
	}
}

func TestStatsGroupsAndUntimed(t *testing.T) {
	timed := func(first time.Duration) invariants.Turn {
		return invariants.Turn{Timing: invariants.TurnTiming{Timed: true, HasContent: true, FirstContent: first, Frames: 3, Reads: 3}}
	}
	var s Stats
	for _, r := range []*Report{
		{Source: "a", Dialect: "openai-chat", Flavor: "openai", Turns: []invariants.Turn{timed(100 * time.Millisecond), timed(300 * time.Millisecond)}},
		{Source: "b", Dialect: "openai-chat", Flavor: "openai", Turns: []invariants.Turn{timed(200 * time.Millisecond)}},
		{Source: "c", Dialect: "anthropic-messages", Turns: []invariants.Turn{timed(time.Second)}},
		{Source: "raw.sse", Dialect: "openai-chat", Turns: []invariants.Turn{{}}},
		{Source: "empty.sse", Dialect: "sse"},
	} {
		if err := s.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	var b bytes.Buffer
	if err := s.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		`{"captures":5,"untimed":["raw.sse"],"no_turns":["empty.sse"],"unreadable":[],"groups":[{"dialect":"anthropic-messages","flavor":null,"captures":1,"turns":1,"timed_turns":1,`,
		`{"dialect":"openai-chat","flavor":"openai","captures":2,"turns":3,"timed_turns":3,`,
		`"time_to_first_chunk_ms":{"n":3,"p50":200,"p95":300,"max":300}`,
		`"time_per_output_chunk_ms":{"n":0,"p50":null,"p95":null,"max":null}`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("JSON lacks %s\n%s", want, out)
		}
	}
}

// TestStatsTokensPerSecond: tokens/s is a figure of its own, over the
// turns whose dialect reported usage only.
func TestStatsTokensPerSecond(t *testing.T) {
	turn := func(rate float64, usage bool) invariants.Turn {
		return invariants.Turn{Timing: invariants.TurnTiming{Timed: true, HasContent: true, Frames: 3, Reads: 3,
			ContentSpan: time.Second, HasUsage: usage, OutputTokens: int64(rate), TokensPerSec: rate}}
	}
	var s Stats
	if err := s.Add(&Report{Source: "a", Dialect: "ollama", Turns: []invariants.Turn{turn(40, true), turn(60, true), turn(0, false)}}); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := s.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if want := `"tokens_per_s":{"n":2,"p50":40,"p95":60,"max":60}`; !strings.Contains(b.String(), want) {
		t.Errorf("JSON lacks %s\n%s", want, b.String())
	}
	b.Reset()
	if err := s.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "tokens/s") {
		t.Errorf("text lacks tokens/s:\n%s", b.String())
	}
}
