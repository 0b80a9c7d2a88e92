// Package faults is the one room for the deliberate defects framescope
// injects into a stream, shared by `framescope serve` (sessions/replay)
// and `framescope proxy` (sessions/proxy):
//
//   - faults.go  the Set of faults (drop, dup, cut-after, stall, garble;
//     buffer, burst, gzip) and --stall's syntax
//   - garble.go  how a frame's data is corrupted so that it no longer parses
//   - writer.go  the delivery faults: the Writer that holds, bursts and
//     compresses a stream's bytes on their way to the response; the proxy
//     passes its checker's tap in (Out.Tap), so faults imports no room
//   - spec.go    the proxy's --fault SPEC (a Set, drop-terminal and a
//     host/path match) and the Plan the matching specs add up to
//
// How the faults are applied to frames is each server's: serve plans the
// writes of a capture it holds whole (replay's buildReplayPlan), the proxy
// faults a live stream block by block as it arrives (its faulter).
package faults
