package openairesponses

import (
	"framescope/decode"
	"framescope/invariants"
)

// scope says what an event belongs to, and so which fields it must carry
// and which span it names.
type scope uint8

const (
	scopeResponse  scope = iota + 1 // lifecycle: carries the response object
	scopeError                      // the error event
	scopeItemAdded                  // response.output_item.added
	scopeItemDone                   // response.output_item.done
	scopeItem                       // names an output item: output_index (+ item_id)
	scopePart                       // names a content part: + content_index
	scopeSummary                    // names a reasoning summary part: + summary_index
	scopeNone                       // audio: no item
)

// act is what an event does on the turn model.
type act uint8

const (
	actNone       act = iota
	actStart          // response.created
	actProgress       // a waiting line (lifecycle or hosted tool status)
	actCompleted      // terminal, completed
	actFailed         // terminal, failed
	actIncomplete     // terminal, incomplete
	actError          // the error event
	actOpen           // a part / summary part opens
	actClose          // a part / summary part closes
	actText           // a text delta into a part
	actReasoning      // a reasoning delta into a part or summary part
	actCheck          // a .done / annotation: the span must be open
	actArgs           // a tool's input grows (delta)
	actToolDone       // a hosted tool call's status says completed
	actToolFailed     // a hosted tool call's status says failed
	actErrorLine      // a non-terminal failure of an item (mcp_list_tools.failed)
)

// event is one entry of the vocabulary.
type event struct {
	name  string
	scope scope
	act   act
	// item is the output item type the event belongs to ("" any); part the
	// content part type its deltas go into.
	item, part string
	// delta: the event must carry a string delta. noItemID: the reference
	// gives it no item_id (shell command events). settles: the event ends
	// an mcp_list_tools item that may get no output_item.done (lifecycle.go).
	delta, noItemID, settles bool
	// annotation: the event adds an annotation at annotation_index.
	annotation bool
	// line is the progress line (actProgress) or error text (actErrorLine).
	line decode.Raw
	// legacy names the older shape an event name of the past belongs to
	// (legacy.go); "" for the current vocabulary.
	legacy string
	// vendor names the flavor whose own event this is (flavor.go): it is
	// mapped, and stays event-unknown (no OpenAI SDK types it).
	vendor string
}

// events is the whole documented vocabulary: the ResponseStreamEvent union
// of openai-python / openai-node (58 events) plus the apply_patch diff
// events OpenAI sends (recorded in vercel/ai's fixtures, typed there).
var events = map[string]*event{}

