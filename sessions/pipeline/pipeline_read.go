package pipeline

import (
	"errors"
	"io"
	"runtime"
	"sync/atomic"
	"time"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects"
	"framescope/sessions"
)

// frameKeys is the key set every frame is indexed with, on whichever
// stage decodes it (dialects.IndexKeys).
var frameKeys = dialects.IndexKeys()

// The pipeline runs in two stages when a second core is there: a reader
// stage reads the capture, frames it and decodes every frame into a batch
// (the JSON scan is a third of the work), and the checking stage — Run's own
// goroutine — checks the batch's frames in order and calls the handlers.
// Batches are recycled, so the reader never allocates in the steady state,
// and at most pipeDepth of them are in flight: memory stays bounded. On one
// core the reader runs inline, batch by batch, with no goroutine at all.

const (
	pipeDepth      = 4       // batches in flight between the stages
	pipeMaxEntries = 1024    // a batch is sent once it holds this many blocks…
	pipeMaxArena   = 1 << 20 // …or this many bytes of them, and after every chunk read
)

// pipeEntry is one thing the reader saw, in stream order: an SSE block
// (dispatched, with its decoded frame, or not) or a capture problem.
type pipeEntry struct {
	// frame holds the block (frame.Event) and, for a dispatched one, its
	// decoded frame: one copy of the event, not two.
	frame      decode.Frame
	arrival    time.Duration
	hasArrival bool
	from       sessions.Direction // who sent the block (a two-way transport's client frames)
	problem    *sessions.Problem  // set: the entry is a capture problem, not a block

	// Where ev's bytes sit in the batch's arena until the batch is sealed.
	rawAt, dataAt int
	commentsAt    []int
}

// paddedBatch keeps a batch's header on cache lines of its own: the reader
// stage fills one batch while the checking stage reads another, and two
// headers on one line made every append of the one a cache miss for the
// other (a tiny batch's run count changes per block: pipeline_tiny.go).
type paddedBatch struct {
	_ [64]byte
	b pipeBatch
	_ [64]byte
}

// pipeBatch is a run of entries whose bytes live in one arena.
type pipeBatch struct {
	entries []pipeEntry
	arena   []byte
	// rawFrom: the frames of entries[rawFrom:] are numbered but not
	// decoded yet; the checking stage decodes them (its share of the
	// decoding: see readStage).
	rawFrom int
	// tinyMode: the batch is a tiny one (pipeline_tiny.go): tiny holds
	// its blocks in order, entries only those that needed a full entry
	// (tinyFull of them), numbered and decoded by the reader already.
	tinyMode bool
	tiny     []tinyEntry
	tinyFull int
	// tinyLastID is the last-event-ID of every tinyEntry's blocks (set
	// with the first: a block with another goes as a full entry).
	tinyLastID string
	tinyIDSet  bool
}

func (b *pipeBatch) reset() {
	b.entries = b.entries[:0]
	b.arena = b.arena[:0]
	b.rawFrom = 0
	b.tinyMode = false
	b.tiny = b.tiny[:0]
	b.tinyFull = 0
	b.tinyLastID, b.tinyIDSet = "", false
}

// add copies a block into the batch (its bytes into the arena, by offset:
// the arena may still grow).
func (b *pipeBatch) add(ev *decode.Event, arrival time.Duration, hasArrival bool) {
	e := b.next()
	comments, members := e.frame.Comments[:0], e.frame.Members[:0]
	commentsAt := e.commentsAt[:0]
	e.frame.Event.CopyFrom(ev)
	e.arrival, e.hasArrival, e.problem, e.rawAt, e.dataAt = arrival, hasArrival, nil, -1, -1
	e.from = sessions.FromServer
	e.frame.Members = members
	if ev.Raw != nil {
		e.rawAt = len(b.arena)
		b.arena = append(b.arena, ev.Raw...)
	}
	if ev.Data != nil {
		if at, ok := dataWithin(ev); ok && e.rawAt >= 0 {
			e.dataAt = e.rawAt + at // one data line: its bytes are the block's, copied once
		} else {
			e.dataAt = len(b.arena)
			b.arena = append(b.arena, ev.Data...)
		}
	}
	for _, cm := range ev.Comments {
		commentsAt = append(commentsAt, len(b.arena), len(cm))
		b.arena = append(b.arena, cm...)
	}
	e.commentsAt = commentsAt
	e.frame.Comments = comments
}

