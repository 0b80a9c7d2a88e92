package invariants

import "framescope/decode"

// MoveKind names a step on the common turn model (docs/dialects.md).
type MoveKind uint8

const (
	MoveNone      MoveKind = iota
	MoveTurnStart          // Turn opens; Key names it (may be nil)
	MoveTurnKey            // the open turn learns its key (e.g. a response id that arrives late)
	MoveTerminal           // the turn ends with Outcome; Name is the dialect's terminal event
	MoveCut                // the server cut the stream (go-bus stream_overflow): open turns end, nothing is owed
	MoveText               // a text delta: Key is the span (nil: the turn's text), Text the delta
	MoveReasoning          // a reasoning delta, as MoveText
	MoveSpanOpen           // Span opens: Key, Name
	MoveSpanClose          // Span closes: Key
	MoveToolOpen           // a tool call opens: Key is its id, Name its tool name
	MoveToolArgs           // a tool call's arguments grow: Key, Text
	MoveToolReady          // a tool call's input is complete; unanswered at a success terminal is legal (client-side tools)
	MoveToolClose          // a tool call ends: Key, Name (compared when set), Outcome
	MoveProgress           // a line a client shows while it waits: Text
	MoveError              // a non-terminal error: Code, Text
	MoveSeq                // the dialect's counter: Key is its scope, Seq its value
	MoveHeartbeat          // a keepalive frame
)

var moveNames = [...]string{"none", "turn-start", "turn-key", "terminal", "cut", "text", "reasoning",
	"span-open", "span-close", "tool-open", "tool-args", "tool-ready", "tool-close", "progress", "error", "seq", "heartbeat"}

func (k MoveKind) String() string {
	if int(k) < len(moveNames) {
		return moveNames[k]
	}
	return "?"
}

// SpanKind is what a span stands for.
type SpanKind uint8

const (
	SpanNone        SpanKind = iota
	SpanMessage              // a message (AG-UI TEXT_MESSAGE_*, go-bus messageId)
	SpanBlock                // a content block (Anthropic)
	SpanItem                 // an output item (OpenAI Responses, public-sse-v1)
	SpanPart                 // a content or text part inside an item
	SpanStep                 // a step (AG-UI STEP_*, AI SDK start-step)
	SpanStream               // a chunk stream (chunk-framed message_id)
	SpanModelCall            // a model call (go-bus model_started)
	SpanSkill                // a skill execution (go-bus)
	SpanElicitation          // a question to the user (go-bus)
	SpanPlaceholder          // a loading placeholder (PC3 data_loading)
	SpanReasoning            // a reasoning part or message
	SpanComponent            // a component rendered whole: it opens closed, and needs no SpanClose (PC3 component)
)

var spanNames = [...]string{"span", "message", "block", "item", "part", "step", "stream", "model call",
	"skill", "elicitation", "placeholder", "reasoning", "component"}

func (k SpanKind) String() string {
	if int(k) < len(spanNames) {
		return spanNames[k]
	}
	return "span"
}

// Move is one step a frame makes on the common turn model. Its Raw fields
// are JSON values (a string keeps its quotes) that alias the frame's
// buffers: they are valid only while the frame is, so mapping a frame
// allocates nothing. Consumers decode them with Raw.Str or AppendStr.
type Move struct {
	Kind MoveKind
	Span SpanKind
	// Outcome of a terminal or a tool close: one of Turn*.
	Outcome string
	// Key names the turn, span, tool call or sequence scope.
	Key decode.Raw
	// Name is a tool's or span's name, or the terminal event's name.
	Name decode.Raw
	// Text is a delta, a progress line or an error message.
	Text decode.Raw
	// Code is an error code.
	Code decode.Raw
	// Type is a tool call's type where the dialect gives one (PC3's
	// tool_call.type: function, mcp).
	Type decode.Raw
	// Items (MoveSpanClose of a SpanPlaceholder) is how many items filled
	// the placeholder (-1: its items are no array).
	Items int
	// Seq is the counter's value (MoveSeq); SeqFrom the value a scope must
	// start at (-1: any); SeqGap the severity of a skipped value ("": only
	// order is checked, gaps are legal).
	Seq     int64
	SeqFrom int64
	SeqGap  string
	// Final (MoveTerminal): the stream ends here without a [DONE] even in a
	// dialect that sends one (a mid-stream error object).
	Final bool
	// Late (MoveTerminal): the frame came after its turn closed, so the
	// turn keeps no terminal from it (PC3: a terminal after the turn's
	// [DONE] that repeats its response_id).
	Late bool
	// Carrier (MoveTerminal), when set, is one more than the index of the
	// earlier frame that carried the end: a dialect that settles the turn
	// later than the frame the client read it from (openai-chat's
	// finish_reason chunk, settled at [DONE]). 0: this frame carried it.
	Carrier int
}

// Lit returns a JSON string literal for a constant: mappers use it for keys
// and names that do not come from the frame.
func Lit(s string) decode.Raw { return decode.Raw(decode.AppendJSONString(nil, s)) }
