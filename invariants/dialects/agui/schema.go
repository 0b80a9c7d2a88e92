package agui

import (
	"bytes"
	"math"
	"strconv"

	"framescope/decode"
	"framescope/invariants"
)

// The nested zod schemas EventSchemas.parse walks (core/src/types.ts,
// core/src/events.ts): the messages of MESSAGES_SNAPSHOT and of RUN_STARTED's
// input, the input itself, the usage entries of RUN_FINISHED and RUN_ERROR,
// and the interrupts of an interrupt outcome. A value that fails one fails
// the whole event's parse, and transform/http.ts errors the run: so each is
// payload-malformed, named by its path. The objects are zod's default
// (non-strict) objects: members they do not list are allowed. An optional
// member may be absent but not null (z.string().optional() rejects null).
//
// Each check returns what is wrong, "" when nothing is; a message is built
// only for a failure.

var (
	messageRoles = []string{"developer", "system", "assistant", "user", "tool", "activity", "reasoning"}
	functionType = []string{"function"}
	resumeStatus = []string{"resolved", "cancelled"}

	// metaField: OptionalMetadataSchema, an object when present.
	metaField = opt("metadata", kObj)

	// BaseMessageSchema with content required (developer, system).
	contentMessage = []field{req("id", kStr), req("content", kStr), opt("name", kStr), opt("encryptedValue", kStr), metaField}
	// AssistantMessageSchema.
	assistantMessage = []field{req("id", kStr), opt("content", kStr), opt("name", kStr), opt("encryptedValue", kStr), metaField,
		{name: "toolCalls", want: kArr, opt: true, check: func(v decode.Raw) string { return eachOf(v, checkToolCall) }}}
	// UserMessageSchema: content a string or an array of input parts.
	userMessage = []field{req("id", kStr), {name: "content", check: checkUserContent}, opt("name", kStr), opt("encryptedValue", kStr), metaField}
	// ToolMessageSchema.
	toolMessage = []field{req("id", kStr), req("content", kStr), req("toolCallId", kStr), opt("error", kStr), opt("encryptedValue", kStr), metaField}
	// ActivityMessageSchema.
	activityMessage = []field{req("id", kStr), req("activityType", kStr), req("content", kObj), metaField}
	// ReasoningMessageSchema.
	reasoningMessage = []field{req("id", kStr), req("content", kStr), opt("encryptedValue", kStr), metaField}

	// ToolCallSchema and FunctionCallSchema.
	toolCallFields = []field{req("id", kStr), {name: "type", want: kStr, enum: functionType},
		{name: "function", want: kObj, check: func(v decode.Raw) string { return checkObj(v, functionFields) }},
		opt("encryptedValue", kStr), metaField}
	functionFields = []field{req("name", kStr), req("arguments", kStr)}

	// RunAgentInputSchema, and its tools, context and resume entries.
	runInputFields = []field{req("threadId", kStr), req("runId", kStr), opt("parentRunId", kStr),
		{name: "messages", want: kArr, check: checkMessages},
		{name: "tools", want: kArr, check: func(v decode.Raw) string { return eachObj(v, toolFields) }},
		{name: "context", want: kArr, check: func(v decode.Raw) string { return eachObj(v, contextFields) }},
		{name: "resume", want: kArr, opt: true, check: func(v decode.Raw) string { return eachObj(v, resumeFields) }}}
	toolFields    = []field{req("name", kStr), req("description", kStr), opt("metadata", kObj)}
	contextFields = []field{req("description", kStr), req("value", kStr)}
	resumeFields  = []field{req("interruptId", kStr), {name: "status", want: kStr, enum: resumeStatus}, metaField}

	// TokenUsageSchema: counts are non-negative integers.
	usageFields = []field{opt("provider", kStr), opt("model", kStr),
		{name: "inputTokens", opt: true, check: checkCount}, {name: "outputTokens", opt: true, check: checkCount},
		{name: "totalTokens", opt: true, check: checkCount}, {name: "reasoningTokens", opt: true, check: checkCount},
		{name: "cachedInputTokens", opt: true, check: checkCount}}

	// InterruptSchema.
	interruptFields = []field{req("id", kStr), req("reason", kStr), opt("message", kStr), opt("toolCallId", kStr),
		opt("responseSchema", kObj), opt("expiresAt", kStr), opt("metadata", kObj)}

	// The input parts of a user message (InputContentSchema) and their sources.
	textPart   = []field{req("text", kStr)}
	mediaPart  = []field{{name: "source", want: kObj, check: checkSource}}
	binaryPart = []field{req("mimeType", kStr), opt("id", kStr), opt("url", kStr), opt("data", kStr), opt("filename", kStr)}
	dataSource = []field{req("value", kStr), req("mimeType", kStr)}
	urlSource  = []field{req("value", kStr), opt("mimeType", kStr)}
)

