package report

import (
	"bytes"
	"io"
	"testing"

	"framescope/invariants"
	"framescope/sessions/capture"
	"framescope/sessions/internal/sessiontest"
)

// Alarm floods against valid streams of the same size and dialect, side by
// side in one run (issue 11, item 1: a flood is checked in at most 3× the
// time of a valid capture):
//
//	go test ./sessions/ -run '^$' -bench 'CheckAlarmFlood' -benchtime 3x
//
// Each case checks and writes the whole report (text, json, junit) to
// io.Discard, as `framescope check --format F` does. FRAMESCOPE_BENCH_MB
// sets the size (default 100); docs/security.md quotes a 90 MB run.

// floodBody repeats frame until the body holds about size bytes.
func floodBody(frame string, size int) []byte {
	return bytes.Repeat([]byte(frame), size/len(frame)+1)
}

// floodCase is one stream of the benchmark: for each dialect family, a
// valid stream and a flood forced to that dialect in which every frame
// raises an alarm. Bodies are made when a case runs (and dropped after):
// twenty 90 MB streams are not held at once.
type floodCase struct {
	name, dialect string
	body          func(size int) []byte
	flood         bool
}

func floodCases() []floodCase {
	gen := func(g dialectGen) func(int) []byte {
		return func(size int) []byte {
			var b bytes.Buffer
			b.Grow(size + 1<<20)
			g(&b, size)
			return b.Bytes()
		}
	}
	x := func(size int) []byte { return floodBody("data: x\n\n", size) }
	cases := []floodCase{
		{"pc3/valid", "pc3", gen(genPC3), false},
		{"pc3/flood-x", "pc3", x, true},
		{"pc3/flood-empty-object", "pc3", func(size int) []byte { return floodBody("data: {}\n\n", size) }, true},
	}
	for _, dg := range dialectGens {
		if dg.name == "pc3" {
			continue
		}
		cases = append(cases, floodCase{dg.name + "/valid", dg.name, gen(dg.gen), false})
		cases = append(cases, floodCase{dg.name + "/flood-x", dg.name, x, true})
	}
	return cases
}

func BenchmarkCheckAlarmFlood(b *testing.B) {
	size := int(benchMB(b) << 20)
	for _, fc := range floodCases() {
		var body []byte
		for _, format := range []string{"text", "json", "junit"} {
			b.Run(fc.name+"/"+format, func(b *testing.B) {
				if body == nil {
					body = fc.body(size)
				}
				b.SetBytes(int64(len(body)))
				b.ReportAllocs()
				var frames int
				for b.Loop() {
					rep := checkBody(b, fc.dialect, body)
					if fc.flood && rep.Counts.Error+rep.Counts.Warn < rep.Frames {
						b.Fatalf("flood: %d frames but counts %+v", rep.Frames, rep.Counts)
					}
					if !fc.flood && rep.Counts.Error+rep.Counts.Warn != 0 {
						b.Fatalf("valid: counts %+v", rep.Counts)
					}
					sessiontest.WriteReport(b, rep, format, io.Discard)
					frames = rep.Frames
				}
				reportFrames(b, frames)
			})
		}
	}
}

// checkBody checks body as `check --dialect d` does.
func checkBody(tb testing.TB, d string, body []byte) *Report {
	tb.Helper()
	c, err := capture.OpenReader(d, bytes.NewReader(body), capture.OpenOptions{Entry: -1})
	if err != nil {
		tb.Fatal(err)
	}
	rep, err := Check(c, invariants.Options{Dialect: d})
	if err != nil {
		tb.Fatal(err)
	}
	return rep
}
