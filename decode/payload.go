package decode

import "strings"

// Typed views of the per-event payloads of the PC3 wire (docs/sources.md). Each reads the frame's
// members on demand, so frames the checker does not inspect cost nothing.

// Event types of the v0.5 vocabulary (a superset of v0.4).
const (
	TypeResponseID        = "response_id"
	TypeEpisode           = "episode"
	TypeThinking          = "thinking"
	TypeReasoning         = "reasoning"
	TypeText              = "text"
	TypeToolCall          = "tool_call"
	TypeToolCompleted     = "tool_completed"
	TypeDataLoading       = "data_loading"
	TypeDataLoaded        = "data_loaded"
	TypeComponent         = "component"
	TypeUsage             = "usage"
	TypeStatus            = "status"
	TypeError             = "error"
	TypeCompleted         = "completed"
	TypeCancelled         = "cancelled"
	TypeMCPListToolsStart = "mcp_list_tools_start"
	TypeMCPListToolsDone  = "mcp_list_tools_completed"
	TypeMCPSessionStart   = "mcp_session_start"
	TypeMCPSessionProg    = "mcp_session_progress"
	// TypeSupportContent is internal-only; it must never reach the wire.
	TypeSupportContent = "support_content"
)

// KnownType reports whether t is in the v0.5 wire vocabulary.
func KnownType(t string) bool {
	switch t {
	case TypeResponseID, TypeEpisode, TypeThinking, TypeReasoning, TypeText,
		TypeToolCall, TypeToolCompleted, TypeDataLoading, TypeDataLoaded,
		TypeComponent, TypeUsage, TypeStatus, TypeError, TypeCompleted,
		TypeCancelled, TypeMCPListToolsStart, TypeMCPListToolsDone,
		TypeMCPSessionStart, TypeMCPSessionProg:
		return true
	}
	return false
}

// IsMCPLifecycle reports the legacy MCP lifecycle types (mcp_*, deprecating
// in Phase 6).
func IsMCPLifecycle(t string) bool {
	return strings.HasPrefix(t, "mcp_")
}

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

// ToolCall reads the frame's tool_call object.
func (f *Frame) ToolCall() ToolCall {
	v := f.ToolCallView()
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
	ID, Name, Type Raw
	Valid, Present bool
}

// ToolCallView reads the frame's tool_call object in one pass.
func (f *Frame) ToolCallView() ToolCallView {
	raw := f.slotValue(slotToolCall)
	v := ToolCallView{Present: raw != nil}
	if raw.Kind() != KindObject {
		return v
	}
	_ = eachMember(raw, func(k []byte, kEsc bool, val Raw) bool {
		switch {
		case keyEquals(k, kEsc, "id"):
			v.ID = val
		case keyEquals(k, kEsc, "name"):
			v.Name = val
		case keyEquals(k, kEsc, "type"):
			v.Type = val
		}
		return true
	})
	v.Valid = v.ID.IsNonEmptyStr() && v.Name.IsNonEmptyStr() && v.Type.IsNonEmptyStr()
	return v
}

// DataRef is the `data` object of data_loading / data_loaded frames.
type DataRef struct {
	Raw       Raw // the whole data member (nil when absent)
	ID, Type  string
	HasID     bool // id is a non-empty string
	HasType   bool // type is a non-empty string
	Key       Raw
	Items     Raw // data_loaded only
	ItemCount int // -1 when items is not an array
}

// DataRef reads the frame's data object.
func (f *Frame) DataRef() DataRef {
	v := f.DataView()
	d := DataRef{Raw: v.Raw, Key: v.Key, Items: v.Items, ItemCount: v.ItemCount}
	d.ID, d.HasID = v.ID.NonEmptyStr()
	d.Type, d.HasType = v.Type.NonEmptyStr()
	return d
}

// DataView is DataRef without copies: ID and Type are the raw members.
type DataView struct {
	Raw, ID, Type, Key, Items Raw
	ItemCount                 int // -1 when items is not an array
}

