package live

import (
	"errors"

	"framescope/sessions"
	"framescope/sessions/codings"
)

// A body its Content-Encoding does not decode — plain bytes labelled gzip
// (a real server bug), more than codings.Max stacked codings — is kept as
// it came, as one in a coding framescope cannot decode (zstd) is: the
// capture holds every byte (no decoded_from), and the failure is named,
// as capture-corrupt (error), in DecodeFailed, and in the stream's end (an
// error, once the body was read to its end: the capture's end line). It used to end the stream with
// nothing recorded.

// keepUndecoded makes the body be read as it came, saying why.
func (l *Live) keepUndecoded(why string) {
	l.encs, l.limit = nil, nil
	l.meta.DecodedFrom = ""
	l.probs.AddLost(0, "the response body could not be decoded (%s): it is kept and checked as it came, undecoded", sessions.Clean(why))
	l.decodeFailed = sessions.Clean(why) // and the stream ends as an error naming it (finish)
}

// Probe decodes the start of an encoded body before it is recorded (the
// recording's header says whether the chunks are decoded): the first
// decoded read is held for Next; when the decoders fail before one, the
// body is read again from its first byte, as it came. It blocks until the
// body's first bytes (the response line is shown before). A body read
// before Connect returned (an error body) is left as it is.
func (l *Live) Probe() {
	if len(l.encs) == 0 || l.preDone != nil || l.rd != nil {
		return
	}
	l.probe = codings.NewReplay(l.raw, codings.ProbeMax)
	data, t, err := l.readOnce()
	probe := l.probe
	l.probe = nil
	if len(data) > 0 {
		probe.Stop()
		l.arena = append(l.arena[:0], data...)
		l.pending = []sessions.Chunk{{Data: l.arena, T: t, HasTime: true}}
		return
	}
	var de *decodeError
	if errors.As(err, &de) && !de.bound {
		if again, ok := probe.Again(); ok {
			l.keepUndecoded(de.Error())
			l.rd = &layerGuard{r: again, l: l}
			return
		}
	}
	probe.Stop()
	l.heldErr = err // (an empty body: io.EOF, its end)
}
