package aisdkui

import (
	"framescope/decode"
	"framescope/invariants"
)

// readUsage hands the timing the message's output tokens where the server
// put them in its messageMetadata (docs/timing.md):
// the UI message stream carries no usage of its own; messageMetadata is the
// app's (toUIMessageStreamResponse's messageMetadata callback, on start,
// finish and message-metadata chunks). Read: outputTokens at its top, or
// in usage / totalUsage (the LanguageModelUsage the callback gets from the
// finish part). totalTokens (the docs' own example) counts the prompt too:
// not output tokens, not read. The chunks carry no timestamp (a metadata
// createdAt is the app's, once): no server stamps.
func readUsage(f *decode.Frame, m *invariants.Mapping) {
	if !m.WantsTiming() {
		return
	}
	md := f.Get("messageMetadata")
	if md.Kind() != decode.KindObject {
		return
	}
	var v [3]decode.Raw
	md.GetAll(v[:], "outputTokens", "usage", "totalUsage")
	for _, r := range [...]decode.Raw{v[0], v[1].Get("outputTokens"), v[2].Get("outputTokens")} {
		if n, ok := invariants.Int(r); ok {
			m.Usage(n)
			return
		}
	}
}
