package agui

import (
	"bytes"

	"framescope/decode"
	"framescope/invariants"
)

// runState is verifyEvents' run state (client/src/verify/verify.ts).
type runState struct {
	// started: the open turn was opened by RUN_STARTED (not implicitly by
	// a stray first event).
	started bool
	// lastEnd: how the latest run ended. verifyEvents lets a RUN_ERROR
	// follow RUN_FINISHED (test "should allow RUN_ERROR after
	// RUN_FINISHED") but nothing but RUN_STARTED follow RUN_ERROR.
	lastEnd endKind
	// live: a run is open, as the engine sees it (opened by RUN_STARTED
	// or by the stream's first frame, not ended since).
	live bool
	// runID, threadID: the open run's ids as sent by RUN_STARTED.
	runID, threadID []byte
}

type endKind uint8

const (
	endNone endKind = iota
	endFinished
	endErrored
)

// runStarted opens a run. Inside an open run it is start-duplicate (the
// engine's OneOpenTurn); after a stray first event (start-missing already
// raised) it adopts the turn that event opened instead of raising
// start-duplicate on top.
func (p *mapper) runStarted(f *decode.Frame, m *invariants.Mapping) {
	key := str(f.Get("runId"))
	if m.TurnOpen() && p.run.started {
		// Raised here rather than through a MoveTurnStart: with OneOpenTurn
		// the engine would raise it twice (keyedTurn and applyMoves).
		m.Raise("start-duplicate", invariants.SevError, "RUN_STARTED %s while the run %s is still active (verifyEvents: the previous run must end first)",
			clipRaw(key), clipRaw(p.run.runID))
		return
	}
	if m.TurnOpen() {
		m.Add(invariants.Move{Kind: invariants.MoveTurnKey, Key: key})
	} else {
		m.Add(invariants.Move{Kind: invariants.MoveTurnStart, Key: key})
		p.open.reset()
	}
	r := &p.run
	r.started, r.live, r.lastEnd = true, true, endNone
	r.runID = append(r.runID[:0], key...)
	r.threadID = append(r.threadID[:0], str(f.Get("threadId"))...)
}

// runFinished ends the run: completed, or interrupted when its outcome says
// so. ok: the frame's other fields passed the schema.
func (p *mapper) runFinished(f *decode.Frame, m *invariants.Mapping, typ decode.Raw, ok bool) {
	outcome := p.outcome(f, m, ok)
	if m.TurnOpen() || p.first {
		p.checkIDs(f, m, "RUN_FINISHED")
		p.closeSoft(m)
		if outcome == invariants.TurnInterrupted {
			p.closeForInterrupt(m)
		}
		p.run.lastEnd = endFinished
		p.endRun()
	}
	m.Add(invariants.Move{Kind: invariants.MoveTerminal, Outcome: outcome, Name: typ})
}

// runError fails the open run. Without one it opens and fails a run (as
// the first event, or after RUN_FINISHED: both accepted by verifyEvents);
// after RUN_ERROR it is a second terminal.
func (p *mapper) runError(f *decode.Frame, m *invariants.Mapping, typ decode.Raw) {
	mv := invariants.Move{Kind: invariants.MoveTerminal, Outcome: invariants.TurnFailed, Name: typ,
		Code: str(f.Get("code")), Text: str(f.Get("message"))}
	switch {
	case m.TurnOpen():
		p.checkIDs(f, m, "RUN_ERROR")
	case p.first || p.run.lastEnd == endFinished:
		m.Add(invariants.Move{Kind: invariants.MoveTurnStart, Key: str(f.Get("runId"))})
	default:
		m.Add(mv) // terminal-duplicate, after-terminal
		return
	}
	p.run.lastEnd = endErrored
	p.endRun()
	m.Add(mv)
}

func (p *mapper) endRun() {
	p.run.started, p.run.live = false, false
	p.run.runID, p.run.threadID = p.run.runID[:0], p.run.threadID[:0]
	p.open.reset()
}

