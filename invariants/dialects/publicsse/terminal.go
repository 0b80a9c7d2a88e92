package publicsse

import (
	"framescope/decode"
	"framescope/invariants"
)

// The final.status enum (v1.md §3 "Final status enum") and the outcome each
// status gives the turn.
var finalStatus = []string{"completed", "failed", "incomplete", "refused", "cancelled"}

var finalOutcome = map[string]string{
	"completed":  invariants.TurnCompleted,
	"failed":     invariants.TurnFailed,
	"incomplete": invariants.TurnIncomplete,
	"refused":    invariants.TurnRefused,
	"cancelled":  invariants.TurnCancelled,
}

var lifecycleStatus = []string{"queued", "in_progress", "completed", "failed", "incomplete", "cancelled"}

// final is the terminal of every non-exceptional ending (§9.16); its
// status gives the outcome. A status outside the enum is payload-malformed
// and the turn counts as failed: the client cannot tell it succeeded.
func (p *mapper) final(f *decode.Frame, m *invariants.Mapping, kind decode.Raw) {
	fin := f.Get("final")
	st := fin.Get("status")
	outcome := invariants.TurnFailed
	switch {
	case fin.Kind() != decode.KindObject:
		p.faults.add("final", fin, "an object with status")
	case !oneOf(st, finalStatus):
		p.faults.add("final.status", st, "completed, failed, incomplete, refused or cancelled")
	default:
		outcome = finalOutcome[string(inner(st))]
	}
	m.Add(invariants.Move{Kind: invariants.MoveTerminal, Outcome: outcome, Name: kind})
}

// errorEvent is the terminal for failures (§9.15): error {code?, message,
// source: provider|server, is_retryable: boolean}.
func (p *mapper) errorEvent(f *decode.Frame, m *invariants.Mapping, kind decode.Raw) {
	e := f.Get("error")
	code, msg := e.Get("code"), e.Get("message")
	fs := &p.faults
	if e.Kind() != decode.KindObject {
		fs.add("error", e, "an object with message, source and is_retryable")
	} else {
		fs.want(msg, decode.KindString, "error.message")
		if src := e.Get("source"); !src.StrEq("provider") && !src.StrEq("server") {
			fs.add("error.source", src, `"provider" or "server"`)
		}
		fs.want(e.Get("is_retryable"), decode.KindBool, "error.is_retryable")
		if k := code.Kind(); k != decode.KindNone && k != decode.KindNull && k != decode.KindString {
			fs.add("error.code", code, "a string or null")
		}
	}
	if code.Kind() != decode.KindString {
		code = nil
	}
	if msg.Kind() != decode.KindString {
		msg = nil
	}
	m.Add(invariants.Move{Kind: invariants.MoveTerminal, Outcome: invariants.TurnFailed, Name: kind, Code: code, Text: msg})
}
