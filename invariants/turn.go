package invariants

import (
	"strings"
	"time"
)

// Default timing bounds (docs/rules.md "Timing").
const (
	DefaultIdle = 30 * time.Second
	DefaultTTFE = 2 * time.Second
)

// Options configure a Checker.
type Options struct {
	// Registry, when set, is a table the dialect checks the names a
	// stream uses against, loaded by that dialect: PC3's status-event
	// registry (pc3.LoadRegistry) enables its status-unregistered,
	// -deprecated and -suppressed rules. A dialect without one ignores it.
	Registry Registry
	// Idle is the idle-gap window (0 = DefaultIdle, negative = off).
	Idle time.Duration
	// TTFE is the time-to-first-event bound (0 = DefaultTTFE, negative = off).
	TTFE time.Duration
	// SyntheticFraming says the SSE framing was rebuilt (e.g. from NDJSON
	// frames), so a missing event: line says nothing about the server.
	SyntheticFraming bool
	// Dialect forces the stream's dialect by name ("": detect it from the
	// first frames). The pipeline resolves it; the PC3 checker ignores it.
	Dialect string
	// Flavor forces the dialect's provider flavor by name ("": the mapper
	// recognises it from the stream, see Mapping.SetFlavor).
	Flavor string
	// ListLimit, when positive, is how many alarms of one rule in one turn
	// get a message: the rest are raised and counted, but Unlisted and
	// without one (a report lists only the first ones; see Listing).
	ListLimit int
	// EveryMessage: an alarm past ListLimit is still Unlisted (which
	// alarms a report lists is decided here, once), but gets its message
	// too, for a caller that shows every alarm as it comes (connect).
	EveryMessage bool
	// OnTurnFinal, when set, receives each turn once nothing can change it
	// any more, in index order, and the checker drops it: Turns then holds
	// only the turns not yet handed out (the latest last), so a stream of a
	// million turns is checked in flat memory. The turns still held after
	// End (at least the latest) are not handed out: Turns has them.
	OnTurnFinal func(index int, t Turn)
	// Stall is the content gap that raises delivery-stall (0 =
	// DefaultStall, negative = off).
	Stall time.Duration
	// Budgets (0 = none): the latest first content, the longest content
	// gap, the lowest content rate in deltas per second; over them a turn
	// raises budget-first-content, budget-gap, budget-rate (errors).
	MaxFirstContent time.Duration
	MaxGap          time.Duration
	MinRate         float64
	// NoTiming skips the per-turn timing (figures, delivery rules,
	// budgets): the baseline its benchmark measures it against.
	NoTiming bool
	// Exchange is the HTTP request and response the stream came in, as
	// far as the source knows them (nil: a raw body). A request-aware
	// dialect (MCP answers the JSON-RPC ids its request sent) reads it
	// through Mapping.Exchange.
	Exchange *Exchange
}

// Registry is what Options.Registry holds: a dialect's own table, opaque
// to the rest (the dialect that loaded it reads it back by its type).
type Registry interface{ Len() int }

// Exchange is what the source knows of the HTTP exchange around a stream.
// Header names are as recorded; Header looks one up case-insensitively.
// RequestBody has its secrets redacted unless the user kept them.
type Exchange struct {
	Method          string
	URL             string
	RequestHeaders  map[string]string
	RequestBody     []byte
	Status          int // 0: unknown
	ResponseHeaders map[string]string
}

// RequestHeader returns a request header's value by name, any case.
func (x *Exchange) RequestHeader(name string) string { return headerOf(x, name, true) }

// ResponseHeader returns a response header's value by name, any case.
func (x *Exchange) ResponseHeader(name string) string { return headerOf(x, name, false) }

func headerOf(x *Exchange, name string, req bool) string {
	if x == nil {
		return ""
	}
	h := x.ResponseHeaders
	if req {
		h = x.RequestHeaders
	}
	if v, ok := h[name]; ok {
		return v
	}
	for k, v := range h {
		if strings.EqualFold(k, name) {
			return v
		}
	}
	return ""
}

// EndKind is how the stream ended.
type EndKind string

const (
	EndEOF       EndKind = "eof"
	EndError     EndKind = "error"
	EndCancelled EndKind = "cancelled" // the client (user) ended it
)

// End is how and when a stream ended: the one end-of-stream type of every
// floor (a capture's End, the checker's, the screen's store).
type End struct {
	Kind   EndKind
	Detail string // the error text for EndError (why, for a deliberate EndCancelled)
	// At is when, from the start of the response, when HasTime.
	At      time.Duration
	HasTime bool
}

// Turn is the checker's summary of one turn (the JSON report's turns[]).
type Turn struct {
	ResponseID    string
	FirstFrame    int
	LastFrame     int
	Terminal      Terminality
	TerminalFrame int
	Done          bool
	Frames        int
	// Outcome is the terminal's detail on the common turn model
	// (docs/dialects.md: completed, failed, cancelled, refused, incomplete,
	// interrupted; "" without a terminal); TerminalEvent is the dialect's
	// own name of the terminal event (PC3: its event_type).
	Outcome       string
	TerminalEvent string
	// Timing is the turn's delivery figures (Timing.Timed false: the
	// source has no arrival times).
	Timing TurnTiming
}

// Outcomes of a turn on the common turn model (docs/dialects.md); the report's
// "outcome" key.
const (
	TurnCompleted   = "completed"
	TurnFailed      = "failed"
	TurnCancelled   = "cancelled"
	TurnRefused     = "refused"
	TurnIncomplete  = "incomplete"
	TurnInterrupted = "interrupted"
)

// TerminalOf is the report's "terminal" value for an outcome: the PC3 catalog keeps
// completed and cancelled and calls every other end an error.
func TerminalOf(outcome string) Terminality {
	switch outcome {
	case "":
		return NotTerminal
	case TurnCompleted:
		return TerminalCompleted
	case TurnCancelled:
		return TerminalCancelled
	}
	return TerminalError
}

// Terminality says whether a frame ends its turn, and how: the report's
// "terminal" value.
type Terminality uint8

const (
	NotTerminal Terminality = iota
	TerminalCompleted
	TerminalError
	TerminalCancelled
)

func (t Terminality) String() string {
	switch t {
	case TerminalCompleted:
		return "completed"
	case TerminalError:
		return "error"
	case TerminalCancelled:
		return "cancelled"
	}
	return ""
}
