// Package chunkframed is the chunk-framed dialect (seed: the "Streaming
// chunks, begin/end markers, and multimodal synchronization" decision of
// the spec set, Option B with SSE at the Channel Gateway edge). Every agent
// response is a chunk stream stream.begin → stream.chunk (seq_no 1..N) →
// stream.end, keyed by message_id; the streams of one turn (one per
// modality: text, product carousel, images…) share a correlation_group. The
// dialect has no turn terminal: a turn is done when all its streams ended.
package chunkframed

import (
	"embed"

	"framescope/decode"
	"framescope/invariants"
)

// demoFiles are the dialect's demos (invariants.DemoFiles).
//
//go:embed demo_happy.sse demo_broken.sse
var demoFiles embed.FS

// Dialect is chunk-framed.
var Dialect = &invariants.Spec{
	ID:    "chunk-framed",
	About: "stream.begin / stream.chunk / stream.end events (SSE event: or JSON event) keyed by message_id, one turn per correlation_group; no turn terminal",
	// Turns are keyed by correlation_group and end when their streams do;
	// the SSE event: field must agree with a JSON event key when both are
	// sent (sse-event-mismatch).
	Shape: invariants.Shape{Turns: invariants.TurnKeyed, NoTerminal: true, EventField: true},
	Generic: invariants.Rules("frame-json", "event-unknown", "sse-event-mismatch", "payload-malformed",
		"span-orphan", "span-duplicate", "span-unclosed", "after-terminal", "seq-gap", "seq-order"),
	Own: ownRules,
	Sources: map[string]string{
		"frame-json":         "CF §3 B",
		"event-unknown":      "CF §3 B",
		"sse-event-mismatch": "CF §3 C",
		"payload-malformed":  "CF §3 B",
		"span-orphan":        "CF §3 B",
		"span-duplicate":     "CF §3 B",
		"span-unclosed":      "CF §3 B",
		"after-terminal":     "CF §3 B",
		"seq-gap":            "CF §3 B",
		"seq-order":          "CF §5",
	},
	Keys:       []string{"event", "seq_no"},
	SniffFrame: sniff,
	LabelOf:    label,
	NewMapper:  func() invariants.Mapper { return newMapper() },
	DemoFiles: invariants.DemoFiles{
		FS:          demoFiles,
		HappyAbout:  "a shopping answer in two turns: interleaved text, product-carousel, image and action streams with begin/chunk/end, checksums and keepalive comments",
		BrokenAbout: "a lost chunk, a replayed seq_no, a chunk for an unknown stream, a string seq_no, a bad checksum, a short total_chunks, a chunk after its end, a partial end, a stream never ended",
	},
}

// The dialect's own rules (docs/dialects/chunk-framed.md).
var ownRules = []invariants.Rule{
	{Name: ruleRedelivered, Severity: invariants.SevInfo, Clause: "§1 Constraints, §5",
		Summary: "a stream.chunk repeats an earlier seq_no of its stream with an identical payload: a bus redelivery, counted once"},
	{Name: ruleCount, Severity: invariants.SevError, Clause: "§3 B stream.end, §5",
		Summary: "stream.end's total_chunks differs from the chunks received (distinct seq_no values)"},
	{Name: ruleChecksum, Severity: invariants.SevError, Clause: "§1, §3 B stream.end",
		Summary: "stream.end's checksum is not the lowercase hex SHA-256 of the stream's payload strings concatenated in seq_no order"},
	{Name: rulePartial, Severity: invariants.SevWarn, Clause: "§5 Risks: agent crash",
		Summary: "stream.end with final: false: the agent crashed and the UI shows a partial result (chunk-count and checksum-mismatch do not apply)"},
	{Name: ruleExpected, Severity: invariants.SevInfo, Clause: "§3 B stream.begin",
		Summary: "stream.end's total_chunks differs from the expected_chunks hint of its stream.begin"},
}

const (
	ruleRedelivered = "chunk-redelivered"
	ruleCount       = "chunk-count"
	ruleChecksum    = "checksum-mismatch"
	rulePartial     = "stream-partial"
	ruleExpected    = "expected-chunks"
)

// The three event names of the protocol.
const (
	nameBegin = "stream.begin"
	nameChunk = "stream.chunk"
	nameEnd   = "stream.end"
)

// evKind is a frame's event, resolved from its SSE event: field or its
// JSON event key (see eventOf).
type evKind uint8

const (
	evNone  evKind = iota // neither carries a name
	evOther               // a name outside the protocol
	evBegin
	evChunk
	evEnd
)

// kindOfName maps a name onto the protocol's events.
func kindOfName(s string) evKind {
	switch s {
	case nameBegin:
		return evBegin
	case nameChunk:
		return evChunk
	case nameEnd:
		return evEnd
	}
	return evOther
}

// kindOfRaw is kindOfName for a JSON value (no allocation).
func kindOfRaw(r decode.Raw) evKind {
	switch {
	case r == nil:
		return evNone
	case r.StrEq(nameBegin):
		return evBegin
	case r.StrEq(nameChunk):
		return evChunk
	case r.StrEq(nameEnd):
		return evEnd
	}
	return evOther
}

// eventOf resolves a frame's event. The seed's Channel Gateway translates
// stream.* bus events into SSE, so the SSE event: field names the event; a
// data-only gateway puts the same name in a JSON event key. When the SSE
// field is not a protocol name (an explicit `event: message`, an empty
// field) but the JSON key is, the JSON key names it; the disagreement is
// sse-event-mismatch either way.
func eventOf(f *decode.Frame) evKind {
	if f.HasType && f.Event.Type != "" {
		if k := kindOfName(f.Event.Type); k != evOther {
			return k
		}
		if k := kindOfRaw(f.Get("event")); k >= evBegin {
			return k
		}
		return evOther
	}
	return kindOfRaw(f.Get("event"))
}

// label is the frame's event name as eventOf reads it.
func label(f *decode.Frame) string {
	if f.HasType && f.Event.Type != "" {
		if kindOfName(f.Event.Type) != evOther || kindOfRaw(f.Get("event")) < evBegin {
			return f.Event.Type
		}
	}
	s, _ := f.Get("event").Str()
	return s
}
