package store

import (
	"fmt"
	"sort"

	"framescope/decode"
	"framescope/invariants/machine"
)

// The reference client machines — the stream's dialect's, when it ships
// one (machine.Of): its reference profile and the deployed one — are run
// once over the stream, beside the pipeline (client_feed.go), never in
// Update. Every ClientEvery frames it forks both runs into
// a checkpoint that travels to the store with the batch; the Client pane
// then shows any frame by forking the nearest checkpoint and replaying at
// most ClientEvery-1 frames.
//
// Checkpoints are never stepped: a fork shares only the bubble's text (and
// cards) with the run it came from, up to the length it had, and the run
// only ever appends past that (machine.Run.Fork) — so the machines'
// goroutine stepping its front run and the UI goroutine reading a
// checkpoint never touch the same bytes.

// ClientEvery is the least distance in frames between two checkpoints,
// and half the most. Past ClientEvery frames the next checkpoint waits for
// a turn to begin (a frame after [DONE] or a terminal event), where the
// runs' view has just been emptied: a checkpoint in the middle of a turn
// keeps the turn's text so far alive, one at its start keeps almost
// nothing. Measured at 1,000,000 frames (BenchmarkOpen1M): every 256th
// frame, the checkpoints held 48 MB of text and forks; turn-aligned, 7 MB.
const ClientEvery = 256

// ClientPair is a run of the machine's reference profile (Ref) and one of
// the deployed profile it is compared with (Dep), fed the same inputs.
type ClientPair struct{ Ref, Dep machine.Run }

func newClientPair(m machine.Machine) ClientPair {
	ps := m.Profiles()
	return ClientPair{m.NewRun(ps[0]), m.NewRun(ps[1])}
}

// fork copies both runs.
func (p ClientPair) fork() ClientPair { return ClientPair{p.Ref.Fork(), p.Dep.Fork()} }

func (p ClientPair) Transport(ev machine.TransportEvent) (ref, dep machine.Step) {
	return p.Ref.TransportShared(ev), p.Dep.TransportShared(ev)
}

func (p ClientPair) Step(f *decode.Frame) (ref, dep machine.Step) {
	return p.Ref.StepShared(f), p.Dep.StepShared(f)
}

func httpStatusFailed(status int) bool { return status != 0 && (status < 200 || status > 299) }

// StartClientPair starts runs of m and feeds them the transport events
// that come before any frame: the request, then the response's status
// once it is known (bodyBegan: a 2xx response's body began).
func StartClientPair(m machine.Machine, status int, bodyBegan bool) ClientPair {
	p := newClientPair(m)
	p.Transport(machine.TransportEvent{Input: machine.InConnect})
	switch {
	case httpStatusFailed(status):
		p.Transport(machine.TransportEvent{Input: machine.InHTTPError, Detail: fmt.Sprintf("HTTP %d", status)})
	case bodyBegan:
		p.Transport(machine.TransportEvent{Input: machine.InFirstByte})
	}
	return p
}

// clientIndex is what the store keeps of the machines' run: checkpoints
// (cps[k] = both runs after cpAt[k] frames), the frames where the
// deployed client starts reading the turn otherwise, and the frames the
// reference client has no row for. n is the number of frames read.
type clientIndex struct {
	cps     []ClientPair
	cpAt    []int // cpAt[k]: the frames read when cps[k] was taken (ascending)
	origins []int
	viols   []int
	n       int
}

// add appends what the feeder read since its last batch.
func (x *clientIndex) add(b *clientIndex) {
	x.cps = append(x.cps, b.cps...)
	x.cpAt = append(x.cpAt, b.cpAt...)
	x.origins = append(x.origins, b.origins...)
	x.viols = append(x.viols, b.viols...)
	x.n = b.n
}

// clientCatchUp is how many frames past its index the pane replays itself
// (the machines' goroutine runs a moment behind the rows: a live stream's
// newest frame is shown at once, not after the next batch).
const clientCatchUp = 2048

