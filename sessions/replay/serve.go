package replay

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/capture"
	"framescope/sessions/faults"
)

// The replay server: `framescope serve FILE` plays a recorded turn back to a
// client (a mobile app, a browser, framescope connect), byte for byte and
// with the original timing, optionally with faults injected.

// Replay is a capture held in memory, ready to be served any number of
// times, concurrently. It must not be changed once Handler was called.
type Replay struct {
	// Chunks are the stream's bytes as they arrived, with their times.
	Chunks []ReplayChunk
	Meta   sessions.Meta
	// Frames is the number of dispatched SSE events (the frames that fault
	// indexes count).
	Frames int
	// End is how the captured stream ended; when it has a time the replay
	// holds the response open until then.
	End invariants.End
	// Problems are the defects found while reading the capture.
	Problems []sessions.Problem
}

// ReplayChunk is a run of bytes and the time (since the response started)
// at which it was sent originally.
type ReplayChunk struct {
	Data []byte
	At   time.Duration
}

// ReplayOptions tunes the replay handler.
type ReplayOptions struct {
	// Path is the URL path served (default "/api/chat"); other paths get
	// 404.
	Path string
	// Speed scales the timing: 1 = real time, 2 = twice as fast. 0, a
	// negative number, NaN or +Inf mean as fast as possible.
	Speed float64
	// Loop starts the replay again on the same response after the end
	// (after a 1 s gap, scaled by Speed), until the client leaves.
	Loop bool
	// Allow names the hosts and origins served besides loopback ones (LAN
	// use); nil serves loopback only. Others get 403, a defence against DNS
	// rebinding.
	Allow *AllowList
	// CORS adds Access-Control-Allow-Origin (the request's origin, once
	// the guard accepted it) to responses and answers OPTIONS preflight
	// requests.
	CORS bool
	// ContentType is the response's Content-Type: "" sends
	// text/event-stream whatever the capture says (a hostile capture's
	// text/html must not become a page on 127.0.0.1); ContentTypeKeep
	// replays the captured one; anything else is sent as given.
	ContentType string
	// BodyTimeout bounds the time to receive a request body (0:
	// DefaultBodyTimeout); a slower client gets 408 and is disconnected.
	BodyTimeout time.Duration
	// Faults to inject. Note that the zero Set cuts after frame 0: use
	// faults.None() for none.
	Faults faults.Set
	// Log gets one line per request (nil: no log). Lines are written whole,
	// one Write each, and never concurrently.
	Log io.Writer
}

// DefaultReplayPath is the path served when ReplayOptions.Path is empty.
const DefaultReplayPath = "/api/chat"

// ContentTypeKeep (ReplayOptions.ContentType, serve --content-type keep)
// replays the capture's own Content-Type.
const ContentTypeKeep = "keep"

// MinSpeed is the slowest --speed: 1000 times slower than recorded. Slower
// factors overflowed the scaled pauses into no pause at all.
const MinSpeed = 0.001

// ParseSpeed parses a --speed value, the same in serve and demo: "max" or
// 0 (no pauses, returned as +Inf), or a positive number no smaller than
// MinSpeed, optionally followed by "x" ("2", "0.5x").
func ParseSpeed(s string) (float64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	if t == "max" || t == "inf" {
		return math.Inf(1), nil
	}
	t = strings.TrimSuffix(t, "x")
	f, err := strconv.ParseFloat(t, 64)
	mantissa, _, _ := strings.Cut(t, "e")
	tiny := f == 0 && strings.ContainsAny(mantissa, "123456789") // 1e-400 underflows to 0
	switch {
	case (err != nil && !errors.Is(err, strconv.ErrRange)) || math.IsNaN(f) || f < 0 || (tiny && math.Signbit(f)):
		return 0, fmt.Errorf("--speed %s: want a number (1 = real time, 2 = twice as fast, 0 or max = no pauses)", sessions.CleanShort(strconv.Quote(s), 40))
	case f == 0 && !tiny:
		return math.Inf(1), nil // 0 = no pauses, as demo reads it
	case tiny || f < MinSpeed:
		return 0, fmt.Errorf("--speed %s: too slow; the least is %g (1000 times slower than recorded), or 0 / max for no pauses", sessions.CleanShort(strconv.Quote(s), 40), MinSpeed)
	}
	return f, nil
}

