package pc3

import (
	"sync"
	"time"
	"unicode/utf8"

	"framescope/decode"
	"framescope/invariants/machine"
)

// The reference client state machine: what a correct client of the PC3
// wire does with each frame and transport event. It is defined once, as
// data (the tables built below), for two profiles — the v0.5 client and the
// deployed v0.4 client — and read by the checker (client-divergence), the
// `framescope reference` renderers and the replay.
//
// The top-level machine walks a turn from the user's request to its end.
// While a turn is streaming, five orthogonal regions track what the bubble
// shows: the progress line, the text, each tool indicator, each component
// placeholder and the degraded flag. A row's guard is evaluated against the
// frame and the run's declared extended state (Context); the rows of a
// state are tried in table order and the first whose input and guard match
// wins (an "any frame" row matches every frame input but [DONE]). An input
// with no matching row is a protocol violation: the client ignores the
// frame and `framescope check` reports it.

// The machine's vocabulary is invariants/machine's (this room's names
// are aliases of it): the inspector and the replay read a run through
// machine.Run, which the dialect hands out (ClientMachine).

// Profile names a client implementation.
type Profile = machine.Profile

const (
	ProfileV05 Profile = "v0.5"
	ProfileV04 Profile = "v0.4"
)

// State is a state of the top-level machine or a sub-state of a region.
type State = machine.State

// Top-level states.
const (
	StIdle                 State = "idle"
	StConnecting           State = "connecting"
	StAwaitingFirstFrame   State = "awaiting_first_frame"
	StTurnOpen             State = "turn_open"
	StStreaming            State = "streaming"
	StCompleted            State = "completed"
	StFailed               State = "failed"
	StCancelled            State = "cancelled"
	StClosed               State = "closed"
	StEndedWithoutTerminal State = "ended_without_terminal"
	StHTTPFailed           State = "http_failed"
)

// Region sub-states.
const (
	SubNone         State = "none"
	SubThinking     State = "thinking"
	SubStatus       State = "status"
	SubToolsRunning State = "tools_running"
	SubEmpty        State = "empty"
	SubComposing    State = "composing"
	SubUnseen       State = "unseen"
	SubRunning      State = "running"
	SubDone         State = "done"
	SubLoading      State = "loading"
	SubLoaded       State = "loaded"
	SubIntact       State = "intact"
	SubDegraded     State = "degraded"
)

// StateKind groups the top-level states.
type StateKind = machine.StateKind

const (
	KindInitial  = machine.KindInitial
	KindWaiting  = machine.KindWaiting
	KindOpen     = machine.KindOpen
	KindTerminal = machine.KindTerminal
	KindClosed   = machine.KindClosed
	KindFailure  = machine.KindFailure
	KindSub      = machine.KindSub
)

// Input is what drives the machine: a frame (classified by its type) or a
// transport event.
type Input = machine.Input

// Frame inputs.
const (
	InResponseID    Input = "response_id"
	InEpisode       Input = "episode"
	InThinking      Input = "thinking"
	InReasoning     Input = "reasoning"
	InText          Input = "text"
	InToolCall      Input = "tool_call"
	InToolCompleted Input = "tool_completed"
	InDataLoading   Input = "data_loading"
	InDataLoaded    Input = "data_loaded"
	InComponent     Input = "component"
	InUsage         Input = "usage"
	InStatus        Input = "status"
	InError         Input = "error"
	InCompleted     Input = "completed"
	InCancelled     Input = "cancelled"
	InMCP           Input = "mcp_*"
	InDone          Input = "[DONE]"
	InUnknown       Input = "unknown"
	InUndecodable   Input = "undecodable"
	// InAnyFrame is the wildcard of a row: every frame input except [DONE].
	InAnyFrame Input = "any frame"
)

// Transport inputs (Input.IsFrameInput is false for them alone).
const (
	InConnect        = machine.InConnect
	InHTTPError      = machine.InHTTPError
	InFirstByte      = machine.InFirstByte
	InEOF            = machine.InEOF
	InTransportError = machine.InTransportError
	InUserCancel     = machine.InUserCancel
	InIdleTimer      = machine.InIdleTimer
)

// Guard names a condition a row needs besides its input. GuardNone always
// holds ("otherwise").
type Guard = machine.Guard

const (
	GuardNone                   = machine.GuardNone
	GuardIsFinalTrue      Guard = "is_final_true"
	GuardIsFinalFalse     Guard = "is_final_false"
	GuardIsFinalMissing   Guard = "is_final_missing"
	GuardV04Frame         Guard = "v04_frame"
	GuardV04CancelCode    Guard = "v04_cancel_code"
	GuardCancelCode       Guard = "cancel_code"
	GuardCodeIdleTimeout  Guard = "code_idle_timeout"
	GuardCodeReqCancelled Guard = "code_request_cancelled"
	GuardForeignRID       Guard = "foreign_response_id"
	GuardNoRID            Guard = "no_response_id"
	GuardClientGone       Guard = "client_disconnected"
	GuardNewTurn          Guard = "new_turn"
	GuardAfterDone        Guard = "after_done"
	GuardDoneRepeat       Guard = "done_repeat"
	GuardChunkString      Guard = "chunk_string"
	GuardChunkPresent     Guard = "chunk_present"
	GuardChunkNull        Guard = "chunk_null"
	GuardItemsArray       Guard = "items_array"
	GuardToolOthers       Guard = "tool_others_running"
	GuardToolLast         Guard = "tool_last"
	GuardToolNotRunning   Guard = "tool_not_running"
)

// Action is what the client does when it takes a row.
type Action = machine.Action

const (
	ActStartRequest       Action = "start_request"
	ActShowPending        Action = "show_pending"
	ActBindTurn           Action = "bind_turn"
	ActDispatch                  = machine.ActDispatch
	ActRecordTelemetry    Action = "record_telemetry"
	ActMarkDegraded       Action = "mark_degraded"
	ActShowThinking       Action = "show_thinking"
	ActShowStatus         Action = "show_status"
	ActShowTools          Action = "show_tools_running"
	ActHideProgress       Action = "hide_progress"
	ActKeep               Action = "keep"
	ActAppendText         Action = "append_text"
	ActRenderComponent    Action = "render_component"
	ActOpenTool           Action = "open_tool_indicator"
	ActCloseTool          Action = "close_tool_indicator"
	ActRenderSkeleton     Action = "render_skeleton"
	ActReplaceWithCards   Action = "replace_with_cards"
	ActRenderCards        Action = "render_cards"
	ActEndCompleted       Action = "end_turn_completed"
	ActEndFailed          Action = "end_turn_failed"
	ActEndCancelled       Action = "end_turn_cancelled"
	ActUserCancel         Action = "cancel_turn_by_user"
	ActIdleDisconnect     Action = "give_up_idle"
	ActShowConnectionLost Action = "show_connection_lost"
	ActShowHTTPFailure    Action = "show_http_failure"
	ActCloseTurn          Action = "close_turn"
	ActStartNextTurn      Action = "start_next_turn"
	ActDropEmptyTurn      Action = "drop_empty_turn"
	ActIgnore             Action = "ignore"
)

// StateInfo describes a state or a region's sub-state.
type StateInfo = machine.StateInfo

// InputInfo describes an input.
type InputInfo struct {
	ID        Input  `json:"id"`
	Transport bool   `json:"transport"`
	About     string `json:"about"`
}

// GuardInfo describes a guard.
type GuardInfo struct {
	ID    Guard  `json:"id"`
	About string `json:"about"`
}

// ActionInfo describes an action.
type ActionInfo struct {
	ID    Action `json:"id"`
	About string `json:"about"`
}

// ContextVar is one variable of the machine's declared extended state (the
// "context" of a statechart, the TCB of a TCP connection): what a client
// must remember besides its state for the guards to be decidable. Every
// guard is defined over the frame and these variables only.
type ContextVar struct {
	Name    string `json:"name"`
	Type    string `json:"type"`
	Initial string `json:"initial"`
	// Set and Reset say which inputs or actions change it.
	Set   string `json:"set"`
	Reset string `json:"reset"`
	About string `json:"about"`
}

// DefaultClientIdle is the reference client's idle timer: how long an open
// turn may go without a frame before the client gives up. NFR-6 leaves the
// relay's own idle window to operations ("Target window: operational
// tuning, not a hard contract"); the client's backstop must be longer than
// it, so that a relay keeping NFR-6 always sends cancelled IDLE_TIMEOUT
// first. framescope's idle-gap rule assumes a 30 s relay window; the
// reference client waits twice that.
const DefaultClientIdle = 60 * time.Second

// Transition is one row of a table: in state From, on Input when Guard
// holds, go to To doing Action (machine.Transition).
type Transition = machine.Transition

// Forbidden documents an input a region has no row for: the frame is a
// protocol violation (the client ignores it) and the checker raises Rule.
type Forbidden struct {
	// From is the sub-state ("" = any); NoKey marks the case of a frame
	// without the region's key (tool_call.id / data.id).
	From  State  `json:"from,omitempty"`
	Input Input  `json:"input"`
	NoKey bool   `json:"no_key,omitempty"`
	Rule  string `json:"rule"`
	Why   string `json:"why"`
}

// Region is an orthogonal region of the streaming state. A keyed region
// keeps one sub-state per key (a tool_call.id, a data.id).
type Region struct {
	Name        string       `json:"name"`
	Key         string       `json:"key,omitempty"`
	About       string       `json:"about"`
	Initial     State        `json:"initial"`
	States      []StateInfo  `json:"states"`
	Owns        []Input      `json:"owns"`
	Transitions []Transition `json:"transitions"`
	Forbidden   []Forbidden  `json:"forbidden,omitempty"`
}

// Machine is one profile's client state machine.
type Machine struct {
	Profile     Profile      `json:"profile"`
	About       string       `json:"about"`
	Initial     State        `json:"initial"`
	States      []StateInfo  `json:"states"`
	Inputs      []InputInfo  `json:"inputs"`
	Guards      []GuardInfo  `json:"guards"`
	Actions     []ActionInfo `json:"actions"`
	Context     []ContextVar `json:"context"`
	Transitions []Transition `json:"transitions"`
	Regions     []Region     `json:"regions"`

	// index lists, per state and input, the rows written for exactly that
	// input; order lists every row an input can take (its own rows and the
	// "any frame" rows), in table order — the order rows are tried in.
	index map[State]map[Input][]int
	order map[State]map[Input][]int
}

