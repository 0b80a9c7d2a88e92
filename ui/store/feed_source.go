package store

import (
	"context"
	"fmt"
	"time"

	"framescope/decode"
	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/pipeline"
	"framescope/sessions/report"
)

// Source is something the feeder can run: a capture, a live connection, a
// demo (their constructors are package ui/source's, which does the I/O:
// the store only keeps what the source hands the feeder).
type Source struct {
	Name string
	Live bool
	// Run reads the stream to its end, feeding f: it readies f (Capture or
	// Live), runs the pipeline with the handler it returned, and must call
	// f.Finish.
	Run func(ctx context.Context, f *Feeder)
}

// Capture readies the feeder for a capture's items and returns the
// handler to run the pipeline with: the rows' bytes are read back from
// file (nil: the feeder spills them), and the capture's recorded HTTP
// exchange (m), if it has one, is the connection shown, its error page
// added once the pipeline read it.
func (f *Feeder) Capture(file ByteSource, m sessions.Meta) pipeline.Handler {
	f.keepBytes(file)
	h := f.handler()
	if m.HTTP {
		resp := responseFromMeta(m)
		f.SetConn(ConnUpdate{State: ConnOpen, HTTPStatus: m.Status, Response: resp})
		h.OnErrorBody = func(body []byte, more bool) { f.SetConn(withErrorBody(resp, body, more)) }
	} else {
		f.SetConn(ConnUpdate{State: ConnOpen})
	}
	return h
}

// Live readies the feeder for a live session's items (their bytes
// spilled) and returns the handler to run the session with; the source
// says the response with SetConn once it is known.
func (f *Feeder) Live() pipeline.Handler {
	f.keepBytes(nil)
	return f.handler()
}

// EndOf is how a capture's pipeline run ended (res nil: it did not run),
// and the checker's turns at the end.
func EndOf(res *pipeline.Result, err error) (invariants.End, []invariants.Turn) {
	var e invariants.End
	var turns []invariants.Turn
	if res != nil {
		e, turns = res.End, res.Turns
		e.Detail = decode.Sanitize(e.Detail)
	}
	if err != nil {
		e.Kind, e.Detail = "error", decode.Sanitize(err.Error())
	}
	if e.Kind == "" {
		e.Kind = "eof"
	}
	return e, turns
}

// SessionEnd is how a live session that ran for took ended: its report's
// end (rep nil: it made none, eof), with err's detail unless that end is
// an error already, and the checker's turns.
func SessionEnd(rep *report.Report, took time.Duration, err error) (invariants.End, []invariants.Turn) {
	var e invariants.End
	var turns []invariants.Turn
	if rep != nil {
		e, turns = invariants.End{Kind: rep.End.Kind, Detail: decode.Sanitize(rep.End.Detail)}, rep.Turns
		if err != nil && e.Kind != "error" {
			e.Detail = decode.Sanitize(err.Error())
		}
	}
	if e.Kind == "" {
		e.Kind = "eof"
	}
	e.At, e.HasTime = took, true
	return e, turns
}

// ErrorEnd is the end of a source that could not run: err says why (and
// no turns).
func ErrorEnd(err error) (invariants.End, []invariants.Turn) {
	return invariants.End{Kind: "error", Detail: decode.Sanitize(fmt.Sprint(err))}, nil
}
