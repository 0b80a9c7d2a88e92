package store

import (
	"sync"
	"time"

	"framescope/sessions"
	"framescope/sessions/pipeline"
)

// FlowStreams holds the streams of a proxy run by flow ID: every stream
// still open, and the last KeepEnded ones that ended (older ones are
// dropped: a proxy left running for a day must not keep every stream in
// memory; the session library still has them).
type FlowStreams struct {
	mu       sync.Mutex
	byID     map[int64]*FlowStream
	ended    []int64 // ended streams still kept, oldest first
	pinned   int64   // the stream a screen shows: never dropped
	keep     int
	interval time.Duration
}

// KeepEnded is how many ended streams a proxy run keeps for the inspector.
const KeepEnded = 32

// NewFlowStreams makes an empty set keeping keep ended streams (0:
// KeepEnded); interval is each feeder's batch interval (0: the default).
func NewFlowStreams(keep int, interval time.Duration) *FlowStreams {
	if keep <= 0 {
		keep = KeepEnded
	}
	return &FlowStreams{byID: map[int64]*FlowStream{}, keep: keep, interval: interval}
}

// Start starts the stream of flow id (NewFlowStream) and returns the
// handler the proxy feeds.
func (s *FlowStreams) Start(id int64, meta sessions.Meta) pipeline.Handler {
	fs, h := NewFlowStream(meta, s.interval)
	s.mu.Lock()
	s.byID[id] = fs
	s.mu.Unlock()
	return h
}

// Get is the stream of flow id (false: not a stream, or dropped).
func (s *FlowStreams) Get(id int64) (*FlowStream, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fs, ok := s.byID[id]
	return fs, ok
}

// Pin keeps flow id's stream while a screen shows it (0: none).
func (s *FlowStreams) Pin(id int64) {
	s.mu.Lock()
	s.pinned = id
	s.mu.Unlock()
}

// Ended finishes flow id's stream (FlowStream.End) and drops the oldest
// ended streams beyond the bound, except the pinned one.
func (s *FlowStreams) Ended(id int64, err string, took time.Duration) {
	s.mu.Lock()
	fs, ok := s.byID[id]
	if !ok || fs.ended {
		s.mu.Unlock()
		return
	}
	fs.ended = true
	s.ended = append(s.ended, id)
	var drop []*FlowStream
	for len(s.ended) > s.keep {
		i := 0
		if s.ended[0] == s.pinned {
			i = 1
		}
		old := s.ended[i]
		s.ended = append(s.ended[:i], s.ended[i+1:]...)
		drop = append(drop, s.byID[old])
		delete(s.byID, old)
	}
	s.mu.Unlock()
	fs.End(err, took)
	for _, d := range drop {
		d.Drop()
	}
}

// Len is how many streams are kept.
func (s *FlowStreams) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.byID)
}