// The two profiles' machines, built on first use (not at every start of
// framescope: building them is most of PC3's init time).
var (
	ClientV05 = sync.OnceValue(func() *Machine { return buildMachine(ProfileV05) })
	ClientV04 = sync.OnceValue(func() *Machine { return buildMachine(ProfileV04) })
)

// MachineFor returns a profile's machine (nil for an unknown profile).
func MachineFor(p Profile) *Machine {
	switch p {
	case ProfileV05:
		return ClientV05()
	case ProfileV04:
		return ClientV04()
	}
	return nil
}

// Profiles lists the profiles, v0.5 first.
func Profiles() []Profile { return []Profile{ProfileV05, ProfileV04} }

// StateInfo returns the description of a top-level state.
func (m *Machine) StateInfo(s State) (StateInfo, bool) {
	for _, si := range m.States {
		if si.ID == s {
			return si, true
		}
	}
	return StateInfo{}, false
}

// IsTerminal reports the terminal states (completed, failed, cancelled).
func IsTerminal(s State) bool {
	return s == StCompleted || s == StFailed || s == StCancelled
}

// IsFinished reports every state in which the turn's outcome is decided.
func IsFinished(s State) bool {
	switch s {
	case StCompleted, StFailed, StCancelled, StClosed, StEndedWithoutTerminal, StHTTPFailed:
		return true
	}
	return false
}

// TransitionsFrom returns the top-level rows from s in the order they are
// tried (table order).
func (m *Machine) TransitionsFrom(s State) []Transition {
	var out []Transition
	for _, t := range m.Transitions {
		if t.From == s {
			out = append(out, t)
		}
	}
	return out
}

// Matches reports whether a row written for input rowIn is tried for in.
func Matches(rowIn, in Input) bool {
	return rowIn == in || (rowIn == InAnyFrame && in.IsFrameInput() && in != InDone && in != InAnyFrame)
}

// ClassifyFrame maps a frame to its input.
func ClassifyFrame(f *decode.Frame) Input {
	if f.Done {
		return InDone
	}
	if !f.Decoded() {
		return InUndecodable
	}
	switch t := Type(f); t {
	case TypeResponseID:
		return InResponseID
	case TypeEpisode:
		return InEpisode
	case TypeThinking:
		return InThinking
	case TypeReasoning:
		return InReasoning
	case TypeText:
		return InText
	case TypeToolCall:
		return InToolCall
	case TypeToolCompleted:
		return InToolCompleted
	case TypeDataLoading:
		return InDataLoading
	case TypeDataLoaded:
		return InDataLoaded
	case TypeComponent:
		return InComponent
	case TypeUsage:
		return InUsage
	case TypeStatus:
		return InStatus
	case TypeError:
		return InError
	case TypeCompleted:
		return InCompleted
	case TypeCancelled:
		return InCancelled
	default:
		if IsMCPLifecycle(t) {
			return InMCP
		}
		return InUnknown
	}
}

// ---------------------------------------------------------------------------
// The tables.

var stateInfos = []StateInfo{
	{ID: StIdle, Kind: KindInitial, About: "No request is in flight for this conversation turn. Sending the user's message (connect) starts one request, which carries one turn."},
	{ID: StConnecting, Kind: KindWaiting, About: "The request is sent and the client waits for the HTTP response headers. The user's message shows as sent, next to a new assistant bubble with the typing indicator."},
	{ID: StAwaitingFirstFrame, Kind: KindWaiting, About: "A 2xx text/event-stream response began, but no frame has arrived yet. The bubble keeps its typing indicator; NFR-1 expects this wait to be short."},
	{ID: StTurnOpen, Kind: KindOpen, About: "The response_id frame bound the bubble to the turn's response_id (§5.5). Nothing has been rendered into the bubble yet; episode and usage frames are only recorded."},
	{ID: StStreaming, Kind: KindOpen, About: "The turn is open and the bubble is being filled. Five orthogonal regions (below) track the progress line, the text, each tool indicator, each component placeholder and the degraded flag."},
	{ID: StCompleted, Kind: KindTerminal, About: "The completed frame ended the turn successfully (FR-9). The bubble is final and settled as every ended turn is (see Ending a turn): no progress line, running tool indicators stopped, unfilled skeletons unavailable."},
	{ID: StFailed, Kind: KindTerminal, About: "A terminal error ended the turn: is_final true, is_final missing (the robust reading), or any error for a v0.4 client. Show a generic failure with retry and keep the text so far; never show the error code (FR-8)."},
	{ID: StCancelled, Kind: KindTerminal, About: "The turn was cancelled: a cancelled frame (IDLE_TIMEOUT from the relay, REQUEST_CANCELLED) or the user's own cancel, after which the client has disconnected. Show it as stopped, not as a failure (§5.6); offer retry after IDLE_TIMEOUT."},
	{ID: StClosed, Kind: KindClosed, About: "[DONE] followed the terminal frame, so the transport is done with this turn (FR-9). The outcome stays as it was; only a frame with a new response_id (a capture holding the next request) starts another bubble."},
	{ID: StEndedWithoutTerminal, Kind: KindFailure, About: "The stream ended (EOF, transport error, [DONE]) or the client's own idle timer fired before any terminal frame. Show \"connection lost\" with retry: the outcome is unknown, so never present it as success (FR-9)."},
	{ID: StHTTPFailed, Kind: KindFailure, About: "The response status was not 2xx, so there is no turn stream at all. Show a failure with retry and do not parse the body as frames."},
}

var inputInfos = []InputInfo{
	{InResponseID, false, "the response_id frame: opens the turn, exactly once (§5.5)"},
	{InEpisode, false, "episode frame (episode_id)"},
	{InThinking, false, "thinking frame: pre-content indicator, clients MAY ignore it"},
	{InReasoning, false, "reasoning frame (chunk): model reasoning, not answer text"},
	{InText, false, "text frame (chunk): the orchestrator-composed answer"},
	{InToolCall, false, "tool_call frame: a tool invocation begins (tool_call.id, name, type)"},
	{InToolCompleted, false, "tool_completed frame: the invocation with that tool_call.id ends"},
	{InDataLoading, false, "data_loading frame: a placeholder for data.id"},
	{InDataLoaded, false, "data_loaded frame: the items for data.id"},
	{InComponent, false, "component frame (chunk + tool_call): a UI component from the render_* path"},
	{InUsage, false, "usage frame: token counts"},
	{InStatus, false, "status frame (data.event_id + data.message): new in v0.5"},
	{InError, false, "error frame (error.code, is_final)"},
	{InCompleted, false, "completed frame: the successful terminal"},
	{InCancelled, false, "cancelled frame (error.code IDLE_TIMEOUT or REQUEST_CANCELLED): new in v0.5"},
	{InMCP, false, "a frame whose event_type starts with mcp_: the legacy MCP lifecycle frames (deprecating, Phase 6)"},
	{InDone, false, "the sentinel: a frame whose data is exactly [DONE] (not JSON)"},
	{InUnknown, false, "a JSON-object frame whose event_type is not in the vocabulary, missing, or not a string"},
	{InUndecodable, false, "a frame whose data is not a JSON object (not JSON, another JSON value, or larger than the client's frame limit)"},
	{InAnyFrame, false, "wildcard in a row: every frame input except [DONE]"},
	{InConnect, true, "the client sends the request (the user's message, or a retry): always a new request and a new turn"},
	{InHTTPError, true, "the response status is not 2xx"},
	{InFirstByte, true, "a 2xx response's body begins"},
	{InEOF, true, "the server closed the stream"},
	{InTransportError, true, "the connection broke"},
	{InUserCancel, true, "the user cancels: the client closes the connection (§5.6 client-initiated path)"},
	{InIdleTimer, true, "the client's own idle timer fired: no frame for its idle window (60 s unless configured) while the turn was open; a backstop FR-9 says clients must not need"},
}

// guardInfos define every guard over the frame f and the context
// variables (contextVars). rid(f) is f.response_id when the frame is a
// JSON object whose response_id is a non-empty string, else none.
var guardInfos = []GuardInfo{
	{GuardIsFinalTrue, "f.is_final is the JSON boolean true"},
	{GuardIsFinalFalse, "f.is_final is the JSON boolean false"},
	{GuardIsFinalMissing, "f.is_final is absent or not a boolean (null, \"false\", 0 all count as missing)"},
	{GuardV04Frame, "f.version is the string \"0.4\" exactly (v0.4 rules apply to the frame)"},
	{GuardV04CancelCode, "f.version is \"0.4\" and f.error.code is \"IDLE_TIMEOUT\" or \"REQUEST_CANCELLED\""},
	{GuardCancelCode, "f.error.code is \"IDLE_TIMEOUT\" or \"REQUEST_CANCELLED\""},
	{GuardCodeIdleTimeout, "f.error.code is \"IDLE_TIMEOUT\""},
	{GuardCodeReqCancelled, "f.error.code is \"REQUEST_CANCELLED\""},
	{GuardForeignRID, "rid(f) ≠ none, bound_response_id ≠ none and rid(f) ≠ bound_response_id: the frame names another turn"},
	{GuardNoRID, "rid(f) = none: the frame is undecodable or its response_id is absent, empty or not a string"},
	{GuardClientGone, "client_disconnected: the client itself closed the connection (user_cancel, idle_timer), so no frame can reach it"},
	{GuardNewTurn, "done_seen and rid(f) ≠ none and rid(f) ≠ bound_response_id (bound_response_id = none counts as different)"},
	{GuardAfterDone, "done_seen"},
	{GuardDoneRepeat, "done_seen and not last_was_done: a [DONE] after late frames of a turn [DONE] already closed"},
	{GuardChunkString, "f.chunk is a JSON string (the empty string included)"},
	{GuardChunkPresent, "f.chunk is present and not null"},
	{GuardChunkNull, "f.chunk is null"},
	{GuardItemsArray, "f.data.items is a JSON array"},
	{GuardToolOthers, "tools[f.tool_call.id] = running and running_tools > 1"},
	{GuardToolLast, "tools[f.tool_call.id] = running and running_tools = 1"},
	{GuardToolNotRunning, "tools[f.tool_call.id] ≠ running (a repeated completion)"},
}