func (b *pipeBatch) addProblem(p sessions.Problem) {
	e := b.next()
	members, comments, commentsAt := e.frame.Members[:0], e.frame.Comments[:0], e.commentsAt[:0]
	*e = pipeEntry{problem: &p, commentsAt: commentsAt}
	e.frame.Members, e.frame.Comments = members, comments
}

// next extends the batch by one entry, reusing the slot's buffers (its
// frame's members, its comments) from the batch's last use.
func (b *pipeBatch) next() *pipeEntry {
	if len(b.entries) < cap(b.entries) {
		b.entries = b.entries[:len(b.entries)+1]
	} else {
		b.entries = append(b.entries, pipeEntry{})
	}
	return &b.entries[len(b.entries)-1]
}

// seal points every entry's slices into the arena (now final), numbers
// the dispatched ones and decodes those before rawFrom.
func (b *pipeBatch) seal(dec *decode.Decoder, rawFrom int) {
	if b.tinyMode {
		rawFrom = len(b.entries) // decoded as they were added
	}
	b.rawFrom = rawFrom
	for i := range b.entries {
		e := &b.entries[i]
		if e.problem != nil {
			continue
		}
		ev := &e.frame.Event
		if e.rawAt >= 0 {
			ev.Raw = b.arena[e.rawAt : e.rawAt+len(ev.Raw) : e.rawAt+len(ev.Raw)]
		}
		if e.dataAt >= 0 {
			ev.Data = b.arena[e.dataAt : e.dataAt+len(ev.Data) : e.dataAt+len(ev.Data)]
		}
		if len(e.commentsAt) > 0 {
			cms := ev.Comments[:0]
			for k := 0; k+1 < len(e.commentsAt); k += 2 {
				at, n := e.commentsAt[k], e.commentsAt[k+1]
				cms = append(cms, b.arena[at:at+n:at+n])
			}
			ev.Comments = cms
		} else {
			ev.Comments = nil
		}
		if ev.Dispatched() {
			if !b.tinyMode { // a tiny batch's blocks were numbered as the reader decoded them
				e.frame.Index = dec.Number()
			}
			if i < b.rawFrom {
				b.decode(e)
			}
		}
	}
}

// decode decodes a sealed, numbered entry's frame.
func (b *pipeBatch) decode(e *pipeEntry) {
	decode.DecodeAt(&e.frame, &e.frame.Event, frameKeys, e.frame.Index, e.arrival, e.hasArrival)
}

// readResult is how the reader stage ended.
type readResult struct {
	end     invariants.End
	readErr error
	bytes   int64
	frames  int
}

// reader reads a capture through the framer, chunk by chunk. One
// goroutine at a time runs it: the reader stage, and after a handoff
// (runStages) the checking stage.
type reader struct {
	c      sessions.Capture
	framer *decode.Framer
	chunk  sessions.Chunk
	rr     readResult
	// held: the time of the chunk whose last byte, a lone CR, completed
	// the block the framer holds (decode.Framer.HoldsComplete). That
	// block is timed by it, not by the read that releases it.
	held sessions.Chunk
}

func newReader(c sessions.Capture) *reader { return &reader{c: c, framer: decode.NewFramer()} }

// readLoop reads c to its end through the framer: every block goes to
// emit with the chunk that completed it, every capture problem to problem
// in stream order, and chunkDone runs after each chunk (and at the end).
func readLoop(c sessions.Capture, emit func(*decode.Event, *sessions.Chunk), problem func(sessions.Problem), chunkDone func()) readResult {
	r := newReader(c)
	r.run(emit, problem, chunkDone, nil)
	return r.rr
}

