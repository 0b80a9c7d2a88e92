package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"framescope/decode"
	"framescope/invariants"
	"framescope/sessions/capture"
	"framescope/sessions/pipeline"
	"framescope/ui"
)

// openOptions are open's streams, argument and flags.
type openOptions struct {
	ioStreams
	capture    string // FILE, - or @ID
	entry      int
	registry   string
	idle, ttfe time.Duration
	dialect    string
	flavor     string
}

// newOpenCmd declares open's flags; runF (openRun unless a test gives
// one) does the work.
func newOpenCmd(env Env, runF func(*openOptions) error) *cobra.Command {
	o := &openOptions{ioStreams: env.streams()}
	if runF == nil {
		runF = openRun
	}
	cmd := &cobra.Command{
		Use:   "open FILE|-|@ID",
		Short: "Inspect a capture in the terminal UI (raw SSE, framescope JSONL, HAR, NDJSON, JSON values)",
		Long: `Open a capture in the inspector: the timeline of every frame, the selected frame's
JSON, raw bytes and alarms, and the turn's tools, status and components as of the
selected frame. - reads stdin; @ID (or @last) opens a saved session.

Exit status, as for connect and demo: 0 when you quit and no frame read had an
error alarm, 1 when one had, 2 when the capture cannot be opened.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.capture = args[0]
			return runF(o)
		},
	}
	f := cmd.Flags()
	entryVar(f, &o.entry, "HAR: open log.entries[`N`], an SSE entry (N counts every entry of the HAR, as check names it FILE#N; default the first SSE entry)")
	f.StringVar(&o.registry, "registry", "", "status-event registry `DIR`")
	nonNegativeDuration(f, &o.idle, "idle", 0, idleZero, idleHelp)
	ttfeDuration(f, &o.ttfe, 0, ttfeHelp)
	addDialectFlag(cmd, &o.dialect)
	addFlavorFlag(cmd, &o.flavor)
	return cmd
}

// openRun is open: the inspector, or the frames when stdout is no
// terminal.
func openRun(o *openOptions) error {
	if o.dialect == "list" {
		return listDialects(o.stdout)
	}
	opts, err := checkerOptions(o.dialect, o.flavor, o.registry, o.idle, o.ttfe)
	if err != nil {
		return err
	}
	return openOrDump(o.capture, o.stdin, o.stdout, o.stderr, o.entry, opts)
}

// openTUI runs the inspector on a capture.
func openTUI(name string, stdin io.Reader, entry int, opts invariants.Options) error {
	c, err := capture.Open(name, capture.OpenOptions{Entry: entry, EntryGiven: entry != -1, Stdin: stdin})
	if err != nil {
		return err
	}
	counts, err := ui.OpenCapture(name, c, opts, ui.RunOptions{})
	if err != nil {
		return err
	}
	if counts.Reaches(invariants.SevError) {
		return exitError{1} // as connect and demo: an error alarm is exit 1
	}
	return nil
}

// openOrDump runs the inspector on a capture; when stdout is not a
// terminal it prints the frames as `framescope dump` does instead (a TUI
// written into a file or a pipe would show nothing).
func openOrDump(name string, stdin io.Reader, stdout, stderr io.Writer, entry int, opts invariants.Options) error {
	if ui.IsTerminal(stdout) {
		return openTUI(name, stdin, entry, opts)
	}
	c, err := capture.Open(name, capture.OpenOptions{Entry: entry, EntryGiven: entry != -1, Stdin: stdin})
	if err != nil {
		return err
	}
	defer c.Close()
	fmt.Fprintln(stderr, "framescope: stdout is not a terminal: printing the frames as `framescope dump` does (framescope check for the report)")
	res, err := pipeline.Dump(c, stdout, false, opts.Dialect)
	if err != nil {
		fmt.Fprintf(stderr, "framescope: %s: read error: %s\n", decode.Sanitize(name), decode.Sanitize(err.Error()))
		return exitError{2}
	}
	if res != nil && res.Counts.Reaches(invariants.SevError) {
		return exitError{1} // the inspector's rule: an error alarm is exit 1
	}
	return nil
}
