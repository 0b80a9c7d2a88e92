package openaichat

import (
	"strconv"
	"strings"

	"framescope/decode"
)

// An openai-chat stream labels every chunk "chat.completion.chunk"
// (OpenAI API reference, "The chat completion chunk object"): the
// timeline's type column told no row from the next. It shows instead what
// the chunk carries (Spec.RowLabelOf) — the parts of choices[].delta a
// client reads (content, reasoning, refusal, tool_calls[i] with its
// function name), the finish_reason, usage — so a turn reads down the
// column. Alarm messages keep the object's label.

// carries describes what chunk fr carries ("" when it is not a chunk: the
// row keeps its label).
func carries(fr *decode.Frame) string {
	if fr == nil || !fr.Decoded() || label(fr) != "chat.completion.chunk" {
		return ""
	}
	data := decode.Raw(fr.Data)
	var parts []string
	choices := data.Get("choices")
	many := choices.Len() > 1
	cIt := choices.Elements()
	for c, more2 := cIt.Next(); more2; c, more2 = cIt.Next() {
		var f [3]decode.Raw
		c.GetAll(f[:], "index", "delta", "finish_reason")
		prefix := ""
		if idx, ok := f[0].Int(); ok && (idx != 0 || many) {
			prefix = "[" + strconv.FormatInt(idx, 10) + "] "
		}
		d := f[1]
		for _, k := range []string{"content", "reasoning_content", "reasoning", "refusal"} {
			if d.Get(k).IsNonEmptyStr() {
				parts = append(parts, prefix+strings.TrimSuffix(k, "_content"))
			}
		}
		tcIt := d.Get("tool_calls").Elements()
		for tc, more := tcIt.Next(); more; tc, more = tcIt.Next() {
			i, _ := tc.Get("index").Int()
			s := "tool_calls[" + strconv.FormatInt(i, 10) + "]"
			if name, ok := tc.Get("function").Get("name").NonEmptyStr(); ok {
				s += " " + decode.Sanitize(name)
			}
			parts = append(parts, prefix+s)
		}
		if fin, ok := f[2].NonEmptyStr(); ok {
			parts = append(parts, prefix+"finish: "+decode.Sanitize(fin))
		}
	}
	if u := data.Get("usage"); len(u) > 0 && u.Kind() == decode.KindObject {
		parts = append(parts, "usage")
	}
	if len(parts) == 0 {
		role := ""
		cIt2 := choices.Elements()
		for c, ok := cIt2.Next(); ok; c, ok = cIt2.Next() {
			role, _ = c.Get("delta").Get("role").NonEmptyStr()
			break
		}
		if role != "" {
			return "role: " + decode.Sanitize(role) // the first chunk
		}
		return "chunk"
	}
	return strings.Join(parts, ", ")
}
