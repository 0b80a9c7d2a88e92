package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects"
	"framescope/invariants/machine"
	"framescope/sessions"
	"framescope/sessions/capture"
	"framescope/sessions/pipeline"
	"framescope/sessions/reference"
)

// referenceOptions are reference's streams, kit and flags.
type referenceOptions struct {
	ioStreams
	kit             fs.FS                  // the captures --export-tests writes (Env.ReferenceKit)
	changed         func(flag string) bool // the flag was given
	format, diagram string                 // the machine's format and diagram
	replay          string                 // --replay CAPTURE
	profile         string
	exportDir       string // --export-tests DIR
	force           bool   // --force: write into a non-empty DIR
	entry           int
	clientIdle      time.Duration
	dialect         string // --dialect: a dialect that ships a machine forces it
}

// refMachine is the machine reference prints, exports and (on its
// dialect's streams) replays: the one a dialect ships (machine.Of), found
// in the registry.
func refMachine() machine.Machine {
	_, m := dialects.Machine()
	return m
}

// newReferenceCmd declares reference's flags; runF (referenceRun unless a
// test gives one) does the work.
func newReferenceCmd(env Env, runF func(*referenceOptions) error) *cobra.Command {
	o := &referenceOptions{ioStreams: env.streams(), kit: env.ReferenceKit}
	if runF == nil {
		runF = referenceRun
	}
	cmd := &cobra.Command{
		Use:   "reference [--format md|mermaid|dot|json] [--diagram NAME] | --replay CAPTURE [--profile v0.5|v0.4|both] | --export-tests DIR [--force]",
		Short: "Print the reference client state machine, run it over a capture, or export its conformance kit",
		Long: `Print the state machine a correct PC3 client follows (and the v0.4 client beside
it): md is a document to implement from (docs/client-state-machine.md), mermaid a
stateDiagram-v2, dot a Graphviz graph, json the machine data. md and json carry both
profiles; mermaid and dot draw --profile (default v0.5), the whole machine or one
--diagram: core (the lifecycle at a glance) or a streaming region (tools,
components, content, progress, degraded).

With --replay, run the machine over a capture (any format): for each frame, the
transition taken (from → to, action, clause) and the client view when it changed;
where the v0.4 client diverges, both. A capture of another dialect (detected, or
--dialect NAME) replays the generic client view instead — what the Client pane
shows, frame by frame: text added to which bubble (choice, content block,
message, stream), tool states (running, ready, done), the progress line, the
turn's outcome, then each turn's final bubbles; its first line says so.
--dialect pc3 forces the PC3 machine. On a timed capture (JSONL, live) the client's
idle timer fires after --client-idle without a frame (default 60s; 0 = off); raw SSE
and HAR have no arrival times, so an explicit --client-idle is refused there.

With --export-tests DIR, write the conformance kit: the probe, example and rule
captures, and after every input the client view the machine expects (JSON), for a
client team to run against its own client (format: DIR/README.md). DIR must be
new or empty; --force writes into a non-empty DIR, replacing only the kit's own
files. A DIR that is or passes through a symbolic link, or a link or directory
where the kit writes a file, is refused (exit 2) and nothing is written; no file
is ever written through a link.`,
		Example: `  framescope reference --format mermaid --diagram core > core.mmd
  framescope reference --replay testdata/examples/example-axis2-recovered.sse
  framescope reference --export-tests ./client-kit --profile both`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.changed = cmd.Flags().Changed
			return runF(o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.format, "format", "md", "machine format: md, mermaid, dot or json")
	f.StringVar(&o.diagram, "diagram", "machine", "mermaid/dot: which diagram (machine, core, tools, components, content, progress, degraded)")
	f.StringVar(&o.replay, "replay", "", "run the machine over `CAPTURE` (raw SSE, JSONL, HAR, NDJSON, @session, - for stdin)")
	f.StringVar(&o.exportDir, "export-tests", "", "write the conformance kit (captures + expected client views) into `DIR`")
	f.BoolVar(&o.force, "force", false, "--export-tests: write into a non-empty DIR, replacing only the kit's own regular files (never through a link)")
	f.StringVar(&o.profile, "profile", "", "client profile: v0.5, v0.4 or both (replay default both; diagrams and kit default v0.5)")
	f.StringVar(&o.dialect, "dialect", "", "replay: the stream's `NAME`d dialect instead of detecting it; pc3 runs the PC3 machine, any other the generic client view (list: show them)")
	_ = cmd.RegisterFlagCompletionFunc("dialect", cobra.FixedCompletions(append(dialects.Names(), "list"), cobra.ShellCompDirectiveNoFileComp))
	entryVar(f, &o.entry, "HAR: replay log.entries[`N`], an SSE entry (N counts every entry of the HAR, as check names it FILE#N; default the first SSE entry)")
	m := refMachine()
	nonNegativeDuration(f, &o.clientIdle, "client-idle", m.IdleTimer(), "0 = off", "replay: the client's idle timer, fired after this long without a frame on timed captures (0 = off)")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(m.Formats(), cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("diagram", cobra.FixedCompletions(m.Diagrams(), cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("profile", cobra.FixedCompletions([]string{"v0.5", "v0.4", "both"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// referenceRun is reference: the machine printed, a capture replayed, or
// the kit exported.
func referenceRun(o *referenceOptions) error {
	modes := 0
	for _, on := range []bool{o.replay != "", o.exportDir != ""} {
		if on {
			modes++
		}
	}
	if modes > 1 {
		return errors.New("--replay and --export-tests are different modes (give one)")
	}
	if o.changed("force") && o.exportDir == "" {
		return errors.New("--force applies to --export-tests")
	}
	if o.changed("export-tests") && o.exportDir == "" {
		return errors.New("--export-tests: give a directory")
	}
	switch {
	case o.exportDir != "":
		return referenceExport(o)
	case o.replay == "":
		return referenceMachine(o)
	}
	return referenceReplay(o)
}

// referenceExport writes the conformance kit into --export-tests DIR.
func referenceExport(o *referenceOptions) error {
	for _, n := range []string{"format", "diagram", "entry", "client-idle"} {
		if o.changed(n) {
			return fmt.Errorf("--%s does not apply to --export-tests", n)
		}
	}
	m := refMachine()
	profiles := m.Profiles()[:1]
	if o.profile != "" {
		var err error
		if profiles, err = reference.ParseProfiles(m, o.profile); err != nil {
			return err
		}
	}
	sources, err := reference.KitSources(o.kit)
	if err != nil {
		return err
	}
	idx, err := reference.ExportKit(o.exportDir, o.kit, sources, reference.KitOptions{
		Profiles: profiles, ClientIdle: m.IdleTimer(), Readme: m.KitReadme(), Force: o.force,
	})
	if err != nil {
		fmt.Fprintf(o.stderr, "framescope: --export-tests: %s\n", decode.Sanitize(err.Error()))
		return exitError{2}
	}
	fmt.Fprintf(o.stdout, "wrote %d cases to %s (README.md says how to run them)\n", len(idx.Cases), decode.Sanitize(o.exportDir))
	return nil
}

// referenceMachine prints the machine: --format, --diagram, --profile.
func referenceMachine(o *referenceOptions) error {
	if o.changed("client-idle") {
		return errors.New("--client-idle applies to --replay")
	}
	m := refMachine()
	ps, err := reference.ParseProfiles(m, o.profile) // both: the reference profile
	if err != nil {
		return err
	}
	if o.changed("diagram") {
		return m.RenderDiagram(o.stdout, o.format, ps[0], o.diagram)
	}
	return m.Render(o.stdout, o.format, ps[0])
}

// referenceReplay runs --replay CAPTURE: through the machine of a dialect
// that ships one, or for another dialect the generic client view.
func referenceReplay(o *referenceOptions) error {
	if o.changed("format") || o.changed("diagram") {
		return errors.New("--format and --diagram print the machine; --replay prints the run (give one)")
	}
	if o.dialect == "list" {
		return listDialects(o.stdout)
	}
	if err := resolveDialect(o.dialect); err != nil {
		return err
	}
	forced, err := pipeline.ResolveDialect(o.dialect)
	if err != nil {
		return err
	}
	m := machine.Of(forced) // the forced dialect's machine, else the registry's
	if m == nil {
		m = refMachine()
	}
	profiles, err := reference.ParseProfiles(m, o.profile)
	if err != nil {
		return err
	}
	stdin := o.stdin
	if o.replay != "-" && capture.IsStream(o.replay) {
		// A pipe or a FIFO is read once, as stdin is (its bytes kept
		// for the machine when the generic view hands it on).
		f, err := os.Open(o.replay)
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return fmt.Errorf("%s: %w", decode.Sanitize(o.replay), err)
		}
		defer f.Close()
		stdin = f
	}
	if machine.Of(forced) == nil {
		kept, done, err := referenceGeneric(o, stdin)
		if done {
			return err
		}
		stdin = kept
	}
	return referenceMachineReplay(o, stdin, profiles)
}

// openReplay opens the capture to replay; a stream (stdin, a pipe, a
// FIFO) is read from r, never opened again by its name.
func openReplay(name string, r io.Reader, opts capture.OpenOptions) (sessions.Capture, error) {
	if name != "-" && r != nil && capture.IsStream(name) {
		return capture.OpenReader(name, r, opts)
	}
	opts.Stdin = r
	return capture.Open(name, opts)
}

// referenceGeneric replays the generic client view for a dialect that
// ships no machine (reference_generic.go); done is false when the
// capture's dialect ships one after all, and kept is then what to replay
// through it (a stream, stdin, is kept while it is read).
func referenceGeneric(o *referenceOptions, stdin io.Reader) (kept io.Reader, done bool, err error) {
	var buf bytes.Buffer
	in := stdin
	stream := capture.IsStream(o.replay)
	if stream {
		in = io.TeeReader(stdin, &buf)
	}
	c, err := openReplay(o.replay, in, capture.OpenOptions{Entry: o.entry, EntryGiven: o.entry != -1})
	if err != nil {
		return nil, true, err
	}
	st := genericStore(o.replay, c, invariants.Options{Dialect: o.dialect})
	c.Close()
	if st.Machine() == nil {
		for _, n := range []string{"profile", "client-idle"} {
			if o.changed(n) {
				return nil, true, fmt.Errorf("--%s applies to the %s machine; %s is %s (the generic client view has no profiles or idle timer)", n, strings.ToUpper(refDialect()), decode.Sanitize(o.replay), st.Dialect)
			}
		}
		if err := writeGenericReplay(o.stdout, o.replay, st); err != nil {
			fmt.Fprintf(o.stderr, "framescope: %s: %s\n", decode.Sanitize(o.replay), decode.Sanitize(err.Error()))
			return nil, true, exitError{2}
		}
		return nil, true, nil
	}
	if e := st.End; stream && e != nil && e.Kind == invariants.EndError {
		// The kept bytes end where the read failed: replaying them would
		// hide the failure.
		fmt.Fprintf(o.stderr, "framescope: %s: %s\n", decode.Sanitize(o.replay), decode.Sanitize(e.Detail))
		return nil, true, exitError{2}
	}
	return &buf, false, nil
}

// refDialect names the dialect whose machine reference runs.
func refDialect() string {
	d, _ := dialects.Machine()
	return d.Name()
}

// referenceMachineReplay runs the client machine over the capture, read
// from stdin when it is -.
func referenceMachineReplay(o *referenceOptions, stdin io.Reader, profiles []machine.Profile) error {
	c, err := openReplay(o.replay, stdin, capture.OpenOptions{Entry: o.entry, EntryGiven: o.entry != -1})
	if err != nil {
		return err
	}
	defer c.Close()
	if o.changed("client-idle") && o.clientIdle > 0 && !c.Meta().Timed {
		return fmt.Errorf("--client-idle: %s has no arrival times (%s), so the client's idle timer cannot be replayed; drop the flag or replay a timed capture (JSONL)",
			decode.Sanitize(o.replay), c.Meta().Kind)
	}
	opts := reference.ReferenceOptions{Profiles: profiles, ClientIdle: o.clientIdle, Check: invariants.Options{Dialect: o.dialect}}
	if _, err := reference.WriteReferenceReplay(c, opts, o.stdout); err != nil {
		fmt.Fprintf(o.stderr, "framescope: %s: %s\n", decode.Sanitize(o.replay), decode.Sanitize(err.Error()))
		return exitError{2}
	}
	return nil
}
