package replay

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sse "github.com/tmaxmax/go-sse"
)

// RelayOptions configures the reference v0.5 relay (NewRelay).
type RelayOptions struct {
	// Scenario names the built-in turn to play (see Scenarios); "" plays
	// "happy".
	Scenario string
	// Path is the one URL path served (default "/api/chat"); any other path
	// gets 404.
	Path string
	// Speed scales the scenario's pauses: 1 = real timing, 2 = twice as
	// fast; 0 or +Inf = no pauses at all (tests).
	Speed float64
	// Idle is the relay's idle timeout (NFR-6): when upstream sends nothing
	// for this long, the relay cancels it and synthesizes cancelled
	// IDLE_TIMEOUT. It applies to every turn; only the idle scenario is
	// built to trip it. Default 3s.
	Idle time.Duration
	// FloodFrames is the number of text frames of the flood scenario
	// (default 50,000).
	FloodFrames int
	// Log gets one line per request: client, scenario, frames sent and how
	// the turn ended. Writes are serialised. nil = no log.
	Log io.Writer
	// Now is the clock for envelope timestamps (default time.Now). It is
	// called from several goroutines.
	Now func() time.Time
}

const (
	defaultRelayPath   = "/api/chat"
	defaultRelayIdle   = 3 * time.Second
	defaultFloodFrames = 50000
	// relayMaxBody bounds how much of a POST body the relay reads (and
	// discards) before streaming.
	relayMaxBody = 1 << 20
	// relayUpstreamBuffer is how many frames upstream may run ahead of the
	// client socket.
	relayUpstreamBuffer = 16
)

// Causes the relay gives upstream's context when it cancels it (§5.6).
var (
	errRelayClientGone = errors.New("client disconnected")
	errRelayIdle       = errors.New("relay idle timeout")
)

// relay is the http.Handler NewRelay returns.
type relay struct {
	opts RelayOptions
	scn  Scenario

	turns atomic.Int64 // response_id counter
	live  atomic.Int64 // upstream goroutines still running (tests)
	logMu sync.Mutex
}

// NewRelay returns the reference v0.5 relay: every GET or POST on
// opts.Path streams a fresh turn of the scenario over SSE (go-sse), with a
// fresh response_id (resp_<scenario>_<n>), real timing scaled by Speed, a
// flush per frame and `data: [DONE]` after the terminal. When the client
// leaves mid-turn the relay cancels upstream, which answers with cancelled
// REQUEST_CANCELLED; the relay forwards it and [DONE] to whatever is still
// open (usually nothing: §5.6). When upstream is silent for opts.Idle the
// relay synthesizes cancelled IDLE_TIMEOUT and [DONE] itself (NFR-6).
// An unknown scenario is an error that lists the known names.
func NewRelay(opts RelayOptions) (http.Handler, error) {
	if opts.Scenario == "" {
		opts.Scenario = "happy"
	}
	scn, ok := LookupScenario(opts.Scenario)
	if !ok {
		return nil, fmt.Errorf("unknown scenario %q (known: %s)", opts.Scenario, strings.Join(ScenarioNames(), ", "))
	}
	if opts.Path == "" {
		opts.Path = defaultRelayPath
	}
	if !strings.HasPrefix(opts.Path, "/") {
		return nil, fmt.Errorf("relay path %q must start with /", opts.Path)
	}
	if math.IsNaN(opts.Speed) || opts.Speed < 0 {
		return nil, fmt.Errorf("relay speed %v: want 0 (no pauses), a positive factor (1 = real time) or +Inf", opts.Speed)
	}
	if opts.Idle < 0 {
		return nil, fmt.Errorf("relay idle timeout %v is negative", opts.Idle)
	}
	if opts.Idle == 0 {
		opts.Idle = defaultRelayIdle
	}
	if opts.FloodFrames < 0 {
		return nil, fmt.Errorf("flood frames %d is negative", opts.FloodFrames)
	}
	if opts.FloodFrames == 0 {
		opts.FloodFrames = defaultFloodFrames
	}
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &relay{opts: opts, scn: scn}, nil
}

