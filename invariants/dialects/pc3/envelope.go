package pc3

import (
	"strings"

	"framescope/decode"
)

// PC3's envelope (FR-2) read from a decoded frame: event_type, version,
// timestamp and response_id, which every frame repeats. The checker, the
// client machine and the inspector read them on every frame, so PC3
// declares them — with the payload keys its views read (views.go) — as
// the key set the decoder indexes (Keys): each is then a slot of the
// frame, and the event type and version small interned numbers.

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

// typeNames is the vocabulary the index interns event types against.
var typeNames = [...]string{
	TypeResponseID, TypeEpisode, TypeThinking, TypeReasoning, TypeText,
	TypeToolCall, TypeToolCompleted, TypeDataLoading, TypeDataLoaded,
	TypeComponent, TypeUsage, TypeStatus, TypeError, TypeCompleted,
	TypeCancelled, TypeMCPListToolsStart, TypeMCPListToolsDone,
	TypeMCPSessionStart, TypeMCPSessionProg, TypeSupportContent,
}

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

// Positions of PC3's keys in Keys.
const (
	keyEventType = iota
	keyVersion
	keyTimestamp
	keyResponseID
	keyChunk
	keyToolCall
	keyData
	keyError
	keyIsFinal
	keyEpisodeID
	keyInputTokens
	keyOutputTokens
	keyTotalTokens
	keyReasoningTokens
	keyCachedTokens
)

// The version labels the index tells apart: Tag is 1 + the position.
const (
	tagV04 = 1 + iota
	tagV05
)

// Keys is PC3's declared key set: the envelope and the payload keys its
// views read, in the positions above. The registry hands it to every
// decoder (invariants.KeyIndexer).
var Keys = decode.NewKeys(
	decode.Key{Name: "event_type", Values: typeNames[:]},
	decode.Key{Name: "version", Values: []string{"0.4", "0.5"}},
	decode.Key{Name: "timestamp"},
	decode.Key{Name: "response_id"},
	decode.Key{Name: "chunk"},
	decode.Key{Name: "tool_call"},
	decode.Key{Name: "data"},
	decode.Key{Name: "error"},
	decode.Key{Name: "is_final"},
	decode.Key{Name: "episode_id"},
	decode.Key{Name: "input_tokens"},
	decode.Key{Name: "output_tokens"},
	decode.Key{Name: "total_tokens"},
	decode.Key{Name: "reasoning_tokens"},
	decode.Key{Name: "cached_tokens"},
)

// Excerpt is how an alarm's excerpt shortens a frame: its event_type
// first, the envelope left out (what differs from frame to frame stays).
// The report excerpts every dialect's frames so (another dialect's
// top-level timestamp or version is left out of its excerpts too), and
// the inspector PC3's rows (Wording.Summary).
var Excerpt = decode.Excerpt{Lead: "event_type", Omit: []string{"event_type", "version", "timestamp", "response_id"}}

// EventType is the frame's event_type member (nil when absent).
func EventType(f *decode.Frame) decode.Raw { return f.Value(Keys, keyEventType) }

// Version is the frame's version member (nil when absent).
func Version(f *decode.Frame) decode.Raw { return f.Value(Keys, keyVersion) }

// Timestamp is the frame's timestamp member (nil when absent).
func Timestamp(f *decode.Frame) decode.Raw { return f.Value(Keys, keyTimestamp) }

// ResponseID is the frame's response_id member (nil when absent).
func ResponseID(f *decode.Frame) decode.Raw { return f.Value(Keys, keyResponseID) }

// Type returns the frame's event_type when it is a string ("" otherwise):
// a constant of the vocabulary for the known types (no copy).
func Type(f *decode.Frame) string {
	if t := f.Tag(Keys, keyEventType); t != 0 {
		return typeNames[t-1]
	}
	r := EventType(f)
	if len(r) < 2 || r[0] != '"' {
		return ""
	}
	s, _ := r.Str()
	return s
}

// TypeIs reports whether the frame's event_type is the string name,
// without decoding it again when the index knows it.
func TypeIs(f *decode.Frame, name string) bool {
	if t := f.Tag(Keys, keyEventType); t != 0 {
		return typeNames[t-1] == name
	}
	if isTypeName(name) {
		return false // a vocabulary name would have been interned
	}
	return EventType(f).StrEq(name)
}

func isTypeName(name string) bool {
	for _, n := range typeNames {
		if n == name {
			return true
		}
	}
	return false
}

// VersionString returns the frame's version when it is a string.
func VersionString(f *decode.Frame) string {
	s, _ := Version(f).Str()
	return s
}

// RID returns the frame's response_id when it is a string.
func RID(f *decode.Frame) string {
	s, _ := ResponseID(f).Str()
	return s
}

// IsV04 reports whether the frame is labelled version "0.4"; every other
// frame follows v0.5 rules (v0.5 is the additive superset).
//
// The label is compared as a JSON string, escapes decoded ("0\u002e4" is
// "0.4" too), as every other string of the frame is.
func IsV04(f *decode.Frame) bool { return f.Tag(Keys, keyVersion) == tagV04 }

// IsV05 reports whether the frame is labelled version "0.5" (escapes
// decoded, as IsV04).
func IsV05(f *decode.Frame) bool { return f.Tag(Keys, keyVersion) == tagV05 }