var actionInfos = []ActionInfo{
	{ActStartRequest, "send the request; show the user's message as sent and a new, empty assistant bubble with the typing indicator; reset every context variable of the turn (a retry or the next message starts here too)"},
	{ActShowPending, "keep the typing indicator while the first frame is awaited"},
	{ActBindTurn, "bind the bubble to the frame's response_id (bound_response_id)"},
	{ActDispatch, "hand the frame to the streaming regions (entering streaming, every region starts in its initial sub-state)"},
	{ActRecordTelemetry, "record the frame for analytics; show nothing"},
	{ActMarkDegraded, "record the error for telemetry and mark the turn degraded; show no code (the apology arrives as text, FR-8)"},
	{ActShowThinking, "show the thinking indicator as the progress line"},
	{ActShowStatus, "show data.message as the progress line, replacing whatever it showed (data.event_id may pick an icon)"},
	{ActShowTools, "show \"N tools running\" as the progress line (N = running_tools)"},
	{ActHideProgress, "hide the progress line (the tool indicators themselves stay as they are)"},
	{ActKeep, "nothing changes on screen"},
	{ActAppendText, "append the chunk to the bubble's text"},
	{ActRenderComponent, "render the component chunk as a card in the bubble"},
	{ActOpenTool, "open an indicator for tool_call.id (name, type), running"},
	{ActCloseTool, "mark the indicator of tool_call.id done"},
	{ActRenderSkeleton, "render a skeleton placeholder for data.id"},
	{ActReplaceWithCards, "replace data.id's skeleton (or cards) with cards built from data.items"},
	{ActRenderCards, "render cards for data.id from data.items without a placeholder"},
	{ActEndCompleted, "end the turn as completed and settle the bubble (see Ending a turn)"},
	{ActEndFailed, "end the turn as failed: keep the text so far, show a generic failure with retry, never the error code; settle the bubble (see Ending a turn)"},
	{ActEndCancelled, "end the turn as cancelled: keep the text so far, show it as stopped (after IDLE_TIMEOUT: took too long, retry); settle the bubble (see Ending a turn)"},
	{ActUserCancel, "the user stopped the turn: close the connection (client_disconnected; frames still in flight never reach the client), end the turn as cancelled by the user and settle the bubble"},
	{ActIdleDisconnect, "the idle timer fired: close the connection (client_disconnected; a late terminal is never seen), end the turn as \"connection lost\" with retry and settle the bubble"},
	{ActShowConnectionLost, "end the turn as \"connection lost\" with retry; keep the text so far; settle the bubble (see Ending a turn)"},
	{ActShowHTTPFailure, "show the request as failed with retry"},
	{ActCloseTurn, "close the transport for this turn (done_seen); the outcome stays"},
	{ActStartNextTurn, "start a new bubble for the next turn (reset the turn's context), then read the same frame again from awaiting_first_frame"},
	{ActDropEmptyTurn, "a [DONE] right after [DONE]: show nothing (the view keeps its response_id, turn and outcome), set bound_response_id to none, so the next frame naming any response_id starts a new turn"},
	{ActIgnore, "drop the frame; nothing changes"},
}

// contextVars is the machine's declared extended state. A client that keeps
// these (and its state) can decide every guard.
var contextVars = []ContextVar{
	{"turn", "integer", "0", "start_request, start_next_turn: +1", "never", "the bubble's number on this conversation; each turn has its own bubble"},
	{"bound_response_id", "string or none", "none", "bind_turn; otherwise, while it is none, every frame with rid(f) ≠ none, in every state and whatever its type or row (an ignored frame, a violation, a late frame after the terminal included); the view's response_id shows a binding made by a frame of the open turn (its terminal frame included), not one made after the turn ended", "start_request, start_next_turn, drop_empty_turn", "the turn's response_id. The response_id frame binds it; a turn that opens without one binds to the first frame that names a response_id, as framescope check does, so that frame's response_id after [DONE] is this turn's, not a new turn"},
	{"done_seen", "boolean", "false", "every [DONE] frame, one before any terminal included", "start_request, start_next_turn", "a [DONE] has arrived in this turn (the transport is done with it). Not the view's done: that is close_turn's ([DONE] after the terminal), so an early [DONE] sets done_seen and leaves done false"},
	{"last_was_done", "boolean", "false", "every frame: true for [DONE], false for any other", "start_request, start_next_turn", "the previous frame was [DONE] (tells a second sentinel from a repeated one)"},
	{"client_disconnected", "boolean", "false", "cancel_turn_by_user, give_up_idle", "start_request, start_next_turn", "the client closed the connection itself; later frames (a capture still shows them) never reach it"},
	{"cancel_cause", "string or none", "none", "end_turn_cancelled: f.error.code (\"no code\" when it is missing, empty or not a string); cancel_turn_by_user: client", "start_request, start_next_turn", "why the turn was cancelled; picks the words of the cancelled outcome"},
	{"idle_deadline", "time", "unset", "first_byte and every frame while the turn is open: now + the idle window (60 s default)", "a terminal frame, [DONE], eof, transport_error, user_cancel (the timer stops)", "when idle_timer fires; reset by frames only, not by SSE comments (see Transport)"},
	{"progress", "sub-state", "none", "the progress region's rows", "start_request, start_next_turn", "what the one-line progress indicator shows"},
	{"status_line", "string and event_id, or none", "none", "show_status: f.data.message and f.data.event_id", "whenever progress leaves status; start_request, start_next_turn", "the status message the progress line shows while progress is status"},
	{"content", "sub-state", "empty", "the content region's rows", "start_request, start_next_turn", "empty until the first text chunk or component card"},
	{"tools", "map tool_call.id → sub-state", "every id unseen", "the tools region's rows", "start_request, start_next_turn", "one indicator per id, in arrival order"},
	{"running_tools", "integer", "0", "tool_call → running: +1; running → done: -1; the view shows 0 once the turn ended (its tools are stopped)", "start_request, start_next_turn", "the number of ids in running"},
	{"components", "map data.id → sub-state", "every id unseen", "the components region's rows", "start_request, start_next_turn", "one placeholder per id, in arrival order"},
	{"degraded", "sub-state", "intact", "the degraded region's rows", "start_request, start_next_turn", "a recoverable error happened in this turn"},
}

var allFrameInputs = []Input{
	InResponseID, InEpisode, InThinking, InReasoning, InText, InToolCall, InToolCompleted,
	InDataLoading, InDataLoaded, InComponent, InUsage, InStatus, InError, InCompleted,
	InCancelled, InMCP, InDone, InUnknown, InUndecodable,
}

// contentInputs are handed to the regions (and open streaming).
var contentInputs = []Input{InThinking, InReasoning, InText, InToolCall, InToolCompleted, InDataLoading, InDataLoaded, InComponent}

func row(from State, in Input, g Guard, to State, a Action, clause, why string, checker ...string) Transition {
	return Transition{From: from, Input: in, Guard: g, To: to, Action: a, Clause: clause, Why: why, Checker: checker}
}

// openFrameRows are the frame rows of an open turn (turn_open or streaming).
// Rows that keep the bubble as it is stay in from; rows that render go to
// streaming.
func openFrameRows(p Profile, from State) []Transition {
	var rs []Transition
	add := func(ts ...Transition) { rs = append(rs, ts...) }
	// First: a frame that names another turn belongs to no open turn, so it
	// is tried before any row that would read it into this one.
	add(row(from, InAnyFrame, GuardForeignRID, from, ActIgnore, "FR-2", "the frame carries another turn's response_id: it neither joins nor ends this turn (every frame of a turn carries the same response_id)", "envelope-drift"))
	add(row(from, InResponseID, GuardNone, from, ActIgnore, "§5.5", "the bubble is already bound; response_id comes exactly once, at turn open", "response-id-frame"))
	add(row(from, InEpisode, GuardNone, from, ActRecordTelemetry, "§5.5", "episode_id is metadata for analytics; nothing to show"))
	for _, in := range contentInputs {
		var clause, why string
		switch in {
		case InThinking:
			clause, why = "§5.5", "the model is working before any content (clients MAY ignore thinking)"
		case InReasoning:
			clause, why = "§5.5", "model reasoning is not answer text; it only drives the thinking indicator"
		case InText:
			clause, why = "FR-6, FR-8", "the orchestrator-composed answer, apologies included"
		case InToolCall:
			clause, why = "FR-15", "a tool invocation begins"
		case InToolCompleted:
			clause, why = "FR-15, AC-9", "the invocation with that tool_call.id ends"
		case InDataLoading:
			clause, why = "FR-16, AC-8", "a component placeholder for data.id"
		case InDataLoaded:
			clause, why = "FR-16, AC-8", "the items for data.id's placeholder"
		case InComponent:
			clause, why = "FR-10", "a UI component from the render_* tool path"
		}
		add(row(from, in, GuardNone, StStreaming, ActDispatch, clause, why))
	}
	add(row(from, InUsage, GuardNone, from, ActRecordTelemetry, "§5.5", "token usage is accounting; nothing to show"))
	if p == ProfileV05 {
		add(row(from, InStatus, GuardNone, StStreaming, ActDispatch, "FR-3, AC-1", "a typed status event rendered server-side: show its message as the progress line", "client-divergence"))
	} else {
		add(row(from, InStatus, GuardNone, from, ActIgnore, "FR-12, AC-7", "status is new in v0.5: a v0.4 client ignores it as an unknown type"))
	}
	add(errorRows(p, from)...)
	add(row(from, InCompleted, GuardNone, StCompleted, ActEndCompleted, "FR-9", "the authoritative end of a successful turn"))
	if p == ProfileV05 {
		add(row(from, InCancelled, GuardCodeIdleTimeout, StCancelled, ActEndCancelled, "FR-13, NFR-6, §5.6", "the relay's idle timeout ended the turn; offer retry", "client-divergence"))
		add(row(from, InCancelled, GuardCodeReqCancelled, StCancelled, ActEndCancelled, "FR-13, §5.6", "the request was cancelled (client disconnect or cancel hook)", "client-divergence"))
		add(row(from, InCancelled, GuardNone, StCancelled, ActEndCancelled, "FR-13", "a cancelled frame ends the turn even when its cause is missing or unknown", "cancel-code", "client-divergence"))
	} else {
		add(row(from, InCancelled, GuardNone, from, ActIgnore, "FR-12, R-8", "cancelled is new in v0.5: a v0.4 client ignores it as an unknown type, and the turn then ends without a terminal"))
	}
	add(row(from, InMCP, GuardNone, from, ActIgnore, "§5.5, Phase 6", "a legacy MCP lifecycle frame, deprecating; nothing to show", "event-deprecated"))
	add(row(from, InUnknown, GuardNone, from, ActIgnore, "FR-12, AC-7", "unknown event types are ignored, never a protocol error", "event-unknown"))
	add(row(from, InUndecodable, GuardNone, from, ActIgnore, "§5.5", "data that is not a JSON object cannot be read; skip it and keep the turn", "frame-json"))
	add(row(from, InDone, GuardNone, StEndedWithoutTerminal, ActShowConnectionLost, "FR-9, AC-4", "[DONE] without a terminal frame: the turn never ended properly; never read the sentinel as success", "done-early", "terminal-missing"))
	return rs
}

