package proxy

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/library"
	"framescope/sessions/pipeline"
	"framescope/sessions/record"
	"framescope/sessions/report"
)

// stream is one response being recorded and checked.
type stream struct {
	tap *tap
}

// progressEvery spaces a stream's announcements to subscribers: frames
// and alarm counts as they grow, at most this often.
const progressEvery = 100 * time.Millisecond

// streamMeta is the capture's Meta for a proxied response: the request
// as the app sent it (the recording redacts its secrets), the response
// as the upstream sent it.
func streamMeta(r *http.Request, out *http.Request, resp *http.Response, target *url.URL, started time.Time, body *bodyTee) sessions.Meta {
	m := sessions.Meta{
		Name:            sessions.RedactURL(target.String()),
		Kind:            sessions.KindSSE,
		URL:             target.String(),
		Method:          r.Method,
		HTTP:            true,
		Status:          resp.StatusCode,
		ContentType:     resp.Header.Get("Content-Type"),
		RequestHeaders:  flat(out.Header),
		ResponseHeaders: flat(resp.Header),
		StartedAt:       started,
		Timed:           true,
		Live:            true,
	}
	if m.RequestHeaders == nil {
		m.RequestHeaders = map[string]string{}
	}
	m.RequestHeaders["Host"] = out.Host
	if kept, size := body.sent(); body != nil {
		m.RequestBody = kept
		if size > int64(len(kept)) {
			m.RequestBodySize = size
		}
	}
	return m
}

func flat(h http.Header) map[string]string {
	m := make(map[string]string, len(h))
	for k, vs := range h {
		m[k] = strings.Join(vs, ", ")
	}
	return m
}

// startStream makes lf a stream and starts its checker: the tap feeds the
// library's recording (as connect records: record.New, secrets
// redacted) and the same pipeline as check, with detection.
func (p *Proxy) startStream(lf *liveFlow, meta sessions.Meta, started time.Time) *stream {
	t := newTap(meta, started, p.opts.QueueBytes, p.budget, p.spill)
	if isNDJSON(meta.ContentType) {
		t.sep = []byte("\n")
	}
	st := &stream{tap: t}
	var snap Flow
	p.book.update(lf, func(f *Flow) { f.Kind = KindStream; snap = snapshot(lf) })
	var h pipeline.Handler
	if p.opts.OnStream != nil {
		h = p.opts.OnStream(snap, meta)
	}
	p.checkers.Add(1)
	go func() {
		defer p.checkers.Done()
		p.check(lf, t, meta, h)
	}()
	return st
}

// recordFlushDelay batches a recording's writes (one write a batch, not
// one a chunk): a killed proxy loses at most this much of a stream.
const recordFlushDelay = 100 * time.Millisecond