// checkIDs raises run-id-mismatch when the terminal names another run or
// thread than the RUN_STARTED it ends (an id it lacks is not compared).
func (p *mapper) checkIDs(f *decode.Frame, m *invariants.Mapping, event string) {
	r := &p.run
	if !r.started {
		return
	}
	for _, id := range [...]struct {
		name string
		want []byte
	}{{"runId", r.runID}, {"threadId", r.threadID}} {
		got := str(f.Get(id.name))
		if got != nil && len(id.want) > 0 && !bytes.Equal(got, id.want) {
			m.Raise("run-id-mismatch", invariants.SevWarn, "%s has %s %s but the run started as %s",
				event, id.name, clipRaw(got), clipRaw(id.want))
			return
		}
	}
}

// outcome reads RUN_FINISHED's outcome: absent or null (a legacy producer)
// and {type:"success"} complete the run, {type:"interrupt", interrupts:[…]}
// pauses it (RunFinishedOutcomeSchema, both variants strict).
func (p *mapper) outcome(f *decode.Frame, m *invariants.Mapping, check bool) string {
	o := f.Get("outcome")
	switch o.Kind() {
	case decode.KindNone, decode.KindNull:
		return invariants.TurnCompleted
	case decode.KindObject:
	default:
		if check {
			m.Malformed("RUN_FINISHED", "outcome is "+invariants.KindName(o)+", want an object or null")
		}
		return invariants.TurnCompleted
	}
	typ := o.Get("type")
	switch {
	case typ.StrEq("success"):
		if check && !p.onlyKeys(o, "type", "") {
			m.Malformed("RUN_FINISHED", `outcome {type:"success"} has other members (the schema is strict)`)
		}
		return invariants.TurnCompleted
	case typ.StrEq("interrupt"):
		if check {
			if what := checkInterrupts(o.Get("interrupts")); what != "" {
				m.Malformed("RUN_FINISHED", "outcome interrupt: "+what)
			} else if !p.onlyKeys(o, "type", "interrupts") {
				m.Malformed("RUN_FINISHED", `outcome {type:"interrupt"} has other members than interrupts (the schema is strict)`)
			}
		}
		return invariants.TurnInterrupted
	}
	if check {
		m.Malformed("RUN_FINISHED", "outcome.type is "+clipRaw(typ)+`, want "success" or "interrupt"`)
	}
	return invariants.TurnCompleted
}

// onlyKeys reports whether an object has no member but a and b.
func (p *mapper) onlyKeys(o decode.Raw, a, b string) bool {
	it := o.Members()
	for k, esc, _, ok := it.Next(); ok; k, esc, _, ok = it.Next() {
		if esc || (string(k) != a && (b == "" || string(k) != b)) {
			return false
		}
	}
	return true
}

// checkInterrupts: a non-empty array of Interrupt objects (core/src/types.ts
// InterruptSchema: a string id and reason, optional typed members).
func checkInterrupts(v decode.Raw) string {
	if v.Kind() != decode.KindArray {
		return "interrupts is " + invariants.KindName(v) + ", want a non-empty array"
	}
	if v.Len() == 0 {
		return "interrupts is empty, want at least one"
	}
	if what := checkInterruptList(v); what != "" {
		return "interrupts" + what
	}
	return ""
}

// closeForInterrupt: an interrupt ends the run as interrupted, which the
// engine treats like a failure (span-unclosed and tool-unfinished at warn).
// verifyEvents rejects any RUN_FINISHED with a step, message or call open,
// so each one still open is closed here with the error itself.
func (p *mapper) closeForInterrupt(m *invariants.Mapping) {
	s := &p.open
	for i := 0; i < s.n; i++ {
		e := &s.e[i]
		key := decode.Raw(e.key)
		if e.soft {
			continue // closed by closeSoft
		}
		if e.tool {
			if m.ToolIsOpen(key) {
				m.Add(invariants.Move{Kind: invariants.MoveToolClose, Key: key})
				m.Raise("tool-unfinished", invariants.SevError, "tool call %s from frame %d has no TOOL_CALL_END at the interrupt: a run cannot pause with a call open",
					clipRaw(key), e.frame)
			}
			continue
		}
		if _, open := m.SpanName(e.span, key); open {
			m.Add(invariants.Move{Kind: invariants.MoveSpanClose, Span: e.span, Key: key})
			m.Raise("span-unclosed", invariants.SevError, "%s %s (opened at frame %d) is still open at the interrupt: a run cannot pause with it open",
				e.span, clipRaw(key), e.frame)
		}
	}
}
