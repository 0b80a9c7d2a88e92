package openairesponses

// Older shapes of the wire. The Responses API has changed its events since
// it shipped (2025-03-11); a stream recorded in an older shape is read as
// that shape: the first frame that shows it raises legacy-shape (info,
// once a stream) and nothing is reported per frame for what the shape
// lacks. Each shape is the one openai-python's types described at the
// time (src/openai/types/responses/, the commits named below).

const (
	// shapeNoSeq: no sequence_number on any event, openai-python 1.66.0
	// (2954945e, 2025-03-11) to 1.79 (sequence_number arrived with 1.80.0,
	// 4a81b4ed, 2025-05-21). Recorded: pydantic/pydantic-ai
	// tests/models/cassettes/test_openai_responses/test_openai_responses_stream.yaml.
	shapeNoSeq = "Responses before sequence_number (2025-03)"
	// shapeCodeDot: response.code_interpreter_call.code.delta / .done,
	// output_index only (1.66.0 to 1.97; renamed code_interpreter_call_code.*
	// with item_id in bf4a9a42, 2025-07-21).
	shapeCodeDot = "Responses code_interpreter_call.code.* (2025-03 to 2025-07)"
	// shapeMay: the 1.80–1.82 vocabulary (4a81b4ed, f588695f, 2025-05):
	// response.mcp_call.arguments_delta / arguments_done,
	// response.output_text_annotation.added, response.reasoning.delta /
	// .done, response.reasoning_summary.delta / .done, whose deltas were
	// objects; renamed or dropped in bf4a9a42 (2025-07-21).
	shapeMay = "Responses 2025-05 event names (mcp_call.arguments_delta, reasoning.delta, reasoning_summary.delta, output_text_annotation.added)"
)

// addLegacy adds the older event names, each mapped as the event that
// replaced it. Their deltas are not checked as strings where the shape
// typed them `object`: only a string delta becomes text.
func addLegacy(add func(event)) {
	add(event{name: "response.code_interpreter_call.code.delta", scope: scopeItem, act: actArgs, item: "code_interpreter_call", noItemID: true, legacy: shapeCodeDot})
	add(event{name: "response.code_interpreter_call.code.done", scope: scopeItem, act: actCheck, item: "code_interpreter_call", noItemID: true, legacy: shapeCodeDot})
	add(event{name: "response.mcp_call.arguments_delta", scope: scopeItem, act: actArgs, item: "mcp_call", legacy: shapeMay})
	add(event{name: "response.mcp_call.arguments_done", scope: scopeItem, act: actCheck, item: "mcp_call", legacy: shapeMay})
	add(event{name: "response.output_text_annotation.added", scope: scopePart, act: actCheck, item: "message", part: "output_text", legacy: shapeMay})
	add(event{name: "response.reasoning.delta", scope: scopePart, act: actReasoning, item: "reasoning", legacy: shapeMay})
	add(event{name: "response.reasoning.done", scope: scopePart, act: actCheck, item: "reasoning", legacy: shapeMay})
	add(event{name: "response.reasoning_summary.delta", scope: scopeSummary, act: actReasoning, item: "reasoning", legacy: shapeMay})
	add(event{name: "response.reasoning_summary.done", scope: scopeSummary, act: actCheck, item: "reasoning", legacy: shapeMay})
}
