package proxy

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"framescope/invariants"
)

// Kind says what a flow carried.
type Kind string

const (
	KindHTTP      Kind = "http"      // a request and a response that is no stream
	KindStream    Kind = "stream"    // a response recorded and checked as a stream
	KindTunnel    Kind = "tunnel"    // a CONNECT tunnel passed on blind
	KindWebSocket Kind = "websocket" // an upgraded connection passed on untouched
)

// Flow is one request through the proxy as a screen or a log shows it. A
// Flow handed out is a copy: it never changes under its reader.
type Flow struct {
	ID   int64
	Kind Kind
	// Method and URL are the request's (the URL with its secrets masked:
	// sessions.RedactURL); Host is the target's host[:port].
	Method, URL, Host string
	Status            int
	ContentType       string
	Started           time.Time
	Duration          time.Duration // so far, or in all once Done
	// Bytes is the response body (a tunnel: both ways) passed to the app.
	Bytes int64
	Done  bool
	// Err says why the flow failed ("" when it did not): the upstream
	// unreachable, the app gone…
	Err string

	// Body is the start of a non-stream response body (at most
	// Options.BodyCap bytes); BodyCut whether there was more.
	Body    []byte
	BodyCut bool

	// Stream facts, as the live check knows them.
	Dialect   string
	Frames    int
	Counts    invariants.Counts
	SessionID string // the session library's ID ("" when not saved)
	// RecordErr says why the stream's recording in the session library
	// failed ("" when it did not, or nothing was to be recorded): the
	// library could not be written, a write or the close failed (a full
	// disk). Such a flow fails the run, as a failed `record` does.
	RecordErr string
	// Behind counts the bytes the checker could not take in time (its
	// queue was full): the app got them, the check and recording did not.
	Behind int64
	// Alarms are the stream's alarms once it ended (at most MaxFlowAlarms).
	Alarms []invariants.Alarm
	// Notes are remarks about the stream that are not alarms.
	Notes []string
}

// MaxFlowAlarms bounds the alarms a finished Flow lists (its counts are whole).
const MaxFlowAlarms = 50

// flowBook holds every flow and hands their changes to subscribers. A
// change is never sent twice in a row to a slow subscriber: it finds the
// latest state of each flow that changed since it last read (batched), so
// a flood of updates never queues up and never blocks the proxy.
type flowBook struct {
	mu     sync.Mutex
	nextID int64
	flows  []*liveFlow // in order of arrival; finished ones beyond maxFlows are forgotten
	subs   map[*Subscription]struct{}
	// bodies is the bytes of request and response bodies the finished
	// flows keep (at most maxKeptBodies: the oldest give theirs up).
	bodies int64
	// maxFlows bounds len(flows) (Options.MaxFlows), finished ones first.
	maxFlows int
}

// liveFlow is a flow as the proxy updates it: its byte count moves on
// every read of the body, without a lock or an announcement (the next
// announcement or snapshot reads it).
type liveFlow struct {
	Flow
	bytes atomic.Int64
	// The exchange as it passed, for the flow's detail (flow_detail.go):
	// read and written under the book's lock, never published in a Flow
	// (a screen asks for them when it opens the flow).
	exchange
}

// DefaultMaxFlows bounds the flows the book remembers (Options.MaxFlows).
// A flow kept costs about 1 KB (its row, headers, timings) besides its
// kept bodies (maxKeptBodies bounds those), so a proxy under steady
// traffic levels off once it holds this many: 2,000 flows is minutes of
// a busy app's history on the Flows screen, and every stream's session
// is in the library besides.
const DefaultMaxFlows = 2000

func newFlowBook(maxFlows int) *flowBook {
	return &flowBook{subs: map[*Subscription]struct{}{}, maxFlows: max(maxFlows, 1)}
}

// start registers a new flow and announces it.
func (b *flowBook) start(f *liveFlow) {
	b.mu.Lock()
	b.nextID++
	f.ID = b.nextID
	if len(b.flows) >= b.maxFlows {
		for i, old := range b.flows {
			if old.Done {
				b.bodies -= old.keptBodies()
				b.flows = append(b.flows[:i], b.flows[i+1:]...)
				break
			}
		}
	}
	b.flows = append(b.flows, f)
	b.publishLocked(f)
	b.mu.Unlock()
}

// update changes a flow under the book's lock and announces it.
func (b *flowBook) update(f *liveFlow, change func(*Flow)) {
	b.mu.Lock()
	change(&f.Flow)
	if !f.Done {
		f.Duration = time.Since(f.Started)
	} else if !f.settled {
		b.settleLocked(f)
	}
	b.publishLocked(f)
	b.mu.Unlock()
}

// snapshot is a copy of one flow (call with b.mu held).
func snapshot(f *liveFlow) Flow {
	c := f.Flow
	c.Bytes = f.bytes.Load()
	if !c.Done {
		c.Duration = time.Since(c.Started)
	}
	c.Body = append([]byte(nil), f.Body...)
	c.Alarms = append([]invariants.Alarm(nil), f.Alarms...)
	c.Notes = append([]string(nil), f.Notes...)
	return c
}

func (b *flowBook) publishLocked(f *liveFlow) {
	for s := range b.subs {
		s.add(f.ID, snapshot(f))
	}
}

// Flows is a copy of every flow the book holds, in order of arrival.
func (b *flowBook) list() []Flow {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]Flow, len(b.flows))
	for i, f := range b.flows {
		out[i] = snapshot(f)
	}
	return out
}

// Subscription receives the flows as they start, change and finish.
type Subscription struct {
	book  *flowBook
	mu    sync.Mutex
	order []int64
	last  map[int64]Flow
	ready chan struct{} // has a value when last is not empty
}

func (s *Subscription) add(id int64, f Flow) {
	s.mu.Lock()
	if _, ok := s.last[id]; !ok {
		s.order = append(s.order, id)
	}
	s.last[id] = f
	s.mu.Unlock()
	select {
	case s.ready <- struct{}{}:
	default:
	}
}

// Next waits for flows that changed since the last call and returns the
// latest state of each, in the order they first changed. It returns
// ctx's error when ctx ends first.
func (s *Subscription) Next(ctx context.Context) ([]Flow, error) {
	for {
		s.mu.Lock()
		if len(s.order) > 0 {
			out := make([]Flow, len(s.order))
			for i, id := range s.order {
				out[i] = s.last[id]
			}
			s.order = s.order[:0]
			clear(s.last)
			s.mu.Unlock()
			return out, nil
		}
		s.mu.Unlock()
		select {
		case <-s.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// Close stops the subscription.
func (s *Subscription) Close() {
	s.book.mu.Lock()
	delete(s.book.subs, s)
	s.book.mu.Unlock()
}

func (b *flowBook) subscribe() *Subscription {
	s := &Subscription{book: b, last: map[int64]Flow{}, ready: make(chan struct{}, 1)}
	b.mu.Lock()
	b.subs[s] = struct{}{}
	for _, f := range b.flows { // what happened before: the screen starts full
		s.add(f.ID, snapshot(f))
	}
	b.mu.Unlock()
	return s
}
