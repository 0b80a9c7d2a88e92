// Package gemini is the gemini dialect: Google's two streaming shapes of
// the Gemini API, told apart by their first frame and never mixed.
//
// streamGenerateContent?alt=sse (Gemini API and Vertex AI): each data: is
// a whole GenerateContentResponse (candidates[].content.parts[] with text,
// thought parts, functionCall, executableCode/codeExecutionResult,
// inlineData), no [DONE]. One stream is one turn, opened by its first
// chunk; the terminal is the chunk where every candidate has a
// finishReason (the last, which also carries usageMetadata). A prompt
// blocked by promptFeedback.blockReason is a refused terminal, and an
// {"error":{…}} object a failed one.
//
// The Interactions API (stream: true): every frame names itself in
// event_type. interaction.created opens the turn; steps run step.start →
// step.delta… → step.stop by index, with interaction.status_update
// between; interaction.completed (its status the outcome) or error ends
// it. The deprecated content-based events (interaction.start,
// content.start/delta/stop, interaction.complete) are read as a legacy
// shape.
package gemini

import (
	"embed"

	"framescope/decode"
	"framescope/invariants"
)

//go:embed demo_happy.sse demo_broken.sse
var demoFiles embed.FS

// frameLimits: an image-output chunk carries its inline data whole, so a
// healthy frame passes a MiB. js-genai (src/_api_client.ts
// processStreamResponse) and python-genai's httpx client (iter_lines /
// aiter_lines) read a line of any length, as both SDKs' Interactions
// streams do; python-genai's async client on aiohttp and go-genai do not.
var frameLimits = []invariants.FrameLimit{
	{Over: invariants.SSEDataIn(4 << 20), Severity: invariants.SevWarn, Client: "python-genai's async client on aiohttp",
		Why: "reads lines of at most 4 MiB (google/genai/_api_client.py: readline(max_line_length=READ_BUFFER_SIZE), READ_BUFFER_SIZE = 2**22) and raises aiohttp's LineTooLong (aiohttp before 3.13.4: ValueError \"Chunk too big\" past 8 MiB); js-genai and python-genai's httpx client have no limit"},
	{Over: invariants.SSEDataIn(256 << 20), Severity: invariants.SevWarn, Client: "go-genai and python-genai's async client on aiohttp",
		Why: "fail: go-genai reads lines of at most 256 MiB (api_client.go: bufio.Scanner) and ends the stream with bufio.ErrTooLong; js-genai and python-genai's httpx client have no limit"},
}

// Dialect is gemini.
var Dialect = &invariants.Spec{
	ID:    "gemini",
	About: "Google Gemini streaming: streamGenerateContent?alt=sse chunks (candidates, finishReason) or Interactions API events (interaction.created, step.*, interaction.completed)",
	// No EventField: the mapper compares event: with event_type itself, at
	// warn (both Interactions clients read event_type and ignore event:).
	Shape: invariants.Shape{Turns: invariants.TurnPerStream, StartRequired: true, FrameLimits: frameLimits},
	Generic: invariants.Rules("frame-json", "event-unknown", "sse-event-mismatch", "payload-malformed",
		"start-missing", "start-duplicate", "terminal-missing", "terminal-duplicate", "after-terminal",
		"span-orphan", "span-unclosed", "span-duplicate",
		"tool-malformed", "tool-orphan", "tool-duplicate", "tool-unfinished",
		"envelope-drift", "legacy-shape"),
	Own: []invariants.Rule{
		{Name: "shape-mixed", Severity: invariants.SevError, Clause: "Gemini SDK",
			Summary: "a GenerateContentResponse chunk and an Interactions event (event_type) in one stream: the SDK parses a stream with one model and cannot read the other"},
		{Name: "event-id-order", Severity: invariants.SevWarn, Clause: "Gemini docs",
			Summary: "an Interactions event_id repeats the previous one or goes backwards: resuming from it replays the wrong events"},
		{Name: "sse-field-unexpected", Severity: invariants.SevError, Clause: "Gemini SDK",
			Summary: "a streamGenerateContent event with another SSE line than one \"data: \" line (event:, id:, retry:, a comment, data: without its space, a second data line): the SDKs' line readers fail to parse it"},
		{Name: "usage-missing", Severity: invariants.SevInfo, Clause: "Gemini docs",
			Summary: "the finishing chunk of a streamGenerateContent stream carries no usageMetadata (token usage unknown)"},
	},
	Sources: map[string]string{
		"frame-size":         "Gemini SDK",
		"frame-json":         "Gemini SDK",
		"event-unknown":      "Gemini docs",
		"sse-event-mismatch": "Gemini docs",
		"payload-malformed":  "Gemini SDK",
		"start-missing":      "Gemini docs",
		"start-duplicate":    "Gemini docs",
		"terminal-missing":   "Gemini docs",
		"terminal-duplicate": "Gemini docs",
		"after-terminal":     "Gemini docs",
		"span-orphan":        "Gemini docs",
		"span-unclosed":      "Gemini docs",
		"span-duplicate":     "Gemini docs",
		"tool-malformed":     "Gemini docs",
		"tool-orphan":        "Gemini docs",
		"tool-duplicate":     "Gemini docs",
		"tool-unfinished":    "Gemini docs",
		"envelope-drift":     "Gemini docs",
		"legacy-shape":       "Gemini docs",
	},
	Severities: map[string]invariants.Severity{"envelope-drift": invariants.SevWarn, "sse-event-mismatch": invariants.SevWarn},
	// candidates, promptFeedback, usageMetadata and modelVersion mark a
	// GenerateContentResponse; event_type (shared with PC3, which also
	// needs its version key) an Interactions event.
	Keys:       []string{"candidates", "promptFeedback", "usageMetadata", "modelVersion", "event_type"},
	SniffFrame: sniff,
	LabelOf:    label,
	NewMapper:  newMapper,
	DemoFiles: invariants.DemoFiles{
		FS:          demoFiles,
		HappyAbout:  "a streamGenerateContent turn: thought parts, text in chunks, a functionCall, finishReason STOP with usageMetadata",
		BrokenAbout: "a functionCall without a name, a responseId that changes, text after finishReason, an Interactions event in a generateContent stream",
	},
}