func errorRows(p Profile, from State) []Transition {
	if p == ProfileV04 {
		return []Transition{
			row(from, InError, GuardCancelCode, StCancelled, ActEndCancelled, "§5.6", "v0.4 says cancelled with an error carrying IDLE_TIMEOUT or REQUEST_CANCELLED"),
			row(from, InError, GuardNone, StFailed, ActEndFailed, "AC-12, §5.10", "a v0.4 client treats every error as terminal and closes on the first one, whatever is_final says"),
		}
	}
	return []Transition{
		row(from, InError, GuardV04CancelCode, StCancelled, ActEndCancelled, "§5.6", "a v0.4 frame: an error with IDLE_TIMEOUT or REQUEST_CANCELLED is how v0.4 said cancelled"),
		row(from, InError, GuardV04Frame, StFailed, ActEndFailed, "AC-12", "a v0.4 frame: every v0.4 error is terminal"),
		row(from, InError, GuardIsFinalFalse, StStreaming, ActDispatch, "FR-17, AC-3, AC-11, AC-12", "a recoverable error (Axis 2 / 3): record it for telemetry and keep reading; the apology arrives as text", "client-divergence"),
		row(from, InError, GuardCancelCode, StCancelled, ActEndCancelled, "§5.6", "v0.5 cancels with a cancelled frame, but the legacy code still means cancelled", "error-legacy-cancel"),
		row(from, InError, GuardIsFinalTrue, StFailed, ActEndFailed, "FR-17, AC-11", "a terminal error (Axis 1): nothing follows it"),
		row(from, InError, GuardIsFinalMissing, StFailed, ActEndFailed, "FR-17", "without a boolean is_final the robust reading is the v0.4 one: terminal", "error-is-final"),
	}
}

// openTransportRows are the transport rows of a turn that has not ended.
func openTransportRows(from State) []Transition {
	return []Transition{
		row(from, InEOF, GuardNone, StEndedWithoutTerminal, ActShowConnectionLost, "FR-9", "the stream closed before a terminal frame: the outcome is unknown", "terminal-missing"),
		row(from, InTransportError, GuardNone, StEndedWithoutTerminal, ActShowConnectionLost, "FR-9", "the connection broke before a terminal frame: the outcome is unknown", "terminal-missing"),
		row(from, InUserCancel, GuardNone, StCancelled, ActUserCancel, "§5.6, FR-13, AC-6", "the user stopped the turn; the client disconnects, so the relay's cancelled frame may never reach it", "terminal-missing"),
		row(from, InIdleTimer, GuardNone, StEndedWithoutTerminal, ActIdleDisconnect, "NFR-6, FR-9", "the client's backstop: a relay keeping NFR-6 would have sent cancelled IDLE_TIMEOUT first; the client disconnects and never sees a late terminal"),
	}
}

func terminalRows(p Profile, s State) []Transition {
	var rs []Transition
	if s == StCancelled {
		rs = append(rs,
			row(s, InDone, GuardClientGone, s, ActIgnore, "§5.6", "the client disconnected when the user cancelled: the sentinel never reaches it"),
			row(s, InAnyFrame, GuardClientGone, s, ActIgnore, "§5.6", "frames still in flight after the user cancelled never reach the client: it disconnected"),
		)
	}
	rs = append(rs, row(s, InDone, GuardNone, StClosed, ActCloseTurn, "FR-9, AC-4", "the transport-level sentinel after the terminal; the turn had already ended"))
	why := "nothing follows a terminal frame; the outcome stands"
	if p == ProfileV04 && s == StFailed {
		why = "a v0.4 client closed the stream at its terminal; later frames never reach it (§5.10)"
	}
	rs = append(rs,
		row(s, InAnyFrame, GuardForeignRID, s, ActIgnore, "FR-9, AC-4", "another response_id before this turn's [DONE]: the terminal ended the request's one turn and AC-4 puts [DONE] right after it, so this is no new turn; show nothing", "after-terminal"),
		row(s, InAnyFrame, GuardNone, s, ActIgnore, "FR-9, FR-17", why, "after-terminal"),
		row(s, InEOF, GuardNone, s, ActIgnore, "AC-4", "[DONE] never came, but the turn had already ended at its terminal", "done-missing"),
		row(s, InTransportError, GuardNone, s, ActIgnore, "AC-4", "the connection broke after the terminal; the outcome stands", "done-missing"),
		row(s, InUserCancel, GuardNone, s, ActIgnore, "§5.6", "the turn already ended; there is nothing to cancel"),
		row(s, InIdleTimer, GuardNone, s, ActIgnore, "FR-9", "the idle timer stops at the terminal frame"),
		row(s, InConnect, GuardNone, StConnecting, ActStartRequest, "§9.2", "the next message (or a retry) is a new request, and a new turn"),
	)
	return rs
}

// afterEndRows are the rows of a turn whose stream position is past
// its end (closed, ended_without_terminal).
func afterEndRows(s State) []Transition {
	var rs []Transition
	if s == StEndedWithoutTerminal {
		rs = append(rs,
			row(s, InDone, GuardClientGone, s, ActIgnore, "NFR-6, FR-9", "the client's idle timer disconnected it: the sentinel never reaches it"),
			row(s, InAnyFrame, GuardClientGone, s, ActIgnore, "NFR-6, FR-9", "the client's idle timer disconnected it: no frame reaches it any more, a late terminal included"),
		)
	}
	rs = append(rs,
		row(s, InDone, GuardDoneRepeat, s, ActIgnore, "AC-4", "the closed turn's sentinel repeated after late frames"),
		row(s, InDone, GuardNone, s, ActDropEmptyTurn, "AC-4", "a [DONE] right after [DONE] closes an empty turn", "done-early", "terminal-missing"),
		row(s, InUndecodable, GuardNone, s, ActIgnore, "FR-9", "after [DONE] the stream is closed: a frame that names no turn is a violation of the closed stream, not a new turn; show nothing", "frame-json"),
		row(s, InAnyFrame, GuardNewTurn, StAwaitingFirstFrame, ActStartNextTurn, "FR-9", "a new response_id after [DONE]: a capture holding the next request's turn on the same wire; start a new bubble and read this frame as its first"),
		row(s, InAnyFrame, GuardNoRID, s, ActIgnore, "FR-2, FR-9", "after [DONE] only a frame naming a new response_id can begin another turn; one naming none is a violation of the closed stream; show nothing", "envelope-missing"),
		row(s, InAnyFrame, GuardNone, s, ActIgnore, "FR-9", "a frame of this turn after its [DONE]", "after-terminal"),
		row(s, InEOF, GuardNone, s, ActIgnore, "AC-4", "the stream ends after the turn did"),
		row(s, InTransportError, GuardNone, s, ActIgnore, "AC-4", "the connection breaks after the turn ended"),
		row(s, InUserCancel, GuardNone, s, ActIgnore, "§5.6", "the turn already ended; there is nothing to cancel"),
		row(s, InIdleTimer, GuardNone, s, ActIgnore, "FR-9", "no turn is open, so no timer runs"),
		row(s, InConnect, GuardNone, StConnecting, ActStartRequest, "§9.2", "retry, or the next message: a new request, and a new turn"),
	)
	return rs
}

