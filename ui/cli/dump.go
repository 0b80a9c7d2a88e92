package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"framescope/decode"
	"framescope/sessions/capture"
	"framescope/sessions/pipeline"
)

// dumpOptions are dump's streams, argument and flags.
type dumpOptions struct {
	ioStreams
	capture string // FILE, - or @ID
	format  string
	dialect string
	entry   int
}

// newDumpCmd declares dump's flags; runF (dumpRun unless a test gives
// one) does the work.
func newDumpCmd(env Env, runF func(*dumpOptions) error) *cobra.Command {
	o := &dumpOptions{ioStreams: env.streams()}
	if runF == nil {
		runF = dumpRun
	}
	cmd := &cobra.Command{
		Use:   "dump FILE",
		Short: "Print the decoded frames of a capture, one per line",
		Long: `Print every frame of a capture, one per line: index, arrival, SSE event, id and
data. The text format also shows comments (keepalives), data-less blocks and a
truncated tail; the ndjson format is read back by check and open.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.capture = args[0]
			return runF(o)
		},
	}
	cmd.Flags().StringVar(&o.format, "format", "text", "output format: text or ndjson")
	entryVar(cmd.Flags(), &o.entry, "HAR: dump log.entries[`N`], an SSE entry (N counts every entry of the HAR, as check names it FILE#N; default the first SSE entry)")
	addDialectFlag(cmd, &o.dialect)
	cmd.ValidArgsFunction = completeSessionIDs(true) // FILE or @ID
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"text", "ndjson"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// dumpRun is dump: every frame of the capture, one per line.
func dumpRun(o *dumpOptions) error {
	if o.format == "json" {
		o.format = "ndjson" // one JSON record per line
	}
	if o.format != "text" && o.format != "ndjson" {
		return fmt.Errorf("--format %q: want ndjson or text", o.format)
	}
	if o.dialect == "list" {
		return listDialects(o.stdout)
	}
	if err := resolveDialect(o.dialect); err != nil {
		return err
	}
	c, err := capture.Open(o.capture, capture.OpenOptions{Entry: o.entry, EntryGiven: o.entry != -1, Stdin: o.stdin})
	if err != nil {
		return err
	}
	defer c.Close()
	if _, err := pipeline.Dump(c, o.stdout, o.format == "ndjson", o.dialect); err != nil {
		fmt.Fprintf(o.stderr, "framescope: %s: read error: %s\n", decode.Sanitize(o.capture), decode.Sanitize(err.Error()))
		return exitError{2}
	}
	return nil
}
