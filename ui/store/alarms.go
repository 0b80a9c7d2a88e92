package store

import (
	"fmt"
	"slices"
	"sort"

	"framescope/decode"
	"framescope/invariants"
	"framescope/sessions/report"
)

// Alarms are kept the way check's report keeps them (report.MaxListed):
// the first alarms of one rule in one turn are listed (Store.Alarms, with
// their messages), the rest are counted in a group per rule and turn. A
// group keeps the rows of its alarms as strided runs (a flood of one rule
// on every frame is one run of a few bytes), so memory is bounded by the
// open state, not by the number of alarms: a million frame-json alarms are
// 100 listed alarms and one group. The Alarms pane shows a group as one
// row ("frame-json ×999,900 more in turn 0") that expands into its frames;
// the message of an alarm that was not listed is rebuilt on demand from
// its frame's bytes (frame-json) or named after the listed ones.

// sevUnlisted marks a row (rowRec.sev) that has alarms counted in a group.
const sevUnlisted = 0x40

// sevMask extracts the index into sevNames from rowRec.sev.
const sevMask = 0x3f

type alarmKey struct {
	rule string
	turn int
}

// AlarmGroup counts the alarms of one rule in one turn past the listed
// ones.
type AlarmGroup struct {
	Rule     string
	Severity invariants.Severity // the most severe alarm of the group
	Turn     int
	Count    int // alarms counted (not listed)
	Rows     int // distinct rows among them
	NoRow    int // alarms without a row (the stream)
	runs     []alarmRun
	sorted   bool  // runs ascend (an alarm on an older row clears it)
	Entry    int32 // the group's index in the pane's list
}

// alarmRun is rows first, first+stride, … (n rows); before counts the
// group's rows in earlier runs.
type alarmRun struct{ first, stride, n, before int32 }

func (r *alarmRun) last() int32 { return r.first + r.stride*(r.n-1) }

func (r *alarmRun) has(row int32) bool {
	if row < r.first || row > r.last() {
		return false
	}
	return r.stride == 0 || (row-r.first)%r.stride == 0
}

// has reports whether the group counted an alarm on row.
func (g *AlarmGroup) has(row int32) bool {
	if g.sorted {
		k := sort.Search(len(g.runs), func(i int) bool { return g.runs[i].last() >= row })
		return k < len(g.runs) && g.runs[k].has(row)
	}
	for i := range g.runs {
		if g.runs[i].has(row) {
			return true
		}
	}
	return false
}

// RowAt returns the k-th distinct row of the group (0 <= k < Rows), in
// the order the alarms came.
func (g *AlarmGroup) RowAt(k int) int {
	i := sort.Search(len(g.runs), func(i int) bool { return int(g.runs[i].before) > k }) - 1
	r := &g.runs[i]
	return int(r.first + r.stride*(int32(k)-r.before))
}

// IndexOf returns k with RowAt(k) == row when the group's rows ascend
// (ok is false when row is not among them, or they do not ascend).
func (g *AlarmGroup) IndexOf(row int) (k int, ok bool) {
	k = sort.Search(g.Rows, func(k int) bool { return g.RowAt(k) >= row })
	return k, g.sorted && k < g.Rows && g.RowAt(k) == row
}

// add counts an alarm on row (-1: none).
func (g *AlarmGroup) add(row int32) {
	g.Count++
	if row < 0 {
		g.NoRow++
		return
	}
	if n := len(g.runs); n > 0 {
		r := &g.runs[n-1]
		last := r.last()
		switch {
		case row == last:
			return // one more alarm on the same row
		case r.n == 1 && row > last:
			r.stride, r.n = row-last, 2
			g.Rows++
			return
		case row == last+r.stride && row > last:
			r.n++
			g.Rows++
			return
		case row < last:
			g.sorted = false
		}
	}
	g.runs = append(g.runs, alarmRun{first: row, n: 1, before: int32(g.Rows)})
	g.Rows++
}

// alarmIndex is the store's alarm bookkeeping beyond the listed alarms.
type alarmIndex struct {
	init    bool
	groups  []AlarmGroup
	groupOf map[alarmKey]int32
	last    alarmKey
	lastG   int32 // groups[lastG] is last's group (-1: none yet)
	byTurn  map[int][]int32
	// entries is the Alarms pane's list in the order raised: >= 0 a
	// listed alarm (Store.Alarms), < 0 the group -(e+1).
	entries      []int32
	entryOfAlarm []int32 // listed alarm → its entry
}

func (s *Store) addAlarm(a AlarmRec) {
	ai := &s.alarms
	if !ai.init {
		ai.init, ai.lastG = true, -1
	}
	if a.Row < 0 && a.Frame >= 0 {
		a.Row = s.RowOfFrame(a.Frame)
	}
	if a.Row >= s.n {
		a.Row = -1
	}
	s.Counts.Add(a.Severity)
	// Which alarms are listed is the checker's decision: every source runs
	// it with the report's listing (report.Listed), as check does, so the
	// pane lists exactly what check's report lists.
	if a.Unlisted {
		g := s.group(a.Rule, a.Turn)
		if a.Severity.Rank() > g.Severity.Rank() {
			g.Severity = a.Severity
		}
		g.add(int32(a.Row))
		if a.Row >= 0 {
			s.markRow(a.Row, a.Severity, sevUnlisted)
		}
		return
	}
	i := int32(len(s.Alarms))
	a.Unlisted = false
	s.Alarms = append(s.Alarms, a)
	ai.entryOfAlarm = append(ai.entryOfAlarm, int32(len(ai.entries)))
	ai.entries = append(ai.entries, i)
	if invariants.IsDeliveryRule(a.Rule) {
		s.timing.alarms = append(s.timing.alarms, i) // the Timing view's diagnosis
	}
	if a.Row < 0 {
		return
	}
	if s.rowAlarms == nil {
		s.rowAlarms = map[int32][]int32{}
	}
	s.rowAlarms[int32(a.Row)] = append(s.rowAlarms[int32(a.Row)], i)
	s.markRow(a.Row, a.Severity, 0)
}