// run reads on from where the reader is, as readLoop does, until the end
// of the capture (true), or until stop, asked after each chunk, says to
// hand the rest over (false; the framer keeps its state for the next run).
func (r *reader) run(emit func(*decode.Event, *sessions.Chunk), problem func(sessions.Problem), chunkDone func(), stop func() bool) bool {
	live := r.c.Meta().Live
	feed := func(ev *decode.Event) {
		if r.framer.EmittingHeld() {
			emit(ev, &r.held)
			return
		}
		emit(ev, &r.chunk)
	}
	problems := func() {
		for _, p := range r.c.TakeProblems() {
			problem(p)
		}
	}
	for {
		var err error
		r.chunk, err = r.c.Next()
		problems()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				r.rr.readErr = err
			}
			break
		}
		r.rr.bytes += int64(len(r.chunk.Data))
		r.framer.Feed(r.chunk.Data, feed)
		if r.framer.HoldsComplete() {
			if live {
				r.framer.Release(feed) // a lone CR ended it: dispatched now
			} else {
				r.held = sessions.Chunk{T: r.chunk.T, HasTime: r.chunk.HasTime, From: r.chunk.From}
			}
		}
		chunkDone()
		if stop != nil && stop() {
			return false
		}
	}
	r.rr.end = r.c.End()
	problems()
	r.chunk = sessions.Chunk{T: r.rr.end.At, HasTime: r.rr.end.HasTime}
	r.framer.Close(feed)
	chunkDone()
	return true
}

// A stream of tiny blocks (an alarm flood: `data: x` ten million times)
// cannot travel in full entries: copying each block into a batch and
// handing it to the other core costs more than the block's own check. The
// reader stage watches the mean block size in windows of tinyWindow blocks;
// below tinyMean bytes it sends tiny batches (pipeline_tiny.go), which carry
// a block with no members in a few bytes and a run of identical ones in
// one entry, and it goes back to full batches when blocks grow again. When
// most blocks of a tiny window still needed a full entry (a flood of small
// objects or of comments), it hands the rest of the stream over to the
// checking stage, which reads on inline, on one core.
const tinyMean = 32

// wsBatch is how many frames of a WebSocket capture file a batch takes.
const wsBatch = 256

// tinyWindow is a variable for the fuzz target, which needs short windows.
var tinyWindow int64 = 16384

// The reader stage's share of the decoding, in shareOne parts, moves by
// shareStep per batch.
const (
	shareOne  = 64
	shareStep = 4
)

// stageHandoffs counts the handoffs of this process, stageTinyBatches the
// tiny batches sent (tests see them).
var stageHandoffs, stageTinyBatches atomic.Int64

// readStage reads on through r, sending sealed batches to sink in order
// (after every chunk: a live stream's frames go on as soon as their chunk
// is read). get returns an empty batch to fill (a recycled one when it
// can). queued says how many batches wait for the checking stage. The
// JSON scan is shared between the stages: this one decodes the first
// share/shareOne of each batch and the checking stage the rest, and the
// share moves after each batch, down while the checking stage waits for
// work and up while batches queue for it, so that both cores stay busy
// whatever the frames and the checker cost. It returns false when it
// stopped early to hand a stream of tiny blocks over (see tinyMean), with
// everything read so far sent.
func readStage(r *reader, dec *decode.Decoder, get func() *pipeBatch, sink func(*pipeBatch), queued func() int) bool {
	tinyMode := false
	share := shareOne
	var scratch decode.Frame // a tiny batch's blocks, decoded by this stage
	b := get()
	send := func() {
		if len(b.entries) == 0 && len(b.tiny) == 0 {
			return
		}
		if b.tinyMode {
			stageTinyBatches.Add(1)
		}
		switch q := queued(); {
		case q == 0:
			share = max(share-shareStep, 0)
		case q >= 2:
			share = min(share+shareStep, shareOne)
		}
		b.seal(dec, len(b.entries)*share/shareOne)
		sink(b)
		b = get()
		b.tinyMode = tinyMode
		b.growTiny()
	}
	var winBlocks, winBytes, winFull int64
	// stop decides, after each chunk (the batch just sent), how the next
	// blocks travel; true hands the rest of the stream over.
	stop := func() bool {
		if winBlocks < tinyWindow {
			return false
		}
		small := winBytes < tinyMean*winBlocks
		mostlyFull := tinyMode && 2*winFull > winBlocks
		winBlocks, winBytes, winFull = 0, 0, 0
		if mostlyFull {
			return true // tiny, but not bare: inline beats full entries
		}
		if small != tinyMode {
			send()
			tinyMode = small
			b.tinyMode = small
			b.growTiny()
			if small {
				r.framer.EmitInto(&scratch.Event)
			} else {
				r.framer.EmitInto(nil)
			}
		}
		return false
	}
	defer r.framer.EmitInto(nil)
	// A batch goes after every chunk (a live stream's frames are shown as
	// they come), but a WebSocket capture read from a file has one frame
	// per chunk: its batches go by the wsBatch frames, or the stages would
	// cross frame by frame.
	chunkDone := send
	if m := r.c.Meta(); !m.Live && m.Transport == sessions.TransportWebSocket {
		chunkDone = func() {
			if len(b.entries)+len(b.tiny) >= wsBatch {
				send()
			}
		}
	}
	defer send()
	return r.run(func(ev *decode.Event, chunk *sessions.Chunk) {
		winBlocks++
		winBytes += ev.Size
		if !b.tinyMode {
			b.add(ev, chunk.T, chunk.HasTime)
			b.entries[len(b.entries)-1].from = chunk.From
			if len(b.entries) >= pipeMaxEntries || len(b.arena) >= pipeMaxArena {
				send()
			}
			return
		}
		if chunk.From != sessions.FromServer { // a client frame travels in a full entry, with its direction
			index := -1
			if ev.Dispatched() {
				index = dec.Number()
			}
			b.addTinyFull(ev, index, chunk.T, chunk.HasTime)
			b.entries[len(b.entries)-1].from = chunk.From
			winFull++
			return
		}
		full := b.tinyFull
		b.addTiny(ev, &scratch, dec, chunk.T, chunk.HasTime)
		winFull += int64(b.tinyFull - full)
		if len(b.tiny) >= tinyMaxEntries || len(b.arena) >= pipeMaxArena {
			send()
		}
	}, func(p sessions.Problem) {
		if b.tinyMode {
			b.addTinyProblem(p)
		} else {
			b.addProblem(p)
		}
	}, chunkDone, stop)
}

