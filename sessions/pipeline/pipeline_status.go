package pipeline

import (
	"errors"
	"io"

	"framescope/invariants"
	"framescope/sessions"
)

// A response whose status is not 2xx is an error page, not a turn stream:
// a client stops at the status and never reads the body as events. So the
// pipeline does not frame it either — no truncated-event rows, no
// terminal-missing, no dialect rule piled on top of http-status. This is
// the one place that choice is made; check, dump, open, connect and record
// all run through Run, so they agree.

// ErrorBodyMax is how much of a non-2xx body the pipeline keeps for
// display (Result.ErrorBody, Handler.OnErrorBody).
const ErrorBodyMax = 64 << 10

// StatusFailed reports whether m describes an HTTP response whose status
// is not 2xx (its body is then not read as SSE). A status below 100 is no
// HTTP status at all — a HAR writes 0 for a request still in flight or
// aborted when it was exported — so such a body is read as the stream it
// may hold (http-status still fires: no 2xx was seen).
func StatusFailed(m sessions.Meta) bool {
	return m.HTTP && m.Status >= 100 && (m.Status < 200 || m.Status > 299)
}

// runFailedStatus reads the body of a non-2xx response to its end without
// framing it: only the HTTP alarms (http-status, content-type when it
// applies) and damage to the capture file itself are raised. The first
// ErrorBodyMax bytes go to res.ErrorBody and h.OnErrorBody.
func runFailedStatus(c sessions.Capture, d invariants.Dialect, opts invariants.Options, h Handler, res *Result) (*Result, error) {
	meta := res.Meta
	res.Dialect = d.Name()
	chk := d.NewChecker(opts)
	if h.OnDialect != nil {
		h.OnDialect(d)
	}
	alarmsOut := func(a []invariants.Alarm) {
		if len(a) > 0 && h.OnAlarms != nil {
			h.OnAlarms(a)
		}
	}
	alarmsOut(chk.HTTP(meta.Status, meta.ContentType))
	problems := func() {
		for _, p := range c.TakeProblems() {
			handProblem(&h, chk, meta.Name, &p)
		}
	}
	body := []byte{}
	truncated := false
	var readErr error
	for {
		chunk, err := c.Next()
		problems()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				readErr = err
			}
			break
		}
		res.Bytes += int64(len(chunk.Data))
		room := ErrorBodyMax - len(body)
		if len(chunk.Data) > room {
			truncated = true
			body = append(body, chunk.Data[:max(room, 0)]...)
		} else {
			body = append(body, chunk.Data...)
		}
	}
	res.End = c.End()
	problems()
	if readErr != nil {
		res.End = invariants.End{Kind: invariants.EndError, Detail: readErr.Error()}
	}
	res.ErrorBody, res.ErrorBodyTruncated = body, truncated
	if h.OnErrorBody != nil {
		h.OnErrorBody(body, truncated)
	}
	res.Turns = chk.Turns()
	res.Counts = chk.Counts()
	return res, readErr
}
