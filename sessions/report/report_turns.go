package report

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/pipeline"
)

// A report that is only written (check) need not hold its turns: the
// JSON report lists them after "frames", the text and JUnit reports after
// counts known only at the end, so they are kept until then, but outside
// the heap. The first memTurns turns stay in memory (most captures have a
// handful); the rest are encoded to an unlinked temporary file and read
// back, in order, when the report is written. A million turns then cost
// a file of ~40 MB and a flat heap.

// memTurns is how many turns a turn log holds in memory before it spills
// (a variable: tests spill after a few).
var memTurns = 4096

// turnLog holds a report's turns in index order.
type turnLog struct {
	n   int
	mem []invariants.Turn
	f   *os.File // the spill (unlinked); nil until needed
	w   *bufio.Writer
	buf []byte
	err error // the first spill error; writing the report returns it
}

func (l *turnLog) add(t invariants.Turn) {
	l.n++
	if l.f == nil && len(l.mem) < memTurns {
		l.mem = append(l.mem, t)
		return
	}
	if l.err != nil {
		return
	}
	if l.f == nil {
		f, err := os.CreateTemp("", "framescope-turns-*")
		if err != nil {
			l.err = fmt.Errorf("keeping the report's turns: %w", err)
			return
		}
		// Unlinked at once: nothing is left behind, whatever happens.
		_ = os.Remove(f.Name())
		l.f, l.w = f, bufio.NewWriterSize(f, 64<<10)
	}
	b := l.buf[:0]
	b = binary.AppendVarint(b, int64(t.FirstFrame))
	b = binary.AppendVarint(b, int64(t.LastFrame))
	b = binary.AppendVarint(b, int64(t.TerminalFrame))
	b = binary.AppendVarint(b, int64(t.Frames))
	b = append(b, byte(t.Terminal))
	if t.Done {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	for _, s := range [...]string{t.ResponseID, t.Outcome, t.TerminalEvent} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	b = appendTimingBin(b, &t.Timing)
	l.buf = b
	if _, err := l.w.Write(b); err != nil {
		l.err = fmt.Errorf("keeping the report's turns: %w", err)
	}
}

// each calls fn with every turn, in order. It may be called more than
// once.
func (l *turnLog) each(fn func(i int, t *invariants.Turn) error) error {
	if l.err != nil {
		return l.err
	}
	for i := range l.mem {
		if err := fn(i, &l.mem[i]); err != nil {
			return err
		}
	}
	if l.f == nil {
		return nil
	}
	if err := l.w.Flush(); err != nil {
		return fmt.Errorf("keeping the report's turns: %w", err)
	}
	if _, err := l.f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("reading the report's turns back: %w", err)
	}
	r := bufio.NewReaderSize(l.f, 64<<10)
	// Outcome and TerminalEvent repeat from turn to turn: one string each.
	var last [2]string
	var s []byte
	for i := len(l.mem); i < l.n; i++ {
		var t invariants.Turn
		var err error
		ints := [4]int64{}
		for k := range ints {
			if ints[k], err = binary.ReadVarint(r); err != nil {
				return spillReadErr(err)
			}
		}
		t.FirstFrame, t.LastFrame, t.TerminalFrame, t.Frames = int(ints[0]), int(ints[1]), int(ints[2]), int(ints[3])
		var flags [2]byte
		if _, err := io.ReadFull(r, flags[:]); err != nil {
			return spillReadErr(err)
		}
		t.Terminal, t.Done = invariants.Terminality(flags[0]), flags[1] == 1
		for k, dst := range [...]*string{&t.ResponseID, &t.Outcome, &t.TerminalEvent} {
			n, err := binary.ReadUvarint(r)
			if err != nil || n > 1<<30 {
				return spillReadErr(err)
			}
			s = slices.Grow(s[:0], int(n))[:n]
			if _, err := io.ReadFull(r, s); err != nil {
				return spillReadErr(err)
			}
			if k > 0 {
				if last[k-1] != string(s) {
					last[k-1] = string(s)
				}
				*dst = last[k-1]
				continue
			}
			*dst = string(s)
		}
		if err := readTimingBin(r, &t.Timing); err != nil {
			return spillReadErr(err)
		}
		if err := fn(i, &t); err != nil {
			return err
		}
	}
	if _, err := l.f.Seek(0, io.SeekEnd); err != nil {
		return fmt.Errorf("reading the report's turns back: %w", err)
	}
	return nil
}

func spillReadErr(err error) error {
	if err == nil || errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return fmt.Errorf("reading the report's turns back: %w", err)
}

func (l *turnLog) close() error {
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}

// CheckToWrite is Check (CheckOneStage when oneStage) for a report that
// is written, not read: its turns and listed alarms are kept out of the
// heap (the checker hands each turn over once final; the report spills
// turns and alarms past the first few thousand), so memory stays flat in
// the number of turns and of alarms. Turns and Alarms are nil: NumTurns
// and NumAlarms count them and the writers list them all. Close the
// report once written.
func CheckToWrite(c sessions.Capture, opts invariants.Options, oneStage bool) (*Report, error) {
	log := &turnLog{}
	opts.OnTurnFinal = func(_ int, t invariants.Turn) { log.add(t) }
	rep, err := checkInto(&Report{alarmLog: newAlarmLog()}, c, opts, pipeline.Handler{OneStage: oneStage})
	// A checker that keeps its turns (it cannot tell when one is final)
	// handed none over: they are in rep.Turns, as Check has them.
	if log.n > 0 {
		for _, t := range rep.Turns {
			log.add(t)
		}
		rep.Turns = nil
		rep.turnLog = log
	}
	return rep, err
}

// NumTurns is how many turns the report holds.
func (r *Report) NumTurns() int {
	if r.turnLog != nil {
		return r.turnLog.n
	}
	return len(r.Turns)
}

// eachTurn calls fn with every turn of the report, in order.
func (r *Report) eachTurn(fn func(i int, t *invariants.Turn) error) error {
	if r.turnLog != nil {
		return r.turnLog.each(fn)
	}
	for i := range r.Turns {
		if err := fn(i, &r.Turns[i]); err != nil {
			return err
		}
	}
	return nil
}

// Close releases what the report keeps outside the heap (CheckToWrite).
func (r *Report) Close() error {
	var err error
	if r.turnLog != nil {
		err = r.turnLog.close()
	}
	if r.alarmLog != nil {
		err = errors.Join(err, r.alarmLog.close())
	}
	return err
}
