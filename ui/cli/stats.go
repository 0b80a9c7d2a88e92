package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"framescope/decode"
	"framescope/sessions/report"
)

// statsOptions are stats' streams, arguments and flags.
type statsOptions struct {
	ioStreams
	inputs   []string // FILE..., FOLDER or @SESSION
	format   string
	dialect  string
	flavor   string
	entry    int
	entryURL string
}

// newStatsCmd is `framescope stats`: the distribution of the turns'
// timing over many captures (sessions/report/stats.go, docs/timing.md).
// It declares the flags; runF (statsRun unless a test gives one) does the
// work.
func newStatsCmd(env Env, runF func(*statsOptions) error) *cobra.Command {
	o := &statsOptions{ioStreams: env.streams()}
	if runF == nil {
		runF = statsRun
	}
	cmd := &cobra.Command{
		Use:   "stats FILE... | @SESSION...",
		Short: "Timing over many captures: p50/p95/max of each figure per dialect and flavor",
		Long: `Read captures (files, folders as check reads them, @SESSION from the library) and
report the distribution of every turn's timing figures (time to first content, gaps,
rate, duration…): p50, p95 and max per dialect and flavor, as text or --format json,
to compare two providers or two deploys. Captures without arrival times (raw SSE,
NDJSON dumps) are counted and named, never averaged in as zeros. Exit status: 0, or 2
when an input cannot be read (the others are still reported).`,
		Example: `  framescope stats recordings/                 # every capture below the folder
  framescope stats before/*.jsonl --format json > before.json
  framescope stats @3 @4 @5                    # saved sessions`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.inputs = args
			return runF(o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.format, "format", "text", "output format: text or json")
	entryVar(f, &o.entry, "HAR: read only log.entries[`N`], an SSE entry (N counts every entry of the HAR, as check names it FILE#N; default every SSE entry)")
	entryURLVar(cmd, &o.entryURL, "HAR: read only the SSE entries whose URL holds `PATTERN` (* for any characters)")
	addDialectFlag(cmd, &o.dialect)
	addFlavorFlag(cmd, &o.flavor)
	cmd.ValidArgsFunction = completeSessionIDs(true)
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"text", "json"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// statsRun is stats: the inputs read, their timing's distribution written.
func statsRun(o *statsOptions) error {
	switch o.format {
	case "text", "json":
	default:
		return fmt.Errorf("--format %q: want text or json", o.format)
	}
	opts, err := checkerOptions(o.dialect, o.flavor, "", 0, 0)
	if err != nil {
		return err
	}
	var st report.Stats
	code := 0
	inputs := checkInputs(o.inputs, o.stdin, o.entry, o.entryURL)
	defer closeInputs(inputs)
	for i, res := range checkAll(inputs, opts) {
		readable, err := statsAdd(&st, inputs[i].name, <-res, o.stderr)
		if err != nil {
			return err
		}
		if !readable {
			code = 2
		}
	}
	if o.format == "json" {
		err = st.WriteJSON(o.stdout)
	} else {
		err = st.WriteText(o.stdout)
	}
	if err != nil {
		return err
	}
	if code != 0 {
		return exitError{code}
	}
	return nil
}

// statsAdd adds one input's turns to st, or counts it unreadable (and
// says why on stderr).
func statsAdd(st *report.Stats, name string, r checked, stderr io.Writer) (readable bool, err error) {
	if r.rep == nil || r.err != nil {
		msg := "unreadable"
		if r.err != nil {
			msg = r.err.Error()
		}
		fmt.Fprintln(stderr, "framescope:", decode.SanitizeMultiline(msg))
		st.AddUnreadable(name)
		if r.rep != nil {
			_ = r.rep.Close()
		}
		return false, nil
	}
	r.rep.Source = name
	err = st.Add(r.rep)
	_ = r.rep.Close()
	return true, err
}
