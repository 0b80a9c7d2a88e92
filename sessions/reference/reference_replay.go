package reference

import (
	"fmt"
	"io"
	"strings"
	"time"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects"
	"framescope/invariants/machine"
	"framescope/sessions"
	"framescope/sessions/pipeline"
)

// ReferenceOptions tune a reference replay: the reference client machine
// run over a capture.
type ReferenceOptions struct {
	// Profiles are the client profiles to run (default: all the
	// machine's).
	Profiles []machine.Profile
	// ClientIdle, when positive, is the client's idle window: on a timed
	// capture the idle timer fires before a frame (or the end) that arrives
	// more than ClientIdle after the response's first byte or the previous
	// frame while a turn is open. Only frames restart it (SSE comments do
	// not). Captures without arrival times cannot show it (Meta.Timed);
	// `framescope reference` uses the machine's IdleTimer.
	ClientIdle time.Duration
	// Check configures the checker that runs alongside. Its Dialect, when
	// it ships a machine, is the one run; else the registry's
	// (dialects.Machine).
	Check invariants.Options
}

// machineFor is the machine a replay runs, and its dialect.
func machineFor(opts *ReferenceOptions) (invariants.Dialect, machine.Machine) {
	if d, ok := dialects.Lookup(opts.Check.Dialect); ok {
		if m := machine.Of(d); m != nil {
			return d, m
		}
	}
	return dialects.Machine()
}

// ReferenceStep is one input fed to the client runs.
type ReferenceStep struct {
	// Frame is the frame (valid only during the callback); nil for a
	// transport input.
	Frame *decode.Frame
	Input machine.Input
	// Steps holds each run's step, in the order of Runs.
	Steps []machine.Step
	Runs  []machine.Run
	// Alarms are the checker's alarms on this frame (valid only during the
	// callback).
	Alarms []invariants.Alarm
}

// ReferenceResult summarises a reference replay.
type ReferenceResult struct {
	*pipeline.Result
	Runs []machine.Run
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
	d, m := machineFor(&opts)
	profiles := opts.Profiles
	if len(profiles) == 0 {
		profiles = m.Profiles()
	}
	res := &ReferenceResult{}
	for _, p := range profiles {
		res.Runs = append(res.Runs, m.NewRun(p))
	}
	transport := func(ev machine.TransportEvent) {
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
			if m.TurnOpen(r.State()) {
				transport(machine.TransportEvent{Input: machine.InIdleTimer, Detail: "no frame for " + refDur(gap)})
				return
			}
		}
	}

	meta := c.Meta()
	transport(machine.TransportEvent{Input: machine.InConnect, Detail: sessions.RedactURL(meta.URL)})
	if meta.HTTP && (meta.Status < 200 || meta.Status > 299) {
		transport(machine.TransportEvent{Input: machine.InHTTPError, Detail: fmt.Sprintf("HTTP %d", meta.Status)})
	} else {
		transport(machine.TransportEvent{Input: machine.InFirstByte})
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
			st := ReferenceStep{Frame: f, Input: m.Classify(f), Runs: res.Runs, Alarms: it.Alarms}
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
	// The reference client is a client of its dialect: the checker beside
	// it reads the capture as that dialect too (detection would call an
	// empty stream plain SSE).
	if opts.Check.Dialect == "" {
		opts.Check.Dialect = d.Name()
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
	transport(machine.EndEvent(end))
	return res, err
}

// ParseProfiles reads the --profile flag for machine m: one of its
// profiles (v0.5, or 0.5 without the v), or both ("": both).
func ParseProfiles(m machine.Machine, s string) ([]machine.Profile, error) {
	all := m.Profiles()
	if s == "both" || s == "" {
		return all, nil
	}
	var names []string
	for _, p := range all {
		if string(p) == s || string(p) == "v"+s {
			return []machine.Profile{p}, nil
		}
		names = append(names, string(p))
	}
	return nil, fmt.Errorf("--profile %q: want %s or both", s, strings.Join(names, ", "))
}

// replayViewText is the per-frame view: the bubble's text clipped to its
// tail, everything else in full.
var replayViewText = machine.ViewTextOptions{Indent: "          ", MaxText: 80}

// WriteReferenceReplay runs the reference client over a capture and
// prints, for each frame: its index, its event, the transition taken
// (from → to, actions, regions, clause), violations, and the client view
// when it changed. With several profiles, the others' transitions and
// views are shown where they differ from the first's.
func WriteReferenceReplay(c sessions.Capture, opts ReferenceOptions, w io.Writer) (*ReferenceResult, error) {
	_, m := machineFor(&opts)
	profiles := opts.Profiles
	if len(profiles) == 0 {
		profiles = m.Profiles()
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
			event = m.InputLabel(st.Frame, st.Input)
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
			buf = st.Runs[i].AppendView(buf[:0], replayViewText)
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
			buf = r.AppendView(buf[:0], machine.ViewTextOptions{Indent: "  ", Multiline: true})
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
func sameStep(a, b machine.Step) bool {
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