// checkObj checks an object's members against fields; the first failure is
// reported.
func checkObj(v decode.Raw, fields []field) string {
	if v.Kind() != decode.KindObject {
		return "is " + invariants.KindName(v) + ", want an object"
	}
	for i := range fields {
		if what := checkField(&fields[i], v.Get(fields[i].name)); what != "" {
			return what
		}
	}
	return ""
}

// checkField checks one member's value v (nil when absent).
func checkField(fd *field, v decode.Raw) string {
	switch {
	case v == nil:
		if !fd.opt {
			return fd.name + " is absent, want " + wantName(fd)
		}
	case fd.null && v.Kind() == decode.KindNull:
	case fd.want != decode.KindNone && v.Kind() != fd.want:
		return fd.name + " is " + invariants.KindName(v) + ", want " + wantName(fd)
	case fd.enum != nil && !oneOf(v, fd.enum):
		return fd.name + " is " + clipRaw(v) + ", want " + wantName(fd)
	case fd.check != nil:
		if what := fd.check(v); what != "" {
			if what[0] == '[' {
				return fd.name + what
			}
			return fd.name + " " + what
		}
	}
	return ""
}

// eachOf checks every element of an array; the first failure is named by
// its index.
func eachOf(v decode.Raw, check func(decode.Raw) string) string {
	what, i := "", 0
	eIt := v.Elements()
	for e, ok := eIt.Next(); ok; e, ok = eIt.Next() {
		if w := check(e); w != "" {
			what = "[" + strconv.Itoa(i) + "]"
			if w[0] == '[' {
				what += w
			} else {
				what += " " + w
			}
			break
		}
		i++
	}
	return what
}

// eachObj checks every element of an array against one object schema.
func eachObj(v decode.Raw, fields []field) string {
	what, i := "", 0
	eIt := v.Elements()
	for e, ok := eIt.Next(); ok; e, ok = eIt.Next() {
		if w := checkObj(e, fields); w != "" {
			what = "[" + strconv.Itoa(i) + "] " + w
			break
		}
		i++
	}
	return what
}

// checkMessages: an array of MessageSchema, a union on role.
func checkMessages(v decode.Raw) string { return eachOf(v, checkMessage) }

func checkMessage(v decode.Raw) string {
	if v.Kind() != decode.KindObject {
		return "is " + invariants.KindName(v) + ", want a message object"
	}
	role := v.Get("role")
	var fields []field
	switch {
	case role.StrEq("developer"), role.StrEq("system"):
		fields = contentMessage
	case role.StrEq("assistant"):
		fields = assistantMessage
	case role.StrEq("user"):
		fields = userMessage
	case role.StrEq("tool"):
		fields = toolMessage
	case role.StrEq("activity"):
		fields = activityMessage
	case role.StrEq("reasoning"):
		fields = reasoningMessage
	default:
		fd := field{name: "role", enum: messageRoles}
		if role == nil {
			return "role is absent, want " + wantName(&fd)
		}
		return "role is " + clipRaw(role) + ", want " + wantName(&fd)
	}
	return checkObj(v, fields)
}

func checkToolCall(v decode.Raw) string { return checkObj(v, toolCallFields) }

// checkUserContent: a string, or an array of input parts (a union on type).
func checkUserContent(v decode.Raw) string {
	switch v.Kind() {
	case decode.KindString:
		return ""
	case decode.KindArray:
		return eachOf(v, checkInputPart)
	}
	return "is " + invariants.KindName(v) + ", want a string or an array of input parts"
}

