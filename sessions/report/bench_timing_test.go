package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"framescope/invariants"
	"framescope/sessions/capture"
	"framescope/sessions/pipeline"
)

// The turn timing's cost, side by side on a timed capture (JSONL, one
// chunk per frame, 20 ms apart), with the timing on and off:
//
//	go test ./sessions/report/ -run '^$' -bench 'CheckTiming' -benchtime 5x -count 5
//
// docs/performance.md budgets it at 5% of the check.

// timedJSONL turns a generated SSE stream into a framescope JSONL capture
// with one chunk per SSE block, step microseconds apart.
func timedJSONL(sse []byte, step int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"framescope_capture": 1, "status": 200, "response_headers": {"Content-Type": "text/event-stream"}}` + "\n")
	t := 0
	for len(sse) > 0 {
		i := bytes.Index(sse, []byte("\n\n"))
		if i < 0 {
			i = len(sse) - 2
		}
		blk := sse[:i+2]
		sse = sse[i+2:]
		t += step
		data, _ := json.Marshal(string(blk))
		fmt.Fprintf(&b, `{"t": %d.%06d, "data": %s}`+"\n", t/1e6, t%1e6, data)
	}
	fmt.Fprintf(&b, `{"t": %d.%06d, "end": "eof"}`+"\n", t/1e6, t%1e6)
	return b.Bytes()
}

func BenchmarkCheckTiming(b *testing.B) {
	size := int(benchMB(b) << 20 / 5)
	for _, dg := range dialectGens {
		if dg.name != "openai-chat" && dg.name != "go-bus" && dg.name != "pc3" {
			continue
		}
		var buf bytes.Buffer
		dg.gen(&buf, size)
		body := timedJSONL(buf.Bytes(), 20000)
		for _, mode := range []struct {
			name string
			off  bool
		}{{"on", false}, {"off", true}} {
			b.Run(dg.name+"/timing-"+mode.name, func(b *testing.B) {
				b.SetBytes(int64(len(body)))
				b.ReportAllocs()
				var frames int
				for b.Loop() {
					c, err := capture.OpenReader(dg.name, bytes.NewReader(body), capture.OpenOptions{Entry: -1})
					if err != nil {
						b.Fatal(err)
					}
					res, err := pipeline.Run(c, invariants.Options{NoTiming: mode.off, TTFE: -1}, pipeline.Handler{})
					if err != nil {
						b.Fatal(err)
					}
					if res.Dialect != dg.name || res.Counts.Error+res.Counts.Warn != 0 || len(res.Turns) == 0 || res.Turns[len(res.Turns)-1].Timing.Timed == mode.off {
						b.Fatalf("dialect %s, counts %+v, turns %d", res.Dialect, res.Counts, len(res.Turns))
					}
					frames = res.Frames
				}
				reportFrames(b, frames)
			})
		}
	}
}

// TestTimedJSONLIsTimed: the benchmark's capture has arrival times, so its
// turns carry timing (else the benchmark would measure nothing).
func TestTimedJSONLIsTimed(t *testing.T) {
	for _, dg := range dialectGens {
		if dg.name != "openai-chat" && dg.name != "go-bus" {
			continue
		}
		var buf bytes.Buffer
		dg.gen(&buf, 32<<10)
		c, err := capture.OpenReader(dg.name, bytes.NewReader(timedJSONL(buf.Bytes(), 20000)), capture.OpenOptions{Entry: -1})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Check(c, invariants.Options{TTFE: -1})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Turns) == 0 || !rep.Turns[0].Timing.Timed || rep.Counts.Error+rep.Counts.Warn != 0 {
			t.Errorf("%s: counts %+v turns %+v", dg.name, rep.Counts, rep.Turns)
		}
	}
}
