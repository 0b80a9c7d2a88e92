package ui

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"

	"framescope/invariants"
	"framescope/invariants/dialects/pc3"
	"framescope/sessions"
	"framescope/sessions/library"
	"framescope/sessions/live"
	"framescope/sessions/replay"
	"framescope/ui/source"
	"framescope/ui/store"
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
// closed here). name is what the header shows. The counts are the alarms
// of the frames read when the user quit: the exit status follows them, as
// it follows a live session's.
func OpenCapture(name string, c sessions.Capture, check invariants.Options, o RunOptions) (invariants.Counts, error) {
	defer c.Close()
	if name == "-" {
		name = "(stdin)"
	}
	if o.Registry == nil {
		o.Registry, _ = check.Registry.(*pc3.Registry)
	}
	m, err := runSource(source.Capture(name, c, check), o)
	if m == nil {
		return invariants.Counts{}, err
	}
	return m.Store().Counts, err
}

// ConnectLive runs the inspector on a live connection (live.RunLive:
// recorded and saved as the options say). The cancel key ends the stream
// the client-disconnect way; the reconnect key starts a new session with
// the same request; quitting cancels the stream too and waits (a few
// seconds at most) for the session to be saved. The outcomes are what
// RunLive returned, one per session in order.
func ConnectLive(name string, opts live.LiveOptions, o RunOptions) ([]*source.LiveOutcome, error) {
	var outs outcomes
	if o.Registry == nil {
		o.Registry, _ = opts.Check.Registry.(*pc3.Registry)
	}
	src := func(gen int, _ string) (store.Source, error) {
		session := opts
		session.RecordPath = numberedPath(opts.RecordPath, gen)
		return source.Live(name, session, outs.add()), nil
	}
	_, err := runSessions(name, true, src, nil, o)
	return outs.list(), err
}

// DemoOptions is a demo run: a built-in scenario through the reference
// relay (in-process, on a loopback port) and the live path.
type DemoOptions struct {
	Scenario string
	// Speed scales the scenario's pauses (1 = real time, 0 = none).
	Speed float64
	// Library saves each session (nil: not saved).
	Library *library.Library
}

// RunDemo runs the inspector on a demo. The scenario key switches to
// another scenario and the reconnect key replays the current one, each a
// new session. The outcomes are one per session, in order.
func RunDemo(d DemoOptions, o RunOptions) ([]*source.LiveOutcome, error) {
	if _, ok := replay.LookupScenario(d.Scenario); !ok {
		return nil, fmt.Errorf("unknown scenario %q (known: %s)", d.Scenario, strings.Join(replay.ScenarioNames(), ", "))
	}
	var outs outcomes
	_, err := runSessions("demo "+d.Scenario, true, demoSessions(d, &outs), replay.Scenarios(), o)
	return outs.list(), err
}

// demoSessions makes the sources of a demo's sessions: a restart without
// a scenario replays the current one.
func demoSessions(d DemoOptions, outs *outcomes) func(gen int, scenario string) (store.Source, error) {
	current := d.Scenario
	return func(_ int, scenario string) (store.Source, error) {
		if scenario == "" {
			scenario = current
		}
		if _, ok := replay.LookupScenario(scenario); !ok {
			return store.Source{}, fmt.Errorf("unknown scenario %q", scenario)
		}
		current = scenario
		return source.Demo(scenario, d.Speed, d.Library, outs.add()), nil
	}
}

// outcomes collects the live outcomes of a program's sessions.
type outcomes struct {
	mu  sync.Mutex
	all []*source.LiveOutcome
}

func (o *outcomes) add() *source.LiveOutcome {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := &source.LiveOutcome{}
	o.all = append(o.all, out)
	return out
}

func (o *outcomes) list() []*source.LiveOutcome {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]*source.LiveOutcome(nil), o.all...)
}

// numberedPath is a recording path for session gen: the first session
// writes path itself, the next ones path-2.ext, path-3.ext, so that a
// reconnect never overwrites an earlier recording.
func numberedPath(path string, gen int) string {
	if path == "" || gen <= 1 {
		return path
	}
	ext := filepath.Ext(path)
	return fmt.Sprintf("%s-%d%s", strings.TrimSuffix(path, ext), gen, ext)
}

// runSource runs the program over a source until the user quits.
func runSource(src store.Source, o RunOptions) (*Model, error) {
	return runSessions(src.Name, src.Live, func(int, string) (store.Source, error) { return src, nil }, nil, o)
}

// runSessions runs the program until the user quits: the first session
// over newSource(1, ""), then, for a live source, every session the user
// restarts.
func runSessions(name string, live bool, newSource func(gen int, scenario string) (store.Source, error),
	scenarios []replay.Scenario, o RunOptions) (*Model, error) {
	o.defaults()
	src, err := newSource(1, "")
	if err != nil {
		return nil, err
	}
	r := &runner{interval: o.BatchInterval, newSource: newSource, scenarios: scenarios}
	cfg := o.Config
	if live {
		cfg.Cancel = r.Cancel
		cfg.Restarter = r
	}
	m := NewModel(name, live, cfg)
	p := tea.NewProgram(m, o.ProgramOptions...)
	r.send = p.Send
	r.launch(1, src)
	_, err = p.Run()
	// The live session is recorded and saved on the way out (bounded).
	r.shutdown()
	return m, err
}

// start launches the feeder and the source's pipeline; batches go to send
// as batchMsg.
func start(ctx context.Context, src store.Source, send func(tea.Msg), interval time.Duration) *store.Feeder {
	return store.Start(ctx, src, func(b *store.Batch) { send(batchMsg{b}) }, interval)
}

// IsTerminal reports whether w is a terminal (the TUI's output).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}
