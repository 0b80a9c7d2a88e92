package proxy

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"framescope/decode"
	"framescope/sessions"
	"framescope/sessions/faults"
)

// FaultHeader names the faults applied to a stream, in the response the
// app gets and so in the capture recorded of it: a faulted stream never
// passes for the upstream's own.
const FaultHeader = "X-Framescope-Fault"

// prepareFault readies a faulted stream's response headers (the app's)
// and its capture's Meta: the fault named, Content-Length dropped (the
// faults change the body's length), Content-Encoding: gzip under --fault
// gzip (the capture then holds the decoded bytes: Meta.DecodedFrom).
func prepareFault(h http.Header, meta *sessions.Meta, plan faults.Plan) {
	name := decode.Sanitize(plan.String())
	h.Set(FaultHeader, name)
	h.Del("Content-Length")
	resp := make(map[string]string, len(meta.ResponseHeaders)+2)
	for k, v := range meta.ResponseHeaders {
		if http.CanonicalHeaderKey(k) != "Content-Length" {
			resp[k] = v
		}
	}
	resp[FaultHeader] = name
	if plan.Gzip {
		h.Set("Content-Encoding", "gzip")
		resp["Content-Encoding"] = "gzip"
		meta.DecodedFrom = "gzip"
	}
	meta.ResponseHeaders = resp
}

// newFaultOut is the last stage of a faulted stream: the delivery faults
// (faults.Writer: --fault buffer, burst, gzip) handing the bytes to the
// checker's tap as they are released (the check sees the stream as the
// app receives it, decoded and when it is released), flushing every
// write, and holding back at most faults.MaxHold.
func newFaultOut(w io.Writer, flush func() error, tap func([]byte), plan faults.Plan) *faults.Writer {
	return faults.NewWriter(w, plan.Set, faults.Out{Tap: tap, Flush: flush, MaxHold: faults.MaxHold, Budget: faultHolds})
}

// faultHolds bounds what the delivery faults of all streams hold back
// together (faults.MaxHoldTotal; one stream: faults.MaxHold).
var faultHolds = faults.NewHoldBudget(faults.MaxHoldTotal)

// newStreamFaulter makes the faulter of a stream whose check reads t.
func newStreamFaulter(w http.ResponseWriter, rc *http.ResponseController, ctx context.Context, plan faults.Plan, t *tap, ndjson bool) *faulter {
	t.note(fmt.Sprintf("--fault %s: this is the stream as the proxy passed it to the app, faulted, not as the upstream sent it", plan))
	out := newFaultOut(w, rc.Flush, t.push, plan)
	return newFaulter(plan, ndjson, out, func(d time.Duration) error { return faultSleep(ctx, d) })
}

// faultSleep pauses a stalled stream (a variable: tests see the stall by
// the order of events, not by the clock).
var faultSleep = func(ctx context.Context, d time.Duration) error {
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-tm.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// note adds a remark to the stream's check (and so its report).
func (t *tap) note(msg string) {
	t.mu.Lock()
	t.probs.Note("%s", msg)
	t.mu.Unlock()
}