// LoadReplay reads a capture (any format Open accepts; "-" is standard
// input) into memory. Formats without arrival times (raw SSE, HAR) give
// chunks that are all due at once: they are sent back to back.
func LoadReplay(path string) (*Replay, error) {
	c, err := capture.Open(path, capture.OpenOptions{Entry: -1, Stdin: os.Stdin})
	if err != nil {
		return nil, err
	}
	defer c.Close()
	var (
		chunks []ReplayChunk
		at     time.Duration
		probs  []sessions.Problem
		arena  replayArena
	)
	for {
		ch, err := c.Next()
		probs = append(probs, c.TakeProblems()...)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", sessions.Clean(path), err)
		}
		if ch.HasTime && ch.T > at {
			at = ch.T // times never go backwards
		}
		if len(ch.Data) == 0 {
			continue
		}
		chunks = append(chunks, ReplayChunk{Data: arena.copy(ch.Data), At: at})
	}
	probs = append(probs, c.TakeProblems()...)
	r := &Replay{Meta: c.Meta(), End: c.End(), Problems: probs, Chunks: slices.Clip(chunks)}
	r.Frames = len(replayIndexFrames(r.Chunks))
	return r, nil
}

// replayArena holds a replay's bytes in blocks of replayBlock bytes: no
// allocation per (small) chunk, and no single buffer that doubles as a big
// capture loads (a 375 MB body then held up to twice that for the
// server's lifetime).
type replayArena struct{ block []byte }

const replayBlock = 1 << 20

// copy returns a copy of p (capacity clipped: appending cannot spill into
// the next chunk).
func (a *replayArena) copy(p []byte) []byte {
	if len(p) > replayBlock/4 {
		return slices.Clone(p) // big chunks alone: the block is not wasted
	}
	if cap(a.block)-len(a.block) < len(p) {
		a.block = make([]byte, 0, replayBlock)
	}
	n := len(a.block)
	a.block = append(a.block, p...)
	return a.block[n:len(a.block):len(a.block)]
}

// Handler serves the replay. Every request (GET or POST; the body is read
// and ignored) gets a fresh replay from the start.
func (r *Replay) Handler(opts ReplayOptions) http.Handler {
	h := &replayHandler{opts: opts, path: opts.Path}
	if h.path == "" {
		h.path = DefaultReplayPath
	} else if !strings.HasPrefix(h.path, "/") {
		h.path = "/" + h.path
	}
	s := opts.Speed
	h.fast = s <= 0 || math.IsNaN(s) || math.IsInf(s, 0)
	h.speed = s

	h.status = http.StatusOK
	if r.Meta.HTTP && r.Meta.Status >= 200 && r.Meta.Status <= 999 {
		h.status = r.Meta.Status
	}
	h.contentType = ReplayContentType(r.Meta, opts.ContentType)

	spans := replayIndexFrames(r.Chunks)
	h.ops = buildReplayPlan(r.Chunks, spans, opts.Faults)
	for _, c := range r.Chunks {
		h.endAt = max(h.endAt, c.At)
	}
	if r.End.HasTime {
		h.endAt = max(h.endAt, r.End.At)
	}
	return h
}

// ReplayContentType is the Content-Type a replay sends for option
// (ReplayOptions.ContentType): text/event-stream (the captured spelling
// when it is one, parameters and all) unless the user asked for the
// captured one whatever it is (ContentTypeKeep) or another.
func ReplayContentType(m sessions.Meta, option string) string {
	const sse = "text/event-stream"
	switch option {
	case "":
		ct := strings.TrimSpace(m.ContentType)
		if mt, _, err := mime.ParseMediaType(ct); m.HTTP && err == nil && mt == sse && headerValueOK(ct) {
			return ct
		}
		return sse
	case ContentTypeKeep:
		if ct := strings.TrimSpace(m.ContentType); m.HTTP && ct != "" && headerValueOK(ct) {
			return ct
		}
		return sse
	}
	if headerValueOK(option) {
		return option
	}
	return sse
}

