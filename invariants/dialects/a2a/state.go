package a2a

import (
	"framescope/decode"
	"framescope/invariants"
)

// phase is where a TaskState (§4.1.3; v0.3 §6.3) leaves the task.
type phase uint8

const (
	phaseUnknown     phase = iota // not a state A2A lists
	phaseActive                   // submitted, working (and v0.3 unknown, v1.0 unspecified)
	phaseInterrupted              // input-required, auth-required: the stream may close
	phaseTerminal                 // completed, failed, canceled, rejected: the stream closes
)

// states are both versions' spellings, each with its phase and the turn's
// outcome there.
var states = map[string]struct {
	phase   phase
	outcome string
}{
	"submitted":                 {phaseActive, ""},
	"working":                   {phaseActive, ""},
	"unknown":                   {phaseActive, ""},
	"input-required":            {phaseInterrupted, invariants.TurnInterrupted},
	"auth-required":             {phaseInterrupted, invariants.TurnInterrupted},
	"completed":                 {phaseTerminal, invariants.TurnCompleted},
	"failed":                    {phaseTerminal, invariants.TurnFailed},
	"canceled":                  {phaseTerminal, invariants.TurnCancelled},
	"rejected":                  {phaseTerminal, invariants.TurnRefused},
	"TASK_STATE_SUBMITTED":      {phaseActive, ""},
	"TASK_STATE_WORKING":        {phaseActive, ""},
	"TASK_STATE_UNSPECIFIED":    {phaseActive, ""},
	"TASK_STATE_INPUT_REQUIRED": {phaseInterrupted, invariants.TurnInterrupted},
	"TASK_STATE_AUTH_REQUIRED":  {phaseInterrupted, invariants.TurnInterrupted},
	"TASK_STATE_COMPLETED":      {phaseTerminal, invariants.TurnCompleted},
	"TASK_STATE_FAILED":         {phaseTerminal, invariants.TurnFailed},
	"TASK_STATE_CANCELED":       {phaseTerminal, invariants.TurnCancelled},
	"TASK_STATE_REJECTED":       {phaseTerminal, invariants.TurnRefused},
}

// stateOf reads a state string without allocating.
func stateOf(st decode.Raw) (phase, string) {
	b, ok := st.StrBytes()
	if !ok {
		return phaseUnknown, ""
	}
	s, ok := states[string(b)]
	if !ok {
		return phaseUnknown, ""
	}
	return s.phase, s.outcome
}
