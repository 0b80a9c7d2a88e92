package store

import (
	"time"

	"framescope/decode"
)

// The reference client machines cost about as much per frame as decoding
// and checking it, so they run on a goroutine of their own beside the
// pipeline (two cores: the pipeline is not slowed down by them). The
// pipeline goroutine copies each frame's event into a work list — the data
// bytes into one buffer, the event's fields beside them — and the machines'
// goroutine decodes and steps them in order, adding its checkpoints to the
// pending batch. A batch may therefore carry rows whose machine steps come
// in a later one; the Client pane replays those few frames itself
// (clientIndex.at).

// clientWork is the frames handed to the machines' goroutine.
type clientWork struct {
	buf      []byte         // the events' data, one after the other
	ends     []int          // ends[i]: the end of event i's data in buf
	evs      []decode.Event // the events, Data unset (it is in buf)
	arr      []time.Duration
	has      []bool
	endsTurn []bool // the frame ends a turn (clientFeed.step)
}

func (w *clientWork) add(fr *decode.Frame, ends bool) {
	ev := fr.Event
	ev.Data, ev.Raw, ev.Comments = nil, nil, nil // the machines read the data only
	w.buf = append(w.buf, fr.Event.Data...)
	w.ends = append(w.ends, len(w.buf))
	w.evs = append(w.evs, ev)
	w.arr = append(w.arr, fr.Arrival)
	w.has = append(w.has, fr.HasArrival)
	w.endsTurn = append(w.endsTurn, ends)
}

func (w *clientWork) reset() {
	w.buf, w.ends, w.evs, w.arr, w.has, w.endsTurn = w.buf[:0], w.ends[:0], w.evs[:0], w.arr[:0], w.has[:0], w.endsTurn[:0]
}

// clientRunner is the machines' goroutine and the work it is handed.
type clientRunner struct {
	feed  clientFeed
	dec   decode.Decoder // numbers the frames as the pipeline's decoder did, with the dialect's keys
	work  clientWork     // under feeder.mu: filled by the pipeline
	spare clientWork     // the runner's: the list it works on
	wake  chan struct{}
	room  chan struct{} // the runner took the queue (the pipeline may go on)
	end   chan struct{} // closed when the pipeline is done
	done  chan struct{} // closed when the runner has read everything
}

// clientQueueMax is how many frames the pipeline may run ahead of the
// machines. Unbounded, a stream the pipeline reads faster than the
// machines step (an alarm flood: nothing to check, everything to step)
// queued every frame's event: 10,485,760 frames of the 90 MB flood held
// ~450 MB of queue at the peak.
const clientQueueMax = 16 << 10

// queueClient hands one frame to the machines (pipeline goroutine, under
// f.mu), starting their goroutine at the first frame; ends says the frame
// ends a turn. It reports whether the queue is full: the caller waits
// (waitClients, without f.mu).
func (f *Feeder) queueClient(fr *decode.Frame, ends bool) bool {
	r := f.clients
	if r == nil {
		r = &clientRunner{feed: clientFeed{m: f.machine}, dec: decode.Decoder{Keys: f.keys}, wake: make(chan struct{}, 1), room: make(chan struct{}, 1), end: make(chan struct{}), done: make(chan struct{})}
		f.clients = r
		go f.runClients(r)
	}
	r.work.add(fr, ends)
	select {
	case r.wake <- struct{}{}:
	default:
	}
	return len(r.work.evs) >= clientQueueMax
}

// waitClients waits until the machines take the queue (or are gone).
// Pipeline goroutine only: it is the one that sets f.clients.
func (f *Feeder) waitClients() {
	if r := f.clients; r != nil {
		select {
		case <-r.room:
		case <-r.done:
		}
	}
}

// runClients steps the machines over every frame queued, until the
// pipeline is done and the queue is empty (or the program is gone).
func (f *Feeder) runClients(r *clientRunner) {
	defer func() {
		// The feeder outlives the stream: its queue's room (16k frames'
		// events, megabytes) need not.
		f.mu.Lock()
		r.work, r.spare = clientWork{}, clientWork{}
		f.mu.Unlock()
		close(r.done)
	}()
	for {
		ended := false
		select {
		case <-r.wake:
		case <-r.end:
			ended = true
		}
		for {
			f.mu.Lock()
			if f.stopped {
				f.mu.Unlock()
				return
			}
			r.work, r.spare = r.spare, r.work
			r.work.reset()
			status := f.status
			f.mu.Unlock()
			select {
			case r.room <- struct{}{}:
			default:
			}
			w := &r.spare
			if len(w.evs) == 0 {
				break
			}
			var out clientIndex
			start := 0
			for i := range w.evs {
				ev := w.evs[i]
				ev.Data = w.buf[start:w.ends[i]]
				start = w.ends[i]
				r.feed.step(r.dec.Decode(&ev, w.arr[i], w.has[i]), w.endsTurn[i], status, &out)
			}
			f.mu.Lock()
			if f.pend.Client == nil {
				f.pend.Client = &clientIndex{}
			}
			f.pend.Client.add(&out)
			f.mu.Unlock()
			f.poke()
		}
		if ended {
			return
		}
	}
}

// finishClients waits until the machines have read every frame queued, so
// that the last batch carries their last checkpoints.
func (f *Feeder) finishClients() {
	f.mu.Lock()
	r := f.clients
	f.mu.Unlock()
	if r == nil {
		return
	}
	close(r.end)
	<-r.done
}
