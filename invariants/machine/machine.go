// Package machine is the vocabulary of a reference client state machine —
// states, inputs, guards, actions, the rows a run takes — and the
// interfaces through which a dialect that ships one (PC3) hands it out:
// the inspector's Client pane, `framescope reference` and its replay reach
// the machine through Of, never through the dialect's room.
package machine

import (
	"io"
	"strings"
	"time"

	"framescope/decode"
	"framescope/invariants"
)

// Profile names a client implementation (a version of the dialect's client).
type Profile string

// State is a state of the top-level machine or a sub-state of a region.
type State string

// StateKind groups the top-level states.
type StateKind string

const (
	KindInitial  StateKind = "initial"
	KindWaiting  StateKind = "waiting"
	KindOpen     StateKind = "open"
	KindTerminal StateKind = "terminal"
	KindClosed   StateKind = "closed"
	KindFailure  StateKind = "failure"
	KindSub      StateKind = "sub-state"
)

// Input is what a run is fed: a frame (as the machine classifies it) or a
// transport event.
type Input string

// The transport inputs: what happens to the request and the connection.
const (
	InConnect        Input = "connect"
	InHTTPError      Input = "http_error"
	InFirstByte      Input = "first_byte"
	InEOF            Input = "eof"
	InTransportError Input = "transport_error"
	InUserCancel     Input = "user_cancel"
	InIdleTimer      Input = "idle_timer"
)

// IsFrameInput reports whether in is a frame input (any but a transport
// input).
func (in Input) IsFrameInput() bool {
	switch in {
	case InConnect, InHTTPError, InFirstByte, InEOF, InTransportError, InUserCancel, InIdleTimer:
		return false
	}
	return true
}

// Guard names a condition a row needs besides its input. GuardNone always
// holds ("otherwise").
type Guard string

const GuardNone Guard = ""

// Action is what a row does.
type Action string

// ActDispatch is the row that only hands the frame on to the turn (a step
// summary leaves it out).
const ActDispatch Action = "dispatch"

// StateInfo describes a state or a region's sub-state.
type StateInfo struct {
	ID    State     `json:"id"`
	Kind  StateKind `json:"kind"`
	About string    `json:"about"`
}

// Transition is one row of a table: in state From, on Input when Guard
// holds, go to To doing Action. Clause is the spec clause the row comes
// from; Checker lists the rules `framescope check` raises on a stream where
// the reference client takes the row (empty for a row the contract expects).
type Transition struct {
	From    State    `json:"from"`
	Input   Input    `json:"input"`
	Guard   Guard    `json:"guard,omitempty"`
	To      State    `json:"to"`
	Action  Action   `json:"action"`
	Clause  string   `json:"clause"`
	Why     string   `json:"why"`
	Checker []string `json:"checker,omitempty"`
}

// TransportEvent is a transport input with an optional detail (an HTTP
// status, an error text) for the view.
type TransportEvent struct {
	Input  Input
	Detail string
}

// Outcome is how a turn ended, as the user sees it ("" while it is open).
type Outcome string

const OutcomeNone Outcome = ""

// ViewTextOptions tune Run.AppendView.
type ViewTextOptions struct {
	// Indent prefixes every line.
	Indent string
	// MaxText keeps only the last MaxText runes of the bubble's text (0 =
	// all of it).
	MaxText int
	// Multiline prints the bubble's text over several lines (line breaks
	// kept, still sanitized) instead of one quoted line.
	Multiline bool
}

// Chart is what a drawing of the machine needs: the top-level states in
// the machine's order and the regions of the streaming state.
type Chart struct {
	States  []StateInfo
	Regions []ChartRegion
}

// ChartRegion is one orthogonal region; a keyed one (Key != "") keeps a
// sub-state per key (a tool call's id, a placeholder's id).
type ChartRegion struct {
	Name, Key string
	States    []StateInfo
}

// Machine is a dialect's reference client state machine.
type Machine interface {
	// Profiles are the client profiles the machine is defined for: the
	// reference one first, then the deployed one it is compared with.
	Profiles() []Profile
	// NewRun starts a run of profile p in its initial state.
	NewRun(p Profile) Run
	// Classify is the input frame f is to the machine; InputLabel names it
	// in a replay (an unknown frame with its event type).
	Classify(f *decode.Frame) Input
	InputLabel(f *decode.Frame, in Input) string
	// Diverges reports a frame the reference and the deployed profile read
	// differently in an open turn, and how.
	Diverges(f *decode.Frame) (string, bool)
	// TurnOpen reports a state in which a turn is open: the client's idle
	// timer runs.
	TurnOpen(s State) bool
	// Delivery says whether action a changes whether the client still reads
	// the stream (it disconnected, or started a request), and to what.
	Delivery(a Action) (changes, reads bool)
	// IdleTimer is the client's idle window by default.
	IdleTimer() time.Duration
	// Formats and Diagrams are what Render and RenderDiagram accept; they
	// write the machine of profile p as a document or one diagram of it.
	Formats() []string
	Diagrams() []string
	Render(w io.Writer, format string, p Profile) error
	RenderDiagram(w io.Writer, format string, p Profile, diagram string) error
	// KitReadme is the README of the conformance kit.
	KitReadme() []byte
}