func buildTransitions(p Profile) []Transition {
	var ts []Transition
	add := func(rs ...Transition) { ts = append(ts, rs...) }

	add(row(StIdle, InConnect, GuardNone, StConnecting, ActStartRequest, "§9.2", "the user sent a message: one request carries one turn"))

	add(
		row(StConnecting, InFirstByte, GuardNone, StAwaitingFirstFrame, ActShowPending, "NFR-1", "a 2xx text/event-stream response began; the first frame should follow quickly"),
		row(StConnecting, InHTTPError, GuardNone, StHTTPFailed, ActShowHTTPFailure, "—", "a non-2xx response carries no turn stream (PC3 defines no HTTP-level contract)", "http-status"),
		row(StConnecting, InEOF, GuardNone, StEndedWithoutTerminal, ActShowConnectionLost, "FR-9", "the connection closed before any response", "terminal-missing"),
		row(StConnecting, InTransportError, GuardNone, StEndedWithoutTerminal, ActShowConnectionLost, "FR-9", "the connection failed before any response", "terminal-missing"),
		row(StConnecting, InUserCancel, GuardNone, StCancelled, ActUserCancel, "§5.6", "the user cancelled before the response began"),
		row(StConnecting, InIdleTimer, GuardNone, StEndedWithoutTerminal, ActIdleDisconnect, "NFR-1", "no response within the client's idle window"),
	)

	// awaiting_first_frame: the response_id frame opens the turn; any other
	// first frame opens it implicitly (the checker notes the missing
	// response_id frame) and is then read as in turn_open.
	add(row(StAwaitingFirstFrame, InResponseID, GuardNone, StTurnOpen, ActBindTurn, "§5.5, FR-2", "the turn opens; every frame of it carries this response_id"))
	for _, t := range openFrameRows(p, StTurnOpen) {
		switch {
		case t.Input == InResponseID, t.Guard == GuardForeignRID:
			continue // no response_id is bound yet: nothing is foreign
		case t.Input == InUndecodable:
			t.To = StAwaitingFirstFrame
		case t.Input == InDone:
			t.Checker = append(t.Checker, "response-id-frame")
		default:
			t.Why = "no response_id frame came first, so this frame opens the turn; " + t.Why
			t.Checker = append([]string{"response-id-frame"}, t.Checker...)
		}
		t.From = StAwaitingFirstFrame
		add(t)
	}
	add(openTransportRows(StAwaitingFirstFrame)...)

	add(openFrameRows(p, StTurnOpen)...)
	add(openTransportRows(StTurnOpen)...)
	add(openFrameRows(p, StStreaming)...)
	add(openTransportRows(StStreaming)...)

	add(terminalRows(p, StCompleted)...)
	add(terminalRows(p, StFailed)...)
	add(terminalRows(p, StCancelled)...)
	add(afterEndRows(StClosed)...)
	add(afterEndRows(StEndedWithoutTerminal)...)

	add(
		row(StHTTPFailed, InAnyFrame, GuardNone, StHTTPFailed, ActIgnore, "—", "a non-2xx body is not a turn stream", "http-status"),
		row(StHTTPFailed, InDone, GuardNone, StHTTPFailed, ActIgnore, "—", "a non-2xx body is not a turn stream", "http-status"),
		row(StHTTPFailed, InEOF, GuardNone, StHTTPFailed, ActIgnore, "—", "the failed response ends"),
		row(StHTTPFailed, InTransportError, GuardNone, StHTTPFailed, ActIgnore, "—", "the failed response ends"),
		row(StHTTPFailed, InUserCancel, GuardNone, StHTTPFailed, ActIgnore, "—", "nothing to cancel"),
		row(StHTTPFailed, InIdleTimer, GuardNone, StHTTPFailed, ActIgnore, "—", "nothing is awaited"),
		row(StHTTPFailed, InConnect, GuardNone, StConnecting, ActStartRequest, "§9.2", "retry: a new request, and a new turn"),
	)
	if p == ProfileV04 {
		for i := range ts {
			ts[i].Checker = nil
		}
	}
	return ts
}

func buildRegions() []Region {
	progress := Region{
		Name:    "progress",
		About:   "The one-line progress indicator under the bubble. It shows exactly one thing at a time, chosen by its sub-state: nothing, a thinking indicator, the latest status message, or \"N tools running\". A status message outranks running tools (§5.10: mobile prefers status events for user-facing progress); the answer text replaces the line.",
		Initial: SubNone,
		States: []StateInfo{
			{ID: SubNone, Kind: KindSub, About: "No progress line. The initial sub-state, and the one after text arrives or the last running tool finishes; while the bubble is also empty, the typing indicator shows instead."},
			{ID: SubThinking, Kind: KindSub, About: "The line shows a thinking indicator. thinking and reasoning frames keep it."},
			{ID: SubStatus, Kind: KindSub, About: "The line shows the latest status message (data.message). A new status frame replaces it; tool frames leave it."},
			{ID: SubToolsRunning, Kind: KindSub, About: "The line shows \"N tools running\", N being the tools region's running ids. A status frame replaces it with the status message."},
		},
		Owns: []Input{InThinking, InReasoning, InStatus, InToolCall, InToolCompleted, InText},
	}
	pr := func(from State, in Input, g Guard, to State, a Action, clause, why string) {
		progress.Transitions = append(progress.Transitions, row(from, in, g, to, a, clause, why))
	}
	for _, in := range []Input{InThinking, InReasoning} {
		pr(SubNone, in, GuardNone, SubThinking, ActShowThinking, "§5.5", "the model is working")
		pr(SubThinking, in, GuardNone, SubThinking, ActKeep, "§5.5", "still thinking")
		pr(SubStatus, in, GuardNone, SubStatus, ActKeep, "§5.5, §5.10", "a status message says more than a thinking indicator")
		pr(SubToolsRunning, in, GuardNone, SubToolsRunning, ActKeep, "§5.5", "running tools say more than a thinking indicator")
	}
	for _, s := range []State{SubNone, SubThinking, SubStatus, SubToolsRunning} {
		pr(s, InStatus, GuardNone, SubStatus, ActShowStatus, "FR-3, AC-1, §5.10", "show data.message, rendered server-side; it replaces whatever the line showed")
	}
	pr(SubNone, InToolCall, GuardNone, SubToolsRunning, ActShowTools, "FR-15", "a tool started")
	pr(SubThinking, InToolCall, GuardNone, SubToolsRunning, ActShowTools, "FR-15", "a tool started")
	pr(SubStatus, InToolCall, GuardNone, SubStatus, ActKeep, "§5.10", "the status message stays: mobile prefers status events for progress, tool_call_* are for telemetry (the tool's own indicator still opens)")
	pr(SubToolsRunning, InToolCall, GuardNone, SubToolsRunning, ActShowTools, "FR-15, AC-9", "one more tool running")
	for _, s := range []State{SubNone, SubThinking, SubStatus} {
		pr(s, InToolCompleted, GuardNone, s, ActKeep, "FR-15", "the line does not show running tools, so a completion leaves it")
	}
	pr(SubToolsRunning, InToolCompleted, GuardToolNotRunning, SubToolsRunning, ActKeep, "FR-15", "a repeated completion; the running tools are unchanged")
	pr(SubToolsRunning, InToolCompleted, GuardToolOthers, SubToolsRunning, ActShowTools, "FR-15, AC-9", "one tool fewer running")
	pr(SubToolsRunning, InToolCompleted, GuardToolLast, SubNone, ActHideProgress, "FR-15", "the last running tool finished")
	pr(SubNone, InText, GuardNone, SubNone, ActKeep, "FR-6", "no progress line to replace")
	for _, s := range []State{SubThinking, SubStatus, SubToolsRunning} {
		pr(s, InText, GuardNone, SubNone, ActHideProgress, "FR-6", "the answer is arriving: it replaces the progress line (tool indicators stay as they are)")
	}

	content := Region{
		Name:    "content",
		About:   "The bubble's body: the text, plus cards from component frames. It only grows; nothing already shown is edited (FR-6).",
		Initial: SubEmpty,
		States: []StateInfo{
			{ID: SubEmpty, Kind: KindSub, About: "Nothing in the bubble yet. The initial sub-state."},
			{ID: SubComposing, Kind: KindSub, About: "Text or a component card is in the bubble. Later chunks append."},
		},
		Owns: []Input{InText, InComponent},
		Forbidden: []Forbidden{
			{Input: InText, Rule: "text-malformed", Why: "the chunk is missing or not a string: there is nothing to append"},
			{Input: InComponent, Rule: "component-malformed", Why: "a component frame without a chunk has nothing to render"},
		},
	}
	for _, s := range []State{SubEmpty, SubComposing} {
		content.Transitions = append(content.Transitions,
			row(s, InText, GuardChunkString, SubComposing, ActAppendText, "FR-6, FR-8", "append the chunk; an empty string adds no text but the body is no longer empty (content = composing: the typing indicator goes)"),
			row(s, InComponent, GuardChunkPresent, SubComposing, ActRenderComponent, "FR-10", "render the component in the bubble"),
			row(s, InComponent, GuardChunkNull, s, ActIgnore, "FR-10, FR-12", "a null chunk has nothing to render; framescope check does not flag it, so the client drops it quietly"),
		)
	}

	tools := Region{
		Name:    "tools",
		Key:     "tool_call.id",
		About:   "One indicator per tool_call.id. A tool_call opens it and the tool_completed with the same id closes it (FR-15, AC-9).",
		Initial: SubUnseen,
		States: []StateInfo{
			{ID: SubUnseen, Kind: KindSub, About: "The id has not been called in this turn. The initial sub-state of every id."},
			{ID: SubRunning, Kind: KindSub, About: "The tool is running; its indicator spins. Only its tool_completed ends it."},
			{ID: SubDone, Kind: KindSub, About: "The tool finished; its indicator is closed. The id cannot be called again in this turn."},
		},
		Owns: []Input{InToolCall, InToolCompleted},
		Transitions: []Transition{
			row(SubUnseen, InToolCall, GuardNone, SubRunning, ActOpenTool, "FR-15", "open an indicator named after tool_call.name"),
			row(SubRunning, InToolCompleted, GuardNone, SubDone, ActCloseTool, "FR-15, AC-9", "close the indicator; a name/type mismatch is the checker's concern, the id decides"),
			row(SubDone, InToolCompleted, GuardNone, SubDone, ActIgnore, "FR-15", "the indicator is already closed"),
		},
		Forbidden: []Forbidden{
			{Input: InToolCall, NoKey: true, Rule: "tool-malformed", Why: "no tool_call.id to key an indicator on"},
			{Input: InToolCompleted, NoKey: true, Rule: "tool-malformed", Why: "no tool_call.id to key an indicator on"},
			{From: SubUnseen, Input: InToolCompleted, Rule: "tool-orphan", Why: "no tool_call opened this id"},
			{From: SubRunning, Input: InToolCall, Rule: "tool-duplicate", Why: "the id is already running"},
			{From: SubDone, Input: InToolCall, Rule: "tool-duplicate", Why: "the id was already used in this turn"},
		},
	}

	components := Region{
		Name:    "components",
		Key:     "data.id",
		About:   "One placeholder per data.id: data_loading renders a skeleton and the data_loaded with the same data.id replaces it with cards (FR-16, AC-8).",
		Initial: SubUnseen,
		States: []StateInfo{
			{ID: SubUnseen, Kind: KindSub, About: "No frame has named this data.id yet. The initial sub-state of every id."},
			{ID: SubLoading, Kind: KindSub, About: "A skeleton is shown for the id. Its data_loaded fills it."},
			{ID: SubLoaded, Kind: KindSub, About: "Cards built from data.items are shown. A later data_loaded replaces them."},
		},
		Owns: []Input{InDataLoading, InDataLoaded},
		Transitions: []Transition{
			row(SubUnseen, InDataLoading, GuardNone, SubLoading, ActRenderSkeleton, "FR-16, AC-8", "render a skeleton for data.type"),
			row(SubLoading, InDataLoading, GuardNone, SubLoading, ActIgnore, "FR-16", "a repeated placeholder: keep the skeleton"),
			row(SubLoaded, InDataLoading, GuardNone, SubLoaded, ActIgnore, "FR-16", "the cards are already there"),
			row(SubLoading, InDataLoaded, GuardItemsArray, SubLoaded, ActReplaceWithCards, "FR-16, AC-8", "replace the skeleton with one card per item"),
			row(SubLoaded, InDataLoaded, GuardItemsArray, SubLoaded, ActReplaceWithCards, "FR-16", "newer items replace the cards"),
			row(SubUnseen, InDataLoaded, GuardItemsArray, SubLoaded, ActRenderCards, "FR-16", "no placeholder was announced: render the cards where they fall", "component-unannounced"),
		},
		Forbidden: []Forbidden{
			{Input: InDataLoading, NoKey: true, Rule: "component-malformed", Why: "no data.id to key a placeholder on"},
			{Input: InDataLoaded, NoKey: true, Rule: "component-malformed", Why: "no data.id to key a placeholder on"},
			{Input: InDataLoaded, Rule: "component-malformed", Why: "data.items is not an array: there are no cards to build"},
		},
	}

	degraded := Region{
		Name:    "degraded",
		About:   "Whether a recoverable error (is_final false) happened in this turn. The user sees only the orchestrator's apology text; the flag feeds telemetry and may add a discreet notice.",
		Initial: SubIntact,
		States: []StateInfo{
			{ID: SubIntact, Kind: KindSub, About: "No recoverable error so far. The initial sub-state."},
			{ID: SubDegraded, Kind: KindSub, About: "At least one recoverable error: the answer may be partial. The turn still ends with its own terminal (AC-3)."},
		},
		Owns: []Input{InError},
		Transitions: []Transition{
			row(SubIntact, InError, GuardNone, SubDegraded, ActMarkDegraded, "AC-3, AC-11, FR-8", "record the code for telemetry; the user never sees it"),
			row(SubDegraded, InError, GuardNone, SubDegraded, ActRecordTelemetry, "AC-3, FR-7", "each failure is its own telemetry record"),
		},
	}
	return []Region{tools, components, content, progress, degraded}
}