// readInline is the pipeline on one core: each block is decoded and
// handed on as the framer emits it, its bytes still the framer's (no copy
// into a batch).
func readInline(r *reader, dec *decode.Decoder, handle func(*pipeEntry)) {
	var e pipeEntry
	r.framer.EmitInto(&e.frame.Event) // blocks land in the frame: no copy
	defer r.framer.EmitInto(nil)
	r.run(func(ev *decode.Event, chunk *sessions.Chunk) {
		if ev != &e.frame.Event {
			e.frame.Event.CopyFrom(ev)
		}
		e.arrival, e.hasArrival, e.from = chunk.T, chunk.HasTime, chunk.From
		if ev.Dispatched() {
			dec.DecodeInto(&e.frame, &e.frame.Event, e.arrival, e.hasArrival) // in place: no second copy
		}
		handle(&e)
	}, func(p sessions.Problem) { handle(&pipeEntry{problem: &p}) }, func() {}, nil)
}

// runStages reads c to its end and hands every entry to handle, in stream
// order, on the caller's goroutine: on more than one core the reader stage
// runs a goroutine ahead, in batches; on one core everything runs inline.
func runStages(c sessions.Capture, oneStage bool, handle func(*pipeEntry)) readResult {
	r := newReader(c)
	dec := decode.Decoder{Keys: frameKeys}
	if oneStage || runtime.GOMAXPROCS(0) < 2 {
		readInline(r, &dec, handle)
		r.rr.frames = dec.NextIndex()
		return r.rr
	}
	free := make(chan *pipeBatch, pipeDepth)
	batches := new([pipeDepth]paddedBatch)
	for i := range batches {
		free <- &batches[i].b
	}
	full := make(chan *pipeBatch, pipeDepth)
	done := make(chan bool, 1)
	go func() {
		ended := readStage(r, &dec, func() *pipeBatch { b := <-free; b.reset(); return b }, func(b *pipeBatch) { full <- b },
			func() int { return len(full) })
		close(full)
		done <- ended
	}()
	var scratch pipeEntry // a tiny batch's blocks, one after another
	for b := range full {
		b.each(&scratch, handle)
		free <- b
	}
	if !<-done {
		// Handed over (tiny blocks): the reader, its framer and the frame
		// numbering go on here, inline.
		stageHandoffs.Add(1)
		readInline(r, &dec, handle)
	}
	r.rr.frames = dec.NextIndex()
	return r.rr
}
