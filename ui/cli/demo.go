package cli

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"

	"github.com/spf13/cobra"

	"framescope/sessions/library"
	"framescope/sessions/live"
	"framescope/sessions/replay"
	"framescope/ui"
)

// demoOptions are demo's streams, argument and flags.
type demoOptions struct {
	ioStreams
	ctx      context.Context
	scenario string // SCENARIO (default happy)
	speed    float64
	noSave   bool
	quiet    bool
	headless bool
}

// newDemoCmd declares demo's flags; runF (demoRun unless a test gives
// one) does the work.
func newDemoCmd(env Env, runF func(*demoOptions) error) *cobra.Command {
	o := &demoOptions{ioStreams: env.streams()}
	if runF == nil {
		runF = demoRun
	}
	cmd := &cobra.Command{
		Use:   "demo [SCENARIO]",
		Short: "Run a built-in scenario of any dialect through a loopback server and the live path",
		Long: wrapWords("Serve a built-in scenario in-process on a loopback port (the reference PC3 relay, "+
			"or a demo turn of another dialect: NAME and NAME-broken), connect to it through the live path and "+
			"inspect the turn in the terminal UI (headless — frames and the check report on stdout — with "+
			"--headless or when stdout is not a terminal).", 84) + "\n\n" +
			wrapWords("Scenarios: "+strings.Join(replay.ScenarioNames(), ", ")+".", 84),
		Args:      cobra.MaximumNArgs(1),
		ValidArgs: replay.ScenarioNames(),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.ctx, o.scenario = cmd.Context(), "happy"
			if len(args) == 1 {
				o.scenario = args[0]
			}
			return runF(o)
		},
	}
	cmd.Flags().BoolVar(&o.headless, "headless", false, "print frames and the report instead of opening the terminal UI")
	relaySpeedVar(cmd.Flags(), &o.speed, "speed", 1, "scenario timing scale: 1 = as scripted, 2 = twice as fast, 0 or max = no pauses (the least: 0.001)")
	cmd.Flags().BoolVar(&o.noSave, "no-save", false, "do not save the session in the session library")
	cmd.Flags().BoolVarP(&o.quiet, "quiet", "q", false, "print only the check report")
	return cmd
}

// demoRun is demo: the scenario in the inspector, or headless.
func demoRun(o *demoOptions) error {
	name := o.scenario
	if err := checkScenario(name); err != nil {
		return err
	}
	if !o.headless && !o.quiet && ui.IsTerminal(o.stdout) {
		return runDemoTUI(name, o.speed, o.noSave, o.stderr)
	}
	return runDemoHeadless(o, name)
}

// runDemoHeadless serves the scenario on a loopback port and runs the live
// path against it, printing frames and the report (only the report with
// --quiet).
func runDemoHeadless(o *demoOptions, name string) error {
	relay, err := replay.NewRelay(replay.RelayOptions{Scenario: name, Speed: o.speed})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: relay}
	go srv.Serve(ln)
	defer srv.Close()
	opts := live.LiveOptions{
		Connect: live.ConnectOptions{URL: "http://" + ln.Addr().String() + "/api/chat", Method: "POST",
			Body: []byte(`{"message":"demo"}`), Headers: []string{"Content-Type: application/json"}},
		Source: "demo:" + name,
	}
	if !o.noSave {
		if lib, err := library.DefaultLibrary(); err == nil {
			opts.Library = lib
		}
	}
	ctx, stop := notifyStop(o.ctx)
	defer stop()
	return runLive(ctx, opts, o.stdout, o.stderr, o.quiet)
}

// runDemoTUI runs a demo in the inspector (the scenario and reconnect keys
// start more sessions), then reports them.
func runDemoTUI(scenario string, speed float64, noSave bool, stderr io.Writer) error {
	d := ui.DemoOptions{Scenario: scenario, Speed: speed}
	if !noSave {
		if lib, err := library.DefaultLibrary(); err == nil {
			d.Library = lib
		}
	}
	outs, err := ui.RunDemo(d, ui.RunOptions{})
	if err != nil {
		return err
	}
	return reportLiveTUI(outs, stderr)
}