// Run is one profile's machine run over a stream. Step and Transport feed
// it; a run whose view shares its text with a fork (Fork) is stepped only
// through StepShared and TransportShared.
type Run interface {
	Profile() Profile
	// State is the current top-level state; Outcome how the current turn
	// ended; Last the step just taken.
	State() State
	Outcome() Outcome
	Last() Step
	// Chart is the run's machine, to draw.
	Chart() *Chart
	// SubState is a region's sub-state, KeyState a keyed region's for one
	// key, Keys a keyed region's keys in the order the view shows them.
	SubState(region string) State
	KeyState(region, key string) State
	Keys(region string) []string
	// AppendView appends the plain-text rendering of what the client
	// shows; Conformance is the view as the conformance kit writes it (a
	// JSON value).
	AppendView(b []byte, o ViewTextOptions) []byte
	Conformance() any
	Step(f *decode.Frame) Step
	Transport(ev TransportEvent) Step
	StepShared(f *decode.Frame) Step
	TransportShared(ev TransportEvent) Step
	// Fork copies the run (sharing the bubble's text); ForkAt renumbers
	// the copy's last step to frame; SameButFrame reports o is the run but
	// for the frame number of its last step.
	Fork() Run
	ForkAt(frame int) Run
	SameButFrame(o Run) bool
}

// Dialect is a dialect that ships a reference client machine.
type Dialect interface {
	ClientMachine() Machine
}

// Of returns the machine d ships, nil when it ships none.
func Of(d invariants.Dialect) Machine {
	if md, ok := d.(Dialect); ok {
		return md.ClientMachine()
	}
	return nil
}

// RegionStep is the row one region took for a frame.
type RegionStep struct {
	Region     string
	Key        string // the key of a keyed region (a tool call's id)
	Transition *Transition
}

// Step is what the machine did with one input.
type Step struct {
	// Frame is the frame index (-1 for a transport input).
	Frame int
	Input Input
	From  State
	To    State
	// Via is the row that started the next turn when the frame opened it
	// on the stream; Transition is then the row the frame took in that turn.
	Via        *Transition
	Transition *Transition
	Regions    []RegionStep
	// Violation: no row matched (in the top-level machine or in a region):
	// the client ignored the input. Rules names what the checker reports
	// (from the row's Checker list, or the region's forbidden entry).
	Violation bool
	Rules     []string
	Note      string
	// ViewChanged says the client view changed.
	ViewChanged bool
}

// Actions lists the actions taken, top-level first.
func (s *Step) Actions() []Action {
	var as []Action
	if s.Via != nil {
		as = append(as, s.Via.Action)
	}
	if s.Transition != nil {
		as = append(as, s.Transition.Action)
	}
	for _, r := range s.Regions {
		as = append(as, r.Transition.Action)
	}
	return as
}

// Clause is the spec clause of the step's row(s).
func (s *Step) Clause() string {
	var parts []string
	seen := map[string]bool{}
	addc := func(c string) {
		for _, p := range strings.Split(c, ", ") {
			if p != "" && p != "—" && !seen[p] {
				seen[p] = true
				parts = append(parts, p)
			}
		}
	}
	if s.Transition != nil {
		addc(s.Transition.Clause)
	}
	for _, r := range s.Regions {
		addc(r.Transition.Clause)
	}
	return strings.Join(parts, ", ")
}

// Summary is a one-line account of the step: from → to, actions, regions.
func (s *Step) Summary() string {
	var b strings.Builder
	if s.Via != nil {
		b.WriteString(string(s.Via.From) + " → " + string(s.Via.To) + " (" + string(s.Via.Action) + ") → ")
		b.WriteString(string(s.To))
	} else {
		b.WriteString(string(s.From) + " → " + string(s.To))
	}
	if s.Violation {
		b.WriteString("  no transition: " + s.Note)
		return b.String()
	}
	if s.Transition != nil && s.Transition.Action != ActDispatch {
		b.WriteString("  " + string(s.Transition.Action))
	}
	for _, r := range s.Regions {
		t := r.Transition
		b.WriteString("  " + r.Region)
		if r.Key != "" {
			b.WriteString("[" + decode.Sanitize(decode.Clip(r.Key, 40)) + "]")
		}
		b.WriteString(": ")
		if t.From != t.To {
			b.WriteString(string(t.From) + "→" + string(t.To) + " ")
		}
		b.WriteString(string(t.Action))
	}
	return b.String()
}

// StepsDiffer reports whether two profiles took different ways through an
// input: another state, a violation in one only, or other actions.
func StepsDiffer(a, b *Step) bool {
	if a.To != b.To || a.Violation != b.Violation {
		return true
	}
	// The actions, top-level first (Step.Actions without its allocation:
	// this runs on every frame of the stream).
	na, nb := actionCount(a), actionCount(b)
	if na != nb {
		return true
	}
	for i := 0; i < na; i++ {
		if actionAt(a, i) != actionAt(b, i) {
			return true
		}
	}
	return false
}

func actionCount(s *Step) int {
	n := len(s.Regions)
	if s.Via != nil {
		n++
	}
	if s.Transition != nil {
		n++
	}
	return n
}

func actionAt(s *Step, i int) Action {
	if s.Via != nil {
		if i == 0 {
			return s.Via.Action
		}
		i--
	}
	if s.Transition != nil {
		if i == 0 {
			return s.Transition.Action
		}
		i--
	}
	return s.Regions[i].Transition.Action
}

// EndEvent is the transport input of how a stream ended: a broken
// stream's error, the user's cancel, or else its end of file.
func EndEvent(e invariants.End) TransportEvent {
	switch e.Kind {
	case invariants.EndError:
		return TransportEvent{Input: InTransportError, Detail: e.Detail}
	case invariants.EndCancelled:
		return TransportEvent{Input: InUserCancel}
	}
	return TransportEvent{Input: InEOF}
}
