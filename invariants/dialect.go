// Package invariants is what every agent-stream dialect shares: the
// vocabulary of a check (Alarm, Severity, Rule, Turn, Options, End), the
// common turn model (moves), the generic rules implemented once over moves
// (the Engine), detection from declared envelope keys, the status-event
// registry, and the plain `sse` dialect for streams that match none. Each
// dialect is a room of its own under invariants/dialects (PC3 included),
// and package dialects is the registry that lists them.
package invariants

import (
	"cmp"
	"io/fs"
	"time"

	"framescope/decode"
)

// Checker checks one stream incrementally: the pipeline (pipeline.Run)
// drives it the same way for every dialect. Returned alarm slices are valid
// until the next call.
type Checker interface {
	// HTTP checks the response of a live or HAR source, before any frame.
	HTTP(status int, contentType string) []Alarm
	// Truncated reports an event the stream ended in before its blank line.
	Truncated(ev *decode.Event) []Alarm
	// CaptureProblem reports damage in the capture file itself.
	// sev is SevWarn, or SevError when recorded bytes were dropped.
	CaptureProblem(msg string, sev Severity) []Alarm
	// Block sees a block that is not a frame (comments, data-less blocks):
	// comment heartbeats count as activity in some dialects.
	Block(ev *decode.Event, arrival time.Duration, hasArrival bool)
	// Observe checks one frame.
	Observe(f *decode.Frame) []Alarm
	// End closes the stream.
	End(e End) []Alarm
	// Moves are the moves of the frame last observed (valid until the next
	// Observe): what the panes and the client view read.
	Moves() []Move
	// Turn is the index (in Turns) of the turn the frame last observed
	// belongs to; -1 when it belongs to none (stream-level frames, sse).
	Turn() int
	Turns() []Turn
	Counts() Counts
	Frames() int
}

// Flavored is a Checker that names the provider flavor of its dialect the
// stream is (openai-chat from Groq, Mistral…), "" while none is known.
type Flavored interface {
	Flavor() string
}

// Remarker is a Checker that takes an alarm the pipeline found about the
// stream as a whole (dialect-late), counted like its own.
type Remarker interface {
	Remark(rule string, sev Severity, frame int, msg string) []Alarm
}

// Stamped is a Checker that parses a timestamp of each frame's envelope
// (PC3's): Stamp is the frame last observed's, ok false when it had none
// or it did not parse. The inspector times rows of an untimed capture by
// it instead of parsing the timestamp a second time.
type Stamped interface {
	Stamp() (t time.Time, ok bool)
}

// ContentCounter is a Checker that says how it counted the content of f,
// the frame it last observed, for the turn's timing (FrameContent): the
// inspector times its rows by it instead of counting them a second time.
type ContentCounter interface {
	FrameContent(f *decode.Frame) FrameContent
}

// Flavor is one provider's variant of a dialect (Groq's, Mistral's…
// openai-chat): how the mapper recognises it and what it changes in the
// rules, each with its source. `rules --dialect NAME` lists them.
type Flavor struct {
	Name       string // as --flavor takes it and the reports show it: "groq"
	Provider   string // "Groq"
	Recognised string // what in the stream names it: "x_groq on a chunk"
	Changes    string // what the flavor relaxes or adds, with its source ("" none)
}

// Flavorer is a Dialect that knows provider flavors.
type Flavorer interface {
	Flavors() []Flavor
}

// FlavorOf is the checker's flavor, "" when it has none.
func FlavorOf(c Checker) string {
	if f, ok := c.(Flavored); ok {
		return f.Flavor()
	}
	return ""
}

// Verdict is what one frame says about whether a stream speaks a dialect.
type Verdict uint8

const (
	No    Verdict = iota // the frame cannot belong to the dialect
	Maybe                // it could (an ambiguous frame, e.g. {"type":"ping"})
	Yes                  // it carries the dialect's signature
)

