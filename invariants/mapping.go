package invariants

import (
	"fmt"
	"time"

	"framescope/decode"
)

// Mapping is what a Mapper says about one frame: its moves, the turn it
// belongs to, and the dialect's own alarms. The Engine reuses it from frame
// to frame, so filling it allocates nothing once warm.
type Mapping struct {
	Moves []Move
	// Turn names the turn the frame belongs to in a keyed dialect (nil: the
	// latest turn). Stream says it belongs to the stream, not to a turn.
	Turn   decode.Raw
	Stream bool
	// Unknown: the frame's type is outside the dialect's vocabulary
	// (event-unknown, info).
	Unknown bool
	// Type is the frame's JSON type, compared with the SSE event: field
	// when the dialect's Shape.EventField is set.
	Type decode.Raw

	alarms []mappedAlarm
	e      *Engine
	// flavor is the provider flavor the mapper recognised (SetFlavor);
	// legacy the older shape it reads the stream as (Legacy).
	flavor, legacy string
	end            *End // set while Ender.EndStream runs
	// The frame's server stamp and the turn's usage (Stamp, Usage,
	// GenerationTime; timing_usage.go): read by the Engine's timing.
	stamp    Instant
	stampRes time.Duration
	usage    int64
	genTime  time.Duration
	has      mappedTiming
	// stampCache: the minute of the last RFC 3339 stamp (timing_stamp.go).
	stampCache stampCache
}

// EndedAtEOF reports, from Ender.EndStream, whether the stream ended
// cleanly (EOF: the server closed it), not by a transport error or a user
// cancel.
func (m *Mapping) EndedAtEOF() bool {
	return m.end != nil && m.end.Kind == EndEOF
}

// ClientEnded reports, from Ender.EndStream, whether the client ended the
// stream (a user cancel): what a turn then lacks is info, not error.
func (m *Mapping) ClientEnded() bool {
	return m.end != nil && m.end.Kind == EndCancelled
}

// Exchange is the HTTP exchange the stream came in (Options.Exchange), nil
// when the source is a raw body.
func (m *Mapping) Exchange() *Exchange {
	if m.e == nil {
		return nil
	}
	return m.e.opts.Exchange
}

type mappedAlarm struct {
	rule    string
	sev     Severity
	msg     string
	noFrame bool
}

func (m *Mapping) reset() {
	m.Moves = m.Moves[:0]
	m.Turn, m.Stream, m.Unknown, m.Type = nil, false, false, nil
	m.alarms = m.alarms[:0]
	m.has = 0
}

// SetFlavor names the provider whose flavor of the dialect the stream is
// (openai-chat from Groq: "groq"); the reports and panes show it beside the
// dialect. The latest call wins; a flavor forced by Options.Flavor is kept
// whatever the mapper says (ForcedFlavor tells the mapper).
func (m *Mapping) SetFlavor(name string) {
	if m.e != nil && m.e.opts.Flavor != "" {
		return
	}
	m.flavor = name
}

// Flavor is the flavor named so far ("" when none).
func (m *Mapping) Flavor() string {
	if m.e != nil && m.e.opts.Flavor != "" {
		return m.e.opts.Flavor
	}
	return m.flavor
}

// ForcedFlavor is the flavor the user forced (--flavor), "" when none.
func (m *Mapping) ForcedFlavor() string {
	if m.e == nil {
		return ""
	}
	return m.e.opts.Flavor
}

// Legacy says the stream is in an older documented shape of the dialect
// (shape names it: "Responses before sequence_number"); the first call
// raises legacy-shape (info) on the frame being mapped, once per stream,
// and the mapper reads the rest of the stream as that shape.
func (m *Mapping) Legacy(shape string) {
	if m.legacy != "" {
		return
	}
	m.legacy = shape
	m.Raise("legacy-shape", SevInfo, "the stream is in an older shape of the dialect: %s", shape)
}

// LegacyShape is the older shape named by Legacy ("" when none).
func (m *Mapping) LegacyShape() string { return m.legacy }

// Add appends a move.
func (m *Mapping) Add(mv Move) { m.Moves = append(m.Moves, mv) }

// Raise raises one of the dialect's rules on the frame being mapped (at
// the end of the stream, from Ender.EndStream: on no frame).
func (m *Mapping) Raise(rule string, sev Severity, format string, args ...any) {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	m.alarms = append(m.alarms, mappedAlarm{rule: rule, sev: sev, msg: msg})
}

// RaiseNoFrame raises a rule that belongs to no single frame.
func (m *Mapping) RaiseNoFrame(rule string, sev Severity, format string, args ...any) {
	m.Raise(rule, sev, format, args...)
	m.alarms[len(m.alarms)-1].noFrame = true
}

// Malformed raises payload-malformed: what names the field and the fault.
func (m *Mapping) Malformed(event, what string) {
	m.Raise("payload-malformed", SevError, "%s: %s", decode.Clip(event, 40), what)
}

// starts reports whether the frame opens a turn; startKey is its key.
func (m *Mapping) starts() bool {
	for i := range m.Moves {
		if m.Moves[i].Kind == MoveTurnStart {
			return true
		}
	}
	return false
}

func (m *Mapping) startKey() decode.Raw {
	for i := range m.Moves {
		if m.Moves[i].Kind == MoveTurnStart {
			return m.Moves[i].Key
		}
	}
	return nil
}

// TurnOpen reports whether the latest turn is open (started, not ended):
// a mapper uses it for events that may open a turn implicitly.
func (m *Mapping) TurnOpen() bool { return m.e.open(m.e.cur) }

// SpanName returns the name an open span was opened with (e.g. a content
// block's type), and whether it is open in the latest turn.
func (m *Mapping) SpanName(kind SpanKind, key decode.Raw) (string, bool) {
	e := m.e
	st := e.stateOf(e.cur) // e.cur counts from the stream's first turn, e.state from e.base
	if st == nil {
		return "", false
	}
	return e.spanOpen(st, kind, key)
}

// ToolIsOpen reports whether a tool call is open in the latest turn.
func (m *Mapping) ToolIsOpen(key decode.Raw) bool {
	st := m.e.stateOf(m.e.cur)
	if st == nil {
		return false
	}
	ts := st.tools[string(key)]
	return ts != nil && ts.open
}
