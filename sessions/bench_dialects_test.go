package sessions

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"framescope/invariants"
)

// Check throughput per dialect, side by side in one run:
//
//	go test ./sessions/ -run '^$' -bench 'CheckDialects' -benchtime 3x
//
// Each dialect gets a generated valid stream of FRAMESCOPE_BENCH_MB MB
// (default 100) shaped like what its servers send: mostly text deltas,
// with tool calls, spans and heartbeats where the dialect has them. The
// stream is held in memory, so the numbers are framing + decoding + the
// dialect's checker, the same pipeline `check` runs.

// dialectGen writes one valid stream of about size bytes.
type dialectGen func(b *bytes.Buffer, size int)

var dialectGens = []struct {
	name string
	gen  dialectGen
}{
	{"pc3", genPC3},
	{"typed-lines", genTypedLines},
}

func BenchmarkCheckDialects(b *testing.B) {
	size := int(benchMB(b) << 20)
	for _, dg := range dialectGens {
		b.Run(dg.name, func(b *testing.B) {
			var buf bytes.Buffer
			buf.Grow(size + 1<<20)
			dg.gen(&buf, size)
			body := buf.Bytes()
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			var frames int
			for b.Loop() {
				c, err := OpenReader(dg.name, bytes.NewReader(body), OpenOptions{Entry: -1})
				if err != nil {
					b.Fatal(err)
				}
				res, err := Run(c, invariants.Options{}, Handler{})
				if err != nil {
					b.Fatal(err)
				}
				if res.Dialect != dg.name || res.Counts.Error+res.Counts.Warn != 0 {
					b.Fatalf("dialect %s, counts %+v", res.Dialect, res.Counts)
				}
				frames = res.Frames
			}
			reportFrames(b, frames)
		})
	}
}

// TestDialectGensAreValid: every generator writes a stream its dialect
// detects and checks clean (a small one, so plain go test runs it).
func TestDialectGensAreValid(t *testing.T) {
	for _, dg := range dialectGens {
		var buf bytes.Buffer
		dg.gen(&buf, 64<<10)
		c, err := OpenReader(dg.name, bytes.NewReader(buf.Bytes()), OpenOptions{Entry: -1})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Check(c, invariants.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Dialect != dg.name || rep.Counts.Error+rep.Counts.Warn != 0 || len(rep.Turns) == 0 {
			t.Errorf("%s: detected %s, counts %+v, %d turns\n%s", dg.name, rep.Dialect, rep.Counts, len(rep.Turns), alarmLines(rep))
		}
		if os.Getenv("FRAMESCOPE_DUMP_GEN") != "" {
			fmt.Println(buf.String()[:min(buf.Len(), 2000)])
		}
	}
}

// words is the text the generators stream, a few words per delta.
var words = strings.Fields(`the quick brown fox jumps over the lazy dog while a trail runner
checks the forecast and packs a light shell two gels and a map of the ridge`)

func delta(i int) string {
	return words[i%len(words)] + " " + words[(i*7+3)%len(words)] + " "
}

// genPC3 writes v0.5 turns: response_id, a status, a tool pair, text
// deltas, completed and [DONE], repeated.
func genPC3(b *bytes.Buffer, size int) {
	for turn := 0; b.Len() < size; turn++ {
		rid := fmt.Sprintf("resp_%d", turn)
		env := func(typ string) string {
			return fmt.Sprintf(`{"event_type":%q,"version":"0.5","timestamp":"2026-05-15T18:00:00.000Z","response_id":%q`, typ, rid)
		}
		fmt.Fprintf(b, "event: response_id\ndata: %s}\n\n", env("response_id"))
		fmt.Fprintf(b, "event: status\ndata: %s,\"data\":{\"event_id\":\"searching\",\"message\":\"Searching...\"}}\n\n", env("status"))
		fmt.Fprintf(b, "event: tool_call\ndata: %s,\"tool_call\":{\"id\":\"call_%d\",\"name\":\"search\",\"type\":\"function\"}}\n\n", env("tool_call"), turn)
		fmt.Fprintf(b, "event: tool_completed\ndata: %s,\"tool_call\":{\"id\":\"call_%d\",\"name\":\"search\",\"type\":\"function\"}}\n\n", env("tool_completed"), turn)
		for i := 0; i < 200; i++ {
			fmt.Fprintf(b, "event: text\ndata: %s,\"chunk\":%q}\n\n", env("text"), delta(i))
		}
		fmt.Fprintf(b, "event: completed\ndata: %s}\n\ndata: [DONE]\n\n", env("completed"))
	}
}

// genTypedLines writes one long turn: logs, pings, text deltas, data, done.
func genTypedLines(b *bytes.Buffer, size int) {
	b.WriteString(`data: {"type":"log","content":"Understanding your query..."}` + "\n\n")
	b.WriteString(`data: {"type":"log","content":"Searching GitHub repositories..."}` + "\n\n")
	for i := 0; b.Len() < size; i++ {
		if i%500 == 0 {
			b.WriteString(`data: {"type":"ping"}` + "\n\n")
		}
		fmt.Fprintf(b, "data: {\"type\":\"text\",\"delta\":%q}\n\n", delta(i))
	}
	b.WriteString(`data: {"type":"data","structuredData":{"type":"repo_list","items":[]}}` + "\n\n")
	b.WriteString(`data: {"type":"done","stats":{"executionTime":8450}}` + "\n\n")
}
