package pipeline_test

import (
	"strings"
	"testing"

	"framescope/invariants"
	"framescope/sessions/capture"
	"framescope/sessions/pipeline"
	"framescope/sessions/report"
)

// TestMovesOnlyWhereRead: with WantMoves, every dialect — a native one
// (PC3) too: the inspector reads every dialect through its moves — hands
// them on; without (check, dump), the native checker is never asked to
// map them.
func TestMovesOnlyWhereRead(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		moves      bool
	}{
		{"typed-lines", `data: {"type":"log","content":"a"}` + "\n\n" + `data: {"type":"text","delta":"hi"}` + "\n\n" + `data: {"type":"done","stats":{}}` + "\n\n", true},
		{"pc3", `data: {"event_type":"text","version":"0.5","timestamp":"2026-01-01T00:00:00Z","response_id":"r1","data":{"chunk":"hi"}}` + "\n\n" +
			`data: {"event_type":"completed","version":"0.5","timestamp":"2026-01-01T00:00:01Z","response_id":"r1","data":{}}` + "\n\n" + "data: [DONE]\n\n", true},
	} {
		for _, want := range []bool{true, false} {
			c, err := capture.OpenReader("t.sse", strings.NewReader(tc.body), capture.OpenOptions{Entry: -1})
			if err != nil {
				t.Fatal(err)
			}
			var name string
			frames, moves := 0, 0
			_, err = report.CheckWith(c, invariants.Options{}, pipeline.Handler{
				OnDialect: func(d invariants.Dialect) { name = d.Name() },
				WantMoves: want,
				OnItem: func(it *pipeline.Item) {
					if it.Frame != nil {
						frames++
					}
					moves += len(it.Moves)
				},
			})
			if err != nil || name != tc.name || frames == 0 {
				t.Fatalf("%s: dialect %q, %d frames, err %v", tc.name, name, frames, err)
			}
			if (moves > 0) != (tc.moves && want) {
				t.Errorf("%s, WantMoves %v: %d moves handed; want moves: %v", tc.name, want, moves, tc.moves && want)
			}
		}
	}
}

// TestStampHandedOn: for an untimed capture, the envelope timestamp the
// PC3 checker parsed is handed on with the frame (the inspector's row
// time), so nothing parses it twice.
func TestStampHandedOn(t *testing.T) {
	body := `data: {"event_type":"text","version":"0.5","timestamp":"2026-01-01T00:00:00.250Z","response_id":"r1","data":{"chunk":"hi"}}` + "\n\n" +
		`data: {"event_type":"completed","version":"0.5","timestamp":"not a time","response_id":"r1","data":{}}` + "\n\n"
	c, err := capture.OpenReader("t.sse", strings.NewReader(body), capture.OpenOptions{Entry: -1})
	if err != nil {
		t.Fatal(err)
	}
	var stamps []string
	_, err = report.CheckWith(c, invariants.Options{}, pipeline.Handler{
		WantMoves: true,
		OnItem: func(it *pipeline.Item) {
			if it.Frame == nil {
				return
			}
			if it.HasStamp {
				stamps = append(stamps, it.Stamp.Format("15:04:05.000"))
			} else {
				stamps = append(stamps, "-")
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(stamps, " "); got != "00:00:00.250 -" {
		t.Errorf("stamps %q, want the first frame's and none for the unparsable one", got)
	}
}