// Dialect is one agent-stream wire.
type Dialect interface {
	// Name is the dialect's public name (docs/dialects.md), e.g. "go-bus".
	Name() string
	// Description is one line for `--dialect list`.
	Description() string
	// EnvelopeKeys lists the top-level members that mark a frame as this
	// dialect's (its envelope or discriminator keys). Detection derives
	// each dialect's foreign keys from the others' (ForeignKeys): no
	// dialect names another.
	EnvelopeKeys() []string
	// Sniff judges one decoded frame (never the [DONE] sentinel); foreign
	// holds the keys only other dialects declare (see ForeignKeys).
	Sniff(f *decode.Frame, foreign Keys) Verdict
	// Label is the frame's event name in this dialect (its JSON type or
	// kind, else the SSE event: field), "" when it has none. Not sanitized.
	Label(f *decode.Frame) string
	// Rules lists every rule the dialect's checker can raise.
	Rules() []Rule
	// NewChecker returns a checker for one stream.
	NewChecker(opts Options) Checker
}

// Native is a dialect checked by a checker of its own instead of the
// Engine, whose frames carry a typed envelope its room reads (PC3's
// event_type, version, response_id: pc3.Type, pc3.RID). PC3, framescope's
// first wire, is the one today. The inspector reads it as it reads every
// dialect — from its moves — and asks it what it offers besides: its
// Wording, its reference client machine (invariants/machine).
type Native interface {
	Dialect
	// NativeEnvelope marks the dialect; it does nothing.
	NativeEnvelope()
}

// IsNative reports whether d is a Native dialect.
func IsNative(d Dialect) bool {
	_, ok := d.(Native)
	return ok
}

// KeyIndexer is a dialect that declares the top-level keys it reads from
// nearly every frame (decode.Keys): a decoder given the set indexes them
// as it scans, so reading one is a slot, not a compare of every member.
// The set changes what a lookup costs, never what it finds.
type KeyIndexer interface {
	Dialect
	IndexKeys() *decode.Keys
}

// IndexKeysOf is the key set d declares (nil: none).
func IndexKeysOf(d Dialect) *decode.Keys {
	if k, ok := d.(KeyIndexer); ok {
		return k.IndexKeys()
	}
	return nil
}

// Demo is a built-in stream of a dialect that `framescope demo` and
// `serve --scenario` play live: Body is its SSE text, played one block at a
// time, Pace apart.
type Demo struct {
	Name    string // "" for the dialect's happy demo, "broken" for its broken one
	Summary string
	Body    string
	Pace    time.Duration
}

// DemoFiles are a dialect's two demos, kept beside its code as
// demo_happy.sse and demo_broken.sse and embedded in FS, each with a
// one-line summary, played a block every HappyPace (200 ms when 0) and
// BrokenPace (250 ms when 0).
type DemoFiles struct {
	FS                      fs.FS
	HappyAbout, BrokenAbout string
	HappyPace, BrokenPace   time.Duration
}

// Demos reads the two streams; none when FS is unset. A file missing from
// FS is a build mistake the dialect's tests catch: it panics.
func (d DemoFiles) Demos() []Demo {
	if d.FS == nil {
		return nil
	}
	read := func(name string) string {
		b, err := fs.ReadFile(d.FS, name)
		if err != nil {
			panic("demo stream: " + err.Error())
		}
		return string(b)
	}
	return []Demo{
		{Summary: d.HappyAbout, Body: read("demo_happy.sse"), Pace: cmp.Or(d.HappyPace, 200*time.Millisecond)},
		{Name: "broken", Summary: d.BrokenAbout, Body: read("demo_broken.sse"), Pace: cmp.Or(d.BrokenPace, 250*time.Millisecond)},
	}
}

// Demoer is a Dialect that ships demos.
type Demoer interface {
	Demos() []Demo
}

// Mapper maps one stream's frames onto moves and raises the dialect's own
// rules. It keeps whatever per-stream state its rules need; Spec.NewMapper
// makes one per stream.
type Mapper interface {
	// Map reads one decoded frame (a JSON object) and reports what it does
	// through m.
	Map(f *decode.Frame, m *Mapping)
}

// Ender is a Mapper that has rules to settle when the stream ends; the
// moves it makes there apply to the latest turn.
type Ender interface {
	EndStream(m *Mapping)
}

// TruncationNoter is a Mapper whose clients differ on an event the stream
// ended in before its blank line: TruncationNote says which of them lose
// it (for sse-truncated), "" for the common reading (a client discards it).
type TruncationNoter interface {
	TruncationNote(ev *decode.Event) string
}