// check runs one stream's recording and check to its end, then marks its
// flow done with the report's facts and saves the session's metadata.
func (p *Proxy) check(lf *liveFlow, t *tap, meta sessions.Meta, h pipeline.Handler) {
	var notes []string
	var recErr string // why the recording failed
	failed := func(note string) {
		notes = append(notes, note)
		if recErr == "" {
			recErr = note
		}
	}
	// An encoded stream is checked and recorded decoded (decode_stream.go).
	c := decodedIfEncoded(t)
	if d, ok := c.(*decodedCapture); ok {
		d.probe() // before the recording's header: decoded, or kept as it came (decode_probe.go)
	}
	// The limits end the recording and the check, never the app's stream.
	var lim *recordLimit
	capb := &p.recCap
	if p.opts.Library == nil {
		capb = nil
	}
	if p.opts.Limits.Active() || capb != nil && capb.max > 0 {
		lim = newRecordLimit(c, p.opts.Limits, capb, isNDJSON(meta.ContentType))
		c = lim
	}
	var libID string
	var libFile *os.File
	if p.opts.Library != nil {
		id, f, err := p.opts.Library.Create(meta.StartedAt)
		if err != nil {
			failed("not saved: " + sessions.Clean(err.Error()))
		} else {
			libID, libFile = id, f
			c = record.New(c, f, record.Options{Redact: p.opts.Redact, KeepSecrets: p.opts.KeepSecrets, FlushDelay: recordFlushDelay})
			p.book.update(lf, func(f *Flow) { f.SessionID = id })
		}
	}
	if isNDJSON(meta.ContentType) {
		c = ndjsonAsSSE(c)
	}

	// Progress: frames and alarm counts announced as they grow.
	var (
		mu     sync.Mutex
		frames int
		counts invariants.Counts
		last   time.Time
	)
	announce := func(force bool) {
		if !force && time.Since(last) < progressEvery {
			return
		}
		last = time.Now()
		mu.Lock()
		fr, cn := frames, counts
		mu.Unlock()
		p.book.update(lf, func(f *Flow) { f.Frames, f.Counts, f.Behind = fr, cn, t.Behind() })
	}
	countAlarms := func(as []invariants.Alarm) {
		mu.Lock()
		for _, a := range as {
			counts.Add(a.Severity)
		}
		mu.Unlock()
	}
	inner := h
	h.OnDialect = func(d invariants.Dialect) {
		p.book.update(lf, func(f *Flow) { f.Dialect = d.Name() })
		if inner.OnDialect != nil {
			inner.OnDialect(d)
		}
	}
	h.OnItem = func(it *pipeline.Item) {
		mu.Lock()
		if it.Frame != nil {
			frames++
		}
		mu.Unlock()
		countAlarms(it.Alarms)
		if inner.OnItem != nil {
			inner.OnItem(it)
		}
		announce(false)
	}
	h.OnAlarms = func(as []invariants.Alarm) {
		countAlarms(as)
		if inner.OnAlarms != nil {
			inner.OnAlarms(as)
		}
	}

	h.OneStage = true // one goroutine per stream: the app's copy loop keeps a core
	rep, err := report.CheckWith(c, p.opts.Check, h)
	if lim != nil && lim.stopped {
		// The app's stream goes on: take its reads (not kept) until it
		// ends, so the flow ends with it and nothing queues or spills.
		after := drainTap(t)
		notes = append(notes, fmt.Sprintf("the recording and the check %s; the app's stream went on (%s after it not checked or recorded)",
			lim.end.Detail, sessions.FormatSize(after)))
	}
	c.Close()
	if lim != nil {
		lim.release()
	}
	if err != nil {
		notes = append(notes, "check: "+sessions.Clean(err.Error()))
	}
	if libFile != nil {
		rec, _ := findRecorder(c)
		if cerr := libFile.Close(); cerr != nil || rec != nil && rec.Err() != nil {
			failed(fmt.Sprintf("the session library's recording is incomplete: %v", firstErr(rec, cerr)))
		}
		meta := library.SessionMeta{ID: libID, URL: meta.Name, Method: meta.Method, Source: "proxy",
			StartedAt: meta.StartedAt, Duration: time.Since(meta.StartedAt), Status: meta.Status}
		record.Summarize(&meta, rep)
		if rep != nil {
			meta.Bytes = rep.Bytes
		}
		if ferr := p.opts.Library.Finish(meta); ferr != nil {
			failed(sessions.Clean(ferr.Error()))
		}
		if perr := p.enforceCap(libID); perr != nil {
			notes = append(notes, sessions.Clean(perr.Error()))
		}
	}
	p.book.update(lf, func(f *Flow) {
		f.Done = true
		f.Duration = time.Since(f.Started)
		f.Behind = t.Behind()
		f.Notes = append(f.Notes, notes...)
		f.RecordErr = recErr
		if rep == nil {
			return
		}
		f.Dialect, f.Frames, f.Counts = rep.Dialect, rep.Frames, rep.Counts
		f.Notes = append(f.Notes, rep.Notes...)
		for _, a := range rep.Alarms {
			if len(f.Alarms) == MaxFlowAlarms {
				break
			}
			f.Alarms = append(f.Alarms, a.Alarm)
		}
		if e := rep.End; e.Kind != invariants.EndEOF && e.Kind != "" && f.Err == "" {
			f.Err = sessions.EndText(e)
		}
	})
	if rep != nil {
		rep.Close()
	}
}

// findRecorder finds the library's recorder in a capture chain.
func findRecorder(c sessions.Capture) (*record.Recorder, bool) {
	for {
		switch x := c.(type) {
		case *record.Recorder:
			return x, true
		case *ndjsonCapture:
			c = x.c
		default:
			return nil, false
		}
	}
}

func firstErr(rec *record.Recorder, err error) error {
	if rec != nil && rec.Err() != nil {
		return rec.Err()
	}
	return err
}

// drainTap reads what is left of a stream whose recording ended at a
// limit, keeping nothing, and returns its size.
func drainTap(t *tap) int64 {
	var n int64
	for {
		ch, err := t.Next()
		n += int64(len(ch.Data))
		if err != nil {
			return n
		}
	}
}