func checkInputPart(v decode.Raw) string {
	if v.Kind() != decode.KindObject {
		return "is " + invariants.KindName(v) + ", want an input part object"
	}
	typ := v.Get("type")
	switch {
	case typ.StrEq("text"):
		return checkObj(v, textPart)
	case typ.StrEq("image"), typ.StrEq("audio"), typ.StrEq("video"), typ.StrEq("document"):
		return checkObj(v, mediaPart)
	case typ.StrEq("binary"):
		if what := checkObj(v, binaryPart); what != "" {
			return what
		}
		// BinaryInputContent needs one of id, url or data (non-empty).
		if !v.Get("id").IsNonEmptyStr() && !v.Get("url").IsNonEmptyStr() && !v.Get("data").IsNonEmptyStr() {
			return "a binary part has none of id, url, data"
		}
		return ""
	}
	return "type is " + clipRaw(typ) + `, want "text", "image", "audio", "video", "document" or "binary"`
}

// checkSource: an input part's source, a union on type.
func checkSource(v decode.Raw) string {
	typ := v.Get("type")
	switch {
	case typ.StrEq("data"):
		return checkObj(v, dataSource)
	case typ.StrEq("url"):
		return checkObj(v, urlSource)
	}
	return "type is " + clipRaw(typ) + `, want "data" or "url"`
}

// checkCount: a token count, a non-negative integer (z.number().int()
// .nonnegative(): 2.0 is an integer in JavaScript, -0 is not negative).
// Read without allocating; a number with an exponent (rare) is parsed.
func checkCount(v decode.Raw) string {
	if v.Kind() != decode.KindNumber {
		return "is " + invariants.KindName(v) + ", want a non-negative integer"
	}
	if bytes.IndexAny(v, "eE") >= 0 {
		f, err := strconv.ParseFloat(string(v), 64)
		if err == nil && f >= 0 && f == math.Trunc(f) && !math.IsInf(f, 0) {
			return ""
		}
		return "is " + clipRaw(v) + ", want a non-negative integer"
	}
	digits := v
	if digits[0] == '-' {
		digits = digits[1:]
	}
	nonZero, fraction := false, false
	for _, c := range digits {
		switch {
		case c == '.':
			fraction = true
		case c >= '1' && c <= '9':
			nonZero = true
			if fraction {
				return "is " + clipRaw(v) + ", want a non-negative integer"
			}
		}
	}
	if v[0] == '-' && nonZero {
		return "is " + clipRaw(v) + ", want a non-negative integer"
	}
	return ""
}

func checkUsage(v decode.Raw) string         { return eachObj(v, usageFields) }
func checkRunInput(v decode.Raw) string      { return checkObj(v, runInputFields) }
func checkInterruptList(v decode.Raw) string { return eachObj(v, interruptFields) }

// checkPatch: a JSON Patch (RFC 6902) as fast-json-patch's applyPatch
// validates it, which the client's reducer (apply/default.ts) runs on
// STATE_DELTA's delta and ACTIVITY_DELTA's patch: each operation an object
// with a known op, a path that is "" or starts with "/", a string from for
// move and copy, a value for add, replace and test. A bad operation throws
// inside applyPatch; the reducer catches it with a console warning and
// drops the whole patch, so the client's state silently diverges from the
// server's. (Whether a path exists in the state is not checked: framescope
// does not keep the state.)
func checkPatch(v decode.Raw) string { return eachOf(v, checkPatchOp) }

var patchOps = []string{"add", "remove", "replace", "move", "copy", "test", "_get"}

func checkPatchOp(v decode.Raw) string {
	if v.Kind() != decode.KindObject {
		return "is " + invariants.KindName(v) + ", want a JSON Patch operation object"
	}
	op := v.Get("op")
	if !oneOf(op, patchOps) {
		if op == nil {
			return "op is absent, want add, remove, replace, move, copy or test"
		}
		return "op is " + clipRaw(op) + ", want add, remove, replace, move, copy or test"
	}
	path := v.Get("path")
	if path.Kind() != decode.KindString {
		return "path is " + invariants.KindName(path) + ", want a JSON Pointer string"
	}
	if len(path) > 2 && path[1] != '/' {
		return "path is " + clipRaw(path) + `, want "" or a JSON Pointer starting with "/"`
	}
	switch {
	case op.StrEq("move"), op.StrEq("copy"):
		if from := v.Get("from"); from.Kind() != decode.KindString {
			return "from is " + invariants.KindName(from) + ", want a JSON Pointer string (" + clipRaw(op) + ")"
		}
	case op.StrEq("add"), op.StrEq("replace"), op.StrEq("test"):
		if v.Get("value") == nil {
			return "value is absent (" + clipRaw(op) + " needs one)"
		}
	}
	return ""
}
