package live

import (
	"io"
	"strconv"

	"framescope/decode"
	"framescope/invariants"
	"framescope/sessions"
)

// StopLimits end a live session deliberately (record and connect
// --max-bytes, --max-frames): a server that floods must not fill the disk.
// Reaching a limit is the client ending the stream, like the user's
// cancel: the stream ends as EndCancelled, with a Detail that says which
// limit, and the capture's end line says so too
// ("cancelled: stopped: --max-frames 1000 reached").
type StopLimits struct {
	// MaxBytes: the capture keeps at most this many stream bytes, cut at
	// the end of the last whole SSE block within them (0: no limit).
	MaxBytes int64
	// MaxFrames: the capture ends right after this many frames (0: no limit).
	MaxFrames int
}

// Active reports whether any limit is set.
func (l StopLimits) Active() bool { return l.MaxBytes > 0 || l.MaxFrames > 0 }

// LimitCapture passes c's chunks on until one of the limits is reached,
// cuts the chunk that reaches it at a block boundary, calls stop (which
// drops the connection) and then ends with EndCancelled and the limit in
// its Detail. The cut is at the end of an SSE block, so the capture holds
// whole events only: no event is truncated by the stop.
func LimitCapture(c sessions.Capture, l StopLimits, stop func()) sessions.Capture {
	return &limitCapture{c: c, lim: l, stop: stop, framer: decode.NewFramer()}
}

type limitCapture struct {
	c      sessions.Capture
	lim    StopLimits
	stop   func()
	framer *decode.Framer

	read    int64 // stream bytes passed on
	frames  int   // dispatched blocks seen
	stopped bool
	end     invariants.End
}

func (l *limitCapture) Meta() sessions.Meta              { return l.c.Meta() }
func (l *limitCapture) TakeProblems() []sessions.Problem { return l.c.TakeProblems() }
func (l *limitCapture) Close() error                     { return l.c.Close() }

func (l *limitCapture) End() invariants.End {
	if l.stopped {
		return l.end
	}
	return l.c.End()
}

func (l *limitCapture) Next() (sessions.Chunk, error) {
	if l.stopped {
		return sessions.Chunk{}, io.EOF
	}
	ch, err := l.c.Next()
	if err != nil {
		return ch, err
	}
	// Frame the chunk (a second, cheap framing: only block ends and
	// dispatches are needed) to find where a limit falls.
	cut, why := -1, ""
	var lastEnd int64 = -1 // end of the last whole block within MaxBytes
	l.framer.Feed(ch.Data, func(ev *decode.Event) {
		end := ev.Offset + ev.Size
		if l.lim.MaxBytes > 0 && end <= l.lim.MaxBytes {
			lastEnd = end
		}
		if !ev.Dispatched() || cut >= 0 {
			return
		}
		l.frames++
		if l.lim.MaxFrames > 0 && l.frames == l.lim.MaxFrames {
			cut, why = int(end-l.read), "--max-frames "+strconv.Itoa(l.lim.MaxFrames)
		}
	})
	if l.lim.MaxBytes > 0 && l.read+int64(len(ch.Data)) >= l.lim.MaxBytes {
		at := 0 // no whole block within the limit in this chunk
		if lastEnd >= l.read {
			at = int(lastEnd - l.read)
		}
		if cut < 0 || at < cut {
			cut, why = at, "--max-bytes "+strconv.FormatInt(l.lim.MaxBytes, 10)
		}
	}
	if cut < 0 {
		l.read += int64(len(ch.Data))
		return ch, nil
	}
	cut = min(max(cut, 0), len(ch.Data))
	ch.Data = ch.Data[:cut]
	l.read += int64(cut)
	l.stopped = true
	l.end = invariants.End{Kind: invariants.EndCancelled, Detail: "stopped: " + why + " reached", At: ch.T, HasTime: ch.HasTime}
	if l.stop != nil {
		l.stop()
	}
	if len(ch.Data) == 0 {
		return sessions.Chunk{}, io.EOF
	}
	return ch, nil
}
