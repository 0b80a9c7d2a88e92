package store

import (
	"strings"
	"sync"
	"time"

	"framescope/decode"
	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/pipeline"
)

// FlowStream is the inspector's data of one stream a proxy carries, kept
// from the stream's first item whether or not a screen shows it: the user
// may open a flow late, and must still see it whole. Its feeder applies
// the batches to the flow's own Store while no screen shows it (detached);
// once a screen attaches, the batches queue for the screen's goroutine,
// which applies them in order (the Store then belongs to the screen). The
// bytes go to the feeder's spill, as a live session's do: a stream costs
// what it would cost in the inspector, whether shown or not.
type FlowStream struct {
	f *Feeder

	mu     sync.Mutex
	st     *Store
	queue  []*Batch
	notify func() // non-nil while attached: batches are waiting
	once   sync.Once
	ended  bool // FlowStreams.Ended saw it (under FlowStreams.mu)
}

// NewFlowStream starts the feeder of a proxied stream whose capture Meta
// is meta (its secrets are redacted for display here) and returns the
// handler the proxy feeds (proxy.Options.OnStream). interval bounds the
// batch rate (0: DefaultBatchInterval). End must be called once the
// stream is over.
func NewFlowStream(meta sessions.Meta, interval time.Duration) (*FlowStream, pipeline.Handler) {
	fs := &FlowStream{st: NewStore()}
	fs.f = newFeeder(fs.receive, interval)
	go fs.f.loop()
	fs.f.keepBytes(nil)
	resp := responseFromMeta(meta)
	if resp == nil {
		resp = &HTTPResponse{Method: meta.Method, URL: sessions.RedactURL(meta.URL), Status: meta.Status, ContentType: meta.ContentType}
	}
	fs.f.SetConn(ConnUpdate{State: ConnOpen, HTTPStatus: meta.Status, Response: resp})
	h := fs.f.handler()
	h.OnErrorBody = func(body []byte, more bool) { fs.f.SetConn(withErrorBody(resp, body, more)) }
	return fs, h
}

// receive is the feeder's send: apply the batch (detached) or queue it
// for the screen (attached; the screen is told when the queue stops
// being empty, so a busy stream costs one message per batch at most).
func (fs *FlowStream) receive(b *Batch) {
	fs.mu.Lock()
	if fs.notify == nil {
		fs.st.Apply(b)
		b.Recycle()
		fs.mu.Unlock()
		return
	}
	fs.queue = append(fs.queue, b)
	notify := fs.notify
	first := len(fs.queue) == 1
	fs.mu.Unlock()
	if first {
		notify()
	}
}

// Attach hands the Store to a screen: from now on only the screen's
// goroutine reads and changes it, applying the batches Take returns.
// notify is called (from the feeder's goroutine) when batches wait.
func (fs *FlowStream) Attach(notify func()) *Store {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.notify = notify
	return fs.st
}

// Take returns the batches waiting for the attached screen, in order.
func (fs *FlowStream) Take() []*Batch {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	q := fs.queue
	fs.queue = nil
	return q
}

// Detach takes the Store back from the screen (call it from the screen's
// goroutine, which must not touch the Store afterwards): the batches the
// screen had not taken are applied here, in order.
func (fs *FlowStream) Detach() {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for _, b := range fs.queue {
		fs.st.Apply(b)
		b.Recycle()
	}
	fs.queue = nil
	fs.notify = nil
}

// End finishes the stream's feeder with how the proxy saw it end: err is
// the flow's Err ("" for a clean end of file; sessions.EndText's form
// otherwise, "cancelled", "error: …"). Later calls do nothing.
func (fs *FlowStream) End(err string, took time.Duration) {
	fs.once.Do(func() {
		kind, detail, _ := strings.Cut(err, ": ")
		if kind == "" {
			kind = string(invariants.EndEOF)
		}
		fs.f.Finish(invariants.End{Kind: invariants.EndKind(decode.Sanitize(kind)), Detail: decode.Sanitize(detail), At: took, HasTime: true}, nil)
	})
}

// Drop stops a stream the screen no longer keeps: its feeder drops the
// items still to come (the proxy's check and recording go on).
func (fs *FlowStream) Drop() { fs.f.Stop() }