func buildMachine(p Profile) *Machine {
	m := &Machine{
		Profile:     p,
		Initial:     StIdle,
		States:      stateInfos,
		Inputs:      inputInfos,
		Guards:      guardInfos,
		Actions:     actionInfos,
		Context:     contextVars,
		Transitions: buildTransitions(p),
		Regions:     buildRegions(),
	}
	if p == ProfileV05 {
		m.About = "The v0.5 client: honours is_final, shows status frames, ends the turn on cancelled (PC3 v0.5, additive on v0.4)."
	} else {
		m.About = "The deployed v0.4 client: every error ends the turn, status and cancelled are unknown types it ignores, is_final means nothing to it (§5.10, AC-12, R-8)."
	}
	m.index = make(map[State]map[Input][]int)
	for i, t := range m.Transitions {
		byIn := m.index[t.From]
		if byIn == nil {
			byIn = make(map[Input][]int)
			m.index[t.From] = byIn
		}
		byIn[t.Input] = append(byIn[t.Input], i)
	}
	m.order = make(map[State]map[Input][]int)
	for _, st := range m.States {
		byIn := make(map[Input][]int)
		for _, in := range append(append([]Input(nil), allFrameInputs...), transportInputs...) {
			for i, t := range m.Transitions {
				if t.From == st.ID && Matches(t.Input, in) {
					byIn[in] = append(byIn[in], i)
				}
			}
		}
		m.order[st.ID] = byIn
	}
	return m
}

var transportInputs = []Input{InConnect, InHTTPError, InFirstByte, InEOF, InTransportError, InUserCancel, InIdleTimer}

// ---------------------------------------------------------------------------
// The runner.

// TransportEvent is a transport input with an optional detail (an HTTP
// status, an error text) for the view.
type TransportEvent = machine.TransportEvent

// RegionStep is the row one region took for a frame.
type RegionStep = machine.RegionStep

// Step is what the machine did with one input (its Actions, Clause and
// Summary are machine.Step's).
type Step = machine.Step

type toolMem struct {
	sub  State
	view int // index in ClientView.Tools
}

type compMem struct {
	sub  State
	view int // index in ClientView.Components
}

// ClientRun runs one profile's machine over a stream.
type ClientRun struct {
	m     *Machine
	state State
	last  Step
	view  ClientView

	// The current turn's memory: the declared context (contextVars).
	rid          string // bound_response_id (haveRID false = none)
	haveRID      bool
	doneSeen     bool   // done_seen
	lastWasDone  bool   // last_was_done
	disconnected bool   // client_disconnected
	cause        string // cancel_cause
	tools        map[string]*toolMem
	running      int // running_tools
	comps        map[string]*compMem
	progress     State
	content      State
	degraded     State
}

// NewClientRun starts a run of profile p in its initial state (idle).
func NewClientRun(p Profile) *ClientRun {
	m := MachineFor(p)
	if m == nil {
		m = ClientV05()
	}
	r := &ClientRun{m: m, state: m.Initial}
	r.resetTurn()
	r.view.Profile = m.Profile
	r.view.State = r.state
	return r
}

// Profile is the run's profile.
func (r *ClientRun) Profile() Profile { return r.m.Profile }

// Machine is the run's machine.
func (r *ClientRun) Machine() *Machine { return r.m }

// State is the current top-level state.
func (r *ClientRun) State() State { return r.state }

// Last is the step just taken.
func (r *ClientRun) Last() Step { return r.last }

// View is the client view; it is owned by the run and changes with it.
func (r *ClientRun) View() *ClientView { return &r.view }

// Outcome is how the current turn ended ("" while it is open).
func (r *ClientRun) Outcome() Outcome { return r.view.Outcome }

// SubState returns a non-keyed region's sub-state.
func (r *ClientRun) SubState(region string) State {
	switch region {
	case "progress":
		return r.progress
	case "content":
		return r.content
	case "degraded":
		return r.degraded
	}
	return ""
}

// KeyState returns a keyed region's sub-state for a key.
func (r *ClientRun) KeyState(region, key string) State {
	switch region {
	case "tools":
		if t := r.tools[key]; t != nil {
			return t.sub
		}
	case "components":
		if c := r.comps[key]; c != nil {
			return c.sub
		}
	default:
		return ""
	}
	return SubUnseen
}

// Running is the number of running tools.
func (r *ClientRun) Running() int { return r.running }

func (r *ClientRun) resetTurn() {
	r.rid, r.haveRID = "", false
	r.doneSeen, r.lastWasDone = false, false
	r.disconnected = false
	r.cause = ""
	r.tools, r.running, r.comps = nil, 0, nil
	r.progress, r.content, r.degraded = SubNone, SubEmpty, SubIntact
}

// Transport feeds a transport event.
func (r *ClientRun) Transport(ev TransportEvent) Step {
	s := Step{Frame: -1, Input: ev.Input, From: r.state, To: r.state}
	r.resolveTop(&s, r.state, ev.Input, nil)
	rev := r.view.Rev
	if !s.Violation {
		r.applyTop(&s, nil, ev.Detail)
	}
	r.settleTyping()
	s.ViewChanged = r.view.Rev != rev
	r.view.State = r.state
	r.last = s
	return s
}

// Step feeds one frame.
func (r *ClientRun) Step(f *decode.Frame) Step {
	s := r.peek(f)
	rev := r.view.Rev
	if s.Via != nil {
		// The frame starts the next turn on the stream, even when it is a
		// violation in that turn.
		r.resetTurn()
		turn := r.view.Turn
		r.view.reset(r.m.Profile)
		r.view.Turn = turn + 1
		r.state = s.Via.To
	}
	// A binding shows in the view when the frame that makes it belongs to
	// the open turn — its terminal frame included —, not when it comes after
	// the turn ended.
	openBefore := !IsFinished(r.state)
	if !s.Violation {
		r.applyTop(&s, f, "")
		for _, rs := range s.Regions {
			r.applyRegion(rs, f)
		}
		if len(s.Regions) > 0 {
			r.settleProgress()
		}
	}
	if f.Decoded() && !r.haveRID {
		if rid, ok := ResponseID(f).NonEmptyStr(); ok {
			r.rid, r.haveRID = rid, true
			if r.view.ResponseID == "" && openBefore {
				r.view.ResponseID = validText(f, rid)
				r.view.Rev++
			}
		}
	}
	if f.Done {
		r.doneSeen = true
	}
	r.lastWasDone = f.Done
	r.settleTyping()
	s.ViewChanged = r.view.Rev != rev
	r.view.State = r.state
	r.last = s
	return s
}

// settleTyping shows the typing indicator exactly while a request is out
// or a turn is open and the bubble shows nothing else: no progress line
// (progress = none) and no text or card (content = empty).
func (r *ClientRun) settleTyping() {
	typing := false
	switch r.state {
	case StConnecting, StAwaitingFirstFrame, StTurnOpen, StStreaming:
		typing = r.progress == SubNone && r.content == SubEmpty
	}
	if r.view.Pending != typing {
		r.view.Pending = typing
		r.view.Rev++
	}
}

// Peek returns the step a frame would take, without taking it.
func (r *ClientRun) Peek(f *decode.Frame) Step { return r.peek(f) }

func (r *ClientRun) peek(f *decode.Frame) Step {
	in := ClassifyFrame(f)
	s := Step{Frame: f.Index, Input: in, From: r.state, To: r.state}
	r.resolveTop(&s, r.state, in, f)
	if s.Violation || s.Transition.Action != ActStartNextTurn {
		return s
	}
	// The frame opens the next turn: read it again from a fresh turn.
	via := s.Transition
	fresh := &ClientRun{m: r.m}
	fresh.resetTurn()
	fresh.doneSeen = false
	s2 := Step{Frame: f.Index, Input: in, From: r.state, To: StAwaitingFirstFrame}
	fresh.resolveTop(&s2, StAwaitingFirstFrame, in, f)
	s2.Via = via
	return s2
}

