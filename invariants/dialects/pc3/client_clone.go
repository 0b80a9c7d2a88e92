package pc3

import (
	"reflect"
	"sync"

	"framescope/decode"
)

// Forking a run lets a viewer keep checkpoints of the machine every few
// hundred frames and replay only the frames since the nearest one, instead
// of running the whole stream again whenever it looks at another frame.
//
// A turn's text can be megabytes long and a long turn has thousands of
// checkpoints, so a fork does not copy the text: it shares the bytes with
// the run it came from. Both only ever append past the bytes they share
// (the fork's slice has no spare capacity, so its first append moves it),
// except when a turn restarts: the view then reuses its text storage from
// the start, which would write over what the other run still shows.
// StepShared and TransportShared give the run fresh storage first; runs
// that share text must be stepped only through them.

// Fork returns a copy of the run that steps independently of r: stepping
// either (with StepShared / TransportShared) never changes what the other
// shows. The bubble's text is shared, not copied; everything else the run
// remembers is copied.
func (r *ClientRun) Fork() *ClientRun {
	c := *r
	if r.tools != nil {
		c.tools = make(map[string]*toolMem, len(r.tools))
		for k, t := range r.tools {
			tc := *t
			c.tools[k] = &tc
		}
	}
	if r.comps != nil {
		c.comps = make(map[string]*compMem, len(r.comps))
		for k, cm := range r.comps {
			cc := *cm
			c.comps[k] = &cc
		}
	}
	v := &c.view
	n := len(r.view.text)
	v.text = r.view.text[:n:n]
	// Tools, components and telemetry are edited in place (a tool closes,
	// a placeholder fills, old telemetry shifts out); cards only grow.
	v.Tools = append([]ToolView(nil), r.view.Tools...)
	v.Components = append([]ComponentView(nil), r.view.Components...)
	v.Telemetry = append([]string(nil), r.view.Telemetry...)
	nc := len(r.view.Cards)
	v.Cards = r.view.Cards[:nc:nc]
	return &c
}

// StepShared is Step for a run that shares its text with a fork.
func (r *ClientRun) StepShared(f *decode.Frame) Step {
	if restartStates()[r.m][r.state] && r.peek(f).Via != nil {
		// The turn restarts: its view begins empty anyway.
		r.view.text = nil
	}
	return r.Step(f)
}

// TransportShared is Transport for a run that shares its text with a
// fork.
func (r *ClientRun) TransportShared(ev TransportEvent) Step {
	if t := r.m.match(r, r.state, ev.Input, nil); t != nil && t.Action == ActStartRequest {
		r.view.text = nil
	}
	return r.Transport(ev)
}

// restartStates() are, per machine, the states with a row that starts the
// next turn on a frame (the only frame rows that reset the view).
var restartStates = sync.OnceValue(func() map[*Machine]map[State]bool {
	out := map[*Machine]map[State]bool{}
	for _, m := range []*Machine{ClientV05(), ClientV04()} {
		out[m] = map[State]bool{}
		for _, t := range m.Transitions {
			if t.Action == ActStartNextTurn {
				out[m][t.From] = true
			}
		}
	}
	return out
})

// SameButFrame reports whether o is in every way r — state, turn memory,
// view and last step — except the frame number of the last step: a run
// that read only frames that changed nothing (an alarm flood) since it was
// forked from r. Checkpoints use it to share one fork between such frames.
func (r *ClientRun) SameButFrame(o *ClientRun) bool {
	c := *o
	c.last.Frame = r.last.Frame
	return reflect.DeepEqual(r, &c)
}

// ForkAt is Fork with the last step renumbered to frame: the run of a
// checkpoint shared by frames that changed nothing else (SameButFrame).
func (r *ClientRun) ForkAt(frame int) *ClientRun {
	c := r.Fork()
	c.last.Frame = frame
	return c
}
