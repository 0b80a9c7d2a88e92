package pc3

import (
	"framescope/decode"
	"framescope/invariants"
)

// Typed views of the per-event payloads of the PC3 wire (docs/sources.md).
// Each reads the frame's members on demand, so frames the checker does not
// inspect cost nothing; the keys they read are slots of Keys (envelope.go).

// ToolCall is the `tool_call` object of tool_call, tool_completed and
// component frames.
type ToolCall struct {
	ID, Name, Type string
	// Valid is true when the object exists and id, name and type are all
	// non-empty strings.
	Valid bool
	// Present is true when the frame has a tool_call member at all.
	Present bool
}

// ToolCallOf reads the frame's tool_call object.
func ToolCallOf(f *decode.Frame) ToolCall {
	v := ToolCallViewOf(f)
	tc := ToolCall{Present: v.Present, Valid: v.Valid}
	tc.ID, _ = v.ID.NonEmptyStr()
	tc.Name, _ = v.Name.NonEmptyStr()
	tc.Type, _ = v.Type.NonEmptyStr()
	return tc
}

// ToolCallView is ToolCall without copies: ID, Name and Type are the raw
// members (nil when absent; read them with Str or StrBytes). The checker
// copies only the strings it keeps past the frame.
type ToolCallView struct {
	ID, Name, Type decode.Raw
	Valid, Present bool
}

// ToolCallViewOf reads the frame's tool_call object in one pass.
func ToolCallViewOf(f *decode.Frame) ToolCallView {
	raw := f.Value(Keys, keyToolCall)
	v := ToolCallView{Present: raw != nil}
	var m [3]decode.Raw
	toolCallNames.Pick(raw, m[:])
	v.ID, v.Name, v.Type = m[0], m[1], m[2]
	v.Valid = v.ID.IsNonEmptyStr() && v.Name.IsNonEmptyStr() && v.Type.IsNonEmptyStr()
	return v
}

// DataRef is the `data` object of data_loading / data_loaded frames.
type DataRef struct {
	Raw       decode.Raw // the whole data member (nil when absent)
	ID, Type  string
	HasID     bool // id is a non-empty string
	HasType   bool // type is a non-empty string
	Key       decode.Raw
	Items     decode.Raw // data_loaded only
	ItemCount int        // -1 when items is not an array
}

// DataRefOf reads the frame's data object.
func DataRefOf(f *decode.Frame) DataRef {
	v := DataViewOf(f)
	d := DataRef{Raw: v.Raw, Key: v.Key, Items: v.Items, ItemCount: v.ItemCount}
	d.ID, d.HasID = v.ID.NonEmptyStr()
	d.Type, d.HasType = v.Type.NonEmptyStr()
	return d
}

// DataView is DataRef without copies: ID and Type are the raw members.
type DataView struct {
	Raw, ID, Type, Key, Items decode.Raw
	ItemCount                 int // -1 when items is not an array
}

// DataViewOf reads the frame's data object in one pass.
func DataViewOf(f *decode.Frame) DataView {
	raw := f.Value(Keys, keyData)
	d := DataView{Raw: raw, ItemCount: -1}
	if raw.Kind() != decode.KindObject {
		return d
	}
	var m [4]decode.Raw
	dataNames.Pick(raw, m[:])
	d.ID, d.Type, d.Key, d.Items = m[0], m[1], m[2], m[3]
	d.ItemCount = d.Items.Len()
	return d
}

// Status is the `data` of a status frame (v0.5).
type Status struct {
	EventID, Message       string
	HasEventID, HasMessage bool // non-empty strings
}

// StatusOf reads a status frame's payload.
func StatusOf(f *decode.Frame) Status {
	id, msg := StatusViewOf(f)
	var s Status
	s.EventID, s.HasEventID = id.NonEmptyStr()
	s.Message, s.HasMessage = msg.NonEmptyStr()
	return s
}

// StatusViewOf is StatusOf without copies: the raw data.event_id and
// data.message members (nil when absent), read in one pass.
func StatusViewOf(f *decode.Frame) (eventID, message decode.Raw) {
	var m [2]decode.Raw
	statusNames.Pick(f.Value(Keys, keyData), m[:])
	return m[0], m[1]
}

// The members the views read: a tool call's, a data reference's, a
// status's.
var (
	toolCallNames = decode.Names("id", "name", "type")
	dataNames     = decode.Names("id", "type", "key", "items")
	statusNames   = decode.Names("event_id", "message")
)

// ErrorInfo is the payload of error and cancelled frames.
type ErrorInfo struct {
	Error   decode.Raw // the `error` member
	Code    string     // error.code when it is a string
	HasCode bool
	// IsFinal is the payload-level is_final (FR-17); HasIsFinal is false
	// when it is absent or not a boolean.
	IsFinal    bool
	HasIsFinal bool
}

// ErrorInfoOf reads an error or cancelled frame's payload.
func ErrorInfoOf(f *decode.Frame) ErrorInfo {
	e := ErrorInfo{Error: f.Value(Keys, keyError)}
	e.Code, e.HasCode = e.Error.Get("code").Str()
	e.IsFinal, e.HasIsFinal = f.Value(Keys, keyIsFinal).Bool()
	return e
}

// Chunk returns the `chunk` member of text/reasoning/component frames.
func Chunk(f *decode.Frame) decode.Raw { return f.Value(Keys, keyChunk) }

// Usage is the payload of a usage frame.
type Usage struct {
	Input, Output, Total, Reasoning, Cached decode.Raw
}

// UsageOf reads a usage frame's counts (raw, so the checker can judge them).
func UsageOf(f *decode.Frame) Usage {
	return Usage{
		Input:     f.Value(Keys, keyInputTokens),
		Output:    f.Value(Keys, keyOutputTokens),
		Total:     f.Value(Keys, keyTotalTokens),
		Reasoning: f.Value(Keys, keyReasoningTokens),
		Cached:    f.Value(Keys, keyCachedTokens),
	}
}

// Terminal classifies the frame per FR-9 / FR-17: completed and cancelled
// end the turn; an error ends it when is_final is true, when it is a v0.4
// frame (every v0.4 error is terminal), or when is_final is missing (a
// robust client falls back to the v0.4 reading).
func Terminal(f *decode.Frame) invariants.Terminality {
	if !f.Decoded() {
		return invariants.NotTerminal
	}
	switch Type(f) {
	case TypeCompleted:
		return invariants.TerminalCompleted
	case TypeCancelled:
		return invariants.TerminalCancelled
	case TypeError:
		if IsV04(f) {
			return invariants.TerminalError
		}
		final, ok := f.Value(Keys, keyIsFinal).Bool()
		if final || !ok {
			return invariants.TerminalError
		}
	}
	return invariants.NotTerminal
}
