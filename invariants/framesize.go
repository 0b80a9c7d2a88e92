package invariants

import (
	"strconv"
	"strings"

	"framescope/decode"
)

// FrameLimit is one frame-size tier of a dialect, read from the clients
// of its wire: a frame whose data is over Over bytes is frame-size at
// Severity. Client names who fails at that size ("openai-go"), Why says
// how and where its limit is written (the SDK file), for the message. The
// severity follows the severity principle: error only when no official
// client reads the frame, warn when some client fails on it.
//
// A limit on a line is turned into one on the data it carries: an SSE
// client that reads lines of at most N bytes, its "data: " prefix and a
// CRLF line end included, fails past N-8 bytes of data. A frame over
// several tiers raises the highest one only.
type FrameLimit struct {
	Over     int64
	Severity Severity
	Client   string
	Why      string
}

// SSEDataIn is the most data a client that reads SSE lines of at most n
// bytes takes in one data: line: n less the "data: " prefix and a CRLF
// line end (with LF ends the client takes one byte more).
func SSEDataIn(n int64) int64 { return n - int64(len("data: \r\n")) }

// DefaultFrameLimits are the tiers of a dialect that declares none: PC3's
// 256 KiB target (NFR-7) as a warn and a 1 MiB hard stop, framescope's own
// for a wire without a client to follow (no Client: the messages say
// "target" and "hard limit").
var DefaultFrameLimits = []FrameLimit{
	{Over: 256 << 10, Severity: SevWarn},
	{Over: 1 << 20, Severity: SevError},
}

// frameLimits are the tiers a Shape declares, the defaults when none.
func (s *Shape) frameLimits() []FrameLimit {
	if s.FrameUnbounded {
		return nil
	}
	if s.FrameLimits == nil {
		return DefaultFrameLimits
	}
	return s.FrameLimits
}

// frameLimit is the highest tier size is over.
func frameLimit(limits []FrameLimit, size int64) (FrameLimit, bool) {
	var best FrameLimit
	found := false
	for _, l := range limits {
		if size > l.Over && (!found || l.Over > best.Over) {
			best, found = l, true
		}
	}
	return best, found
}

// checkFrameSize raises frame-size at the tier the frame's data passes.
// A frame past framescope's own event limit (Oversized: its data was not
// kept, so nothing in it was checked) that no tier covers is said at info.
func (e *Engine) checkFrameSize(f *decode.Frame) {
	size := int64(len(f.Data))
	if f.Oversized {
		size = f.Size
	}
	l, ok := frameLimit(e.shape.frameLimits(), size)
	switch {
	case ok && l.Client != "":
		e.raise("frame-size", l.Severity, f.Index, e.cur, "frame data is %s, over %s: %s %s", sizeText(size, l.Over), limitText(l.Over), l.Client, l.Why)
	case ok && l.Severity == SevError:
		e.raise("frame-size", SevError, f.Index, e.cur, "frame data is %s, over the %s hard limit", FormatBytes(size, true), FormatBytes(l.Over, true))
	case ok:
		e.raise("frame-size", l.Severity, f.Index, e.cur, "frame data is %s, over the %s target", FormatBytes(size, true), FormatBytes(l.Over, true))
	case f.Oversized:
		e.raise("frame-size", SevInfo, f.Index, e.cur, "the event is %s on the wire, over framescope's own event limit: its data was not kept and nothing in it was checked (no client of %s bounds a frame this size)", FormatBytes(size, true), e.spec.ID)
	}
}

// sizeText is a frame's size beside a bound: exact too when the bound is
// no whole unit ("4.0 MiB (4194297 bytes)").
func sizeText(n, bound int64) string {
	if limitText(bound) == FormatBytes(bound, true) {
		return FormatBytes(n, true)
	}
	return FormatBytes(n, true) + " (" + strconv.FormatInt(n, 10) + " bytes)"
}

// limitText is a tier's bound: a whole unit as such ("4 MiB"), else the
// exact bytes, with the unit they fall short of when that is a few bytes
// ("4194296 bytes (4 MiB - 8)", a line limit less its prefix and line end).
func limitText(n int64) string {
	if n >= 1<<10 && n%(1<<10) == 0 {
		return FormatBytes(n, true)
	}
	for _, u := range []struct {
		size int64
		name string
	}{{1 << 20, "MiB"}, {1 << 10, "KiB"}} {
		up := (n + u.size - 1) / u.size * u.size
		if d := up - n; d <= 64 {
			return strconv.FormatInt(n, 10) + " bytes (" + strconv.FormatInt(up/u.size, 10) + " " + u.name + " - " + strconv.FormatInt(d, 10) + ")"
		}
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// frameSizeRule is frame-size as a dialect lists it: the severity of its
// strongest tier (info when it has none: only framescope's own event
// limit is said), and a summary that names each tier and its client.
func frameSizeRule(r Rule, s *Shape) Rule {
	limits := s.frameLimits()
	if s.FrameLimits == nil && !s.FrameUnbounded {
		return r // the defaults: the shared summary says them
	}
	if len(limits) == 0 {
		r.Severity = SevInfo
		r.Summary = "no client of the dialect bounds a frame: only an event over framescope's own limit (" + FormatBytes(decode.DefaultMaxEventSize, true) + "), whose data is not checked, is said (info)"
		return r
	}
	r.Severity = SevInfo
	parts := make([]string, 0, len(limits))
	for _, l := range limits {
		if l.Severity.Rank() > r.Severity.Rank() {
			r.Severity = l.Severity
		}
		who := l.Client
		switch {
		case who != "":
		case l.Severity == SevError:
			who = "the dialect's hard limit"
		default:
			who = "the dialect's target"
		}
		parts = append(parts, string(l.Severity)+" over "+limitText(l.Over)+" ("+who+")")
	}
	r.Summary = "a frame's data exceeds a size tier of the dialect, each set where a client fails: " + strings.Join(parts, "; ")
	return r
}