// ParseContentType checks a --content-type value: keep, sse (the default)
// or a media type.
func ParseContentType(v string) (string, error) {
	switch t := strings.TrimSpace(v); {
	case t == "" || strings.EqualFold(t, "sse") || strings.EqualFold(t, "text/event-stream"):
		return "", nil
	case strings.EqualFold(t, ContentTypeKeep):
		return ContentTypeKeep, nil
	default:
		if mt, _, err := mime.ParseMediaType(t); err != nil || !strings.Contains(mt, "/") || !headerValueOK(t) {
			return "", fmt.Errorf("--content-type %s: want sse (text/event-stream, the default), keep (the capture's own) or a media type", sessions.CleanShort(strconv.Quote(v), 60))
		}
		return t, nil
	}
}

// headerValueOK rejects values with control characters.
func headerValueOK(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; (c < 0x20 && c != '\t') || c == 0x7f {
			return false
		}
	}
	return true
}

type replayHandler struct {
	opts        ReplayOptions
	path        string
	fast        bool
	speed       float64
	status      int
	contentType string
	ops         []replayOp
	endAt       time.Duration

	logMu sync.Mutex
}

// replayMaxDrain bounds how much of a request body is read (and thrown away).
// Reading the body to its end lets the server notice at once when the
// client goes away.
const replayMaxDrain = 16 << 20

// replayOutcome is how a replay ended.
type replayOutcome struct {
	bytes  int64
	frames int // frames sent in full
	passes int
	how    string
	cut    bool
}

func (h *replayHandler) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	start := time.Now()
	secureHeaders(w.Header())
	if why := h.opts.Allow.RefuseReason(req); why != "" {
		replayPlainError(w, http.StatusForbidden, "framescope serve: refused: "+why+refusedHelp)
		h.logLine(start, req, http.StatusForbidden, "forbidden: "+why)
		return
	}
	if req.URL.Path != h.path {
		replayPlainError(w, http.StatusNotFound, fmt.Sprintf("framescope serve: nothing at %s; the replay is served at %s (GET or POST)\n",
			sessions.CleanShort(req.URL.Path, 200), h.path))
		h.logLine(start, req, http.StatusNotFound, "not found")
		return
	}
	origin := req.Header.Get("Origin")
	if !headerValueOK(origin) {
		origin = "" // never echoed
	}
	switch req.Method {
	case http.MethodGet, http.MethodPost, http.MethodHead:
	case http.MethodOptions:
		hdr := w.Header()
		hdr.Set("Allow", "GET, POST, HEAD, OPTIONS")
		if h.opts.CORS && origin != "" {
			hdr.Set("Access-Control-Allow-Origin", origin)
			hdr.Set("Access-Control-Allow-Methods", "GET, POST, HEAD, OPTIONS")
			if ah := req.Header.Get("Access-Control-Request-Headers"); ah != "" && headerValueOK(ah) {
				hdr.Set("Access-Control-Allow-Headers", ah)
			}
			if strings.EqualFold(req.Header.Get("Access-Control-Request-Private-Network"), "true") {
				hdr.Set("Access-Control-Allow-Private-Network", "true")
			}
			hdr.Set("Access-Control-Max-Age", "600")
			hdr.Add("Vary", "Origin")
			hdr.Add("Vary", "Access-Control-Request-Method")
			hdr.Add("Vary", "Access-Control-Request-Headers")
		}
		w.WriteHeader(http.StatusNoContent)
		h.logLine(start, req, http.StatusNoContent, "preflight")
		return
	default:
		w.Header().Set("Allow", "GET, POST, HEAD, OPTIONS")
		replayPlainError(w, http.StatusMethodNotAllowed, fmt.Sprintf("framescope serve: method %s not allowed; use GET or POST\n", sessions.CleanShort(req.Method, 40)))
		h.logLine(start, req, http.StatusMethodNotAllowed, "method not allowed")
		return
	}

	if ok, why := readBody(w, req, replayMaxDrain, h.opts.BodyTimeout); !ok {
		h.logLine(start, req, http.StatusRequestTimeout, why)
		return
	}
	ctx := req.Context()

	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Time{})
	hdr := w.Header()
	hdr.Set("Content-Type", h.contentType)
	hdr.Set("Cache-Control", "no-cache")
	hdr.Set("X-Accel-Buffering", "no")
	if h.opts.Faults.Gzip {
		hdr.Set("Content-Encoding", "gzip")
		hdr.Add("Vary", "Accept-Encoding")
	}
	if req.ProtoMajor == 1 {
		hdr.Set("Connection", "keep-alive")
	}
	if h.opts.CORS && origin != "" {
		hdr.Set("Access-Control-Allow-Origin", origin)
		hdr.Add("Vary", "Origin")
	}
	w.WriteHeader(h.status)
	if req.Method == http.MethodHead {
		h.logLine(start, req, h.status, "head")
		return
	}
	p := &replayPlayer{ctx: ctx, w: w, rc: rc, last: -1, dw: faults.NewWriter(w, h.opts.Faults, faults.Out{})}
	p.flush() // the client sees the response start at once (play checks p.err)
	res := h.play(p)
	p.stopTimer()
	h.logResult(start, req, res)
	if res.cut {
		replayAbort(rc)
	}
}

