package cli

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"framescope/decode"
	"framescope/invariants"
	"framescope/sessions"
	"framescope/ui/source"
	"framescope/ui/store"
)

// The PC3 reference machine knows PC3's events only: run over another
// dialect it read every frame as unknown. For any other dialect `reference
// --replay` replays the generic client view instead — the one the Client
// pane shows, built by ui/store from the dialect's moves — frame by frame.
// It lives here, not in sessions/reference, because the view is ui/store's
// (sessions must not import ui) and one model must serve both.

// genericStore reads the whole capture into a store, as the TUI would.
func genericStore(name string, c sessions.Capture, opts invariants.Options) *store.Store {
	st := store.NewStore()
	f := store.Start(context.Background(), source.Capture(name, c, opts), st.Apply, time.Millisecond)
	<-f.Sent()
	return st
}

// writeGenericReplay prints the client view of st frame by frame: what
// each frame changed (text added to which bubble, a tool's state, the
// progress line, the turn's outcome), then each turn's final bubbles. It
// returns an error when the capture ended in a read error (after printing
// what was read).
func writeGenericReplay(w io.Writer, name string, st *store.Store) error {
	fmt.Fprintf(w, "generic client view (dialect %s): the PC3 reference machine runs on PC3 streams only; this is what a client of %s shows, frame by frame, read from the moves (--dialect pc3 forces the PC3 machine)\n",
		decode.Sanitize(st.Dialect), decode.Sanitize(name))
	var prev store.ClientView
	prevTurn := -1
	flush := func(turn int) {
		if turn >= 0 {
			writeFinalView(w, st.ClientViewAsOf(turn, st.Turns[turn].LastFrame, 0))
		}
	}
	for n := 0; n < st.Frames; n++ {
		row := st.RowOfFrame(n)
		if row < 0 {
			continue
		}
		r := st.Row(row)
		v := st.ClientViewAsOf(r.Turn, n, 1)
		if v.Turn != prevTurn && v.Turn >= 0 {
			flush(prevTurn)
			fmt.Fprintf(w, "turn %d\n", v.Turn+1)
			prev, prevTurn = store.ClientView{Outcome: "streaming"}, v.Turn
		}
		changes := viewChanges(&prev, &v)
		if len(changes) == 0 {
			changes = []string{"(no visible change)"}
		}
		fmt.Fprintf(w, "%5d  %-24s  %s\n", n, decode.Clip(decode.Sanitize(r.Type), 24), strings.Join(changes, " · "))
		prev = v
	}
	flush(prevTurn)
	if e := st.End; e != nil {
		end := "end: " + string(e.Kind)
		if e.Detail != "" {
			end += ": " + e.Detail
		}
		fmt.Fprintln(w, end)
		if e.Kind == invariants.EndError {
			return fmt.Errorf("%s", e.Detail)
		}
	}
	return nil
}

// viewChanges says what v shows that prev did not.
func viewChanges(prev, v *store.ClientView) []string {
	var out []string
	old := map[string]store.Bubble{}
	for _, b := range prev.Bubbles {
		old[b.Label] = b
	}
	for _, b := range v.Bubbles {
		if b.Deltas == old[b.Label].Deltas {
			continue
		}
		label := decode.Sanitize(b.Label)
		if label == "" {
			label = "text"
		}
		if b.Component {
			out = append(out, fmt.Sprintf("%s chunk %d: %s", label, b.Deltas, quoteClip(b.Last, 60)))
		} else {
			out = append(out, label+" += "+quoteClip(b.Last, 60))
		}
	}
	states := map[string]string{}
	for _, t := range prev.Tools {
		states[t.ID+"\x00"+t.Name] = t.State
	}
	for _, t := range v.Tools {
		if states[t.ID+"\x00"+t.Name] != t.State {
			out = append(out, "tool "+decode.Sanitize(strings.TrimSpace(t.Name+" "+t.ID))+" "+t.State)
		}
	}
	if v.Progress != prev.Progress && v.Progress != "" {
		out = append(out, "progress "+quoteClip(v.Progress, 60))
	}
	was := map[string]bool{}
	for _, o := range prev.Open {
		was[o] = true
	}
	now := map[string]bool{}
	for _, o := range v.Open {
		if !was[o] {
			out = append(out, "opens "+decode.Sanitize(o))
		}
		now[o] = true
	}
	// What closed is listed in the order it was open, so a replay prints
	// the same lines on every run.
	for _, o := range prev.Open {
		if !now[o] {
			out = append(out, "closes "+decode.Sanitize(o))
		}
	}
	if v.Outcome != prev.Outcome {
		s := "turn " + v.Outcome
		if v.Ended && v.TerminalEvent != "" {
			s += fmt.Sprintf(" (%s at frame %d)", decode.Sanitize(v.TerminalEvent), v.CarrierFrame)
		}
		out = append(out, s)
	}
	return out
}

// writeFinalView prints a turn's bubbles as a client shows them at its
// last frame.
func writeFinalView(w io.Writer, v store.ClientView) {
	fmt.Fprintf(w, "  shows: %s", v.Outcome)
	for _, t := range v.Tools {
		fmt.Fprintf(w, " · tool %s %s", decode.Sanitize(t.Name), t.State)
	}
	fmt.Fprintln(w)
	for _, b := range v.Bubbles {
		label := b.Label
		if label == "" {
			label = "text"
		}
		if b.Component {
			fmt.Fprintf(w, "  [%s] %s, %s\n", decode.Sanitize(label), invariants.Plural(int(b.Deltas), "chunk"), invariants.Plural(int(b.Total), "byte"))
			continue
		}
		fmt.Fprintf(w, "  [%s] %s\n", decode.Sanitize(label), quoteClip(b.Text, 2000))
	}
}

// quoteClip is s quoted (escapes and all: nothing reaches the terminal
// raw) and clipped to n runes.
func quoteClip(s string, n int) string {
	return strconv.Quote(decode.Clip(s, n))
}
