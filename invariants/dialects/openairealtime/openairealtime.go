// Package openairealtime is the OpenAI Realtime API over WebSocket (the GA
// event set: openai-node src/resources/realtime/realtime.ts, the
// openai-agents-js realtime transport packages/agents-realtime/src/
// openaiRealtimeBase.ts): JSON events with a `type` and an `event_id`,
// both ways. The client asks (session.update, conversation.item.create,
// response.create, response.cancel, input_audio_buffer.*); the server
// answers with response.created … output items, content parts, deltas …
// response.done. One response is one turn, keyed by its id.
package openairealtime

import (
	"embed"

	"framescope/decode"
	"framescope/invariants"
)

// demoFiles are the dialect's demos: the server's side of a session, as
// SSE (serve and demo replay HTTP bodies; a WebSocket replay is not done).
//
//go:embed demo_happy.sse demo_broken.sse
var demoFiles embed.FS

// Dialect is openai-realtime.
var Dialect = &invariants.Spec{
	ID:    "openai-realtime",
	About: "OpenAI Realtime API over WebSocket: JSON events with type and event_id both ways; each response.create → response.created … items, parts, deltas … response.done is one turn",
	Shape: invariants.Shape{
		Turns:         invariants.TurnKeyed,
		Session:       true,
		StartRequired: true,
		// A voice session waits on the user for minutes: no idle or
		// first-event bound on the session as a whole.
		Subscription: true,
	},
	Generic: invariants.Rules("frame-json", "event-unknown", "start-missing", "terminal-missing", "terminal-duplicate",
		"after-terminal", "span-orphan", "span-unclosed", "span-duplicate", "tool-malformed", "tool-orphan",
		"tool-unfinished", "tool-duplicate", "payload-malformed", "legacy-shape"),
	Own: []invariants.Rule{
		{Name: "response-unanswered", Severity: invariants.SevError,
			Clause:  "openai-agents-js packages/agents-realtime/src/openaiRealtimeBase.ts (turn_started on response.created, turn_done on response.done)",
			Summary: "the client sent response.create but no response.created answered it before the session ended: the SDK's turn never starts"},
		{Name: "event-id-duplicate", Severity: invariants.SevWarn,
			Clause:  "openai-node src/resources/realtime/realtime.ts (event_id: the unique ID of the event)",
			Summary: "an event_id repeats within its direction: an error naming it is ambiguous"},
		{Name: "error-ref-unknown", Severity: invariants.SevWarn,
			Clause:  "openai-agents-js packages/agents-realtime/src/openaiRealtimeBase.ts (error.event_id names the failed client event)",
			Summary: "an error event's error.event_id names no client event of the session: the client cannot tell which request failed"},
	},
	Sources: map[string]string{
		"frame-json": "OpenAI Realtime", "event-unknown": "OpenAI Realtime", "start-missing": "OpenAI Realtime",
		"terminal-missing": "OpenAI Realtime", "terminal-duplicate": "OpenAI Realtime", "after-terminal": "OpenAI Realtime",
		"span-orphan": "OpenAI Realtime", "span-unclosed": "OpenAI Realtime", "span-duplicate": "OpenAI Realtime",
		"tool-malformed": "OpenAI Realtime", "tool-orphan": "OpenAI Realtime", "tool-unfinished": "OpenAI Realtime",
		"tool-duplicate": "OpenAI Realtime", "payload-malformed": "OpenAI Realtime", "legacy-shape": "OpenAI Realtime",
	},
	Keys:       []string{"type"},
	SniffFrame: sniff,
	LabelOf:    invariants.TypeLabel,
	RowLabelOf: rowLabel,
	SummaryOf:  summary,
	NewMapper:  newMapper,
	DemoFiles: invariants.DemoFiles{
		FS:          demoFiles,
		HappyAbout:  "the server's side of a voice turn: session.created, response.created, an audio answer with its transcript, a function call with complete arguments, response.done",
		BrokenAbout: "the server's side: a delta into a part never added, function arguments that are not JSON, a delta after response.done, a repeated event_id",
	},
}

// sniff: a string type in the Realtime families with a string event_id.
func sniff(f *decode.Frame, _ invariants.Keys) invariants.Verdict {
	typ := f.Get("type")
	if typ.Kind() != decode.KindString || f.Get("event_id").Kind() != decode.KindString || f.Get("sequence_number") != nil {
		return invariants.No
	}
	s, _ := typ.Str()
	if family(s) {
		return invariants.Yes
	}
	return invariants.No
}

// rowLabel: an audio delta is named with its size, never shown whole.
func rowLabel(f *decode.Frame) string {
	typ := f.Get("type")
	if typ.StrEq("response.output_audio.delta") || typ.StrEq("response.audio.delta") || typ.StrEq("input_audio_buffer.append") {
		s, _ := typ.Str()
		return s + " " + AudioSummary(f)
	}
	return ""
}