// iaEvent is an Interactions event's place in the vocabulary.
type iaEvent uint8

const (
	iaUnknown iaEvent = iota
	iaCreated
	iaStatus
	iaStepStart
	iaStepDelta
	iaStepStop
	iaCompleted
	iaError
	// The deprecated content-based events (steps disabled).
	iaLegacyStart
	iaContentStart
	iaContentDelta
	iaContentStop
	iaLegacyComplete
)

var iaNames = [...]string{"", "interaction.created", "interaction.status_update", "step.start", "step.delta", "step.stop",
	"interaction.completed", "error", "interaction.start", "content.start", "content.delta", "content.stop", "interaction.complete"}

func iaEventOf(et decode.Raw) iaEvent {
	b := invariants.StrBytes(et)
	if b == nil {
		return iaUnknown
	}
	switch string(b) {
	case "step.delta":
		return iaStepDelta
	case "step.start":
		return iaStepStart
	case "step.stop":
		return iaStepStop
	case "interaction.status_update":
		return iaStatus
	case "interaction.created":
		return iaCreated
	case "interaction.completed":
		return iaCompleted
	case "error":
		return iaError
	case "interaction.start":
		return iaLegacyStart
	case "content.start":
		return iaContentStart
	case "content.delta":
		return iaContentDelta
	case "content.stop":
		return iaContentStop
	case "interaction.complete":
		return iaLegacyComplete
	}
	for i := 1; i < len(iaNames); i++ {
		if et.StrEq(iaNames[i]) {
			return iaEvent(i)
		}
	}
	return iaUnknown
}

func (e iaEvent) legacy() bool { return e >= iaLegacyStart }

// sniff: a candidates array, a promptFeedback or usageMetadata object is a
// GenerateContentResponse's alone; an event_type naming an Interactions
// event (without PC3's version key) is the Interactions API's. An error
// event or a bare {"error":{…}} object only keeps the dialect in the
// running.
func sniff(f *decode.Frame, foreign invariants.Keys) invariants.Verdict {
	if foreign.In(f) || f.Get("version") != nil {
		return invariants.No
	}
	if et := f.Get("event_type"); et != nil {
		switch iaEventOf(et) {
		case iaUnknown:
			return invariants.No
		case iaError:
			if f.Get("error").Kind() == decode.KindObject {
				return invariants.Maybe
			}
			return invariants.No
		}
		return invariants.Yes
	}
	switch {
	case f.Get("candidates").Kind() == decode.KindArray,
		f.Get("promptFeedback").Kind() == decode.KindObject,
		f.Get("usageMetadata").Kind() == decode.KindObject:
		return invariants.Yes
	}
	if e := f.Get("error"); e.Kind() == decode.KindObject && e.Get("status").Kind() == decode.KindString {
		return invariants.Maybe
	}
	return invariants.No
}

// label: an Interactions event's event_type; a generateContent chunk is
// "chunk" ("finish" when a candidate ends, "error", "blocked").
func label(f *decode.Frame) string {
	if et, ok := f.Get("event_type").Str(); ok {
		return et
	}
	switch {
	case f.Get("error") != nil && f.Get("candidates") == nil:
		return "error"
	case f.Get("promptFeedback").Get("blockReason") != nil:
		return "blocked"
	}
	cIt := f.Get("candidates").Elements()
	for c, ok := cIt.Next(); ok; c, ok = cIt.Next() {
		if c.Get("finishReason") != nil {
			return "finish"
		}
	}
	return "chunk"
}
