package sessions

import (
	"errors"
	"io"
	"strconv"
	"time"

	"framescope/decode"
	"framescope/invariants"
)

// Item is one SSE block as the pipeline saw it: every block the framer
// emits, dispatched or not, so a viewer can show comments and truncated
// tails too.
type Item struct {
	// Event is the SSE block (always set). Valid only during the callback.
	Event *decode.Event
	// Frame is set when the block was dispatched. Valid only during the
	// callback; Clone to keep.
	Frame *decode.Frame
	// Alarms raised while reading this block. Valid only during the callback.
	Alarms []invariants.Alarm
	// Arrival time of the chunk that completed the block.
	Arrival    time.Duration
	HasArrival bool
}

// Handler receives the pipeline's output as it happens.
type Handler struct {
	// OnItem is called for every block, in stream order.
	OnItem func(Item)
	// OnAlarms is called with alarms that belong to no block: the HTTP
	// response, capture damage and the end of the stream.
	OnAlarms func([]invariants.Alarm)
	// OnNote is called with remarks about the capture that are not alarms.
	OnNote func(string)
}

// Result summarises a finished run.
type Result struct {
	Meta   Meta
	End    End
	Frames int
	Bytes  int64
	Turns  []invariants.Turn
	Counts invariants.Counts
}

// Run reads a capture to its end through framer → decoder → checker,
// streaming: memory stays bounded by the largest event, whatever the size
// of the capture. It is the one pipeline behind check, dump and the TUI, so
// they all see the same frames and alarms.
func Run(c Capture, opts invariants.Options, h Handler) (*Result, error) {
	meta := c.Meta()
	if meta.Synthetic {
		opts.SyntheticFraming = true
	}
	chk := invariants.New(opts)
	framer := decode.NewFramer()
	var dec decode.Decoder
	res := &Result{Meta: meta}

	alarmsOut := func(a []invariants.Alarm) {
		if len(a) > 0 && h.OnAlarms != nil {
			h.OnAlarms(a)
		}
	}
	if meta.HTTP {
		alarmsOut(chk.HTTP(meta.Status, meta.ContentType))
	}
	var chunk Chunk
	emit := func(ev *decode.Event) {
		item := Item{Event: ev, Arrival: chunk.T, HasArrival: chunk.HasTime}
		switch {
		case ev.Dispatched():
			item.Frame = dec.Decode(ev, chunk.T, chunk.HasTime)
			item.Alarms = chk.Observe(item.Frame)
		case ev.Truncated && ev.HasData:
			// Only a lost event matters; a trailing comment without its
			// blank line carries nothing a client would dispatch.
			item.Alarms = chk.Truncated(ev)
		}
		if h.OnItem != nil {
			h.OnItem(item)
		}
	}
	problems := func() {
		for _, p := range c.TakeProblems() {
			msg := p.Message
			if p.Line > 0 {
				msg = meta.Name + ":" + strconv.Itoa(p.Line) + ": " + msg
			}
			if p.Note {
				if h.OnNote != nil {
					h.OnNote(msg)
				}
				continue
			}
			alarmsOut(chk.CaptureProblem(msg))
		}
	}
	var readErr error
	for {
		var err error
		chunk, err = c.Next()
		problems()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				readErr = err
			}
			break
		}
		res.Bytes += int64(len(chunk.Data))
		framer.Feed(chunk.Data, emit)
	}
	end := c.End()
	problems()
	chunk = Chunk{T: end.T, HasTime: end.HasTime}
	framer.Close(emit)
	ie := invariants.End{Kind: invariants.EndKind(end.Kind), Detail: end.Detail, At: end.T, HasTime: end.HasTime}
	if readErr != nil {
		ie = invariants.End{Kind: invariants.EndError, Detail: readErr.Error()}
		end = End{Kind: EndError, Detail: readErr.Error()}
	}
	if ie.Kind == "" {
		ie.Kind = invariants.EndEOF
	}
	alarmsOut(chk.End(ie))
	res.End = end
	res.Frames = dec.NextIndex()
	res.Turns = chk.Turns()
	res.Counts = chk.Counts()
	return res, readErr
}
