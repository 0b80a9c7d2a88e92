package report

import (
	"bufio"
	"cmp"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"slices"

	"framescope/invariants"
)

// The listed alarms of a report that is only written (CheckToWrite) are
// kept like its turns (report_turns.go): the first memAlarms in memory,
// the rest encoded to an unlinked temporary file, read back in order by
// the writers. The stream's alarms (no turn) are few (MaxListed of a
// rule) and also kept apart, for the text and JUnit reports that list
// them first. The turns' alarms almost always come in turn order; then
// the text and JUnit writers read them turn by turn from the file, else
// they are loaded and sorted (what a report that holds them does).

// memAlarms is how many alarms an alarm log holds in memory before it
// spills (a variable: tests spill after a few).
var memAlarms = 2048

type alarmLog struct {
	n      int
	mem    []ReportAlarm
	stream []ReportAlarm // the alarms of no turn (Turn < 0), in order
	// inOrder: the turns' alarms come in nondecreasing turn order;
	// maxTurn is the highest turn of an alarm.
	inOrder  bool
	lastTurn int
	maxTurn  int

	f    *os.File
	w    *bufio.Writer
	size int64 // bytes written to f
	buf  []byte
	err  error
}

func newAlarmLog() *alarmLog { return &alarmLog{inOrder: true, maxTurn: -1} }

func (l *alarmLog) add(a ReportAlarm) {
	l.n++
	if a.Turn < 0 {
		l.stream = append(l.stream, a)
	} else {
		if a.Turn < l.lastTurn {
			l.inOrder = false
		}
		l.lastTurn, l.maxTurn = a.Turn, max(l.maxTurn, a.Turn)
	}
	if l.f == nil && len(l.mem) < memAlarms {
		l.mem = append(l.mem, a)
		return
	}
	if l.err != nil {
		return
	}
	if l.f == nil {
		f, err := os.CreateTemp("", "framescope-alarms-*")
		if err != nil {
			l.err = fmt.Errorf("keeping the report's alarms: %w", err)
			return
		}
		_ = os.Remove(f.Name()) // unlinked at once: nothing is left behind
		l.f, l.w = f, bufio.NewWriterSize(f, 64<<10)
	}
	b := l.buf[:0]
	b = binary.AppendVarint(b, int64(a.Frame))
	b = binary.AppendVarint(b, int64(a.Turn))
	b = binary.AppendVarint(b, a.Offset)
	for _, s := range [...]string{a.Rule, string(a.Severity), a.ResponseID, a.Message, a.Excerpt} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	l.buf = b
	l.size += int64(len(b))
	if _, err := l.w.Write(b); err != nil {
		l.err = fmt.Errorf("keeping the report's alarms: %w", err)
	}
}

func (l *alarmLog) close() error {
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}

// alarmReader reads an alarm log from its start, in report order.
type alarmReader struct {
	l *alarmLog
	i int
	r *bufio.Reader
	s []byte
	// Rules, severities and response ids repeat: one string each.
	last [3]string
}

func (l *alarmLog) reader() (*alarmReader, error) {
	if l.err != nil {
		return nil, l.err
	}
	ar := &alarmReader{l: l}
	if l.f != nil {
		if err := l.w.Flush(); err != nil {
			return nil, fmt.Errorf("keeping the report's alarms: %w", err)
		}
		// Each reader reads at its own offsets: readers may interleave.
		ar.r = bufio.NewReaderSize(io.NewSectionReader(l.f, 0, l.size), 64<<10)
	}
	return ar, nil
}

// next reads the next alarm into a; false at the end.
func (ar *alarmReader) next(a *ReportAlarm) (bool, error) {
	if ar.i >= ar.l.n {
		return false, nil
	}
	if ar.i < len(ar.l.mem) {
		*a = ar.l.mem[ar.i]
		ar.i++
		return true, nil
	}
	ar.i++
	fail := func(err error) (bool, error) {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return false, fmt.Errorf("reading the report's alarms back: %w", err)
	}
	frame, err := binary.ReadVarint(ar.r)
	if err != nil {
		return fail(err)
	}
	turn, err := binary.ReadVarint(ar.r)
	if err != nil {
		return fail(err)
	}
	offset, err := binary.ReadVarint(ar.r)
	if err != nil {
		return fail(err)
	}
	*a = ReportAlarm{Alarm: invariants.Alarm{Frame: int(frame), Turn: int(turn)}, Offset: offset}
	for k := range 5 {
		n, err := binary.ReadUvarint(ar.r)
		if err != nil || n > 1<<30 {
			return fail(err)
		}
		ar.s = slices.Grow(ar.s[:0], int(n))[:n]
		if _, err := io.ReadFull(ar.r, ar.s); err != nil {
			return fail(err)
		}
		var str string
		if k < 3 {
			if ar.last[k] != string(ar.s) {
				ar.last[k] = string(ar.s)
			}
			str = ar.last[k]
		} else {
			str = string(ar.s)
		}
		switch k {
		case 0:
			a.Rule = str
		case 1:
			a.Severity = invariants.Severity(str)
		case 2:
			a.ResponseID = str
		case 3:
			a.Message = str
		case 4:
			a.Excerpt = str
		}
	}
	return true, nil
}

// keepAlarm lists an alarm in the report.
func (r *Report) keepAlarm(a ReportAlarm) {
	if r.alarmLog != nil {
		r.alarmLog.add(a)
		return
	}
	r.Alarms = append(r.Alarms, a)
}