// at returns both runs after frames [0, want) of st, replaying from the
// nearest checkpoint (at most 2*ClientEvery+clientCatchUp frames); ok is false
// when the machines are farther behind than that.
func (x *clientIndex) at(st *Store, want int) (ClientPair, bool) {
	if want > st.Frames {
		return ClientPair{}, false
	}
	k := sort.SearchInts(x.cpAt, want+1) - 1
	from := 0
	if k >= 0 {
		from = x.cpAt[k]
	}
	if want-from > 2*ClientEvery+clientCatchUp {
		return ClientPair{}, false
	}
	var p ClientPair
	switch {
	case k < 0:
		// No checkpoint yet: the first is the runs before any frame.
		p = StartClientPair(st.Machine(), st.HTTPStatus, true)
	case from == want && k > 0 && x.cps[k] == x.cps[k-1]:
		// A checkpoint shared with the one before (clientFeed.checkpoint):
		// the same runs but for the number of the frame last read.
		p = ClientPair{x.cps[k].Ref.ForkAt(want - 1), x.cps[k].Dep.ForkAt(want - 1)}
	default:
		p = x.cps[k].fork()
	}
	for n := from; n < want; n++ {
		p.Step(st.RowFrame(st.RowOfFrame(n)))
	}
	return p, true
}

// ClientAt returns both runs after frames [0, want) of the stream, replayed
// from the machines' nearest checkpoint (clientIndex.at); ok is false when
// the machines are too far behind.
func (s *Store) ClientAt(want int) (ClientPair, bool) { return s.client.at(s, want) }

// ClientRead is how many frames the machines have read: their goroutine
// runs a moment behind the rows.
func (s *Store) ClientRead() int { return s.client.n }

// ClientOrigins are the frames up to frame where the deployed client
// starts reading the turn otherwise than the reference one (ascending).
func (s *Store) ClientOrigins(frame int) []int {
	return s.client.origins[:upTo(s.client.origins, frame)]
}

// ClientViolations are the frames up to frame the reference client has no
// row for (ascending).
func (s *Store) ClientViolations(frame int) []int {
	return s.client.viols[:upTo(s.client.viols, frame)]
}

// ClientCheckpoints are the frames read when each of the machines'
// checkpoints was taken (ascending).
func (s *Store) ClientCheckpoints() []int { return s.client.cpAt }

// upTo returns how many of the sorted frame indexes are ≤ frame.
func upTo(frames []int, frame int) int { return sort.SearchInts(frames, frame+1) }

// clientFeed is the pipeline goroutine's side: the front runs, stepped
// once per frame; what they yield goes into the pending batch.
type clientFeed struct {
	m       machine.Machine
	front   ClientPair
	started bool
	n       int        // frames read
	last    int        // frames read at the last checkpoint
	ended   bool       // the last frame ended a turn: the next one begins one
	cp      ClientPair // the last checkpoint taken
}

// checkpoint adds the front runs after cf.n frames to out. When they are
// what the last checkpoint holds but for the number of the frame last
// read — frames that changed nothing, as in an alarm flood — the last
// checkpoint's runs are shared (at renumbers them): a flood of ten million
// frames kept 20,000 forks, ~24 MB, for one state.
func (cf *clientFeed) checkpoint(out *clientIndex) {
	if cf.cp.Ref == nil || !cf.front.Ref.SameButFrame(cf.cp.Ref) || !cf.front.Dep.SameButFrame(cf.cp.Dep) {
		cf.cp = cf.front.fork()
	}
	out.cps = append(out.cps, cf.cp)
	out.cpAt = append(out.cpAt, cf.n)
	cf.last = cf.n
}

// step reads one frame into out (the pending batch's part). The frame is
// valid only during the call: the machines keep copies of what they show,
// never the frame's bytes. status is the HTTP status known when the first
// frame arrives; ends says f ends a turn (a terminal move, or [DONE]).
func (cf *clientFeed) step(f *decode.Frame, ends bool, status int, out *clientIndex) {
	if !cf.started {
		cf.front = StartClientPair(cf.m, status, true)
		cf.checkpoint(out)
		cf.started = true
	}
	ref, dep := cf.front.Step(f)
	if ref.Violation {
		out.viols = append(out.viols, cf.n)
	}
	if cf.diverges(f, &ref, &dep) {
		out.origins = append(out.origins, cf.n)
	}
	cf.n++
	out.n = cf.n
	// f begins a turn: the frame before it ended one, and f is not the
	// [DONE] after a terminal event.
	begins := cf.ended && !f.Done
	cf.ended = ends
	if since := cf.n - cf.last; since >= 2*ClientEvery || since >= ClientEvery && begins {
		cf.checkpoint(out)
	}
}

// diverges reports a frame the two clients read differently where the
// difference starts: the profiles' rows for it differ
// (machine.Machine.Diverges) and so did the rows they really took.
func (cf *clientFeed) diverges(f *decode.Frame, ref, dep *machine.Step) bool {
	if !machine.StepsDiffer(ref, dep) {
		return false
	}
	_, ok := cf.m.Diverges(f)
	return ok
}
