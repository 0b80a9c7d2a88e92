package reference

import (
	"fmt"
	"io"
	"strings"
	"time"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects/pc3"
	"framescope/sessions"
	"framescope/sessions/pipeline"
)

// ReferenceOptions tune a reference replay: the reference client machine
// run over a capture.
type ReferenceOptions struct {
	// Profiles are the client profiles to run (default: v0.5 and v0.4).
	Profiles []pc3.Profile
	// ClientIdle, when positive, is the client's idle window: on a timed
	// capture the idle timer fires before a frame (or the end) that arrives
	// more than ClientIdle after the response's first byte or the previous
	// frame while a turn is open. Only frames restart it (SSE comments do
	// not). Captures without arrival times cannot show it (Meta.Timed);
	// `framescope reference` uses invariants.DefaultClientIdle.
	ClientIdle time.Duration
	// Check configures the checker that runs alongside.
	Check invariants.Options
}

// ReferenceStep is one input fed to the client runs.
type ReferenceStep struct {
	// Frame is the frame (valid only during the callback); nil for a
	// transport input.
	Frame *decode.Frame
	Input pc3.Input
	// Steps holds each run's step, in the order of Runs.
	Steps []pc3.Step
	Runs  []*pc3.ClientRun
	// Alarms are the checker's alarms on this frame (valid only during the
	// callback).
	Alarms []invariants.Alarm
}

// ReferenceResult summarises a reference replay.
type ReferenceResult struct {
	*pipeline.Result
	Runs []*pc3.ClientRun
	// EndAlarms are the checker's alarms that belong to no frame.
	EndAlarms []invariants.Alarm
	// IdleTimed says the capture carried arrival times, so the client's
	// idle timer could be replayed (when ClientIdle was set).
	IdleTimed bool
}

// RunReference reads a capture through the shared pipeline (any capture
// format) and feeds every frame, plus the transport events the capture
// shows (the request, the response status, how the stream ended), to one
// client run per profile.
func RunReference(c sessions.Capture, opts ReferenceOptions, on func(ReferenceStep)) (*ReferenceResult, error) {
	profiles := opts.Profiles
	if len(profiles) == 0 {
		profiles = pc3.Profiles()
	}
	res := &ReferenceResult{}
	for _, p := range profiles {
		res.Runs = append(res.Runs, pc3.NewClientRun(p))
	}
	transport := func(ev pc3.TransportEvent) {
		st := ReferenceStep{Input: ev.Input, Runs: res.Runs}
		for _, r := range res.Runs {
			st.Steps = append(st.Steps, r.Transport(ev))
		}
		if on != nil {
			on(st)
		}
	}
	// The client's idle timer fires only while some run has a turn open.
	idle := func(gap time.Duration) {
		for _, r := range res.Runs {
			switch r.State() {
			case pc3.StAwaitingFirstFrame, pc3.StTurnOpen, pc3.StStreaming:
				transport(pc3.TransportEvent{Input: pc3.InIdleTimer, Detail: "no frame for " + refDur(gap)})
				return
			}
		}
	}

	meta := c.Meta()
	transport(pc3.TransportEvent{Input: pc3.InConnect, Detail: sessions.RedactURL(meta.URL)})
	if meta.HTTP && (meta.Status < 200 || meta.Status > 299) {
		transport(pc3.TransportEvent{Input: pc3.InHTTPError, Detail: fmt.Sprintf("HTTP %d", meta.Status)})
	} else {
		transport(pc3.TransportEvent{Input: pc3.InFirstByte})
	}

	// The idle timer restarts at the response's first byte (time 0 of a
	// timed capture) and at every frame; SSE comments do not restart it.
	var last time.Duration
	h := pipeline.Handler{
		OnItem: func(it *pipeline.Item) {
			f := it.Frame
			if f == nil {
				return
			}
			if f.HasArrival {
				res.IdleTimed = true
				if opts.ClientIdle > 0 && f.Arrival-last > opts.ClientIdle {
					idle(f.Arrival - last)
				}
				last = f.Arrival
			}
			st := ReferenceStep{Frame: f, Input: pc3.ClassifyFrame(f), Runs: res.Runs, Alarms: it.Alarms}
			for _, r := range res.Runs {
				st.Steps = append(st.Steps, r.Step(f))
			}
			if on != nil {
				on(st)
			}
		},
		OnAlarms: func(as []invariants.Alarm) {
			res.EndAlarms = append(res.EndAlarms, as...)
		},
	}
	// The reference client is a PC3 client: the checker beside it reads the
	// capture as PC3 too (detection would call an empty stream plain SSE).
	if opts.Check.Dialect == "" {
		opts.Check.Dialect = pc3.Dialect.Name()
	}
	result, err := pipeline.Run(c, opts.Check, h)
	res.Result = result
	if result == nil {
		return res, err
	}
	end := result.End
	if opts.ClientIdle > 0 && (res.IdleTimed || meta.Timed) && end.HasTime && end.At-last > opts.ClientIdle {
		idle(end.At - last)
	}
	transport(pc3.EndEvent(end))
	return res, err
}

