package store

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects"
	"framescope/invariants/machine"
	"framescope/sessions/pipeline"
)

// DefaultBatchInterval bounds the batch rate: at most ~30 messages a second.
const DefaultBatchInterval = 33 * time.Millisecond

// Feeder runs the pipeline on its own goroutine, turns every item into a
// row (copying what it keeps: the pipeline's buffers are reused), collects
// rows between ticks and sends them as one Batch. The blocks' bytes go
// to the spill (unless the source is a file they can be read back from).
type Feeder struct {
	// flavor is the provider flavor last handed on (Batch.Flavor).
	flavor   string
	send     func(*Batch)
	interval time.Duration

	mu      sync.Mutex
	pend    *Batch
	stopped bool

	wake    chan struct{}
	drained chan struct{} // flush took the pending batch
	full    chan struct{} // the pending batch reached pendMax: flush it now
	done    chan struct{}
	sent    chan struct{} // closed when the final batch went out

	// Pipeline-goroutine state.
	spill       *spill     // nil: the bytes are read back from the capture file
	verify      ByteSource // the capture file, until its first block is checked
	text        *spill     // the text frames' chunks, one after the other
	textEnd     int64
	reason      *spill // the reasoning deltas, one after the other
	reasonEnd   int64
	nextRow     int
	scratch     []Ingest // an item's rows, before they join the batch
	firstTS     time.Time
	haveTS      bool
	lastRID     string
	clients     *clientRunner // the reference client machines (client_feed.go; under mu)
	spillFailed bool          // the spill's failure was noted
	status      int           // the HTTP status (under mu: set by setConn)
	// wording is how the stream's dialect words its rows, machine its
	// reference client machine (nil: it ships none); until the dialect is
	// known, the default dialect's (dialects.Default).
	wording *invariants.Wording
	machine machine.Machine
	// keys is the key set the dialect declares (invariants.KeyIndexer):
	// the frames its machine steps are decoded again indexed with it.
	keys *decode.Keys
	// bubbles: a pane shows the client's bubbles (ClientViewAsOf): the
	// Client pane of a dialect without a machine, or the Status pane of one
	// that words no turn text. Else no delta is kept but the turn's text:
	// at a million frames the pieces were a fifth of the store.
	bubbles bool
}

// setDialect takes what the dialect offers the panes (under f.mu).
func (f *Feeder) setDialect(d invariants.Dialect) {
	f.wording, f.machine, f.keys = invariants.WordingOf(d), machine.Of(d), invariants.IndexKeysOf(d)
	f.bubbles = f.machine == nil || !f.wording.TurnText
}

func newFeeder(send func(*Batch), interval time.Duration) *Feeder {
	if interval <= 0 {
		interval = DefaultBatchInterval
	}
	f := &Feeder{
		send: send, interval: interval, pend: &Batch{},
		wake: make(chan struct{}, 1), drained: make(chan struct{}, 1), full: make(chan struct{}, 1), done: make(chan struct{}), sent: make(chan struct{}),
	}
	f.setDialect(dialects.Default())
	return f
}

// Start launches a feeder and the source's pipeline, each on a goroutine
// of its own; every batch goes to send, from the feeder's.
func Start(ctx context.Context, src Source, send func(*Batch), interval time.Duration) *Feeder {
	f := newFeeder(send, interval)
	go f.loop()
	go src.Run(ctx, f)
	return f
}

// Sent is closed once the last batch went out, after the source finished.
func (f *Feeder) Sent() <-chan struct{} { return f.sent }

// loop sends batches until Finish was called and the last batch went out.
func (f *Feeder) loop() {
	defer close(f.sent)
	for {
		select {
		case <-f.wake:
		case <-f.done:
			f.flush()
			f.mu.Lock()
			f.pend = &Batch{} // not the room flush kept for a next batch
			f.mu.Unlock()
			return
		}
		f.flush()
		// Wait out the interval, unless the pipeline filled the batch and
		// waits for it to go: the batch size, not the interval, then bounds
		// the rate (at 16k rows every 33 ms a flood was capped at 0.5 M
		// frames a second).
		t := time.NewTimer(f.interval)
		select {
		case <-t.C:
		case <-f.full:
			t.Stop()
		}
	}
}

