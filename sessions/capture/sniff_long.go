package capture

import (
	"strings"

	"framescope/sessions"
)

// longFirstValue decides the kind of an input whose first JSON object is
// well-formed as far as the sniff window goes but ends beyond it; keys are
// the top-level keys the window shows (the last one's value cut off), and
// lineEnded says the object's first line ended inside the window.
//
// The window is never widened: an input is sniffed on its first 64 KiB,
// from a file or a pipe alike. A HAR's top level is its "log" (HAR 1.2),
// beside custom "_" members or a comment, and a stream's first frame has
// keys of its own. So an object whose keys are HAR's only (a long comment
// before the log) is read as a HAR, which says what is wrong if it is
// none; any other is a stream's first value, longer than the window (an
// Ollama frame holding a long message): a raw NDJSON line when its first
// line did not end in the window, else a value printed over lines (JSON
// values, as jq prints them).
func longFirstValue(keys []string, lineEnded bool) sessions.Kind {
	harOnly := true
	for _, k := range keys {
		harOnly = harOnly && (k == "comment" || strings.HasPrefix(k, "_"))
	}
	switch {
	case harOnly:
		return sessions.KindHAR
	case lineEnded:
		return sessions.KindJSONSeq
	}
	return sessions.KindRawNDJSON
}
