package ui

import (
	"context"
	"io"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"

	"framescope/invariants"
	"framescope/sessions"
)

// RunOptions tunes a TUI run.
type RunOptions struct {
	Config
	// ProgramOptions are passed to tea.NewProgram (tests: input, output,
	// window size, colour profile).
	ProgramOptions []tea.ProgramOption
	// BatchInterval is the least time between two batches (default ~33ms).
	BatchInterval time.Duration
}

func (o *RunOptions) defaults() {
	if _, ok := os.LookupEnv("NO_COLOR"); ok && os.Getenv("NO_COLOR") != "" {
		o.NoColor = true
	}
}

// OpenCapture runs the inspector on a capture (the caller opened it; it is
// closed here). name is what the header shows.
func OpenCapture(name string, c sessions.Capture, check invariants.Options, o RunOptions) error {
	defer c.Close()
	if name == "-" {
		name = "(stdin)"
	}
	_, err := runSource(captureSource(name, c, check), o)
	return err
}

// ConnectLive runs the inspector on a live connection (sessions.RunLive:
// recorded and saved as the options say). The cancel key ends the stream
// the client-disconnect way; quitting cancels it too and waits (a few
// seconds at most) for the session to be saved. The outcome is what
// RunLive returned.
func ConnectLive(name string, opts sessions.LiveOptions, o RunOptions) (*LiveOutcome, error) {
	out := &LiveOutcome{}
	_, err := runSource(liveSource(name, opts, out), o)
	return out, err
}

// runSource runs the program over a source until the user quits.
func runSource(src source, o RunOptions) (*Model, error) {
	o.defaults()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := o.Config
	if src.live {
		cfg.Cancel = cancel
	}
	m := NewModel(src.name, src.live, cfg)
	p := tea.NewProgram(m, o.ProgramOptions...)
	f := start(ctx, src, p.Send, o.BatchInterval)
	_, err := p.Run()
	f.stop()
	cancel()
	if src.live {
		// Let RunLive finish: the session is recorded and saved on the way out.
		select {
		case <-f.sent:
		case <-time.After(5 * time.Second):
		}
	}
	return m, err
}

// start launches the feeder and the source's pipeline; batches go to send.
func start(ctx context.Context, src source, send func(tea.Msg), interval time.Duration) *feeder {
	f := newFeeder(send, interval)
	go f.loop()
	go src.run(ctx, f)
	return f
}

// IsTerminal reports whether w is a terminal (the TUI's output).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}