func (rl *relay) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != rl.opts.Path {
		http.Error(w, fmt.Sprintf("404 not found: the framescope relay streams scenario %q at %s", rl.scn.Name, rl.opts.Path), http.StatusNotFound)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodPost {
		w.Header().Set("Allow", "GET, POST")
		http.Error(w, "405 method not allowed: use GET or POST", http.StatusMethodNotAllowed)
		return
	}
	// Read the request (a prompt) first: net/http notices a client that
	// leaves only once the body has been consumed.
	if r.Body != nil {
		io.Copy(io.Discard, io.LimitReader(r.Body, relayMaxBody))
	}
	sess, err := sse.Upgrade(w, r)
	if err != nil {
		http.Error(w, "500 streaming unsupported: "+err.Error(), http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")

	t := &relayTurn{
		rl:    rl,
		sess:  sess,
		rid:   fmt.Sprintf("resp_%s_%d", rl.scn.Name, rl.turns.Add(1)),
		start: time.Now(),
	}
	var how string
	if rl.scn.script != nil {
		how = t.runScript(r.Context())
	} else {
		how = t.run(r.Context())
	}
	rl.logf("relay: %s %s %s scenario=%s %s: %d frames sent in %s; %s\n",
		r.RemoteAddr, r.Method, r.URL.Path, rl.scn.Name, t.rid, t.sent,
		time.Since(t.start).Round(time.Millisecond), how)
}

func (rl *relay) logf(format string, args ...any) {
	rl.logMu.Lock()
	defer rl.logMu.Unlock()
	fmt.Fprintf(rl.opts.Log, format, args...)
}

// relayFrame is one SSE event on its way to the client.
type relayFrame struct {
	event    string // the SSE event: field; "" = data-only
	data     string
	terminal bool
	desc     string // for the log: "completed", "cancelled IDLE_TIMEOUT", …
}

var relayDoneFrame = relayFrame{data: "[DONE]", desc: "[DONE]"}

// relayTurn is one request's turn.
type relayTurn struct {
	rl    *relay
	sess  *sse.Session
	rid   string
	start time.Time
	sent  int // frames written and flushed ([DONE] included)
	// held are the frames a holding scenario (Scenario.hold) keeps back
	// until its [DONE], as a buffering proxy does.
	held []relayFrame
}

// write sends one frame and flushes it. A holding scenario's frames after
// the first wait for the [DONE], then go out in one write: the first
// passes, as a buffering proxy passes the first small write on (so the
// turn is late as a whole, not at its first frame: delivery-buffered, not
// ttfe, says what went wrong).
func (t *relayTurn) write(f relayFrame) error {
	if t.rl.scn.hold && t.sent > 0 {
		if f.data != relayDoneFrame.data {
			t.held = append(t.held, f)
			t.sent++
			return nil
		}
		for _, h := range t.held {
			if err := t.send(h); err != nil {
				return err
			}
		}
		t.held = nil
	}
	if err := t.send(f); err != nil {
		return err
	}
	if err := t.sess.Flush(); err != nil {
		return err
	}
	t.sent++
	return nil
}

// send writes one frame to the session, unflushed.
func (t *relayTurn) send(f relayFrame) error {
	m := &sse.Message{}
	if f.event != "" {
		m.Type = sse.Type(f.event)
	}
	m.AppendData(f.data)
	return t.sess.Send(m)
}

// run plays the turn and returns how it ended, for the log. It returns
// only after the upstream goroutine has exited.
func (t *relayTurn) run(reqCtx context.Context) string {
	rl := t.rl
	upCtx, cancelUp := context.WithCancelCause(context.Background())
	defer cancelUp(nil)
	out := make(chan relayFrame, relayUpstreamBuffer)
	u := &scnUpstream{
		ctx:         upCtx,
		out:         out,
		speed:       rl.opts.Speed,
		now:         rl.opts.Now,
		rid:         t.rid,
		version:     rl.scn.Version,
		floodFrames: rl.opts.FloodFrames,
	}
	rl.live.Add(1)
	go func() {
		defer close(out)
		defer rl.live.Add(-1)
		u.run(rl.scn.play)
	}()
	// drain discards what upstream still sends and waits for it to exit.
	drain := func() {
		for range out {
		}
	}

	idle := time.NewTimer(rl.opts.Idle)
	defer idle.Stop()
	terminal := "" // the terminal frame forwarded, if any
	forward := func(f relayFrame) error {
		err := t.write(f)
		if err == nil && f.terminal && terminal == "" {
			terminal = f.desc
		}
		return err
	}
	for {
		idle.Reset(rl.opts.Idle)
		var (
			f     relayFrame
			ok    bool
			gone  error // why the client is taken to be gone
			idled bool
		)
		select {
		case f, ok = <-out:
		case <-reqCtx.Done():
			gone = context.Cause(reqCtx)
		case <-idle.C:
			// A frame that became ready at the last moment wins.
			select {
			case f, ok = <-out:
			default:
				idled = true
			}
		}
		switch {
		case gone != nil:
			return t.clientGone(cancelUp, out, forward, terminal, gone)
		case idled:
			cancelUp(errRelayIdle)
			var how string
			if terminal == "" {
				err := forward(u.build(u.cancelStep("IDLE_TIMEOUT")))
				how = fmt.Sprintf("upstream silent for %s: upstream cancelled, %s synthesized", rl.opts.Idle, u.cancelDesc("IDLE_TIMEOUT"))
				if err != nil {
					how += " but not delivered (" + err.Error() + ")"
				}
			} else {
				how = fmt.Sprintf("ended with %s; upstream then silent for %s and cancelled", terminal, rl.opts.Idle)
			}
			how += doneNote(t.write(relayDoneFrame))
			drain()
			return how
		case !ok:
			// Upstream finished the turn.
			how := "upstream ended without a terminal frame"
			if terminal != "" {
				how = "ended with " + terminal
			}
			return how + doneNote(t.write(relayDoneFrame))
		default:
			if err := forward(f); err != nil {
				return t.clientGone(cancelUp, out, forward, terminal, fmt.Errorf("write failed: %w", err))
			}
		}
	}
}

// clientGone is the client-initiated path of §5.6: cancel upstream, let it
// unwind (its cancelled REQUEST_CANCELLED is forwarded, other frames are
// dropped), then send [DONE] to whatever transport is still open.
func (t *relayTurn) clientGone(cancelUp context.CancelCauseFunc, out <-chan relayFrame,
	forward func(relayFrame) error, terminal string, why error) string {
	at := t.sent
	cancelUp(errRelayClientGone)
	var b strings.Builder
	fmt.Fprintf(&b, "client disconnected at frame %d (%s); upstream cancelled", at, why)
	sentTerminal := terminal != ""
	for f := range out {
		if !f.terminal || sentTerminal {
			continue // non-terminal frames after the cancel are discarded
		}
		sentTerminal = true
		if err := forward(f); err != nil {
			fmt.Fprintf(&b, "; %s emitted but not delivered (%s)", f.desc, err)
		} else {
			fmt.Fprintf(&b, "; %s emitted", f.desc)
		}
	}
	if !sentTerminal {
		b.WriteString("; no terminal frame from upstream")
	} else if terminal != "" {
		fmt.Fprintf(&b, "; the turn had already ended with %s", terminal)
	}
	if err := t.write(relayDoneFrame); err != nil {
		fmt.Fprintf(&b, "; [DONE] not delivered (%s)", err)
	} else {
		b.WriteString("; [DONE] emitted")
	}
	return b.String()
}

func doneNote(err error) string {
	if err != nil {
		return ", [DONE] not delivered (" + err.Error() + ")"
	}
	return ", then [DONE]"
}

// --- the simulated upstream ----------------------------------------------------

// scnStep is one thing the simulated upstream (consumer-agent) does.
type scnStep struct {
	wait   time.Duration // pause before the frame, at Speed 1
	event  string        // the SSE event: field; "" = the frame's event_type
	typ    string        // event_type
	fields []scnField    // payload members, after the envelope
	raw    string        // when set, the frame's data verbatim (broken)
	skew   time.Duration // added to the frame's timestamp (broken)
}

// scnUpstream plays a scenario into the relay's channel.
type scnUpstream struct {
	ctx         context.Context
	out         chan<- relayFrame
	speed       float64
	now         func() time.Time
	rid         string
	version     string
	floodFrames int

	timer    *time.Timer
	terminal bool // a terminal frame went out
}

// run plays the script, then (when the relay cancelled because the client
// left) emits the orchestrator's cancelled REQUEST_CANCELLED (§5.6).
func (u *scnUpstream) run(play func(*scnUpstream)) {
	defer func() {
		if u.timer != nil {
			u.timer.Stop()
		}
	}()
	play(u)
	if !u.terminal && errors.Is(context.Cause(u.ctx), errRelayClientGone) {
		// The relay drains the channel until it closes: this send cannot
		// block for long.
		u.out <- u.build(u.cancelStep("REQUEST_CANCELLED"))
	}
}

func (u *scnUpstream) stopped() bool { return u.ctx.Err() != nil }

// frame emits one frame of the scenario's version.
func (u *scnUpstream) frame(wait time.Duration, typ string, fields ...scnField) {
	u.emit(scnStep{wait: wait, typ: typ, fields: fields})
}

// emit pauses (scaled by speed), then hands the frame to the relay. Once
// the relay cancelled, it does nothing.
func (u *scnUpstream) emit(st scnStep) {
	if u.stopped() {
		return
	}
	if d := u.scale(st.wait); d > 0 {
		if u.timer == nil {
			u.timer = time.NewTimer(d)
		} else {
			u.timer.Reset(d)
		}
		select {
		case <-u.timer.C:
		case <-u.ctx.Done():
			return
		}
	}
	f := u.build(st)
	select {
	case u.out <- f:
		if f.terminal {
			u.terminal = true
		}
	case <-u.ctx.Done():
	}
}

// stall is a stuck sub-agent: nothing more until the relay cancels.
func (u *scnUpstream) stall() {
	<-u.ctx.Done()
}

func (u *scnUpstream) scale(d time.Duration) time.Duration {
	if d <= 0 || u.speed == 0 || math.IsInf(u.speed, 1) {
		return 0
	}
	return time.Duration(float64(d) / u.speed)
}

// cancelStep is the cancellation terminal in the turn's version: cancelled
// in v0.5, an error frame in v0.4.
func (u *scnUpstream) cancelStep(code string) scnStep {
	typ := "cancelled"
	if u.version == "0.4" {
		typ = "error"
	}
	return scnStep{typ: typ, fields: []scnField{{"error", scnObj{{"code", code}}}}}
}

func (u *scnUpstream) cancelDesc(code string) string {
	return u.build(u.cancelStep(code)).desc
}

// build stamps the envelope on a step.
func (u *scnUpstream) build(st scnStep) relayFrame {
	event := st.event
	if event == "" {
		event = st.typ
	}
	if st.raw != "" {
		return relayFrame{event: event, data: st.raw, desc: "raw " + st.typ}
	}
	b := make([]byte, 0, 160)
	b = append(b, `{"event_type":`...)
	b = scnAppendJSON(b, st.typ)
	b = append(b, `,"version":`...)
	b = scnAppendJSON(b, u.version)
	b = append(b, `,"timestamp":`...)
	b = scnAppendJSON(b, u.now().Add(st.skew).UTC().Format("2006-01-02T15:04:05.000Z"))
	b = append(b, `,"response_id":`...)
	b = scnAppendJSON(b, u.rid)
	if len(st.fields) > 0 {
		b = append(b, ',')
		b = scnAppendMembers(b, st.fields)
	}
	b = append(b, '}')
	term, desc := scnTerminality(u.version, st)
	return relayFrame{event: event, data: string(b), terminal: term, desc: desc}
}

// scnTerminality reads a step as the checker does (FR-9, FR-17): completed
// and cancelled end the turn; an error does unless it says is_final: false
// in v0.5.
func scnTerminality(version string, st scnStep) (bool, string) {
	code := ""
	isFinal, hasFinal := false, false
	for _, m := range st.fields {
		switch m.k {
		case "error":
			if o, ok := m.v.(scnObj); ok {
				for _, e := range o {
					if s, ok := e.v.(string); ok && e.k == "code" {
						code = s
					}
				}
			}
		case "is_final":
			isFinal, hasFinal = m.v.(bool)
		}
	}
	switch st.typ {
	case "completed":
		return true, "completed"
	case "cancelled":
		return true, "cancelled " + code
	case "error":
		if version == "0.4" || !hasFinal || isFinal {
			return true, "error " + code
		}
		return false, "error " + code + " (is_final false)"
	}
	return false, st.typ
}