// replayPlayer is the state of one request's replay.
type replayPlayer struct {
	ctx     context.Context
	w       http.ResponseWriter
	rc      *http.ResponseController
	timer   *time.Timer
	dw      *faults.Writer // the delivery faults between the replay and w
	dirty   bool           // written since the last flush
	noFlush bool           // the writer cannot flush
	err     error

	bytes  int64
	frames int
	last   int
}

// flush sends what was written; false when the client is gone.
func (p *replayPlayer) flush() bool {
	p.dirty = false
	if p.noFlush {
		return true
	}
	if err := p.rc.Flush(); err != nil {
		if errors.Is(err, http.ErrNotSupported) {
			p.noFlush = true
			return true
		}
		p.err = err
		return false
	}
	return true
}

// sleep waits d (flushing first); false when the client went away.
func (p *replayPlayer) sleep(d time.Duration) bool {
	if p.dirty && !p.flush() {
		return false
	}
	if d <= 0 {
		return p.ctx.Err() == nil
	}
	if p.timer == nil {
		p.timer = time.NewTimer(d)
	} else {
		p.timer.Reset(d)
	}
	select {
	case <-p.ctx.Done():
		p.timer.Stop()
		return false
	case <-p.timer.C:
		return true
	}
}

func (p *replayPlayer) stopTimer() {
	if p.timer != nil {
		p.timer.Stop()
	}
}

func (h *replayHandler) scale(d time.Duration) time.Duration {
	if h.fast {
		return 0
	}
	// Saturate: a float beyond int64 converts to anything (a negative
	// pause is no pause at all).
	if f := float64(d) / h.speed; f < float64(maxReplayPause) {
		return time.Duration(f)
	}
	return maxReplayPause
}

// maxReplayPause bounds one scaled pause (about 292 years / 4: far beyond
// any client, and base.Add of it cannot overflow).
const maxReplayPause = time.Duration(math.MaxInt64 / 4)

