package store

import (
	"slices"
	"strings"
	"testing"

	"framescope/invariants"
	"framescope/sessions/capture"
	"framescope/sessions/report"
)

// TestAlarmGroupRuns: a group keeps its rows as strided runs and answers
// membership and "the k-th row" exactly, whatever order the rows come in.
func TestAlarmGroupRuns(t *testing.T) {
	for _, tc := range []struct {
		name string
		rows []int32
		runs int // runs kept (the memory a group costs)
	}{
		{"every row", seq(0, 1, 1000), 1},
		{"every other row", seq(7, 2, 500), 1},
		{"twice per row", twice(seq(3, 1, 100)), 1},
		{"two strides", append(seq(0, 1, 10), seq(20, 5, 10)...), 2},
		{"gaps", []int32{1, 2, 3, 10, 11, 40, 41, 42, 43}, 3},
		{"an older row", []int32{5, 6, 7, 2, 8, 9}, 3},
		{"no row", []int32{-1, -1, 4}, 1},
		{"one", []int32{9}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var g AlarmGroup
			g.sorted = true
			var distinct []int32
			noRow := 0
			for _, r := range tc.rows {
				g.add(r)
				switch {
				case r < 0:
					noRow++
				case len(distinct) == 0 || distinct[len(distinct)-1] != r:
					distinct = append(distinct, r)
				}
			}
			if g.Count != len(tc.rows) || g.Rows != len(distinct) || g.NoRow != noRow || len(g.runs) != tc.runs {
				t.Fatalf("count %d rows %d noRow %d runs %d, want %d %d %d %d",
					g.Count, g.Rows, g.NoRow, len(g.runs), len(tc.rows), len(distinct), noRow, tc.runs)
			}
			for k, r := range distinct {
				if got := g.RowAt(k); got != int(r) {
					t.Errorf("RowAt(%d) = %d, want %d", k, got, r)
				}
			}
			for r := int32(0); r < 1100; r++ {
				if got, want := g.has(r), slices.Contains(distinct, r); got != want {
					t.Errorf("has(%d) = %v, want %v", r, got, want)
				}
			}
		})
	}
}

func seq(first, stride, n int32) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = first + stride*int32(i)
	}
	return out
}

func twice(rows []int32) []int32 {
	var out []int32
	for _, r := range rows {
		out = append(out, r, r)
	}
	return out
}

// TestAlarmFloodStore: a flood keeps the alarms check's report lists and
// counts the rest in groups, agreeing with the report alarm for alarm;
// every row still carries its alarm, rebuilt with the checker's message.
func TestAlarmFloodStore(t *testing.T) {
	const n = 3000
	for _, tc := range []struct{ name, body, msg string }{
		{"x", "data: x\n\n", "data is not JSON ("},
		{"empty object", "data: {}\n\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := floodFile(t, tc.body, n)
			st := storeOf(t, pc3Source(t, path))
			c, err := capture.Open(path, capture.OpenOptions{Entry: -1})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			rep, err := report.Check(c, invariants.Options{Dialect: "pc3"})
			if err != nil {
				t.Fatal(err)
			}
			if st.Frames != n || st.Counts != rep.Counts || st.AlarmTotal() < n {
				t.Fatalf("%d frames, counts %+v; the report: %+v", st.Frames, st.Counts, rep.Counts)
			}
			if len(st.Alarms) != len(rep.Alarms) {
				t.Errorf("%d alarms listed, the report lists %d", len(st.Alarms), len(rep.Alarms))
			}
			counted := map[string]int{}
			for _, g := range st.Groups() {
				counted[g.Rule] += g.Count
				if len(g.runs) > 2 {
					t.Errorf("group %s: %d runs for a flood", g.Rule, len(g.runs))
				}
			}
			if len(counted) == 0 || !mapsEqual(counted, rep.Suppressed) {
				t.Errorf("counted %v, the report suppressed %v", counted, rep.Suppressed)
			}
			for i, a := range st.Alarms {
				if a.Unlisted || a.Message == "" || a.Message != rep.Alarms[i].Message {
					t.Fatalf("alarm %d: %+v, the report's %+v", i, a.Alarm, rep.Alarms[i].Alarm)
				}
			}
			// The last frame's alarms are counted, not listed: rebuilt on
			// demand, with the message the checker gives the listed ones.
			last := st.RowOfFrame(n - 1)
			r := st.Row(last)
			if len(r.Alarms) == 0 || r.MaxSev != invariants.SevError {
				t.Fatalf("last row: alarms %v sev %q", r.Alarms, r.MaxSev)
			}
			for _, ai := range r.Alarms {
				a := st.AlarmOf(ai, r)
				if ai >= 0 || a.Frame != n-1 || !a.Unlisted || a.Message == "" {
					t.Errorf("last row alarm %d: %+v", ai, a)
				}
				if a.Rule == "frame-json" && !strings.HasPrefix(a.Message, tc.msg) {
					t.Errorf("rebuilt message %q", a.Message)
				}
			}
			if got := st.AlarmRowCount(); got != n {
				t.Errorf("%d rows with alarms, want %d", got, n)
			}
		})
	}
}

func mapsEqual(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
