package store

import (
	"fmt"
	"strconv"
	"strings"

	"framescope/decode"
)

// movesSummary is the one-line description of a frame of a dialect that
// words no summary of its own (invariants.Wording.Summary; sanitized). The timeline's type column already shows the
// event's name, so the summary leads with what tells frames of one type
// apart: the text a delta carries, a tool's name, a stop reason, a status;
// then the other short fields. Envelope fields (type, counters, stream and
// conversation ids, timestamps) are left out: they are the same on every
// frame or are already in their own column.
func movesSummary(fr *decode.Frame) string {
	switch {
	case fr == nil:
		return ""
	case fr.Done:
		return "end-of-stream sentinel"
	case fr.Oversized:
		return fmt.Sprintf("oversized event: %d bytes not kept", fr.Size)
	case !fr.Decoded():
		// Some dialects carry data that is no JSON object by design
		// (langgraph's arrays and null, MCP's endpoint path and priming
		// event): the data is shown as it is; frame-json says when a
		// dialect wanted an object.
		switch {
		case len(fr.Data) == 0:
			return "(empty data)"
		case fr.Problem == decode.ProblemNotObject:
			return decode.SafePrefix(fr.Data, 200)
		}
		return "text: " + decode.SafePrefix(fr.Data, 200)
	}
	var texts, tools, names, rest []string
	budget := 40
	var walk func(prefix string, v decode.Raw, depth int)
	walk = func(prefix string, v decode.Raw, depth int) {
		it := v.Members()
		for kRaw, esc, val, ok := it.Next(); ok; kRaw, esc, val, ok = it.Next() {
			if budget <= 0 {
				break
			}
			k := string(decode.DecodedKey(kRaw, esc))
			if depth == 0 && envelopeKey[k] {
				continue
			}
			// A key is frame text like any value: it is drawn sanitized
			// (the sets below are looked up by the key as sent).
			shown := decode.Sanitize(k)
			path := shown
			if prefix != "" {
				path = prefix + "." + shown
			}
			switch val.Kind() {
			case decode.KindObject:
				if depth < 4 {
					walk(path, val, depth+1)
				}
			case decode.KindArray:
				if n := val.Len(); n > 0 && depth < 4 {
					eIt := val.Elements()
					for e, ok := eIt.Next(); ok; e, ok = eIt.Next() {
						if e.Kind() == decode.KindObject {
							walk(path+"[0]", e, depth+1)
						}
						break
					}
				}
			default:
				budget--
				text := leafText(val)
				switch {
				case textKey[k] && val.StrEq(""):
					// An empty delta (a tool call's first arguments) says
					// nothing: the name beside it leads.
				case textKey[k] && val.Kind() == decode.KindString && !snapshotPath(path):
					texts = append(texts, text)
				case toolNameKey[k]:
					tools = append(tools, shown+"="+text)
				case nameKey[k]:
					names = append(names, shown+"="+text)
				default:
					rest = append(rest, path+"="+text)
				}
			}
		}
	}
	walk("", decode.Raw(fr.Data), 0)
	s := strings.Join(append(append(append(texts, tools...), names...), rest...), "  ")
	if s == "" {
		return "{}"
	}
	return decode.Cut(s, 400)
}

// leafText renders a scalar: strings quoted and sanitized, others as sent.
// The quoting comes first, so a newline in the text reads "\n" and a
// backslash "\\", as in the JSON (quoting sanitized text escaped the
// sanitizer's backslash again: a newline read "\\n"); the sanitizer then
// sees only what quoting leaves printable.
func leafText(v decode.Raw) string {
	if s, ok := v.Str(); ok {
		return decode.Sanitize(strconv.Quote(decode.Cut(s, 200)))
	}
	return decode.Sanitize(decode.Cut(string(v), 40))
}

// envelopeKey: top-level keys that say nothing about this one frame.
var envelopeKey = setOf("type", "kind", "object", "event", "schema", "sequence_number", "eventSeq", "event_id",
	"seq_no", "stream_id", "streamId", "conversation_id", "conversationId", "server_timestamp", "timestamp",
	"createdAt", "created", "created_at", "system_fingerprint", "threadId", "agentIdUsed", "agentName", "model")

// textKey: fields whose string value is text the user reads.
var textKey = setOf("delta", "text", "content", "partial_json", "thinking", "payload", "narration", "message",
	"errorText", "refusal", "arguments", "summary", "reasoning_content", "response")

// snapshotPath: a field of the whole response an event carries
// (openai-responses response.created / .completed): its texts are the
// response's settings and the finished output, not what this frame adds
// (reasoning.summary "auto" led response.created's summary).
func snapshotPath(path string) bool { return strings.HasPrefix(path, "response.") }

// toolNameKey: fields that name a tool; they lead the names (a tool
// call's chunk led with its index, index=0 index=0, before the name).
var toolNameKey = setOf("name", "toolName", "tool_name")

// nameKey: fields that name what the frame is about.
// Ids come after them, with the other fields: long, and the same on every
// frame of a span.
var nameKey = setOf("stop_reason", "finish_reason", "finishReason", "status",
	"stepName", "role", "code", "index", "output_index", "modality")

func setOf(keys ...string) map[string]bool {
	m := make(map[string]bool, len(keys))
	for _, k := range keys {
		m[k] = true
	}
	return m
}