func init() {
	add := func(e event) { ev := e; events[e.name] = &ev }
	line := invariants.Lit

	// Lifecycle.
	add(event{name: "response.created", scope: scopeResponse, act: actStart})
	add(event{name: "response.queued", scope: scopeResponse, act: actProgress, line: line("queued")})
	add(event{name: "response.in_progress", scope: scopeResponse, act: actProgress, line: line("in progress")})
	add(event{name: "response.completed", scope: scopeResponse, act: actCompleted})
	add(event{name: "response.failed", scope: scopeResponse, act: actFailed})
	add(event{name: "response.incomplete", scope: scopeResponse, act: actIncomplete})
	add(event{name: "error", scope: scopeError, act: actError})

	// Output items.
	add(event{name: "response.output_item.added", scope: scopeItemAdded})
	add(event{name: "response.output_item.done", scope: scopeItemDone})

	// Content parts of messages and reasoning items.
	add(event{name: "response.content_part.added", scope: scopePart, act: actOpen})
	add(event{name: "response.content_part.done", scope: scopePart, act: actClose})
	add(event{name: "response.output_text.delta", scope: scopePart, act: actText, item: "message", part: "output_text", delta: true})
	add(event{name: "response.output_text.done", scope: scopePart, act: actCheck, item: "message", part: "output_text"})
	add(event{name: "response.output_text.annotation.added", scope: scopePart, act: actCheck, item: "message", part: "output_text", annotation: true})
	add(event{name: "response.refusal.delta", scope: scopePart, act: actText, item: "message", part: "refusal", delta: true})
	add(event{name: "response.refusal.done", scope: scopePart, act: actCheck, item: "message", part: "refusal"})
	add(event{name: "response.reasoning_text.delta", scope: scopePart, act: actReasoning, item: "reasoning", part: "reasoning_text", delta: true})
	add(event{name: "response.reasoning_text.done", scope: scopePart, act: actCheck, item: "reasoning", part: "reasoning_text"})

	// Reasoning summary parts.
	add(event{name: "response.reasoning_summary_part.added", scope: scopeSummary, act: actOpen, item: "reasoning"})
	add(event{name: "response.reasoning_summary_part.done", scope: scopeSummary, act: actClose, item: "reasoning"})
	add(event{name: "response.reasoning_summary_text.delta", scope: scopeSummary, act: actReasoning, item: "reasoning", delta: true})
	add(event{name: "response.reasoning_summary_text.done", scope: scopeSummary, act: actCheck, item: "reasoning"})

	// Tool inputs.
	args := func(prefix, item string, noItemID bool) {
		add(event{name: prefix + ".delta", scope: scopeItem, act: actArgs, item: item, delta: true, noItemID: noItemID})
		add(event{name: prefix + ".done", scope: scopeItem, act: actCheck, item: item, noItemID: noItemID})
	}
	args("response.function_call_arguments", "function_call", false)
	args("response.custom_tool_call_input", "custom_tool_call", false)
	args("response.mcp_call_arguments", "mcp_call", false)
	args("response.code_interpreter_call_code", "code_interpreter_call", false)
	args("response.apply_patch_call_operation_diff", "apply_patch_call", false)
	args("response.shell_call_command", "shell_call", true)
	add(event{name: "response.shell_call_command.added", scope: scopeItem, act: actCheck, item: "shell_call", noItemID: true})
	// The shell output's delta is an object {stdout, stderr}, not a string.
	add(event{name: "response.shell_call_output_content.delta", scope: scopeItem, act: actCheck, item: "shell_call_output"})
	add(event{name: "response.shell_call_output_content.done", scope: scopeItem, act: actCheck, item: "shell_call_output"})

	// Hosted tool calls' status events.
	status := func(tool, phase string, a act, text string) {
		e := event{name: "response." + tool + "." + phase, scope: scopeItem, act: a, item: tool}
		if text != "" {
			e.line = line(text)
		}
		add(e)
	}
	status("web_search_call", "in_progress", actProgress, "web search: in progress")
	status("web_search_call", "searching", actProgress, "web search: searching")
	status("web_search_call", "completed", actToolDone, "")
	status("file_search_call", "in_progress", actProgress, "file search: in progress")
	status("file_search_call", "searching", actProgress, "file search: searching")
	status("file_search_call", "completed", actToolDone, "")
	status("code_interpreter_call", "in_progress", actProgress, "code interpreter: in progress")
	status("code_interpreter_call", "interpreting", actProgress, "code interpreter: interpreting")
	status("code_interpreter_call", "completed", actToolDone, "")
	status("image_generation_call", "in_progress", actProgress, "image generation: in progress")
	status("image_generation_call", "generating", actProgress, "image generation: generating")
	status("image_generation_call", "partial_image", actProgress, "image generation: partial image")
	status("image_generation_call", "completed", actToolDone, "")
	status("mcp_call", "in_progress", actProgress, "MCP call: in progress")
	status("mcp_call", "completed", actToolDone, "")
	status("mcp_call", "failed", actToolFailed, "")
	status("mcp_list_tools", "in_progress", actProgress, "MCP: listing tools")
	status("mcp_list_tools", "completed", actProgress, "MCP: tools listed")
	status("mcp_list_tools", "failed", actErrorLine, "MCP: listing tools failed")
	events["response.mcp_list_tools.completed"].settles = true
	events["response.mcp_list_tools.failed"].settles = true

	// Audio output: no item, a string delta for the two delta events.
	add(event{name: "response.audio.delta", scope: scopeNone, delta: true})
	add(event{name: "response.audio.done", scope: scopeNone})
	add(event{name: "response.audio.transcript.delta", scope: scopeNone, delta: true})
	add(event{name: "response.audio.transcript.done", scope: scopeNone})

	// The transport's keepalive: {type, sequence_number}, no item, no
	// content (openai-node src/lib/responses/ResponseAccumulator.ts
	// ResponseKeepAliveEvent, ignored by its accumulator).
	add(event{name: "keepalive", scope: scopeNone})

	// vLLM's own events for a reasoning_text content part
	// (vllm/entrypoints/openai/protocol.py ResponseReasoningPartAddedEvent,
	// a stand-in while openai-python's content_part.added did not type a
	// reasoning_text part, openai-python #2634): content_part.added /
	// .done by another name.
	add(event{name: "response.reasoning_part.added", scope: scopePart, act: actOpen, item: "reasoning", vendor: "vllm"})
	add(event{name: "response.reasoning_part.done", scope: scopePart, act: actClose, item: "reasoning", vendor: "vllm"})

	addLegacy(add)
}

// lookup finds a frame's event by its JSON type without allocating (the
// map index of a converted byte slice does not copy).
func lookup(typ decode.Raw) *event {
	if typ.Kind() != decode.KindString {
		return nil
	}
	in := typ[1 : len(typ)-1]
	for _, c := range in {
		if c == '\\' {
			s, _ := typ.Str()
			return events[s]
		}
	}
	return events[string(in)]
}

// Client-side tool items: the model asks, the client runs the tool and
// answers in its next request, so a call is complete (ready) at its
// output_item.done and may stay unanswered at response.completed.
var clientTools = []string{"function_call", "custom_tool_call", "local_shell_call", "shell_call", "apply_patch_call", "computer_call"}

// Hosted tool items: OpenAI runs them inside the response; each ends with
// its *.completed status event (or its output_item.done).
var hostedTools = []string{"web_search_call", "file_search_call", "code_interpreter_call", "image_generation_call", "mcp_call"}

func oneOf(r decode.Raw, set []string) bool {
	for _, s := range set {
		if r.StrEq(s) {
			return true
		}
	}
	return false
}

// Constants the moves carry (precomputed: mapping allocates nothing).
var (
	litSeq   = invariants.Lit("sequence_number")
	litError = invariants.Lit("error")
)