// NumAlarms is how many alarms the report lists.
func (r *Report) NumAlarms() int {
	if r.alarmLog != nil {
		return r.alarmLog.n
	}
	return len(r.Alarms)
}

// eachAlarm calls fn with every listed alarm, in report order.
func (r *Report) eachAlarm(fn func(i int, a *ReportAlarm) error) error {
	if r.alarmLog == nil {
		for i := range r.Alarms {
			if err := fn(i, &r.Alarms[i]); err != nil {
				return err
			}
		}
		return nil
	}
	ar, err := r.alarmLog.reader()
	if err != nil {
		return err
	}
	var a ReportAlarm
	for i := 0; ; i++ {
		ok, err := ar.next(&a)
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		if err := fn(i, &a); err != nil {
			return err
		}
	}
}

// turnAlarms hands out the listed alarms grouped by turn, for turns asked
// in increasing order (-1, the stream's, first), each group in report
// order. Held alarms in turn order are used in place (else a sorted copy
// is made); spilled ones in turn order are read from the file as asked.
// Nothing is allocated per turn.
type turnAlarms struct {
	n int // turns
	// held (or loaded): sorted by group
	as  []ReportAlarm
	pos int
	// spilled in turn order
	stream  []ReportAlarm
	rd      *alarmReader
	look    ReportAlarm
	hasLook bool
	buf     []ReportAlarm
	err     error // a read error: the writers return it
}

// groupKey is the group an alarm is listed under: its turn, or -1 (the
// stream) for a turn the report does not have.
func groupKey(a *ReportAlarm, turns int) int {
	if a.Turn < -1 || a.Turn >= turns {
		return -1
	}
	return a.Turn
}

func (r *Report) alarmsByTurn() *turnAlarms {
	n := r.NumTurns()
	if l := r.alarmLog; l != nil {
		if l.inOrder && l.maxTurn < n {
			g := &turnAlarms{n: n, stream: l.stream}
			g.rd, g.err = l.reader()
			return g
		}
		// Out of turn order (rare): loaded, then sorted as when held.
		var as []ReportAlarm
		err := r.eachAlarm(func(_ int, a *ReportAlarm) error { as = append(as, *a); return nil })
		g := sortedGroups(as, n, false)
		g.err = err
		return g
	}
	return sortedGroups(r.Alarms, n, true)
}

func sortedGroups(as []ReportAlarm, n int, shared bool) *turnAlarms {
	byKey := func(a, b ReportAlarm) int { return cmp.Compare(groupKey(&a, n), groupKey(&b, n)) }
	if !slices.IsSortedFunc(as, byKey) {
		if shared {
			as = slices.Clone(as)
		}
		slices.SortStableFunc(as, byKey)
	}
	return &turnAlarms{as: as, n: n}
}

// of returns turn's alarms in report order; turn must not decrease from
// call to call. The slice is valid until the next call.
func (g *turnAlarms) of(turn int) []ReportAlarm {
	if g.as != nil || g.rd == nil {
		for g.pos < len(g.as) && groupKey(&g.as[g.pos], g.n) < turn {
			g.pos++
		}
		start := g.pos
		for g.pos < len(g.as) && groupKey(&g.as[g.pos], g.n) == turn {
			g.pos++
		}
		return g.as[start:g.pos:g.pos]
	}
	if turn < 0 {
		return g.stream
	}
	g.buf = g.buf[:0]
	for g.err == nil {
		if !g.hasLook {
			ok, err := g.rd.next(&g.look)
			if err != nil {
				g.err = err
			}
			if !ok {
				break
			}
			g.hasLook = true
		}
		k := groupKey(&g.look, g.n)
		if k < 0 || k < turn { // the stream's (listed apart), or a turn not asked
			g.hasLook = false
			continue
		}
		if k > turn {
			break
		}
		g.buf = append(g.buf, g.look)
		g.hasLook = false
	}
	return g.buf
}

// failing counts the groups (the stream, each turn) with an alarm at or
// above failOn, and says whether the stream has alarms. It reads the
// alarms through: use a fresh turnAlarms after.
func (g *turnAlarms) failing(failOn invariants.Severity) (n int, stream bool) {
	fails := func(as []ReportAlarm) bool {
		return slices.ContainsFunc(as, func(a ReportAlarm) bool { return a.Severity.Rank() >= failOn.Rank() })
	}
	as := g.of(-1)
	stream = len(as) > 0
	if fails(as) {
		n++
	}
	for {
		t, ok := g.nextTurn()
		if !ok {
			return n, stream
		}
		if fails(g.of(t)) {
			n++
		}
	}
}

// nextTurn is the next turn with alarms not yet handed out.
func (g *turnAlarms) nextTurn() (int, bool) {
	if g.rd == nil {
		for g.pos < len(g.as) && groupKey(&g.as[g.pos], g.n) < 0 {
			g.pos++
		}
		if g.pos >= len(g.as) {
			return 0, false
		}
		return groupKey(&g.as[g.pos], g.n), true
	}
	for g.err == nil {
		if !g.hasLook {
			ok, err := g.rd.next(&g.look)
			if err != nil {
				g.err = err
			}
			if !ok {
				return 0, false
			}
			g.hasLook = true
		}
		if k := groupKey(&g.look, g.n); k >= 0 {
			return k, true
		}
		g.hasLook = false
	}
	return 0, false
}