func (f *Feeder) flush() {
	f.mu.Lock()
	b := f.pend
	if b.empty() {
		f.mu.Unlock()
		return
	}
	// The next batch is likely as big as this one: growing the slice row by
	// row cost a third of the feeder's time at a million frames.
	f.pend = newBatch(len(b.Rows))
	rows := f.nextRow
	select {
	case <-f.full: // it said this batch was full: the next one has not been
	default:
	}
	f.mu.Unlock()
	select {
	case f.drained <- struct{}{}:
	default:
	}
	memBudget(rows)
	f.send(b)
}

// pendMax is how many rows the pipeline may queue for the program before
// it waits for the next batch to go out. A batch row (Ingest) is a few
// hundred bytes until Update packs it: when Update falls behind the
// pipeline (a flood of tiny frames, a busy machine) the pending batch grew
// without bound — ~240 MB at the peak of the 90 MB flood. A full batch of
// a flood is ~500 bytes a row with its alarms: at 64k rows three batches in
// flight (pending, sent, being applied) and their GC headroom were most of
// the flood's peak; 16k rows is still several frames of the screen's
// 16 ms at a million frames a second.
const pendMax = 8 << 10

// waitDrained waits (pipeline goroutine, without f.mu) until flush takes
// the pending batch, the batch shrank, or the program is gone.
func (f *Feeder) waitDrained() {
	for {
		select {
		case <-f.drained:
			return
		case <-time.After(4 * f.interval):
		}
		f.mu.Lock()
		stop := f.stopped || len(f.pend.Rows) < pendMax
		f.mu.Unlock()
		if stop {
			return
		}
	}
}

