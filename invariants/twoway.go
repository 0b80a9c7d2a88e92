package invariants

import "framescope/decode"

// TwoWay is a Checker of a two-way transport's dialect (a WebSocket API):
// besides the server's frames (Observe) it is handed the client's, in
// stream order, through ObserveClient. The pipeline decides this in one
// place: a checker that is not TwoWay never sees a client frame, so the
// dialects of HTTP bodies read a WebSocket capture's server frames as
// they read an SSE stream.
type TwoWay interface {
	ObserveClient(f *decode.Frame) []Alarm
}

// ClientMapper is a Mapper of a two-way dialect: it reads the client's
// frames too (what was asked, so that the server's answer can be held to
// it). Its moves are not applied; its alarms are raised on the client's
// frame, on no turn. A Spec whose mapper is one makes a TwoWay checker.
type ClientMapper interface {
	MapClient(f *decode.Frame, m *Mapping)
}

// twoWayEngine is the Engine of a dialect with a ClientMapper.
type twoWayEngine struct{ *Engine }

func (e twoWayEngine) ObserveClient(f *decode.Frame) []Alarm {
	e.out = e.out[:0]
	m := &e.m
	m.reset()
	if e.decoded(f) {
		e.mapper.(ClientMapper).MapClient(f, m)
	}
	m.Moves = m.Moves[:0]
	e.lastTurn = -1
	e.flushMapped(where{f, f.Index}, -1)
	return e.out
}

// newChecker is Spec.NewChecker: an Engine, TwoWay when the mapper reads
// client frames.
func newChecker(s *Spec, opts Options) Checker {
	e := NewEngine(s, opts)
	if _, ok := e.mapper.(ClientMapper); ok {
		return twoWayEngine{e}
	}
	return e
}

// Summarizer is a Dialect that says what to show of a frame whose data
// must not be printed whole (an audio delta): "" shows the data.
type Summarizer interface {
	Summary(f *decode.Frame) string
}

func (s *Spec) Summary(f *decode.Frame) string {
	if s.SummaryOf == nil {
		return ""
	}
	return s.SummaryOf(f)
}
