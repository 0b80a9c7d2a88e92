package gobus

import "framescope/decode"

// kind is what a bus event type does on the turn model.
type kind uint8

const (
	kUnknown kind = iota
	kTurnStarted
	kTurnCompleted
	kTurnFailed
	kTurnCanceled
	kTurnQueued
	kModelStarted
	kModelCompleted
	kTextDelta
	kReasoningDelta
	kToolCallDelta
	kError
	kNarration
	kAssistant
	kToolCallsPlanned
	kToolStarted
	kToolWaiting
	kToolCompleted
	kToolFailed
	kToolCanceled
	kElicitationRequested
	kElicitationResolved
	kSkillStarted
	kSkillCompleted
	kOverflow
	kQuiet // known, no move: item_completed, planner.*
	kConversation
)

type entry struct {
	name string
	kind kind
}

// vocabulary is the seed's EventType list, every value, plus
// "message_appended": the wire value of the deprecated alias that the
// reference reducer (sdk/canonical_reducer.go) still reduces like assistant.
var vocabulary = [...]entry{
	{"text_delta", kTextDelta},
	{"reasoning_delta", kReasoningDelta},
	{"tool_call_delta", kToolCallDelta},
	{"error", kError},
	{"control", kConversation},
	{"turn_started", kTurnStarted},
	{"turn_completed", kTurnCompleted},
	{"turn_failed", kTurnFailed},
	{"turn_canceled", kTurnCanceled},
	{"turn_queued", kTurnQueued},
	{"model_started", kModelStarted},
	{"model_completed", kModelCompleted},
	{"narration", kNarration},
	{"assistant", kAssistant},
	{"message_appended", kAssistant},
	{"tool_calls_planned", kToolCallsPlanned},
	{"tool_call_started", kToolStarted},
	{"tool_call_waiting", kToolWaiting},
	{"tool_call_completed", kToolCompleted},
	{"tool_call_failed", kToolFailed},
	{"tool_call_canceled", kToolCanceled},
	{"item_completed", kQuiet},
	{"usage", kConversation},
	{"elicitation_requested", kElicitationRequested},
	{"elicitation_resolved", kElicitationResolved},
	{"linked_conversation_attached", kConversation},
	{"skill_started", kSkillStarted},
	{"skill_completed", kSkillCompleted},
	{"skill_registry_updated", kConversation},
	{"intake.workspace.completed", kConversation},
	{"intake.workspace.failed", kConversation},
	{"planner.selected", kQuiet},
	{"planner.output", kQuiet},
	{"planner.validated", kQuiet},
	{"planner.failed", kQuiet},
	// Feeds are conversation state: the reducer's reduceFeedActive /
	// reduceFeedInactive update state-level feeds, not a turn.
	{"tool_feed_active", kConversation},
	{"tool_feed_inactive", kConversation},
	{"conversation_meta_updated", kConversation},
	{"stream_overflow", kOverflow},
}

// classify returns the kind of a JSON type value (kUnknown for anything
// outside the vocabulary, including a type that is not a string).
func classify(typ decode.Raw) kind {
	if typ.Kind() != decode.KindString {
		return kUnknown
	}
	for i := range vocabulary {
		if typ.StrEq(vocabulary[i].name) {
			return vocabulary[i].kind
		}
	}
	return kUnknown
}

// streamLevel: events about the conversation, not about one turn's work.
// The runtime stamps the current turnId on some of them (usage and meta
// updates go through NormalizeIdentity with the turn in context) and sends
// them around the turn's edges: control op=turn_started comes before
// turn_started, usage after turn_completed. They belong to the stream, so
// they neither open a turn (start-missing) nor come after its terminal.
func (k kind) streamLevel() bool {
	return k == kConversation || k == kTurnQueued || k == kOverflow
}
