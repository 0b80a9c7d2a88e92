package proxy

import (
	"bytes"
	"testing"
	"time"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/internal/sessiontest"
)

// FuzzNDJSONAsSSE: an NDJSON body read as SSE gives one "data:" event
// per line that is not blank (its CR end dropped, the last line counted
// without its LF), whatever the read boundaries, and the bytes of a line
// are passed as they are.
func FuzzNDJSONAsSSE(f *testing.F) {
	f.Add([]byte("{\"a\":1}\n{\"b\":2}\r\n\n  \n{\"c\":3}"), []byte{3, 9, 1})
	f.Add([]byte("{\"message\":{\"content\":\"hi\"},\"done\":false}\n{\"done\":true}\n"), []byte{40})
	f.Add([]byte("\n\n\r\n"), []byte{0, 1})
	f.Fuzz(func(t *testing.T, data, cuts []byte) {
		var want []byte
		for _, l := range bytes.Split(data, []byte("\n")) {
			if bytes.IndexByte(bytes.TrimRight(l, "\r"), '\r') >= 0 {
				return // a CR inside a line (invalid JSON) would end an SSE line
			}
			if len(bytes.TrimSpace(l)) > 0 {
				want = appendSSELine(want, l)
			}
		}
		tp := newTap(sessions.Meta{}, time.Now(), 1<<30, &queueBudget{limit: 1 << 30}, nil)
		rest := data
		for _, c := range cuts {
			n := min(int(c), len(rest))
			tp.push(rest[:n])
			rest = rest[n:]
		}
		tp.push(rest)
		tp.finish(invariants.End{Kind: invariants.EndEOF})
		if got := sessiontest.Drain(t, ndjsonAsSSE(tp)).Data; !bytes.Equal(got, want) {
			t.Fatalf("got\n%q\nwant\n%q", got, want)
		}
	})
}