// match returns the first row of m from state, in table order, that is
// tried for in and whose guard holds.
func (m *Machine) match(r *ClientRun, state State, in Input, f *decode.Frame) *Transition {
	for _, i := range m.order[state][in] {
		if r.guardHolds(m.Transitions[i].Guard, f) {
			return &m.Transitions[i]
		}
	}
	return nil
}

func (r *ClientRun) resolveTop(s *Step, state State, in Input, f *decode.Frame) {
	t := r.m.match(r, state, in, f)
	if t == nil {
		s.Violation = true
		s.Note = "no row for " + string(in) + " in " + string(state)
		return
	}
	s.Transition = t
	s.To = t.To
	s.Rules = t.Checker
	if t.Action != ActDispatch || f == nil {
		return
	}
	i0, j0 := -1, -1 // the one unkeyed region step so far
	for i := range r.m.Regions {
		reg := &r.m.Regions[i]
		if !owns(reg, in) {
			continue
		}
		key, sub, ok := r.regionPosition(reg, f)
		if !ok {
			r.regionViolation(s, reg, "", in, true)
			return
		}
		j := reg.matchIndex(r, sub, in, f)
		if j < 0 {
			r.regionViolation(s, reg, sub, in, false)
			return
		}
		rt := &reg.Transitions[j]
		switch {
		case key == "" && s.Regions == nil:
			// Most frames step one or two unkeyed regions: a shared,
			// read-only list saves an allocation per frame.
			s.Regions = unkeyedStep(r.m, i, j, rt)
			i0, j0 = i, j
		case key == "" && i0 >= 0 && len(s.Regions) == 1:
			s.Regions = unkeyedPair(r.m, i0, j0, i, j, rt)
			i0 = -1
		default:
			s.Regions = append(s.Regions, RegionStep{Region: reg.Name, Key: key, Transition: rt})
		}
		if len(rt.Checker) > 0 {
			s.Rules = append(append([]string(nil), s.Rules...), rt.Checker...)
		}
	}
}

func (r *ClientRun) regionViolation(s *Step, reg *Region, sub State, in Input, noKey bool) {
	s.Violation = true
	s.Transition = nil
	s.Regions = nil
	s.To = s.From
	s.Rules = nil
	for _, fb := range reg.Forbidden {
		if fb.Input == in && fb.NoKey == noKey && (fb.From == "" || fb.From == sub) {
			s.Rules = []string{fb.Rule}
			s.Note = reg.Name + ": " + fb.Why
			return
		}
	}
	if noKey {
		s.Note = reg.Name + ": the frame has no " + reg.Key
	} else {
		s.Note = reg.Name + ": no row for " + string(in) + " in " + string(sub)
	}
}

func owns(reg *Region, in Input) bool {
	for _, o := range reg.Owns {
		if o == in {
			return true
		}
	}
	return false
}

// matchIndex returns the first row of reg, as an index in reg.Transitions,
// that is tried for in from sub and whose guard holds (-1: none).
func (reg *Region) matchIndex(r *ClientRun, sub State, in Input, f *decode.Frame) int {
	for i := range reg.Transitions {
		t := &reg.Transitions[i]
		if t.From == sub && t.Input == in && r.guardHolds(t.Guard, f) {
			return i
		}
	}
	return -1
}

// regionPosition returns the key and sub-state a frame meets in a region.
func (r *ClientRun) regionPosition(reg *Region, f *decode.Frame) (string, State, bool) {
	switch reg.Name {
	case "tools":
		id := ToolCallOf(f).ID
		if id == "" {
			return "", "", false
		}
		return id, r.KeyState("tools", id), true
	case "components":
		d := DataRefOf(f)
		if !d.HasID {
			return "", "", false
		}
		return d.ID, r.KeyState("components", d.ID), true
	}
	return "", r.SubState(reg.Name), true
}

// errorCodeIs compares error.code without allocating.
func errorCodeIs(f *decode.Frame, code string) bool {
	return f.Get("error").Get("code").StrEq(code)
}

func isCancelCode(f *decode.Frame) bool {
	return errorCodeIs(f, "IDLE_TIMEOUT") || errorCodeIs(f, "REQUEST_CANCELLED")
}

func (r *ClientRun) guardHolds(g Guard, f *decode.Frame) bool {
	switch g {
	case GuardNone:
		return true
	case GuardClientGone:
		return r.disconnected
	case GuardAfterDone:
		return r.doneSeen
	case GuardDoneRepeat:
		return r.doneSeen && !r.lastWasDone
	}
	if f == nil {
		return false
	}
	switch g {
	case GuardIsFinalTrue:
		v, ok := f.Get("is_final").Bool()
		return ok && v
	case GuardIsFinalFalse:
		v, ok := f.Get("is_final").Bool()
		return ok && !v
	case GuardIsFinalMissing:
		_, ok := f.Get("is_final").Bool()
		return !ok
	case GuardV04Frame:
		return IsV04(f)
	case GuardV04CancelCode:
		return IsV04(f) && isCancelCode(f)
	case GuardCancelCode:
		return isCancelCode(f)
	case GuardCodeIdleTimeout:
		return errorCodeIs(f, "IDLE_TIMEOUT")
	case GuardCodeReqCancelled:
		return errorCodeIs(f, "REQUEST_CANCELLED")
	case GuardForeignRID:
		return hasRID(f) && r.haveRID && !ResponseID(f).StrEq(r.rid)
	case GuardNoRID:
		return !hasRID(f)
	case GuardNewTurn:
		return r.doneSeen && hasRID(f) && (!r.haveRID || !ResponseID(f).StrEq(r.rid))
	case GuardChunkString:
		return Chunk(f).Kind() == decode.KindString
	case GuardChunkPresent:
		k := Chunk(f).Kind()
		return k != decode.KindNone && k != decode.KindNull
	case GuardChunkNull:
		return Chunk(f).Kind() == decode.KindNull
	case GuardItemsArray:
		return DataRefOf(f).ItemCount >= 0
	case GuardToolOthers, GuardToolLast, GuardToolNotRunning:
		id := ToolCallOf(f).ID
		t := r.tools[id]
		isRunning := id != "" && t != nil && t.sub == SubRunning
		switch g {
		case GuardToolNotRunning:
			return !isRunning
		case GuardToolOthers:
			return isRunning && r.running > 1
		default:
			return isRunning && r.running == 1
		}
	}
	return false
}

// hasRID reports rid(f) ≠ none: the frame is a JSON object and its
// response_id a non-empty string (compared without decoding it).
func hasRID(f *decode.Frame) bool {
	return f != nil && f.Decoded() && ResponseID(f).IsNonEmptyStr()
}

const causeClient = "client"

func (r *ClientRun) applyTop(s *Step, f *decode.Frame, detail string) {
	t := s.Transition
	r.state = t.To
	v := &r.view
	switch t.Action {
	case ActStartRequest:
		r.resetTurn()
		turn := v.Turn
		v.reset(r.m.Profile)
		v.Turn = turn + 1
		v.Pending = true
		v.Rev++
	case ActShowPending:
		v.Pending = true
		v.Rev++
	case ActBindTurn:
		if rid, ok := ResponseID(f).NonEmptyStr(); ok {
			v.ResponseID = validText(f, rid)
		}
		v.Rev++
	case ActRecordTelemetry:
		v.record(telemetryOf(s.Input, f))
	case ActEndCompleted:
		v.finish(OutcomeCompleted, "")
	case ActEndFailed:
		code, _ := ErrorInfoOf(f).Error.Get("code").NonEmptyStr()
		v.record(telemetryOf(InError, f))
		v.finish(OutcomeFailed, code)
	case ActEndCancelled:
		cause := causeClient
		if f != nil {
			cause = ErrorInfoOf(f).Code
			if cause == "" {
				cause = "no code"
			}
		}
		r.cause = cause
		v.finish(OutcomeCancelled, cause)
	case ActUserCancel:
		r.cause, r.disconnected = causeClient, true
		v.finish(OutcomeCancelled, causeClient)
	case ActIdleDisconnect:
		r.disconnected = true
		v.finish(OutcomeConnectionLost, detail)
		v.EndedBy = s.Input
	case ActShowConnectionLost:
		v.finish(OutcomeConnectionLost, detail)
		v.EndedBy = s.Input
	case ActShowHTTPFailure:
		v.finish(OutcomeHTTPFailed, detail)
	case ActCloseTurn:
		v.Closed = true
		v.Rev++
	case ActDropEmptyTurn:
		r.rid, r.haveRID = "", false
	}
	if t.Action == ActDispatch {
		v.Pending = false
	}
}

