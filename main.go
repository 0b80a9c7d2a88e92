// Command framescope inspects agent chat streams on the PC3 SSE wire.
//
// main.go only parses the command line and wires the packages together.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"framescope/decode"
	"framescope/invariants"
	"framescope/sessions"
)

// exitError carries an exit status out of a command.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRoot(stdin, stdout, stderr)
	root.SetArgs(args)
	err := root.Execute()
	var ee exitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.code
	default:
		fmt.Fprintln(stderr, "framescope:", decode.SanitizeMultiline(err.Error()))
		return 2
	}
}

func newRoot(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "framescope",
		Short: "Inspect and check agent chat streams on the PC3 SSE wire (v0.5 and v0.4)",
		Long: `framescope decodes every frame of a PC3 SSE stream — a recorded capture or a
live endpoint — and checks it against the wire contract (the rule catalog).`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(newCheckCmd(stdin, stdout, stderr), newDumpCmd(stdin, stdout, stderr), newRulesCmd(stdout))
	return root
}

type checkFlags struct {
	format   string
	registry string
	failOn   string
	idle     time.Duration
	ttfe     time.Duration
	entry    int
}

func newCheckCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	var fl checkFlags
	cmd := &cobra.Command{
		Use:   "check FILE...",
		Short: "Check captures against the rule catalog (exit 0 clean, 1 alarms, 2 unreadable)",
		Long: `Check one or more captures (raw SSE, framescope JSONL, HAR, NDJSON frames; - for
stdin) and report every alarm. With --format json, one JSON object per input,
one per line. Exit status: 0 when no alarm reaches --fail-on, 1 when one does,
2 when an input cannot be read or the command line is wrong.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			failOn, ok := invariants.ParseSeverity(fl.failOn)
			if !ok {
				return fmt.Errorf("--fail-on %q: want error, warn or info", fl.failOn)
			}
			switch fl.format {
			case "text", "json", "junit":
			default:
				return fmt.Errorf("--format %q: want text, json or junit", fl.format)
			}
			opts := invariants.Options{Idle: fl.idle, TTFE: fl.ttfe}
			if fl.registry != "" {
				reg, err := invariants.LoadRegistry(fl.registry)
				if err != nil {
					return err
				}
				opts.Registry = reg
			}
			code := 0
			if fl.format == "junit" {
				fmt.Fprintln(stdout, `<?xml version="1.0" encoding="UTF-8"?>`)
				fmt.Fprintln(stdout, "<testsuites>")
			}
			for _, name := range args {
				rep, err := checkOne(name, stdin, fl.entry, opts)
				if rep == nil {
					fmt.Fprintln(stderr, "framescope:", decode.SanitizeMultiline(err.Error()))
					code = 2
					continue
				}
				if err != nil {
					fmt.Fprintf(stderr, "framescope: %s: read error: %s\n", decode.Sanitize(name), decode.Sanitize(err.Error()))
				}
				switch fl.format {
				case "json":
					err = rep.WriteJSON(stdout)
				case "junit":
					err = rep.WriteJUnit(stdout, failOn)
				default:
					err = rep.WriteText(stdout)
				}
				if err != nil {
					return err
				}
				if rep.Counts.Reaches(failOn) && code == 0 {
					code = 1
				}
			}
			if fl.format == "junit" {
				fmt.Fprintln(stdout, "</testsuites>")
			}
			if code != 0 {
				return exitError{code}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&fl.format, "format", "text", "output format: text, json or junit")
	f.StringVar(&fl.registry, "registry", "", "status-event registry `DIR` (platform/ and verticals/*/status_events.yaml)")
	f.StringVar(&fl.failOn, "fail-on", "error", "lowest severity that makes the exit status 1: error, warn or info")
	f.DurationVar(&fl.idle, "idle", invariants.DefaultIdle, "idle-gap window")
	f.DurationVar(&fl.ttfe, "ttfe", invariants.DefaultTTFE, "time-to-first-event bound")
	f.IntVar(&fl.entry, "entry", -1, "HAR: which SSE entry to check (0-based; default the first)")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"text", "json", "junit"}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("fail-on", cobra.FixedCompletions([]string{"error", "warn", "info"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func checkOne(name string, stdin io.Reader, entry int, opts invariants.Options) (*sessions.Report, error) {
	c, err := sessions.Open(name, sessions.OpenOptions{Entry: entry, Stdin: stdin})
	if err != nil {
		return nil, err
	}
	defer c.Close()
	return sessions.Check(c, opts)
}

func newDumpCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	var format string
	var entry int
	cmd := &cobra.Command{
		Use:   "dump FILE",
		Short: "Print the decoded frames of a capture, one per line",
		Long: `Print every frame of a capture, one per line: index, arrival, SSE event, id and
data. The text format also shows comments (keepalives), data-less blocks and a
truncated tail; the ndjson format is read back by check and open.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "text" && format != "ndjson" {
				return fmt.Errorf("--format %q: want ndjson or text", format)
			}
			c, err := sessions.Open(args[0], sessions.OpenOptions{Entry: entry, Stdin: stdin})
			if err != nil {
				return err
			}
			defer c.Close()
			if _, err := sessions.Dump(c, stdout, format == "ndjson"); err != nil {
				fmt.Fprintf(stderr, "framescope: %s: read error: %s\n", decode.Sanitize(args[0]), decode.Sanitize(err.Error()))
				return exitError{2}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or ndjson")
	cmd.Flags().IntVar(&entry, "entry", -1, "HAR: which SSE entry to dump (0-based)")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"text", "ndjson"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func newRulesCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "rules",
		Short: "List the rule catalog: name, severity, clause, when it fires",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			for _, r := range invariants.Catalog {
				fmt.Fprintf(stdout, "%-22s %-5s %-14s %s\n", r.Name, r.Severity, r.Clause, r.Summary)
			}
			return nil
		},
	}
}