// group returns the group of rule in turn, making it (and its pane entry)
// on its first alarm.
func (s *Store) group(rule string, turn int) *AlarmGroup {
	ai := &s.alarms
	if ai.lastG >= 0 && ai.last.turn == turn && ai.last.rule == rule {
		return &ai.groups[ai.lastG]
	}
	k := alarmKey{rule, turn}
	g, ok := ai.groupOf[k]
	if !ok {
		if ai.groupOf == nil {
			ai.groupOf, ai.byTurn = map[alarmKey]int32{}, map[int][]int32{}
		}
		g = int32(len(ai.groups))
		ai.groups = append(ai.groups, AlarmGroup{Rule: rule, Turn: turn, sorted: true, Entry: int32(len(ai.entries))})
		ai.groupOf[k] = g
		ai.byTurn[turn] = append(ai.byTurn[turn], g)
		ai.entries = append(ai.entries, -(g + 1))
	}
	ai.last, ai.lastG = k, g
	return &ai.groups[g]
}

// markRow records that row has an alarm of severity sev (flag: sevUnlisted
// when it is counted in a group).
func (s *Store) markRow(row int, sev invariants.Severity, flag uint8) {
	cur := s.get(row).sev
	if cur&sevAlarmed == 0 {
		s.alarmRows.add(row)
	}
	idx := cur & sevMask
	if sev.Rank() > sevNames[idx].Rank() {
		idx = sevIndex(sev)
	}
	s.setSev(row, idx|sevAlarmed|(cur&sevUnlisted)|flag)
}

// rowAlarmsOf is Row.Alarms of row i: its listed alarms, then -(g+1) for
// each group that counted an alarm on it.
func (s *Store) rowAlarmsOf(i int32, rc *rowRec) []int32 {
	out := s.rowAlarms[i]
	if rc.sev&sevUnlisted == 0 {
		return out
	}
	out = slices.Clip(out)
	ai := &s.alarms
	found := false
	for _, g := range ai.byTurn[int(rc.turn)] {
		if ai.groups[g].has(i) {
			out, found = append(out, -(g+1)), true
		}
	}
	if !found { // an alarm of another turn than the row's
		for g := range ai.groups {
			if ai.groups[g].Turn != int(rc.turn) && ai.groups[g].has(i) {
				out = append(out, -(int32(g) + 1))
			}
		}
	}
	return out
}

// AlarmTotal is the number of alarms raised so far, listed or not.
func (s *Store) AlarmTotal() int { c := s.Counts; return c.Error + c.Warn + c.Info }

// Groups are the groups of alarms counted but not listed.
func (s *Store) Groups() []AlarmGroup { return s.alarms.groups }

// AlarmEntries is the Alarms pane's list in the order raised: an entry
// e >= 0 is the listed alarm Alarms[e], e < 0 the group Groups()[-(e+1)].
func (s *Store) AlarmEntries() []int32 { return s.alarms.entries }

// EntryOfAlarm is the index in AlarmEntries of the listed alarm Alarms[ai].
func (s *Store) EntryOfAlarm(ai int32) int32 { return s.alarms.entryOfAlarm[ai] }

// AlarmOf returns the alarm an index of r.Alarms stands for: a listed
// alarm as raised, or one of a group's with its message rebuilt.
func (s *Store) AlarmOf(ai int32, r *Row) invariants.Alarm {
	if ai >= 0 {
		return s.Alarms[ai].Alarm
	}
	row := -1
	if r.Kind == RowFrame {
		row = s.RowOfFrame(r.Frame)
	}
	return s.GroupAlarm(int(-ai-1), row)
}

// GroupAlarm rebuilds the alarm group g counted on row (-1: one without a
// row): frame-json from the frame's bytes (what the checker would have
// said), any other rule from the group's facts.
func (s *Store) GroupAlarm(g, row int) invariants.Alarm {
	gr := &s.alarms.groups[g]
	a := invariants.Alarm{Rule: gr.Rule, Severity: gr.Severity, Frame: invariants.NoFrame, Turn: gr.Turn, Unlisted: true}
	if row >= 0 && row < s.n {
		r := s.Row(row)
		if r.Kind == RowFrame {
			a.Frame = r.Frame
		}
		if gr.Rule == "frame-json" && r.Kind == RowFrame {
			switch f := s.RowFrame(row); {
			case f == nil:
			case f.Problem == decode.ProblemNotJSON:
				a.Message = "data is not JSON (" + f.ProblemDetail() + ")"
			case f.Problem == decode.ProblemNotObject:
				a.Message = f.ProblemDetail()
			}
		}
	}
	if a.Message == "" {
		a.Message = fmt.Sprintf("counted, not listed: %s is past the first %d of its rule in turn %d (the listed ones say why)",
			gr.Rule, report.MaxListed, gr.Turn)
	}
	return a
}