// DataView reads the frame's data object in one pass.
func (f *Frame) DataView() DataView {
	raw := f.slotValue(slotData)
	d := DataView{Raw: raw, ItemCount: -1}
	if raw.Kind() != KindObject {
		return d
	}
	_ = eachMember(raw, func(k []byte, kEsc bool, v Raw) bool {
		switch {
		case keyEquals(k, kEsc, "id"):
			d.ID = v
		case keyEquals(k, kEsc, "type"):
			d.Type = v
		case keyEquals(k, kEsc, "key"):
			d.Key = v
		case keyEquals(k, kEsc, "items"):
			d.Items = v
		}
		return true
	})
	d.ItemCount = d.Items.Len()
	return d
}

// Status is the `data` of a status frame (v0.5).
type Status struct {
	EventID, Message       string
	HasEventID, HasMessage bool // non-empty strings
}

// Status reads a status frame's payload.
func (f *Frame) Status() Status {
	id, msg := f.StatusView()
	var s Status
	s.EventID, s.HasEventID = id.NonEmptyStr()
	s.Message, s.HasMessage = msg.NonEmptyStr()
	return s
}

// StatusView is Status without copies: the raw data.event_id and
// data.message members (nil when absent), read in one pass.
func (f *Frame) StatusView() (eventID, message Raw) {
	raw := f.slotValue(slotData)
	if raw.Kind() != KindObject {
		return nil, nil
	}
	_ = eachMember(raw, func(k []byte, kEsc bool, v Raw) bool {
		switch {
		case keyEquals(k, kEsc, "event_id"):
			eventID = v
		case keyEquals(k, kEsc, "message"):
			message = v
		}
		return true
	})
	return eventID, message
}

// ErrorInfo is the payload of error and cancelled frames.
type ErrorInfo struct {
	Error   Raw    // the `error` member
	Code    string // error.code when it is a string
	HasCode bool
	// IsFinal is the payload-level is_final (FR-17); HasIsFinal is false
	// when it is absent or not a boolean.
	IsFinal    bool
	HasIsFinal bool
}

// ErrorInfo reads an error or cancelled frame's payload.
func (f *Frame) ErrorInfo() ErrorInfo {
	e := ErrorInfo{Error: f.slotValue(slotError)}
	e.Code, e.HasCode = e.Error.Get("code").Str()
	e.IsFinal, e.HasIsFinal = f.slotValue(slotIsFinal).Bool()
	return e
}

// Chunk returns the `chunk` member of text/reasoning/component frames.
func (f *Frame) Chunk() Raw { return f.slotValue(slotChunk) }

// Usage is the payload of a usage frame.
type Usage struct {
	Input, Output, Total, Reasoning, Cached Raw
}

// Usage reads a usage frame's counts (raw, so the checker can judge them).
func (f *Frame) Usage() Usage {
	return Usage{
		Input:     f.slotValue(slotInputTokens),
		Output:    f.slotValue(slotOutputTokens),
		Total:     f.slotValue(slotTotalTokens),
		Reasoning: f.slotValue(slotReasoningTokens),
		Cached:    f.slotValue(slotCachedTokens),
	}
}

// Terminality says whether a frame ends its turn.
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

// Terminal classifies the frame per FR-9 / FR-17: completed and cancelled
// end the turn; an error ends it when is_final is true, when it is a v0.4
// frame (every v0.4 error is terminal), or when is_final is missing (a
// robust client falls back to the v0.4 reading).
func (f *Frame) Terminal() Terminality {
	if !f.Decoded() {
		return NotTerminal
	}
	switch f.Type() {
	case TypeCompleted:
		return TerminalCompleted
	case TypeCancelled:
		return TerminalCancelled
	case TypeError:
		if f.IsV04() {
			return TerminalError
		}
		final, ok := f.slotValue(slotIsFinal).Bool()
		if final || !ok {
			return TerminalError
		}
	}
	return NotTerminal
}