// TextMapper is a Mapper that also reads frames whose data is not a JSON
// object (its Shape.NotJSON set): MCP's legacy endpoint event. It raises
// frame-json itself for text it does not expect.
type TextMapper interface {
	MapText(f *decode.Frame, m *Mapping)
}

// DoneMapper is a Mapper that maps the [DONE] sentinel too (its moves and
// alarms belong to the [DONE] frame): OpenAI Chat settles its choices there.
type DoneMapper interface {
	MapDone(m *Mapping)
}

// DoneReading is what a [DONE] means to a dialect without one in its shape
// (Shape.Done false), when the stream itself decides it (DoneReader).
type DoneReading uint8

const (
	DoneIgnored  DoneReading = iota // clients skip it: event-unknown (info)
	DoneBreaks                      // clients JSON-parse it and fail: frame-json (error)
	DoneSentinel                    // the stream's declared end marker: no alarm
)

// DoneReader is a Mapper whose reading of a [DONE] depends on the stream
// (Gemini: streamGenerateContent clients fail on it, the Interactions
// clients take it as their end marker). It overrides Shape.DoneBreaks.
type DoneReader interface {
	ReadDone() DoneReading
}

// Spec is a dialect built on the Engine: a mapping, a shape and its own
// rules. Dialect folders export one.
type Spec struct {
	ID    string
	About string
	Shape Shape
	// Generic lists the shared rules this dialect's streams can raise (by
	// name, see Generic); Own the dialect's own rules.
	Generic []string
	Own     []Rule
	// Sources names, per shared rule, where this dialect's contract says
	// it (a short label of docs/sources.md: "OpenAI SDK", "CF §3 B"); a
	// rule not named keeps the shared label.
	Sources map[string]string
	// Flavors are the provider flavors the mapper recognises
	// (Mapping.SetFlavor), for the listing.
	FlavorList []Flavor
	// Severities lists the shared rules this dialect raises at another
	// severity than the shared catalog's (go-bus seq-gap is a warn), so
	// that its listing says what its checker does.
	Severities map[string]Severity
	// Keys are the dialect's envelope keys (Dialect.EnvelopeKeys).
	Keys []string
	// SniffFrame and LabelOf implement Sniff and Label.
	SniffFrame func(f *decode.Frame, foreign Keys) Verdict
	// SniffPlain judges a first frame that is not JSON (TextSniffer); nil:
	// such a frame is never the dialect's.
	SniffPlain func(f *decode.Frame) Verdict
	LabelOf    func(f *decode.Frame) string
	// RowLabelOf (optional) is what the timeline's type column shows for
	// a frame when Label names every frame alike (openai-chat's
	// chat.completion.chunk): what this one carries. "" keeps Label.
	RowLabelOf func(f *decode.Frame) string
	// SummaryOf (optional) is what dumps and listings show instead of a
	// frame's data when it must not be printed whole (audio: its size and
	// length); "" shows the data.
	SummaryOf func(f *decode.Frame) string
	NewMapper func() Mapper
	// DemoFiles are the dialect's demo streams (optional).
	DemoFiles DemoFiles
}

func (s *Spec) Demos() []Demo { return s.DemoFiles.Demos() }

// Flavors lists the provider flavors (Flavorer).
func (s *Spec) Flavors() []Flavor { return s.FlavorList }

func (s *Spec) Name() string           { return s.ID }
func (s *Spec) Description() string    { return s.About }
func (s *Spec) EnvelopeKeys() []string { return s.Keys }
func (s *Spec) Sniff(f *decode.Frame, foreign Keys) Verdict {
	return s.SniffFrame(f, foreign)
}
func (s *Spec) SniffText(f *decode.Frame) Verdict {
	if s.SniffPlain == nil {
		return No
	}
	return s.SniffPlain(f)
}
func (s *Spec) Label(f *decode.Frame) string {
	if s.LabelOf != nil {
		if l := s.LabelOf(f); l != "" {
			return l
		}
	}
	if f.HasType {
		return f.Event.Type
	}
	return ""
}

// RowLabel is what the timeline's type column shows for f ("": Label).
func (s *Spec) RowLabel(f *decode.Frame) string {
	if s.RowLabelOf == nil {
		return ""
	}
	return s.RowLabelOf(f)
}