func (r *ClientRun) applyRegion(rs RegionStep, f *decode.Frame) {
	t := rs.Transition
	v := &r.view
	switch rs.Region {
	case "progress":
		r.progress = t.To
		if t.Action == ActShowStatus && Type(f) == TypeStatus {
			st := StatusOf(f)
			msg, id := validText(f, st.Message), validText(f, st.EventID)
			if v.StatusLine != msg || v.StatusID != id {
				v.StatusLine, v.StatusID = msg, id
				v.Rev++
			}
		}
	case "content":
		r.content = t.To
	case "degraded":
		r.degraded = t.To
	case "tools":
		if r.tools == nil {
			r.tools = make(map[string]*toolMem)
		}
		tm := r.tools[rs.Key]
		if tm == nil {
			tm = &toolMem{sub: SubUnseen, view: -1}
			r.tools[rs.Key] = tm
		}
		if tm.sub != SubRunning && t.To == SubRunning {
			r.running++
		} else if tm.sub == SubRunning && t.To != SubRunning {
			r.running--
		}
		tm.sub = t.To
		switch t.Action {
		case ActOpenTool:
			tc := ToolCallOf(f)
			v.Tools = append(v.Tools, ToolView{ID: validText(f, tc.ID), Name: validText(f, tc.Name), Type: validText(f, tc.Type), State: ToolRunning})
			tm.view = len(v.Tools) - 1
			v.Rev++
		case ActCloseTool:
			if tm.view >= 0 {
				v.Tools[tm.view].State = ToolDone
				v.Rev++
			}
		}
	case "components":
		if r.comps == nil {
			r.comps = make(map[string]*compMem)
		}
		cm := r.comps[rs.Key]
		if cm == nil {
			cm = &compMem{sub: SubUnseen, view: -1}
			r.comps[rs.Key] = cm
		}
		cm.sub = t.To
		d := DataRefOf(f)
		switch t.Action {
		case ActRenderSkeleton:
			v.Components = append(v.Components, ComponentView{ID: validText(f, d.ID), Type: validText(f, d.Type), State: CompLoading, Announced: true})
			cm.view = len(v.Components) - 1
			v.Rev++
		case ActReplaceWithCards, ActRenderCards:
			if cm.view < 0 {
				v.Components = append(v.Components, ComponentView{ID: validText(f, d.ID), Type: validText(f, d.Type)})
				cm.view = len(v.Components) - 1
			}
			c := &v.Components[cm.view]
			c.State = CompLoaded
			c.Items = d.ItemCount
			if d.HasType {
				c.Type = validText(f, d.Type)
			}
			v.Rev++
		}
	}
	switch t.Action {
	case ActAppendText:
		n := len(v.text)
		v.text = appendChunk(v.text, Chunk(f))
		if f.InvalidUTF8 {
			v.text = append(v.text[:n], replaceInvalidUTF8(v.text[n:])...)
		}
		if len(v.text) > n {
			v.Rev++
		}
	case ActRenderComponent:
		tc := ToolCallOf(f)
		v.Cards = append(v.Cards, CardView{Tool: validText(f, tc.Name), ToolID: validText(f, tc.ID), Kind: validText(f, componentKind(Chunk(f)))})
		v.Rev++
	case ActMarkDegraded:
		v.Degraded = true
		v.record(telemetryOf(InError, f))
	case ActRecordTelemetry:
		v.record(telemetryOf(InError, f))
	}
}

// settleProgress makes the view's progress line what the progress region's
// sub-state says, and nothing else: the line is exclusive.
func (r *ClientRun) settleProgress() {
	v := &r.view
	thinking := r.progress == SubThinking
	line, id := v.StatusLine, v.StatusID
	if r.progress != SubStatus {
		line, id = "", ""
	}
	if v.Progress != r.progress || v.Thinking != thinking || v.StatusLine != line || v.StatusID != id || v.Running != r.running {
		v.Progress, v.Thinking, v.StatusLine, v.StatusID, v.Running = r.progress, thinking, line, id, r.running
		v.Rev++
	}
}

// componentKind names a component chunk for the view: its "type" (or
// "component") member when it has one.
func componentKind(chunk decode.Raw) string {
	for _, k := range []string{"type", "component", "name"} {
		if s, ok := chunk.Get(k).NonEmptyStr(); ok {
			return s
		}
	}
	switch chunk.Kind() {
	case decode.KindString:
		return "string"
	case decode.KindObject:
		return "object"
	}
	return "component"
}

func telemetryOf(in Input, f *decode.Frame) string {
	if f == nil {
		return string(in)
	}
	switch in {
	case InEpisode:
		id, _ := f.Get("episode_id").Str()
		return "episode " + decode.Clip(id, 40)
	case InUsage:
		n, ok := f.Get("total_tokens").Int()
		if ok {
			return "usage " + itoa(n) + " tokens"
		}
		return "usage"
	case InError:
		e := ErrorInfoOf(f)
		s := "error " + decode.Clip(e.Code, 40)
		if e.Code == "" {
			s = "error (no code)"
		}
		switch {
		case IsV04(f):
			s += " (v0.4)"
		case !e.HasIsFinal:
			s += " (no is_final)"
		case e.IsFinal:
			s += " (is_final true)"
		default:
			s += " (is_final false)"
		}
		return s
	}
	return string(in)
}

// ---------------------------------------------------------------------------
// client-divergence: what the checker consults.

// divergentInputs() are the inputs whose streaming rows differ between the
// profiles — derived from the tables, so only they need evaluating.
var divergentInputs = sync.OnceValue(func() map[Input]bool {
	m := map[Input]bool{}
	for _, in := range allFrameInputs {
		a := rowsOf(ClientV05(), StStreaming, in)
		b := rowsOf(ClientV04(), StStreaming, in)
		if len(a) != len(b) {
			m[in] = true
			continue
		}
		for i := range a {
			if a[i].Guard != b[i].Guard || a[i].To != b[i].To || a[i].Action != b[i].Action {
				m[in] = true
				break
			}
		}
	}
	return m
})

// divergentRows() are the streaming rows of the inputs that can diverge, per
// profile, in matching order: the checker's hot path walks these slices
// instead of the machines' maps.
type divergentInput struct {
	in       Input
	v05, v04 []*Transition
}

var divergentRows = sync.OnceValue(func() []divergentInput {
	var out []divergentInput
	for _, in := range allFrameInputs {
		if !divergentInputs()[in] {
			continue
		}
		d := divergentInput{in: in}
		for _, i := range ClientV05().index[StStreaming][in] {
			d.v05 = append(d.v05, &ClientV05().Transitions[i])
		}
		for _, i := range ClientV04().index[StStreaming][in] {
			d.v04 = append(d.v04, &ClientV04().Transitions[i])
		}
		out = append(out, d)
	}
	return out
})

func (r *ClientRun) firstRow(rows []*Transition, f *decode.Frame) *Transition {
	for _, t := range rows {
		if r.guardHolds(t.Guard, f) {
			return t
		}
	}
	return nil
}

func rowsOf(m *Machine, s State, in Input) []Transition {
	var out []Transition
	for _, i := range m.index[s][in] {
		out = append(out, m.Transitions[i])
	}
	return out
}

// probeRun() is an empty run used read-only to evaluate guards for
// divergence: its memory is that of a fresh turn.
var probeRun = sync.OnceValue(func() *ClientRun {
	r := &ClientRun{m: ClientV05(), state: StStreaming}
	r.resetTurn()
	return r
})

// Divergence says how the two profiles read a frame in an open turn.
type Divergence struct {
	V05, V04 *Transition
}

// divergenceMessages() holds the message of every pair of streaming rows
// that can diverge, so the checker raises without building strings.
var divergenceMessages = sync.OnceValue(func() map[[2]*Transition]string {
	msgs := map[[2]*Transition]string{}
	for in := range divergentInputs() {
		for _, i := range ClientV05().index[StStreaming][in] {
			for _, j := range ClientV04().index[StStreaming][in] {
				a, b := &ClientV05().Transitions[i], &ClientV04().Transitions[j]
				msgs[[2]*Transition{a, b}] = "a v0.4 client " + reading(b) + "; a v0.5 client " + reading(a)
			}
		}
	}
	return msgs
})

// Message explains the divergence in one line.
func (d Divergence) Message() string {
	if m, ok := divergenceMessages()[[2]*Transition{d.V05, d.V04}]; ok {
		return m
	}
	return "a v0.4 client " + reading(d.V04) + "; a v0.5 client " + reading(d.V05)
}

func reading(t *Transition) string {
	if t == nil {
		return "has no row for it"
	}
	what := string(t.Action)
	switch {
	case t.Action == ActDispatch:
		what = "goes on with the turn"
	case t.Action == ActIgnore:
		what = "ignores it"
	case IsTerminal(t.To):
		what = "ends the turn as " + string(t.To)
	}
	return what + " (" + t.Why + ")"
}

// ClientDivergence reports whether the v0.4 and v0.5 clients read the frame
// differently: each profile's row for it in an open turn (the streaming
// state) leads to a different state or action. The reading is the frame's
// meaning to each client, whatever state the turn is really in.
func ClientDivergence(f *decode.Frame) (Divergence, bool) {
	in := ClassifyFrame(f)
	var d *divergentInput
	for i := range divergentRows() {
		if divergentRows()[i].in == in {
			d = &divergentRows()[i]
			break
		}
	}
	if d == nil {
		return Divergence{}, false
	}
	a := probeRun().firstRow(d.v05, f)
	b := probeRun().firstRow(d.v04, f)
	if a == nil || b == nil {
		return Divergence{a, b}, a != b
	}
	if a.To == b.To && a.Action == b.Action {
		return Divergence{}, false
	}
	return Divergence{a, b}, true
}

// validText is s as a client that decodes the stream as UTF-8 sees it:
// unchanged, unless the frame held invalid UTF-8.
func validText(f *decode.Frame, s string) string {
	if !f.InvalidUTF8 {
		return s
	}
	return string(replaceInvalidUTF8([]byte(s)))
}

// replaceInvalidUTF8 decodes b as the WHATWG Encoding Standard's UTF-8
// decoder does (the one EventSource uses): every maximal ill-formed
// subsequence becomes one U+FFFD.
func replaceInvalidUTF8(b []byte) []byte {
	if utf8.Valid(b) {
		return b
	}
	out := make([]byte, 0, len(b)+8)
	var need, seen int
	lower, upper := byte(0x80), byte(0xBF)
	start := 0
	for i := 0; i < len(b); i++ {
		c := b[i]
		if need == 0 {
			switch {
			case c <= 0x7F:
				out = append(out, c)
			case c >= 0xC2 && c <= 0xDF:
				need, start = 1, i
			case c >= 0xE0 && c <= 0xEF:
				if c == 0xE0 {
					lower = 0xA0
				} else if c == 0xED {
					upper = 0x9F
				}
				need, start = 2, i
			case c >= 0xF0 && c <= 0xF4:
				if c == 0xF0 {
					lower = 0x90
				} else if c == 0xF4 {
					upper = 0x8F
				}
				need, start = 3, i
			default:
				out = utf8.AppendRune(out, utf8.RuneError)
			}
			continue
		}
		if c < lower || c > upper {
			need, seen, lower, upper = 0, 0, 0x80, 0xBF
			out = utf8.AppendRune(out, utf8.RuneError)
			i-- // read the byte again
			continue
		}
		lower, upper = 0x80, 0xBF
		seen++
		if seen == need {
			out = append(out, b[start:i+1]...)
			need, seen = 0, 0
		}
	}
	if need != 0 {
		out = utf8.AppendRune(out, utf8.RuneError)
	}
	return out
}
