package pipeline

import (
	"bytes"
	"fmt"
	"strings"

	"framescope/decode"
	"framescope/invariants"
	"framescope/sessions"
)

// A file of JSON values (raw NDJSON, or values as jq prints them) that
// holds a single value and no turn is no stream at all: a request body, a
// config file, a whole (non-streamed) response saved by mistake. Read as
// a stream it is one frame of plain sse and passed clean; not-a-stream
// (an error) says so, and what the value looks like instead.

// isJSONValues reports whether a capture's frames are JSON values the
// reader framed itself, one per value.
func isJSONValues(k sessions.Kind) bool {
	return k == sessions.KindRawNDJSON || k == sessions.KindJSONSeq
}

// describeValue says what a lone JSON value is ("a single JSON object
// with keys model, messages") and, when its keys tell, what it looks like.
func describeValue(data []byte) string {
	v := bytes.TrimSpace(data)
	if len(v) == 0 {
		return "a single empty value"
	}
	switch v[0] {
	case '[':
		return "a single JSON array: a stream is one value per frame, not an array of them"
	case '{':
	default:
		return "a single JSON value that is no object"
	}
	members, ok, err := decode.ScanObject(v, nil)
	if err != nil || !ok {
		return "a single JSON object"
	}
	var keys []string
	has := map[string]bool{}
	for _, m := range members {
		k := string(m.Key)
		has[k] = true
		if len(keys) < 8 {
			keys = append(keys, sessions.CleanShort(k, 40))
		}
	}
	what := "a single JSON object with no keys"
	if len(keys) > 0 {
		what = "a single JSON object with keys " + strings.Join(keys, ", ")
		if len(members) > len(keys) {
			what += fmt.Sprintf(" (and %d more)", len(members)-len(keys))
		}
	}
	if like := looksLike(has); like != "" {
		what += ": it looks like " + like
	}
	return what
}

// looksLike names what an object of these top-level keys usually is.
func looksLike(has map[string]bool) string {
	switch {
	case has["jsonrpc"] && has["method"]:
		return "a JSON-RPC request (what the client sent)"
	case has["messages"], has["prompt"], has["contents"], has["model"] && has["input"]:
		return "a request body (what the client sent)"
	case has["error"]:
		return "an error response body"
	case has["choices"], has["candidates"], has["output"], has["content"] && has["stop_reason"]:
		return "a whole response, not streamed (did the request ask for stream: true?)"
	}
	return ""
}

// remarkNotStream raises not-a-stream for a lone value that made no turn,
// unless an error already says what is wrong with it (frame-json on a
// broken value).
func remarkNotStream(chk invariants.Checker, what string) []invariants.Alarm {
	r, ok := chk.(invariants.Remarker)
	if !ok || chk.Counts().Error > 0 {
		return nil
	}
	return r.Remark("not-a-stream", invariants.SevError, invariants.NoFrame,
		"the capture holds "+what+"; no stream of frames to check")
}