// Rules returns the generic rules the dialect uses, with its own sources
// and severities for them (frame-size's from its Shape.FrameLimits), then
// its own rules.
func (s *Spec) Rules() []Rule {
	out := make([]Rule, 0, len(s.Generic)+len(s.Own))
	for _, name := range s.Generic {
		if r, ok := genericIndex[name]; ok {
			if src, ok := s.Sources[name]; ok {
				r.Clause = src
			}
			if name == "frame-size" {
				r = frameSizeRule(r, &s.Shape)
			}
			if sev, ok := s.Severities[name]; ok {
				r.Severity = sev
			}
			out = append(out, r)
		}
	}
	return append(out, s.Own...)
}

func (s *Spec) NewChecker(opts Options) Checker { return newChecker(s, opts) } // twoway.go

// TurnMode says how a dialect's frames group into turns.
type TurnMode uint8

const (
	// TurnPerStream: one stream is one turn, opened by its first frame.
	TurnPerStream TurnMode = iota
	// TurnKeyed: MoveTurnStart opens a turn (keyed); a frame belongs to the
	// turn Mapping.Turn names, else to the latest turn.
	TurnKeyed
	// NoTurns: a plain event stream (the sse dialect).
	NoTurns
)

// Shape is what the generic rules need to know about a dialect.
type Shape struct {
	Turns TurnMode
	// Session: the stream is a two-way session whose turns the client
	// asks for (a WebSocket API): one that ends with none is complete
	// (the dialect says what was asked and not answered).
	Session bool
	// StartRequired: a turn whose first frame is no MoveTurnStart is
	// start-missing.
	StartRequired bool
	// OneOpenTurn: a turn start while another turn is open is
	// start-duplicate (AG-UI runs); otherwise only the same key is.
	OneOpenTurn bool
	// Done: the stream ends with data: [DONE] after the terminal
	// (done-early, done-missing). Without it a [DONE] is event-unknown.
	Done bool
	// DoneBreaks (without Done): the dialect's client parses every data
	// field as JSON, so a [DONE] is not skipped but fails the stream:
	// frame-json (error), not event-unknown.
	DoneBreaks bool
	// NoTerminal: turns have no terminal event and end when their spans
	// do (chunk-framed): no terminal-missing, and a span left open at the
	// end of the stream is an error.
	NoTerminal bool
	// ReuseToolIDs: a tool id may be used again once its call closed.
	ReuseToolIDs bool
	// EventField: an SSE event: field must equal the frame's JSON type
	// (Mapping.Type), else sse-event-mismatch.
	EventField bool
	// NotJSON: a frame's data need not be JSON (frame-json does not apply).
	NotJSON bool
	// JSONValues: a frame's data may be any JSON value, not only an object
	// (LangGraph sends arrays and null): the mapper reads it from f.Data
	// and frame-json is only for data that is not JSON.
	JSONValues bool
	// Idle is the dialect's default idle window (0: DefaultIdle).
	Idle time.Duration
	// Subscription: a stream is opened before there is anything to say
	// (go-bus: the client subscribes to a conversation, then the user
	// writes), so its first frame may come any time later: no default
	// ttfe bound (one given on the command line still applies).
	Subscription bool
	// SubscriptionGET: a stream opened by a GET is a subscription the
	// server may leave silent until it has something to send (MCP's
	// listening stream, without keepalives): no default ttfe bound and
	// no default idle window (values given still apply). A stream that
	// answers a POST is not.
	SubscriptionGET bool
	// CommentHeartbeats: SSE comments count as activity for idle-gap.
	CommentHeartbeats bool
	// FrameLimits are the frame-size tiers, from what the dialect's clients
	// read (FrameLimit: the size past which a client fails, and which).
	// nil: DefaultFrameLimits, framescope's own for a wire without a client
	// to follow. FrameUnbounded: no client of the dialect bounds a line or
	// an event, so no tier applies (FrameLimits is then empty); a frame past
	// framescope's own event limit is still said, at info.
	FrameLimits    []FrameLimit
	FrameUnbounded bool
	// ContentTypes are the media types the dialect's responses carry
	// (lower case, no parameters); empty means text/event-stream. Any
	// other Content-Type is the content-type warn.
	ContentTypes []string
}
