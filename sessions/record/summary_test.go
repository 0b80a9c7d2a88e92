package record

import (
	"reflect"
	"testing"

	"framescope/invariants"
	"framescope/sessions/library"
	"framescope/sessions/report"
)

func TestSummarize(t *testing.T) {
	rep := &report.Report{
		Frames: 12,
		Turns: []invariants.Turn{
			{ResponseID: "r1", Terminal: invariants.TerminalCompleted, Done: true},
			{ResponseID: "r2", Terminal: invariants.NotTerminal},
		},
		Counts: invariants.Counts{Error: 1, Warn: 2},
		End:    invariants.End{Kind: invariants.EndError, Detail: "connection reset"},
	}
	var m library.SessionMeta
	Summarize(&m, rep)
	want := []library.TurnSummary{{ResponseID: "r1", Terminal: new("completed"), Done: true}, {ResponseID: "r2"}}
	if m.Frames != 12 || !reflect.DeepEqual(m.Turns, want) || m.Counts != rep.Counts || m.End != "error: connection reset" {
		t.Errorf("Summarize: %+v", m)
	}
	Summarize(&m, &report.Report{})
	if m.End != "eof" || m.Turns == nil || len(m.Turns) != 0 {
		t.Errorf("empty report: %+v", m)
	}
}
