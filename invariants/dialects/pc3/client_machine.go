package pc3

import (
	"io"
	"sync"
	"time"

	"framescope/decode"
	"framescope/invariants/machine"
)

// ClientMachine hands out PC3's reference client machine
// (machine.Dialect): the inspector's Client pane and `framescope
// reference` reach it through machine.Of, never by naming this room.
func (pc3) ClientMachine() machine.Machine { return clientMachine{} }

// clientMachine is the machine.Machine of the two profiles.
type clientMachine struct{}

func (clientMachine) Profiles() []Profile { return Profiles() }

func (clientMachine) NewRun(p Profile) machine.Run { return clientRun{NewClientRun(p)} }

func (clientMachine) Classify(f *decode.Frame) Input { return ClassifyFrame(f) }

// InputLabel names an unknown frame by its event type.
func (clientMachine) InputLabel(f *decode.Frame, in Input) string {
	if in == InUnknown && f.Decoded() {
		if et, ok := EventType(f).Str(); ok {
			return "unknown " + decode.Sanitize(decode.Clip(et, 24))
		}
	}
	return string(in)
}

func (clientMachine) Diverges(f *decode.Frame) (string, bool) {
	d, ok := ClientDivergence(f)
	if !ok {
		return "", false
	}
	return d.Message(), true
}

// TurnOpen: the idle timer runs while the client waits for the turn's
// first frame or the turn streams.
func (clientMachine) TurnOpen(s State) bool {
	switch s {
	case StAwaitingFirstFrame, StTurnOpen, StStreaming:
		return true
	}
	return false
}

// Delivery: a client that cancels, gives up idle or shows an HTTP failure
// reads no more of the stream; one that starts a request reads again.
func (clientMachine) Delivery(a Action) (changes, reads bool) {
	switch a {
	case ActUserCancel, ActIdleDisconnect, ActShowHTTPFailure:
		return true, false
	case ActStartRequest:
		return true, true
	}
	return false, false
}

func (clientMachine) IdleTimer() time.Duration { return DefaultClientIdle }
func (clientMachine) Formats() []string        { return ReferenceFormats }
func (clientMachine) Diagrams() []string       { return ReferenceDiagrams() }
func (clientMachine) KitReadme() []byte        { return KitReadme() }

func (clientMachine) Render(w io.Writer, format string, p Profile) error {
	return RenderReference(w, format, p)
}

func (clientMachine) RenderDiagram(w io.Writer, format string, p Profile, diagram string) error {
	return RenderReferenceDiagram(w, format, p, diagram)
}

// clientRun is a ClientRun as a machine.Run (one pointer: an interface
// holds it without allocating, and two of them compare as their runs).
type clientRun struct{ *ClientRun }

func (r clientRun) Chart() *machine.Chart { return charts()[r.m] }

func (r clientRun) Keys(region string) []string {
	var keys []string
	switch region {
	case "tools":
		for _, t := range r.view.Tools {
			keys = append(keys, t.ID)
		}
	case "components":
		for _, c := range r.view.Components {
			keys = append(keys, c.ID)
		}
	}
	return keys
}

func (r clientRun) AppendView(b []byte, o ViewTextOptions) []byte { return r.view.AppendText(b, o) }
func (r clientRun) Conformance() any                              { return r.view.Conformance() }
func (r clientRun) Fork() machine.Run                             { return clientRun{r.ClientRun.Fork()} }
func (r clientRun) ForkAt(frame int) machine.Run                  { return clientRun{r.ClientRun.ForkAt(frame)} }

func (r clientRun) SameButFrame(o machine.Run) bool {
	oc, ok := o.(clientRun)
	return ok && r.ClientRun.SameButFrame(oc.ClientRun)
}

// charts are the two machines' charts, built once.
var charts = sync.OnceValue(func() map[*Machine]*machine.Chart {
	out := map[*Machine]*machine.Chart{}
	for _, m := range []*Machine{ClientV05(), ClientV04()} {
		c := &machine.Chart{States: m.States}
		for _, reg := range m.Regions {
			c.Regions = append(c.Regions, machine.ChartRegion{Name: reg.Name, Key: reg.Key, States: reg.States})
		}
		out[m] = c
	}
	return out
})
