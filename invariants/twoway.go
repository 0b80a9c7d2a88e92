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
