package agui

import (
	"strings"

	"framescope/decode"
	"framescope/invariants"
)

// field is one member of an event's zod schema (core/src/events.ts) that the
// client's EventSchemas.parse enforces: a frame that fails it errors the run
// in transform/http.ts, so it is payload-malformed here.
type field struct {
	name string
	want decode.Kind // KindNone: any JSON value (z.any)
	opt  bool        // .optional(): may be absent
	null bool        // .nullable(): null reads as absent
	enum []string    // allowed string values
	// check, when set, checks a present value of the right kind further
	// (schema.go: nested objects and arrays); it returns what is wrong.
	check func(decode.Raw) string
}

var (
	textRoles      = []string{"developer", "system", "assistant", "user"}
	toolRole       = []string{"tool"}
	reasoningRole  = []string{"reasoning"}
	encryptedTypes = []string{"tool-call", "message"}
)

func req(name string, k decode.Kind) field { return field{name: name, want: k} }
func opt(name string, k decode.Kind) field { return field{name: name, want: k, opt: true} }

const (
	kStr = decode.KindString
	kObj = decode.KindObject
	kArr = decode.KindArray
	kNum = decode.KindNumber
	kBoo = decode.KindBool
)

// base: BaseEventSchema, shared by every event. metadata is an object when
// present, never null (core/src/metadata.ts).
var base = []field{opt("timestamp", kNum), opt("metadata", kObj)}

// schemas lists the fields each event requires or types. TOOL_CALL_START's
// toolCallId and toolCallName are checked as tool-malformed instead
// (tool.go), and RUN_FINISHED's outcome in run.go.
var schemas = [...][]field{
	evRunStarted:  {req("threadId", kStr), req("runId", kStr), opt("parentRunId", kStr), {name: "input", want: kObj, opt: true, check: checkRunInput}},
	evRunFinished: {req("threadId", kStr), req("runId", kStr), {name: "usage", want: kArr, opt: true, check: checkUsage}},
	evRunError:    {req("message", kStr), opt("code", kStr), {name: "usage", want: kArr, opt: true, check: checkUsage}},

	evStepStarted:  {req("stepName", kStr)},
	evStepFinished: {req("stepName", kStr)},

	evTextStart:   {req("messageId", kStr), {name: "role", want: kStr, opt: true, enum: textRoles}, opt("name", kStr)},
	evTextContent: {req("messageId", kStr), req("delta", kStr)},
	evTextEnd:     {req("messageId", kStr)},
	evTextChunk:   {opt("messageId", kStr), {name: "role", want: kStr, opt: true, enum: textRoles}, opt("delta", kStr), opt("name", kStr)},

	evToolStart:  {{name: "parentMessageId", want: kStr, opt: true, null: true}},
	evToolArgs:   {req("toolCallId", kStr), req("delta", kStr)},
	evToolEnd:    {req("toolCallId", kStr)},
	evToolChunk:  {opt("toolCallId", kStr), opt("toolCallName", kStr), {name: "parentMessageId", want: kStr, opt: true, null: true}, opt("delta", kStr)},
	evToolResult: {req("messageId", kStr), req("toolCallId", kStr), req("content", kStr), {name: "role", want: kStr, opt: true, enum: toolRole}},

	evThinkingStart:      {opt("title", kStr)},
	evThinkingMsgContent: {req("delta", kStr)},

	evStateDelta:       {{name: "delta", want: kArr, check: checkPatch}},
	evMessagesSnapshot: {{name: "messages", want: kArr, check: checkMessages}},
	evActivitySnapshot: {req("messageId", kStr), req("activityType", kStr), req("content", kObj), opt("replace", kBoo)},
	evActivityDelta:    {req("messageId", kStr), req("activityType", kStr), {name: "patch", want: kArr, check: checkPatch}},
	evRaw:              {opt("source", kStr)},
	evCustom:           {req("name", kStr)},

	evReasoningStart:      {req("messageId", kStr)},
	evReasoningMsgStart:   {req("messageId", kStr), {name: "role", want: kStr, enum: reasoningRole}},
	evReasoningMsgContent: {req("messageId", kStr), req("delta", kStr)},
	evReasoningMsgEnd:     {req("messageId", kStr)},
	evReasoningMsgChunk:   {opt("messageId", kStr), opt("delta", kStr)},
	evReasoningEnd:        {req("messageId", kStr)},
	evReasoningEncrypted:  {{name: "subtype", want: kStr, enum: encryptedTypes}, req("entityId", kStr), req("encryptedValue", kStr)},
}

// checkPayload raises payload-malformed for the first field of the frame's
// schema it breaks (one alarm per frame). Nothing is formatted unless a
// field is wrong.
func checkPayload(f *decode.Frame, t evType, m *invariants.Mapping) bool {
	if !checkFields(f, base, m) {
		return false
	}
	if int(t) < len(schemas) {
		return checkFields(f, schemas[t], m)
	}
	return true
}

func checkFields(f *decode.Frame, fields []field, m *invariants.Mapping) bool {
	for i := range fields {
		if what := checkField(&fields[i], f.Get(fields[i].name)); what != "" {
			malformed(f, m, what)
			return false
		}
	}
	return true
}

func malformed(f *decode.Frame, m *invariants.Mapping, what string) {
	m.Malformed(label(f), what)
}

func oneOf(v decode.Raw, vals []string) bool {
	for _, s := range vals {
		if v.StrEq(s) {
			return true
		}
	}
	return false
}

func wantName(fd *field) string {
	if fd.enum != nil {
		return "one of " + strings.Join(fd.enum, ", ")
	}
	k, ok := map[decode.Kind]string{kStr: "a string", kObj: "an object", kArr: "an array", kNum: "a number", kBoo: "a boolean"}[fd.want]
	if !ok {
		k = "a value"
	}
	if fd.null {
		k += " or null"
	}
	return k
}

// clipRaw renders a JSON value for a message.
func clipRaw(v decode.Raw) string {
	if s, ok := v.Str(); ok {
		return `"` + decode.Clip(s, 40) + `"`
	}
	return decode.Clip(string(v), 40)
}