// ParseProfiles reads the --profile flag: v0.5, v0.4 or both.
func ParseProfiles(s string) ([]pc3.Profile, error) {
	switch s {
	case "v0.5", "0.5":
		return []pc3.Profile{pc3.ProfileV05}, nil
	case "v0.4", "0.4":
		return []pc3.Profile{pc3.ProfileV04}, nil
	case "both", "":
		return pc3.Profiles(), nil
	}
	return nil, fmt.Errorf("--profile %q: want v0.5, v0.4 or both", s)
}

// replayViewText is the per-frame view: the bubble's text clipped to its
// tail, everything else in full.
var replayViewText = pc3.ViewTextOptions{Indent: "          ", MaxText: 80}

// WriteReferenceReplay runs the reference client over a capture and
// prints, for each frame: its index, its event, the transition taken
// (from → to, actions, regions, clause), violations, and the client view
// when it changed. With both profiles, the v0.4 client's transition and
// view are shown where they differ from the v0.5 client's.
func WriteReferenceReplay(c sessions.Capture, opts ReferenceOptions, w io.Writer) (*ReferenceResult, error) {
	profiles := opts.Profiles
	if len(profiles) == 0 {
		profiles = pc3.Profiles()
	}
	opts.Profiles = profiles
	var names []string
	for _, p := range profiles {
		names = append(names, string(p))
	}
	meta := c.Meta()
	fmt.Fprintf(w, "reference client replay of %s (%s) · profiles %s\n", decode.Sanitize(meta.Name), meta.Kind, strings.Join(names, ", "))
	fmt.Fprintf(w, "client idle timer: %s\n\n", IdleTimerNote(meta, opts.ClientIdle))

	var werr error
	out := func(s string) {
		if werr == nil {
			_, werr = io.WriteString(w, s)
		}
	}
	var buf []byte
	res, err := RunReference(c, opts, func(st ReferenceStep) {
		idx := "-"
		event := string(st.Input)
		if st.Frame != nil {
			idx = fmt.Sprint(st.Frame.Index)
			if st.Frame.Decoded() {
				if et, ok := st.Frame.EventType.Str(); ok && st.Input == pc3.InUnknown {
					event = "unknown " + decode.Sanitize(decode.Clip(et, 24))
				}
			}
		}
		var alarms []string
		for _, a := range st.Alarms {
			alarms = append(alarms, a.Rule)
		}
		for i, s := range st.Steps {
			if i > 0 && sameStep(st.Steps[0], s) {
				continue
			}
			label := string(st.Runs[i].Profile())
			if i > 0 {
				label += " ≠"
			}
			line := fmt.Sprintf("%6s  %-16s %-6s %s", idx, event, label, s.Summary())
			if c := s.Clause(); c != "" && !s.Violation {
				line += "  [" + c + "]"
			}
			out(line + "\n")
			if s.Violation {
				msg := "          ! violation: " + decode.Sanitize(s.Note)
				if len(s.Rules) > 0 {
					msg += " (checker: " + strings.Join(s.Rules, ", ") + ")"
				}
				out(msg + "\n")
			}
			idx, event = "", ""
		}
		if len(alarms) > 0 {
			out("          checker: " + strings.Join(alarms, ", ") + "\n")
		}
		// Views: once when the clients agree, per client where they differ.
		var first string
		for i, s := range st.Steps {
			if !s.ViewChanged {
				continue
			}
			buf = st.Runs[i].View().AppendText(buf[:0], replayViewText)
			body := viewBody(string(buf))
			if i == 0 {
				first = body
			} else if st.Steps[0].ViewChanged && body == first {
				continue
			}
			out(string(buf))
		}
	})
	if res != nil && res.Result != nil {
		out("\nfinal:\n")
		for _, r := range res.Runs {
			buf = r.View().AppendText(buf[:0], pc3.ViewTextOptions{Indent: "  ", Multiline: true})
			out(string(buf))
		}
	}
	if werr != nil {
		return res, werr
	}
	return res, err
}

// IdleTimerNote says what a replay does with the client's idle timer.
func IdleTimerNote(meta sessions.Meta, idle time.Duration) string {
	switch {
	case idle <= 0:
		return "off"
	case !meta.Timed:
		return "not replayed: the capture has no arrival times (" + string(meta.Kind) + "); record a timed capture (JSONL) to see it"
	}
	return refDur(idle) + " without a frame while a turn is open (restarted by the first byte and every frame, not by comments); on firing the client disconnects"
}

// sameStep: two profiles took the same way through a frame.
func sameStep(a, b pc3.Step) bool {
	if a.From != b.From || a.To != b.To || a.Violation != b.Violation {
		return false
	}
	aa, ba := a.Actions(), b.Actions()
	if len(aa) != len(ba) {
		return false
	}
	for i := range aa {
		if aa[i] != ba[i] {
			return false
		}
	}
	return true
}

// viewBody drops the view's first line (which names the profile).
func viewBody(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

func refDur(d time.Duration) string { return d.Round(time.Millisecond).String() }
