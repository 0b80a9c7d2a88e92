package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"framescope/decode"
	"framescope/sessions/capture"
	"framescope/sessions/pipeline"
)

// dumpOptions are dump's flags.
type dumpOptions struct {
	format  string
	dialect string
	entry   int
}

func newDumpCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	var o dumpOptions
	cmd := &cobra.Command{
		Use:   "dump FILE",
		Short: "Print the decoded frames of a capture, one per line",
		Long: `Print every frame of a capture, one per line: index, arrival, SSE event, id and
data. The text format also shows comments (keepalives), data-less blocks and a
truncated tail; the ndjson format is read back by check and open.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.format == "json" {
				o.format = "ndjson" // one JSON record per line
			}
			if o.format != "text" && o.format != "ndjson" {
				return fmt.Errorf("--format %q: want ndjson or text", o.format)
			}
			if o.dialect == "list" {
				return listDialects(stdout)
			}
			if _, err := pipeline.ResolveDialect(o.dialect); err != nil {
				return err
			}
			c, err := capture.Open(args[0], capture.OpenOptions{Entry: o.entry, EntryGiven: o.entry != -1, Stdin: stdin})
			if err != nil {
				return err
			}
			defer c.Close()
			if _, err := pipeline.Dump(c, stdout, o.format == "ndjson", o.dialect); err != nil {
				fmt.Fprintf(stderr, "framescope: %s: read error: %s\n", decode.Sanitize(args[0]), decode.Sanitize(err.Error()))
				return exitError{2}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&o.format, "format", "text", "output format: text or ndjson")
	entryVar(cmd.Flags(), &o.entry, "HAR: which SSE entry to dump (0-based; default the first)")
	addDialectFlag(cmd, &o.dialect)
	cmd.ValidArgsFunction = completeSessionIDs(true) // FILE or @ID
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"text", "ndjson"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}
