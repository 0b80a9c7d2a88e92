package ollama

import (
	"strconv"
	"strings"

	"framescope/decode"
)

// Every line of an Ollama stream is labelled by its endpoint alone
// ("chat", "generate"): the timeline's type column told no row from the
// next. It shows instead what the line carries (Spec.RowLabelOf) — the
// members a client reads (docs/api.md "Generate a completion" and "Generate
// a chat completion": thinking, response / message.content, whole
// message.tool_calls with their function names), and on the last line
// done_reason — so a turn reads down the column. Alarm messages keep the
// endpoint label.

// carries describes what line f carries ("" when nothing the client reads:
// the row keeps its label).
func carries(f *decode.Frame) string {
	if f == nil || !f.Decoded() {
		return ""
	}
	var parts []string
	on := decode.Raw(f.Data)
	text := "response"
	if msg := f.Get("message"); msg != nil {
		on, text = msg, "content"
	}
	if on.Get("thinking").IsNonEmptyStr() {
		parts = append(parts, "thinking")
	}
	if on.Get(text).IsNonEmptyStr() {
		parts = append(parts, text)
	}
	i := 0
	tcIt := on.Get("tool_calls").Elements()
	for tc, more := tcIt.Next(); more; tc, more = tcIt.Next() {
		s := "tool_calls[" + strconv.Itoa(i) + "]"
		if name, ok := tc.Get("function").Get("name").NonEmptyStr(); ok {
			s += " " + decode.Sanitize(name)
		}
		parts = append(parts, s)
		i++
	}
	if done, _ := f.Get("done").Bool(); done {
		d := "done"
		if r, ok := f.Get("done_reason").NonEmptyStr(); ok {
			d += ": " + decode.Sanitize(r)
		}
		parts = append(parts, d)
	}
	return strings.Join(parts, ", ")
}
