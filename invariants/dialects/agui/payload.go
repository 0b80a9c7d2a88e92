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
	evRunStarted:  {req("threadId", kStr), req("runId", kStr), opt("parentRunId", kStr), opt("input", kObj)},
	evRunFinished: {req("threadId", kStr), req("runId", kStr), opt("usage", kArr)},
	evRunError:    {req("message", kStr), opt("code", kStr), opt("usage", kArr)},

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

	evStateDelta:       {req("delta", kArr)},
	evMessagesSnapshot: {req("messages", kArr)},
	evActivitySnapshot: {req("messageId", kStr), req("activityType", kStr), req("content", kObj), opt("replace", kBoo)},
	evActivityDelta:    {req("messageId", kStr), req("activityType", kStr), req("patch", kArr)},
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
		fd := &fields[i]
		v := f.Get(fd.name)
		switch {
		case v == nil:
			if !fd.opt {
				malformed(f, m, fd.name+" is absent, want "+wantName(fd))
				return false
			}
		case fd.null && v.Kind() == decode.KindNull:
		case fd.want != decode.KindNone && v.Kind() != fd.want:
			malformed(f, m, fd.name+" is "+invariants.KindName(v)+", want "+wantName(fd))
			return false
		case fd.enum != nil && !oneOf(v, fd.enum):
			malformed(f, m, fd.name+" is "+clipRaw(v)+", want "+wantName(fd))
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
	k := map[decode.Kind]string{kStr: "a string", kObj: "an object", kArr: "an array", kNum: "a number", kBoo: "a boolean"}[fd.want]
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