func (f *Feeder) poke() {
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// Stop makes the feeder drop further items (the program is gone).
func (f *Feeder) Stop() {
	f.mu.Lock()
	f.stopped = true
	f.mu.Unlock()
}

// Finish records how the stream ended (e's Detail sanitized) and the
// checker's turns then, and sends the last batch.
func (f *Feeder) Finish(e invariants.End, turns []invariants.Turn) {
	f.finishClients()
	f.mu.Lock()
	f.pend.End, f.pend.EndTurns = &e, turns
	f.mu.Unlock()
	close(f.done)
}

// keepBytes says where the rows' bytes will be: the capture file itself
// (file != nil) or a spill the feeder writes. Called once, before the
// pipeline runs.
func (f *Feeder) keepBytes(file ByteSource) {
	f.verify = file
	f.text = newSpill()
	f.reason = newSpill()
	f.mu.Lock()
	f.pend.Text, f.pend.Reason = f.text, f.reason
	f.mu.Unlock()
	if file == nil {
		f.spill = newSpill()
		f.setSrc(f.spill)
		return
	}
	f.setSrc(file)
}

func (f *Feeder) setSrc(src ByteSource) {
	f.mu.Lock()
	f.pend.Src = src
	f.mu.Unlock()
}

// checkFile compares the first block with the capture file at its offset:
// a capture opened from a reader under the name of some other file must
// not show that file's bytes. On a mismatch the bytes go to a spill
// instead (no row with bytes has been sent yet, so none points at the
// file).
func (f *Feeder) checkFile(off int64, raw []byte) {
	b := make([]byte, len(raw))
	if n, _ := f.verify.ReadAt(b, off); n != len(b) || string(b) != string(raw) {
		f.spill = newSpill()
		f.setSrc(f.spill)
	}
	f.verify = nil
}

func (f *Feeder) SetConn(c ConnUpdate) {
	f.mu.Lock()
	f.pend.Conn = &c
	if c.HTTPStatus != 0 {
		f.status = c.HTTPStatus
	}
	f.mu.Unlock()
	f.poke()
}

// handler is the pipeline.Handler that feeds the batches.
func (f *Feeder) handler() pipeline.Handler {
	return pipeline.Handler{
		OnDialect: func(d invariants.Dialect) {
			f.mu.Lock()
			f.setDialect(d)
			f.pend.Dialect, f.pend.dialect = d.Name(), d
			f.mu.Unlock()
		},
		OnItem:    f.onItem,
		WantMoves: true,
		OnAlarms: func(as []invariants.Alarm) {
			f.mu.Lock()
			for _, a := range as {
				f.pend.Alarms = append(f.pend.Alarms, AlarmRec{Alarm: a, Row: -1})
			}
			f.mu.Unlock()
			f.poke()
		},
		OnNote: f.note,
	}
}

// note adds a remark about the source (a row and the header's notes).
func (f *Feeder) note(n string) {
	f.mu.Lock()
	f.pend.Rows = append(f.pend.Rows, Ingest{Row: Row{Kind: RowNote, Summary: decode.Sanitize(n)}})
	f.nextRow++
	f.pend.Notes = append(f.pend.Notes, decode.Sanitize(n))
	f.mu.Unlock()
	f.poke()
}

// onItem converts one pipeline item (valid only during the call) into rows.
func (f *Feeder) onItem(it *pipeline.Item) {
	f.mu.Lock()
	stopped := f.stopped
	f.mu.Unlock()
	if stopped {
		return
	}
	ev := it.Event
	if f.text == nil {
		f.keepBytes(nil) // a source that did not say: spill
	}
	if f.verify != nil && ev.Raw != nil {
		f.checkFile(ev.Offset, ev.Raw)
	}
	if f.spill != nil && ev.Raw != nil {
		f.spill.write(ev.Offset, ev.Raw)
		if err := f.spill.failure(); err != nil && !f.spillFailed {
			// Say it once: the frames are all still checked and listed,
			// but the detail of later ones will show no bytes.
			f.spillFailed = true
			f.note("frame bytes can no longer be kept for the detail view (" + err.Error() + "); every frame is still checked and listed")
		}
	}
	rows := f.scratch[:0]
	for _, cm := range ev.Comments {
		rows = append(rows, Ingest{Row: Row{
			Kind: RowComment, Summary: ":" + decode.SanitizeBytes(cm), At: it.Arrival, HasAt: it.HasArrival,
		}})
	}
	main := -1
	switch {
	case it.Frame != nil:
		rows = append(rows, f.movesRow(it))
		main = len(rows) - 1
	case ev.Truncated:
		r := Row{Kind: RowTruncated, Offset: ev.Offset, Size: ev.Size, HasRaw: ev.Raw != nil, At: it.Arrival, HasAt: it.HasArrival,
			Summary: fmt.Sprintf("truncated: the input ended inside an event at byte %d (%d bytes, no blank line); not dispatched", ev.Offset, ev.Size)}
		rows = append(rows, Ingest{Row: r})
		main = len(rows) - 1
	case ev.HasID || ev.HasRetry || ev.HasType || ev.Unknown > 0:
		s := "block without data: not dispatched"
		if ev.HasType {
			s += " event=" + decode.Sanitize(ev.Type)
		}
		if ev.HasID {
			s += " id=" + decode.Sanitize(ev.ID)
		}
		if ev.HasRetry {
			s += " retry=" + strconv.FormatInt(ev.Retry, 10)
		}
		if ev.Unknown > 0 {
			s += fmt.Sprintf(" (%d unknown field lines)", ev.Unknown)
		}
		r := Row{Kind: RowBlock, Offset: ev.Offset, Size: ev.Size, HasRaw: ev.Raw != nil, Summary: s, At: it.Arrival, HasAt: it.HasArrival}
		rows = append(rows, Ingest{Row: r})
		main = len(rows) - 1
	}
	if len(rows) == 0 && len(it.Alarms) == 0 {
		return
	}
	f.mu.Lock()
	full := false
	if it.Frame != nil && f.machine != nil {
		full = f.queueClient(it.Frame, endsTurn(it))
	}
	if it.Flavor != f.flavor {
		f.flavor = it.Flavor
		f.pend.Flavor = it.Flavor
	}
	base := f.nextRow
	f.pend.Rows = append(f.pend.Rows, rows...)
	f.scratch = rows[:0]
	f.nextRow += len(rows)
	for _, a := range it.Alarms {
		row := -1
		if main >= 0 {
			row = base + main
		}
		f.pend.Alarms = append(f.pend.Alarms, AlarmRec{Alarm: a, Row: row})
	}
	over := len(f.pend.Rows) >= pendMax
	if over {
		// Under f.mu: flush, which takes the batch, drains the signal.
		select {
		case f.full <- struct{}{}:
		default:
		}
	}
	f.mu.Unlock()
	f.poke()
	if full {
		f.waitClients()
	}
	if over {
		f.waitDrained()
	}
}

// endsTurn reports a frame that ends its turn: [DONE], or a terminal.
func endsTurn(it *pipeline.Item) bool {
	if it.Frame.Done {
		return true
	}
	for i := range it.Moves {
		if it.Moves[i].Kind == invariants.MoveTerminal {
			return true
		}
	}
	return false
}
