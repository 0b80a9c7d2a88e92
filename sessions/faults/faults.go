package faults

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"framescope/sessions"
)

// Set is the deliberate defects injected into one stream: serve's flags
// (--drop, --dup, --cut-after, --stall, --garble, --buffer, --burst,
// --gzip) or the proxy's --fault terms. They operate on frames: the
// dispatched SSE events (or NDJSON lines) of the stream, counted from 0 in
// stream order. Bytes that belong to no frame (comments, keep-alives,
// stray blank lines) always flow unchanged.
//
// The zero value is NOT "no faults": CutAfter 0 cuts the connection after
// frame 0. Use None (or set CutAfter to -1).
type Set struct {
	Drop     []int   // frame indexes not sent
	Dup      []int   // frame indexes sent twice (the copy right after the original)
	CutAfter int     // close the connection abruptly right after frame N; -1 (any negative) = off
	Stalls   []Stall // pause before a frame's first byte
	Garble   []int   // frame indexes whose data bytes are corrupted so they are no longer valid JSON
	// Delivery faults (writer.go): hold the output until Buffer bytes are
	// pending, or until Burst frames are; compress it (Gzip).
	Buffer int
	Burst  int
	Gzip   bool
}

// None is the Set that changes nothing.
func None() Set { return Set{CutAfter: -1} }

// Active reports whether any fault is set.
func (f Set) Active() bool {
	return len(f.Drop) > 0 || len(f.Dup) > 0 || f.CutAfter >= 0 || len(f.Stalls) > 0 || len(f.Garble) > 0 ||
		f.Buffer > 0 || f.Burst > 0 || f.Gzip
}

// Stall pauses the stream for For before the first byte of frame Before.
// The pause is real time: it is not scaled by the replay speed (and it also
// happens at speed max). Later bytes are delayed by it.
type Stall struct {
	Before int
	For    time.Duration
}

func (s Stall) String() string { return fmt.Sprintf("%s@%d", s.For, s.Before) }

// ParseStall parses a --stall value: DURATION@FRAME, e.g. "2s@5" or
// "500ms@0". A bare number is a number of seconds ("1.5@3").
func ParseStall(s string) (Stall, error) {
	bad := func(why string) (Stall, error) {
		return Stall{}, fmt.Errorf("--stall %s: %s (want DURATION@FRAME, e.g. 2s@5)", sessions.CleanShort(strconv.Quote(s), 60), why)
	}
	at := strings.LastIndexByte(s, '@')
	if at < 0 {
		return bad("no @")
	}
	ds, ns := strings.TrimSpace(s[:at]), strings.TrimSpace(s[at+1:])
	if ds == "" {
		return bad("no duration before the @")
	}
	d, err := time.ParseDuration(ds)
	if err != nil {
		f, ferr := strconv.ParseFloat(ds, 64)
		if ferr != nil || math.IsNaN(f) || f > 1e9 || f < -1e9 {
			return bad(fmt.Sprintf("%s is not a duration", sessions.CleanShort(strconv.Quote(ds), 40)))
		}
		d = time.Duration(f * float64(time.Second))
	}
	if d < 0 {
		return bad("the duration is negative")
	}
	if ns == "" {
		return bad("no frame index after the @")
	}
	n, err := strconv.Atoi(ns)
	if err != nil || n < 0 {
		return bad(fmt.Sprintf("%s is not a frame index (a whole number from 0)", sessions.CleanShort(strconv.Quote(ns), 40)))
	}
	return Stall{Before: n, For: d}, nil
}
