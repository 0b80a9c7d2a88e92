package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"framescope/invariants"
)

func sampleTiming() invariants.TurnTiming {
	return invariants.TurnTiming{Timed: true, FromResponse: true, HasFirstByte: true, HasContent: true, HasTerminal: true,
		FirstByte: 90 * time.Millisecond, FirstFrame: 100 * time.Millisecond, FirstContent: 400 * time.Millisecond,
		Duration: 2333 * time.Millisecond, Tail: 130 * time.Millisecond, Frames: 19, Reads: 18, Burst: 2, BurstSpan: time.Millisecond,
		Chunks: 16, Chars: 72, PerChunk: 120 * time.Millisecond, GapP50: 119 * time.Millisecond, GapP95: 145 * time.Millisecond,
		GapMax: 6 * time.Second, GapMaxFrom: 9, GapMaxTo: 10, ChunksPerSec: 8.333, CharsPerSec: 40, Stalls: 1, StallTotal: 6 * time.Second,
		ContentSpan: 1800 * time.Millisecond, HasUsage: true, OutputTokens: 120, TokensPerSec: 120 / 1.8,
		HasGenTime: true, GenTime: 1500 * time.Millisecond, ServerTokensPerSec: 80}
}

// TestTimingSpills: a turn's timing survives the turn log's spill to disk
// (a report of many turns), whole, and an untimed turn stays untimed.
func TestTimingSpills(t *testing.T) {
	prev := memTurns
	memTurns = 1
	defer func() { memTurns = prev }()
	var l turnLog
	defer l.close()
	tm := sampleTiming()
	l.add(invariants.Turn{ResponseID: "a", Timing: tm})
	l.add(invariants.Turn{ResponseID: "b", Timing: tm})
	l.add(invariants.Turn{ResponseID: "c"})
	var got []invariants.Turn
	if err := l.each(func(_ int, t *invariants.Turn) error { got = append(got, *t); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[1].Timing != tm || got[1].ResponseID != "b" || got[2].Timing.Timed || got[2].ResponseID != "c" {
		t.Errorf("spilled turns %+v", got)
	}
}

// TestTimingFaces: the JSON object has every figure (null where the turn
// lacks one) and the text line the ones a reader scans for.
func TestTimingFaces(t *testing.T) {
	tm := sampleTiming()
	var obj map[string]any
	if err := json.Unmarshal(appendTimingJSON(nil, &tm), &obj); err != nil {
		t.Fatal(err)
	}
	if obj["origin"] != "response" || obj["time_to_first_chunk_ms"] != 400.0 || obj["gap_max_ms"] != 6000.0 || obj["stalls"] != 1.0 {
		t.Errorf("json %v", obj)
	}
	if obj["output_tokens"] != 120.0 || obj["tokens_per_s"] != 66.667 || obj["server_tokens_per_s"] != 80.0 {
		t.Errorf("usage in json: %v %v %v", obj["output_tokens"], obj["tokens_per_s"], obj["server_tokens_per_s"])
	}
	tm.HasContent, tm.Chunks, tm.FromResponse, tm.HasFirstByte = false, 0, false, false
	tm.HasUsage, tm.HasGenTime, tm.ContentSpan = false, false, 0
	obj = nil
	if err := json.Unmarshal(appendTimingJSON(nil, &tm), &obj); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"time_to_first_chunk_ms", "gap_p50_ms", "gap_max_frames", "chunks_per_s", "time_to_first_byte_ms", "output_tokens", "tokens_per_s", "server_tokens_per_s"} {
		if v, ok := obj[k]; !ok || v != nil {
			t.Errorf("%s = %v, want null", k, v)
		}
	}
	line := timingLine(&[]invariants.TurnTiming{sampleTiming()}[0])
	for _, want := range []string{"first content 400ms", "16 deltas at 8.3/s, 40 chars/s, 66.7 tokens/s", "max 6s (frames 9–10)", "1 stall (6s)", "120 output tokens (server 80.0/s)", "19 frames in 18 reads"} {
		if !strings.Contains(line, want) {
			t.Errorf("line %q lacks %q", line, want)
		}
	}
	var b bytes.Buffer
	rep := &Report{Source: "x", Turns: []invariants.Turn{{Timing: sampleTiming()}}}
	if err := rep.WriteJSON(&b); err != nil || !strings.Contains(b.String(), `"timed":true`) || !rep.Timed() {
		t.Errorf("report %s %v", b.String(), err)
	}
}
