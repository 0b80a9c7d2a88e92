package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"framescope/invariants"
)

// BenchmarkCheckInputs compares checking 8 captures of 40 MB one after
// another with checkAll's worker pool, side by side in one run:
//
//	go test ./ui/cli -run '^$' -bench CheckInputs -benchtime 3x
func BenchmarkCheckInputs(b *testing.B) {
	dir := b.TempDir()
	var names []string
	var total int64
	for i := 0; i < 8; i++ {
		var buf bytes.Buffer
		for turn := 0; buf.Len() < 40<<20; turn++ {
			rid := fmt.Sprintf("resp_%d_%d", i, turn)
			env := func(typ string) string {
				return fmt.Sprintf(`{"event_type":%q,"version":"0.5","timestamp":"2026-05-15T18:00:00.000Z","response_id":%q`, typ, rid)
			}
			fmt.Fprintf(&buf, "event: response_id\ndata: %s}\n\n", env("response_id"))
			for k := 0; k < 200; k++ {
				fmt.Fprintf(&buf, "event: text\ndata: %s,\"chunk\":\"the quick brown fox %d \"}\n\n", env("text"), k)
			}
			fmt.Fprintf(&buf, "event: completed\ndata: %s}\n\ndata: [DONE]\n\n", env("completed"))
		}
		name := filepath.Join(dir, fmt.Sprintf("c%d.sse", i))
		if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
			b.Fatal(err)
		}
		names = append(names, name)
		total += int64(buf.Len())
	}
	// One after another, each on the two-stage pipeline (both cores), and
	// each on one goroutine (one core: how check ran them before).
	for _, seq := range []struct {
		name     string
		oneStage bool
	}{{"sequential-two-stage", false}, {"sequential-one-stage", true}} {
		b.Run(seq.name, func(b *testing.B) {
			b.SetBytes(total)
			for b.Loop() {
				for _, n := range names {
					if rep, err := checkOne(checkInput{name: n, path: n, entry: -1}, invariants.Options{}, seq.oneStage); err != nil || rep.Counts.Error != 0 {
						b.Fatal(err, rep.Counts)
					}
				}
			}
		})
	}
	b.Run("parallel", func(b *testing.B) {
		b.SetBytes(total)
		for b.Loop() {
			for _, res := range checkAll(checkInputs(names, nil, -1, ""), invariants.Options{}) {
				if r := <-res; r.err != nil || r.rep.Counts.Error != 0 {
					b.Fatal(r.err)
				}
			}
		}
	})
}