// play writes the replay (repeatedly when looping) until it ends, is cut,
// or the client leaves.
func (h *replayHandler) play(p *replayPlayer) replayOutcome {
	gone := func(passes int) replayOutcome {
		how := "client gone before the first frame"
		if p.last >= 0 {
			how = fmt.Sprintf("client gone after frame %d", p.last)
		}
		if p.err != nil {
			how += " (" + sessions.Clean(p.err.Error()) + ")"
		}
		return replayOutcome{bytes: p.bytes, frames: p.frames, passes: passes, how: how}
	}
	if p.err != nil {
		return gone(1)
	}
	for pass := 1; ; pass++ {
		base := time.Now()
		before := p.bytes
		for i := range h.ops {
			o := &h.ops[i]
			if o.stall > 0 {
				if !p.sleep(o.stall) {
					return gone(pass)
				}
				base = base.Add(o.stall)
			}
			if !h.fast {
				if d := time.Until(base.Add(h.scale(o.at))); d > 0 && !p.sleep(d) {
					return gone(pass)
				}
			}
			if p.ctx.Err() != nil {
				return gone(pass)
			}
			if len(o.data) > 0 || o.frames > 0 {
				sent, err := p.dw.Send(o.data, o.frames)
				if err != nil {
					p.err = err
					return gone(pass)
				}
				p.bytes += int64(len(o.data))
				p.dirty = p.dirty || sent
			}
			if o.cut {
				if err := p.dw.Release(); err != nil {
					p.err = err
					return gone(pass)
				}
				p.dirty = true
			}
			if o.frames > 0 {
				p.frames += o.frames
				p.last = o.last
			}
			if (o.flush || o.cut) && !p.flush() {
				return gone(pass)
			}
			if o.cut {
				how := fmt.Sprintf("cut after frame %d", o.last)
				return replayOutcome{bytes: p.bytes, frames: p.frames, passes: pass, how: how, cut: true}
			}
		}
		if !h.fast {
			if d := time.Until(base.Add(h.scale(h.endAt))); d > 0 && !p.sleep(d) {
				return gone(pass)
			}
		}
		if !h.opts.Loop {
			if err := p.dw.Finish(true); err != nil {
				p.err = err
				return gone(pass)
			}
			p.dirty = true
		} else if err := p.dw.Release(); err != nil {
			p.err = err
			return gone(pass)
		} else {
			p.dirty = true
		}
		if p.dirty && !p.flush() {
			return gone(pass)
		}
		if !h.opts.Loop {
			return replayOutcome{bytes: p.bytes, frames: p.frames, passes: pass, how: "eof"}
		}
		gap := h.scale(time.Second)
		if p.bytes == before {
			gap = max(gap, 100*time.Millisecond) // nothing to send: do not spin
		}
		if !p.sleep(gap) {
			return gone(pass)
		}
	}
}

// replayAbort closes the connection without ending the response
// properly, so the client sees the stream break off.
func replayAbort(rc *http.ResponseController) {
	conn, brw, err := rc.Hijack()
	if err != nil {
		// HTTP/2 and writers that cannot hijack: the server resets the
		// stream (or closes the connection) on this panic, silently.
		panic(http.ErrAbortHandler)
	}
	if brw != nil {
		_ = brw.Flush()
	}
	_ = conn.Close()
}

func replayPlainError(w http.ResponseWriter, status int, msg string) {
	hdr := w.Header()
	hdr.Set("Content-Type", "text/plain; charset=utf-8")
	secureHeaders(hdr)
	hdr.Set("Cache-Control", "no-cache")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, msg)
}

// --- log --------------------------------------------------------------------

func (h *replayHandler) logResult(start time.Time, req *http.Request, res replayOutcome) {
	passes := ""
	if h.opts.Loop {
		passes = fmt.Sprintf(" passes=%d", res.passes)
	}
	h.writeLog(start, req, h.status, res.frames, res.bytes, passes, res.how)
}

func (h *replayHandler) logLine(start time.Time, req *http.Request, status int, how string) {
	h.writeLog(start, req, status, 0, 0, "", how)
}

// writeLog writes one line: start time, client, method, path, status,
// frames and bytes sent, duration, how the request ended.
func (h *replayHandler) writeLog(start time.Time, req *http.Request, status, frames int, bytes int64, extra, how string) {
	if h.opts.Log == nil {
		return
	}
	line := fmt.Sprintf("%s %s %s %s %d frames=%d bytes=%d%s time=%s %s\n",
		start.Format("2006-01-02T15:04:05.000Z07:00"),
		sessions.CleanShort(req.RemoteAddr, 80), sessions.CleanShort(req.Method, 20), sessions.CleanShort(req.URL.Path, 200),
		status, frames, bytes, extra, time.Since(start).Round(time.Millisecond), how)
	h.logMu.Lock()
	defer h.logMu.Unlock()
	_, _ = io.WriteString(h.opts.Log, line)
}
