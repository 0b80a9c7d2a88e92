package proxy

import (
	"io"
	"strconv"
	"sync/atomic"
	"unicode/utf8"

	"framescope/decode"
	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/library"
	"framescope/sessions/live"
)

// recordCap bounds the bytes all in-flight recordings hold together: the
// session library's size cap (FRAMESCOPE_LIBRARY_MAX). The cap's
// enforcement removes finished sessions only (a recording is locked while
// written), so without this an endless stream was recorded far past it.
type recordCap struct {
	max  int64        // the cap; 0: none
	used atomic.Int64 // bytes reserved by the recordings in flight
}

// recordLimit passes a stream's chunks to its recording and check until a
// limit is reached: --max-bytes, --max-frames (as connect's, counted on
// the stream as recorded) or the library's cap for the recordings in
// flight. The chunk that reaches one is cut after its last whole block
// (an SSE event, an NDJSON line) within it, and the capture then ends
// cancelled with the limit in its Detail, as connect's does — but only
// the recording and the check end: the app's stream goes on (Drained
// says how much of it came after).
type recordLimit struct {
	c      sessions.Capture
	lim    live.StopLimits
	cap    *recordCap // nil: no library cap
	ndjson bool
	framer *decode.Framer

	read     int64 // stream bytes passed on
	frames   int   // blocks dispatched (SSE) or lines (NDJSON) passed on
	reserved int64 // this recording's share of cap.used
	stopped  bool
	end      invariants.End
}

// lineOverhead is a recording line's bytes besides its data: {"t":…,"data":"…"}\n.
const lineOverhead = 40

// escapedSize is what data costs in a recording line (recorder's JSON
// string or base64), plus the line's overhead.
func escapedSize(data []byte) int64 {
	if !utf8.Valid(data) {
		return int64(len(data)+2)/3*4 + lineOverhead
	}
	n := int64(len(data)) + lineOverhead
	for _, c := range data {
		switch {
		case c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t':
			n++
		case c < 0x20 || c == 0x7f:
			n += 5
		}
	}
	return n
}

func newRecordLimit(c sessions.Capture, lim live.StopLimits, capb *recordCap, ndjson bool) *recordLimit {
	l := &recordLimit{c: c, lim: lim, ndjson: ndjson}
	if capb != nil && capb.max > 0 {
		l.cap = capb
	}
	if !ndjson {
		l.framer = decode.NewFramer()
	}
	return l
}

func (l *recordLimit) Meta() sessions.Meta              { return l.c.Meta() }
func (l *recordLimit) TakeProblems() []sessions.Problem { return l.c.TakeProblems() }
func (l *recordLimit) Close() error                     { return l.c.Close() }

func (l *recordLimit) End() invariants.End {
	if l.stopped {
		return l.end
	}
	return l.c.End()
}

// release gives this recording's reservation back (its stream ended: the
// library's cap enforcement now counts it as a finished session).
func (l *recordLimit) release() {
	if l.cap != nil {
		l.cap.used.Add(-l.reserved)
		l.reserved = 0
	}
}

// blockEnds calls f with the end (in the stream) of each whole block in
// data and whether it is a frame.
func (l *recordLimit) blockEnds(data []byte, f func(end int64, frame bool)) {
	if l.ndjson {
		for i, c := range data {
			if c == '\n' {
				f(l.read+int64(i)+1, true)
			}
		}
		return
	}
	l.framer.Feed(data, func(ev *decode.Event) { f(ev.Offset+ev.Size, ev.Dispatched()) })
}

func (l *recordLimit) Next() (sessions.Chunk, error) {
	if l.stopped {
		return sessions.Chunk{}, io.EOF
	}
	ch, err := l.c.Next()
	if err != nil {
		return ch, err
	}
	cut, why := -1, ""
	var lastBytes, lastCap int64 = -1, -1 // the last block end within --max-bytes, within the cap
	var room int64 = -1                   // what the cap leaves for this chunk's line
	if l.cap != nil {
		room = l.cap.max - l.cap.used.Load()
	}
	overCap := room >= 0 && escapedSize(ch.Data) > room
	frames := l.frames
	l.blockEnds(ch.Data, func(end int64, frame bool) {
		if l.lim.MaxBytes > 0 && end <= l.lim.MaxBytes {
			lastBytes = end
		}
		if overCap && cut < 0 && escapedSize(ch.Data[:end-l.read]) <= room {
			lastCap = end
		}
		if !frame || cut >= 0 {
			return
		}
		frames++
		if l.lim.MaxFrames > 0 && frames == l.lim.MaxFrames {
			cut, why = int(end-l.read), "--max-frames "+strconv.Itoa(l.lim.MaxFrames)
		}
	})
	at := func(last int64) int {
		if last >= l.read {
			return int(last - l.read)
		}
		return 0 // no whole block within the limit in this chunk
	}
	if l.lim.MaxBytes > 0 && l.read+int64(len(ch.Data)) >= l.lim.MaxBytes {
		if a := at(lastBytes); cut < 0 || a < cut {
			cut, why = a, "--max-bytes "+strconv.FormatInt(l.lim.MaxBytes, 10)
		}
	}
	if overCap {
		if a := at(lastCap); cut < 0 || a < cut {
			cut, why = a, "the session library's size cap ("+library.LibraryMaxEnv+" "+sessions.FormatSize(l.cap.max)+")"
		}
	}
	if cut < 0 {
		l.pass(ch.Data)
		l.frames = frames
		return ch, nil
	}
	cut = min(max(cut, 0), len(ch.Data))
	ch.Data = ch.Data[:cut]
	l.pass(ch.Data)
	l.stopped = true
	l.end = invariants.End{Kind: invariants.EndCancelled, Detail: "stopped: " + why + " reached", At: ch.T, HasTime: ch.HasTime}
	if len(ch.Data) == 0 {
		return sessions.Chunk{}, io.EOF
	}
	return ch, nil
}

// pass counts data as recorded, reserving its line in the cap.
func (l *recordLimit) pass(data []byte) {
	l.read += int64(len(data))
	if l.cap != nil && len(data) > 0 {
		n := escapedSize(data)
		l.cap.used.Add(n)
		l.reserved += n
	}
}
