package aisdkui

import (
	"strings"

	"framescope/decode"
	"framescope/invariants"
)

func label(f *decode.Frame) string { return invariants.TypeLabel(f) }

// signature: per hyphenated chunk type, the string field that makes it the
// AI SDK's (the type alone is already unlike every other dialect's
// vocabulary; the field guards against a stray look-alike).
var signature = map[string]string{
	"text-start": "id", "text-delta": "delta", "text-end": "id",
	"reasoning-start": "id", "reasoning-delta": "delta", "reasoning-end": "id",
	"tool-input-start": "toolCallId", "tool-input-delta": "toolCallId", "tool-input-available": "toolCallId",
	"tool-input-error": "toolCallId", "tool-approval-request": "toolCallId", "tool-approval-response": "approvalId",
	"tool-output-available": "toolCallId", "tool-output-error": "toolCallId", "tool-output-denied": "toolCallId",
	"source-url": "url", "source-document": "sourceId", "reasoning-file": "url", "reasoning-part-finish": "",
	"message-metadata": "",
	"start-step":       "", "finish-step": "", "reset-step": "",
}

// sniff: the hyphenated chunk types are the signature. `start`, `finish`,
// `abort`, `file`, `custom` and `error` are words other wires could use:
// they are Yes only with the AI SDK's own fields (a `start` with messageId,
// a `finish` with a finishReason string, an `error` with errorText), else
// Maybe — except an `error` shaped like another dialect's (an `error`
// object, a `code` or `message`), which is No.
func sniff(f *decode.Frame, foreign invariants.Keys) invariants.Verdict {
	typ := f.Get("type")
	if typ.Kind() != decode.KindString {
		return invariants.No
	}
	if foreign.In(f) {
		return invariants.No
	}
	name, _ := typ.Str()
	if field, ok := signature[name]; ok {
		if field == "" || f.Get(field).Kind() == decode.KindString {
			return invariants.Yes
		}
		return invariants.Maybe
	}
	switch name {
	case "start":
		return yesIf(f.Get("messageId").Kind() == decode.KindString)
	case "finish":
		return yesIf(f.Get("finishReason").Kind() == decode.KindString)
	case "abort":
		return yesIf(f.Get("reason").Kind() == decode.KindString)
	case "file":
		return yesIf(f.Get("url").Kind() == decode.KindString && f.Get("mediaType").Kind() == decode.KindString)
	case "custom":
		return invariants.Maybe
	case "error":
		if f.Get("error") != nil || f.Get("code") != nil || f.Get("message") != nil {
			return invariants.No
		}
		return yesIf(f.Get("errorText").Kind() == decode.KindString)
	}
	if strings.HasPrefix(name, "data-") && len(name) > len("data-") {
		return invariants.Yes
	}
	return invariants.No
}

func yesIf(b bool) invariants.Verdict {
	if b {
		return invariants.Yes
	}
	return invariants.Maybe
}
