package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"framescope/decode"
	"framescope/sessions/report"
)

// statsOptions are stats' flags.
type statsOptions struct {
	format  string
	dialect string
	flavor  string
	entry   int
}

// newStatsCmd is `framescope stats`: the distribution of the turns'
// timing over many captures (sessions/report/stats.go, docs/timing.md).
func newStatsCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	var o statsOptions
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
			inputs := checkInputs(args, stdin, o.entry)
			for i, res := range checkAll(inputs, stdin, opts) {
				name := inputs[i].name
				r := <-res
				if r.rep == nil || r.err != nil {
					msg := "unreadable"
					if r.err != nil {
						msg = r.err.Error()
					}
					fmt.Fprintln(stderr, "framescope:", decode.SanitizeMultiline(msg))
					st.AddUnreadable(name)
					code = 2
					if r.rep != nil {
						_ = r.rep.Close()
					}
					continue
				}
				r.rep.Source = name
				err := st.Add(r.rep)
				_ = r.rep.Close()
				if err != nil {
					return err
				}
			}
			if o.format == "json" {
				err = st.WriteJSON(stdout)
			} else {
				err = st.WriteText(stdout)
			}
			if err != nil {
				return err
			}
			if code != 0 {
				return exitError{code}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.format, "format", "text", "output format: text or json")
	entryVar(f, &o.entry, "HAR: read only this SSE entry (0-based; default every SSE entry)")
	addDialectFlag(cmd, &o.dialect)
	addFlavorFlag(cmd, &o.flavor)
	cmd.ValidArgsFunction = completeSessionIDs(true)
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"text", "json"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}
