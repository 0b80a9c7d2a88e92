// Package ollama is the ollama dialect: Ollama's native streaming API,
// POST /api/chat and POST /api/generate with "stream": true (the default).
//
// The wire is NDJSON (application/x-ndjson, docs/api.md "Streaming
// responses"): one JSON object per line, no SSE framing. framescope reads
// each line as one frame (a raw NDJSON body, a live NDJSON response), so
// the Engine sees the same frames it sees in an SSE stream. Every frame
// carries model and created_at; the partial ones have "done": false and a
// delta — /api/chat in message (content, thinking, tool_calls), /api/
// generate in response and thinking — and the last one has "done": true,
// done_reason and the timings (total_duration, eval_count…). An
// {"error": "…"} line ends the stream where the server failed: the SDKs
// (ollama-python _stream, ollama-js AbortableAsyncIterator) raise it.
//
// One stream is one turn, opened by its first frame and ended by the
// done frame. Ollama's OpenAI-compatible endpoint (/v1/chat/completions)
// is the openai-chat dialect, not this one.
package ollama

import (
	"embed"

	"framescope/decode"
	"framescope/invariants"
)

//go:embed demo_happy.sse demo_broken.sse
var demoFiles embed.FS

// Media types an Ollama stream is served as: application/x-ndjson
// (server/routes.go streamResponse); application/json when a client asked
// for "stream": false, which is one done frame and still a valid turn.
var contentTypes = []string{"application/x-ndjson", "application/json"}

// maxGoLine is the Go client's line bound, in decimal megabytes
// (format.MegaByte = 1000 * 1000), its line end included.
const maxGoLine = 8 * 1000 * 1000

// Dialect is ollama.
var Dialect = &invariants.Spec{
	ID:    "ollama",
	About: "Ollama native /api/chat and /api/generate: NDJSON lines with model, created_at and done, the last with done: true, done_reason and timings",
	Shape: invariants.Shape{
		Turns: invariants.TurnPerStream,
		// The final frame of /api/generate carries the whole context
		// (token ids) of the conversation: it grows with the chat (the
		// default context length is up to 256k tokens, envconfig
		// OLLAMA_CONTEXT_LENGTH: 262,144 ids of up to six digits and a
		// comma are 1.8 MB). ollama-python (ollama/_client.py: httpx
		// iter_lines) and ollama-js (src/utils.ts parseJSON) read a line
		// of any length; the Go client the ollama CLI runs does not.
		FrameLimits: []invariants.FrameLimit{{
			Over: maxGoLine - int64(len("\r\n")), Severity: invariants.SevWarn, Client: "ollama's Go client",
			Why: "(the ollama CLI's) reads lines of at most 8 MB (api/client.go: maxBufferSize = 8 * format.MegaByte, bufio.Scanner) and fails with bufio.ErrTooLong; ollama-python and ollama-js have no limit",
		}},
		ContentTypes: contentTypes,
	},
	Generic: invariants.Rules("frame-json", "event-unknown", "payload-malformed",
		"terminal-missing", "after-terminal",
		"tool-malformed", "tool-duplicate", "envelope-drift"),
	Own: []invariants.Rule{
		{Name: "error-midstream", Severity: invariants.SevError, Clause: "Ollama SDK",
			Summary: "an {\"error\": …} line after the stream began: ollama-python raises ResponseError and ollama-js throws mid-iteration, the partial answer is lost"},
		{Name: "done-reason", Severity: invariants.SevInfo, Clause: "Ollama API",
			Summary: "the done frame has no done_reason (servers before v0.1.3x) or one outside stop, length, load and unload: the turn is read as completed"},
		{Name: "tool-flood", Severity: invariants.SevWarn, Clause: "framescope",
			Summary: "more tool calls in one stream than framescope tracks (1024): the rest are not checked (said once)"},
	},
	Sources: map[string]string{
		"frame-size":        "Ollama SDK",
		"frame-json":        "Ollama SDK",
		"event-unknown":     "Ollama API",
		"payload-malformed": "Ollama SDK",
		"terminal-missing":  "Ollama API",
		"after-terminal":    "Ollama SDK",
		"tool-malformed":    "Ollama SDK",
		"tool-duplicate":    "Ollama API",
		"envelope-drift":    "Ollama API",
		"content-type":      "Ollama API",
	},
	Severities: map[string]invariants.Severity{"envelope-drift": invariants.SevWarn},
	// done and created_at are on every frame of both endpoints;
	// done_reason on the last. None is another dialect's envelope key.
	Keys:       []string{"done", "created_at", "done_reason"},
	SniffFrame: sniff,
	LabelOf:    label,
	RowLabelOf: carries,
	NewMapper:  newMapper,
	DemoFiles: invariants.DemoFiles{
		FS:          demoFiles,
		HappyAbout:  "an /api/chat turn: thinking, a whole tool call, text in lines, done: true with done_reason stop and timings",
		BrokenAbout: "the model changes mid-stream, a tool call without a name, an {\"error\"} line after text, a line after the end",
	},
}

// sniff: "done" as a boolean beside created_at, message or response is
// Ollama's signature; a lone {"error": "…"} string (Ollama's error line)
// only keeps the dialect in the running.
func sniff(f *decode.Frame, foreign invariants.Keys) invariants.Verdict {
	if foreign.In(f) {
		return invariants.No
	}
	if _, ok := f.Get("done").Bool(); ok {
		if f.Get("created_at").Kind() == decode.KindString || f.Get("message").Kind() == decode.KindObject ||
			f.Get("response").Kind() == decode.KindString {
			return invariants.Yes
		}
		return invariants.No
	}
	if f.Get("error").Kind() == decode.KindString && f.Get("model") == nil {
		return invariants.Maybe
	}
	return invariants.No
}

// label: "done" for the last frame, "error" for an error line,
// "tool_calls" for a frame that carries them, else "chat" (a message
// delta) or "generate" (a response delta).
func label(f *decode.Frame) string {
	if done, _ := f.Get("done").Bool(); done {
		return "done"
	}
	if f.Get("error") != nil && f.Get("done") == nil {
		return "error"
	}
	if msg := f.Get("message"); msg != nil {
		if msg.Get("tool_calls") != nil {
			return "tool_calls"
		}
		return "chat"
	}
	if f.Get("response") != nil {
		return "generate"
	}
	return ""
}
