// Command framescope inspects agent chat streams on the PC3 SSE wire.
//
// main.go only parses the command line and wires the packages together.
package main

import (
	"cmp"
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"framescope/invariants/dialects/pc3"

	"github.com/spf13/cobra"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects"
	"framescope/sessions"
	"framescope/sessions/capture"
	"framescope/sessions/library"
	"framescope/sessions/live"
	"framescope/sessions/pipeline"
	"framescope/sessions/reference"
	"framescope/sessions/replay"
	"framescope/sessions/report"
	"framescope/ui"
)

// exitError carries an exit status out of a command.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRoot(stdin, stdout, stderr)
	root.SetArgs(shorthandArgs(root, args))
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
		Example: `  framescope                                   # on a terminal: pick a recent session, a scenario, a URL or a file
  framescope capture.jsonl                     # = framescope open capture.jsonl
  framescope http://127.0.0.1:8080/api/chat    # = framescope connect URL`,
		Version:       sessions.Version,
		SilenceUsage:  true,
		SilenceErrors: true,
		// framescope FILE | - | @ID | URL are shorthands for open / connect.
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				if !ui.IsTerminal(stdout) {
					return cmd.Help()
				}
				return runPicker(stdin, stderr)
			}
			arg := args[0]
			isURL := isURLArg(arg)
			isCapture := arg == "-" || strings.HasPrefix(arg, "@")
			if !isURL && !isCapture {
				if _, err := os.Stat(arg); err == nil {
					isCapture = true
				}
			}
			switch {
			case len(args) > 1 && (isURL || isCapture):
				return fmt.Errorf("one FILE or URL at a time (got %d arguments)", len(args))
			case isURL:
				arg = normalizeURL(arg)
				var fl liveFlags
				opts, err := fl.options(arg, stdin)
				if err != nil {
					return err
				}
				opts.Source = "connect"
				if !ui.IsTerminal(stdout) {
					ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
					defer stop()
					return runLive(ctx, opts, stdout, stderr, false)
				}
				return runLiveTUI(arg, opts, 0, stderr)
			case isCapture:
				return openOrDump(arg, stdin, stdout, stderr, -1, invariants.Options{})
			}
			return unknownArg(cmd, arg)
		},
	}
	root.SetVersionTemplate("framescope version {{.Version}}\n")
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(plainFlagError)
	root.AddCommand(newOpenCmd(stdin), newCheckCmd(stdin, stdout, stderr), newDumpCmd(stdin, stdout, stderr), newRulesCmd(stdout),
		newConnectCmd("connect", stdin, stdout, stderr), newConnectCmd("record", stdin, stdout, stderr), newCurlCmd(stdin, stdout, stderr),
		newSessionsCmd(stdout), newServeCmd(stdout, stderr), newDemoCmd(stdout, stderr))
	root.AddCommand(newReferenceCmd(stdin, stdout, stderr))
	root.AddCommand(newVersionCmd(stdout))
	return root
}

type checkFlags struct {
	format   string
	registry string
	failOn   string
	idle     time.Duration
	ttfe     time.Duration
	entry    int
	dialect  string
	minSev   string
	quiet    bool
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
		Example: `  framescope check capture.sse                          # text report; exit 0 clean, 1 alarms, 2 unreadable
  framescope check captures/*.sse --format junit > framescope.xml   # CI: one testsuite per input
  framescope check bug-123.har                          # every SSE entry of the HAR (bug-123.har#0, #1, …)
  framescope check bug-123.har --entry 1                # only its SSE entry 1
  framescope check turn.jsonl --format json --fail-on warn   # NDJSON report; warnings fail too
  curl -sN localhost:8080/api/chat | framescope check -`,
		Args: func(cmd *cobra.Command, args []string) error {
			if fl.dialect == "list" {
				return nil
			}
			return cobra.MinimumNArgs(1)(cmd, args)
		},
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
			if fl.dialect == "list" {
				return listDialects(stdout)
			}
			if _, err := pipeline.ResolveDialect(fl.dialect); err != nil {
				return err
			}
			opts := invariants.Options{Idle: fl.idle, TTFE: fl.ttfe, Dialect: fl.dialect}
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
			textOpts, err := checkTextOptions(fl, stdout)
			if err != nil {
				return err
			}
			inputs := checkInputs(args, stdin, fl.entry)
			for i, res := range checkAll(inputs, stdin, opts) {
				name := inputs[i].name
				r := <-res
				rep, err := r.rep, r.err
				if rep == nil {
					fmt.Fprintln(stderr, "framescope:", decode.SanitizeMultiline(err.Error()))
					if fl.format == "junit" {
						if werr := report.WriteJUnitError(stdout, name, err); werr != nil {
							return werr
						}
					}
					code = 2
					continue
				}
				if name != inputs[i].path {
					rep.Source = name // FILE#N: one SSE entry of a HAR
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
					err = rep.WriteTextWith(stdout, textOpts)
				}
				_ = rep.Close() // its turns kept out of the heap (CheckToWrite)
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
	f.StringVar(&fl.minSev, "min-severity", "info", "text format: list alarms of this severity and up (error, warn or info; counts still count all)")
	f.BoolVarP(&fl.quiet, "quiet", "q", false, "text format: hide info alarms (= --min-severity warn)")
	nonNegativeDuration(f, &fl.idle, "idle", 0, idleZero, idleHelp)
	ttfeDuration(f, &fl.ttfe, invariants.DefaultTTFE, ttfeHelp)
	entryVar(f, &fl.entry, "HAR: check only this SSE entry (0-based; default every SSE entry, each reported as FILE#N)")
	addDialectFlag(cmd, &fl.dialect)
	cmd.ValidArgsFunction = completeSessionIDs(true) // FILE or @ID
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"text", "json", "junit"}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("fail-on", cobra.FixedCompletions([]string{"error", "warn", "info"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// checked is one input's report, or why it could not be read.
type checked struct {
	rep *report.Report
	err error
}

// checkAll checks the inputs on a pool of GOMAXPROCS workers and returns
// one channel per input, in argument order: the caller prints each report
// as its turn comes, so the output is byte for byte what checking them
// one after another gives.
func checkAll(names []checkInput, stdin io.Reader, opts invariants.Options) []chan checked {
	// check's live heap is small and bounded (the open turn, the batches
	// in flight): at Go's default the collector runs every few MB, with
	// its write barriers on for a tenth of the run. Collecting at three
	// times the live heap (GOGC=200) is 3–6% faster on the benchmark
	// captures and keeps peak RSS near 30 MB (docs/performance.md). A
	// GOGC the user set wins.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
	}
	out := make([]chan checked, len(names))
	for i := range out {
		out[i] = make(chan checked, 1)
	}
	workers := min(runtime.GOMAXPROCS(0), len(names))
	next := make(chan int)
	go func() {
		for i := range names {
			next <- i
		}
		close(next)
	}()
	for w := 0; w < workers; w++ {
		go func() {
			for i := range next {
				rep, err := checkOne(names[i].path, stdin, names[i].entry, opts, len(names) > 1)
				out[i] <- checked{rep, err}
			}
		}()
	}
	return out
}

// checkOne checks one input; oneStage keeps its pipeline on one goroutine
// (checkAll's workers already keep the cores busy).
func checkOne(name string, stdin io.Reader, entry int, opts invariants.Options, oneStage bool) (*report.Report, error) {
	c, err := capture.Open(name, capture.OpenOptions{Entry: entry, EntryGiven: entry != -1, Stdin: stdin})
	if err != nil {
		return nil, err
	}
	defer c.Close()
	// Written, never read: turns are kept out of the heap (memory flat in
	// the number of turns).
	return report.CheckToWrite(c, opts, oneStage)
}

func newOpenCmd(stdin io.Reader) *cobra.Command {
	var (
		entry       int
		registry    string
		idle, ttfe  time.Duration
		dialectName string
	)
	cmd := &cobra.Command{
		Use:   "open FILE|-|@ID",
		Short: "Inspect a capture in the terminal UI (raw SSE, framescope JSONL, HAR, NDJSON)",
		Long: `Open a capture in the inspector: the timeline of every frame, the selected frame's
JSON, raw bytes and alarms, and the turn's tools, status and components as of the
selected frame. - reads stdin; @ID (or @last) opens a saved session.

Exit status, as for connect and demo: 0 when you quit and no frame read had an
error alarm, 1 when one had, 2 when the capture cannot be opened.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if dialectName == "list" {
				return listDialects(cmd.OutOrStdout())
			}
			if _, err := pipeline.ResolveDialect(dialectName); err != nil {
				return err
			}
			opts := invariants.Options{Idle: idle, TTFE: ttfe, Dialect: dialectName}
			if registry != "" {
				reg, err := invariants.LoadRegistry(registry)
				if err != nil {
					return err
				}
				opts.Registry = reg
			}
			return openOrDump(args[0], stdin, cmd.OutOrStdout(), cmd.ErrOrStderr(), entry, opts)
		},
	}
	f := cmd.Flags()
	entryVar(f, &entry, "HAR: which SSE entry to open (0-based; default the first)")
	f.StringVar(&registry, "registry", "", "status-event registry `DIR`")
	nonNegativeDuration(f, &idle, "idle", 0, idleZero, idleHelp)
	ttfeDuration(f, &ttfe, invariants.DefaultTTFE, ttfeHelp)
	addDialectFlag(cmd, &dialectName)
	return cmd
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

const idleHelp = "idle-gap window (default: the dialect's own, 30s for pc3)"

// idleZero and ttfeHelp explain the timing flags' least values.
const (
	idleZero = "0 = the dialect's own window"
	ttfeHelp = "time-to-first-event bound (0 = off)"
)

// addDialectFlag adds --dialect: force a dialect instead of detecting it.
func addDialectFlag(cmd *cobra.Command, v *string) {
	cmd.Flags().StringVar(v, "dialect", "", "force the stream's `NAME`d dialect instead of detecting it (list: show them)")
	cmd.ValidArgsFunction = completeSessionIDs(true) // FILE or @ID
	_ = cmd.RegisterFlagCompletionFunc("dialect", cobra.FixedCompletions(append(dialects.Names(), "list"), cobra.ShellCompDirectiveNoFileComp))
}

// listDialects prints every dialect with its one-line description.
func listDialects(w io.Writer) error {
	for _, d := range dialects.All {
		fmt.Fprintf(w, "%-20s %s\n", d.Name(), d.Description())
	}
	return nil
}

// runLiveTUI runs a live session in the inspector (the reconnect key
// starts more), then reports them. maxTime (--max-time, 0: none) cancels
// each session after that long.
func runLiveTUI(title string, opts live.LiveOptions, maxTime time.Duration, stderr io.Writer) error {
	outs, err := ui.ConnectLive(title, opts, ui.RunOptions{Config: ui.Config{MaxTime: maxTime}})
	if err != nil {
		return err
	}
	return reportLiveTUI(outs, stderr)
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

// reportLiveTUI reports, for each session of a TUI run in order, what
// headless runs report: the recording, the saved session. The exit status
// is 1 when any session had an error alarm; a last session that could not
// run at all is the command's error.
func reportLiveTUI(outs []*ui.LiveOutcome, stderr io.Writer) error {
	code := 0
	for i, out := range outs {
		res := out.Result
		if res == nil {
			if out.Err != nil {
				if i == len(outs)-1 && code == 0 {
					return out.Err
				}
				fmt.Fprintln(stderr, "framescope:", decode.Sanitize(out.Err.Error()))
			}
			continue
		}
		if out.Err != nil {
			fmt.Fprintln(stderr, "framescope:", decode.Sanitize(out.Err.Error()))
		}
		if res.RecordPath != "" {
			fmt.Fprintf(stderr, "recorded to %s\n", decode.Sanitize(res.RecordPath))
		}
		if res.SessionID != "" {
			fmt.Fprintf(stderr, "saved as session %s (framescope check @%s)\n", res.SessionID, res.SessionID)
		}
		printPruneNote(stderr, res)
		if res.Report != nil && res.Report.Counts.Reaches(invariants.SevError) {
			code = max(code, 1)
		}
		var lost *live.RecordError
		if errors.As(out.Err, &lost) {
			code = 2 // a recording lost data
		}
	}
	if code != 0 {
		return exitError{code}
	}
	return nil
}

// runPicker lets the user choose a session, a scenario, a URL or a
// capture, then runs it as its own command would.
func runPicker(stdin io.Reader, stderr io.Writer) error {
	lib, _ := library.DefaultLibrary() // none: the picker lists no sessions
	choice, err := ui.Pick(lib, ui.RunOptions{})
	if err != nil {
		return err
	}
	switch choice.Kind {
	case ui.PickSession:
		return openTUI("@"+choice.Value, stdin, -1, invariants.Options{})
	case ui.PickPath:
		return openTUI(choice.Value, stdin, -1, invariants.Options{})
	case ui.PickScenario:
		return runDemoTUI(choice.Value, 1, false, stderr)
	case ui.PickURL:
		var fl liveFlags
		opts, err := fl.options(choice.Value, stdin)
		if err != nil {
			return err
		}
		opts.Source = "connect"
		return runLiveTUI(choice.Value, opts, 0, stderr)
	}
	return nil
}

func newDumpCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	var format, dialectName string
	var entry int
	cmd := &cobra.Command{
		Use:   "dump FILE",
		Short: "Print the decoded frames of a capture, one per line",
		Long: `Print every frame of a capture, one per line: index, arrival, SSE event, id and
data. The text format also shows comments (keepalives), data-less blocks and a
truncated tail; the ndjson format is read back by check and open.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format == "json" {
				format = "ndjson" // one JSON record per line
			}
			if format != "text" && format != "ndjson" {
				return fmt.Errorf("--format %q: want ndjson or text", format)
			}
			if dialectName == "list" {
				return listDialects(stdout)
			}
			if _, err := pipeline.ResolveDialect(dialectName); err != nil {
				return err
			}
			c, err := capture.Open(args[0], capture.OpenOptions{Entry: entry, EntryGiven: entry != -1, Stdin: stdin})
			if err != nil {
				return err
			}
			defer c.Close()
			if _, err := pipeline.Dump(c, stdout, format == "ndjson", dialectName); err != nil {
				fmt.Fprintf(stderr, "framescope: %s: read error: %s\n", decode.Sanitize(args[0]), decode.Sanitize(err.Error()))
				return exitError{2}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or ndjson")
	entryVar(cmd.Flags(), &entry, "HAR: which SSE entry to dump (0-based; default the first)")
	addDialectFlag(cmd, &dialectName)
	cmd.ValidArgsFunction = completeSessionIDs(true) // FILE or @ID
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"text", "ndjson"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// liveFlags are the flags of the commands that open a live connection.
type liveFlags struct {
	method, data, record  string
	headers, redact       []string
	insecure, keepSecrets bool
	noBody                bool // --no-body: the request body is not recorded
	noSave                bool
	connectTimeout        time.Duration
	registry              string
	idle, ttfe            time.Duration
	frames                bool
	headless              bool
	dialect               string
	location              bool // -L: follow redirects
	curlish                    // the rest of what "Copy as cURL" emits
	// A compressed body's bounds ("" when the flags are not registered:
	// the shorthand and the picker take the defaults).
	maxDecoded, maxRatio string
	// Deliberate stops (--max-bytes, --max-frames; "" and 0: none).
	maxBytes  string
	maxFrames int
}

func (fl *liveFlags) register(cmd *cobra.Command, record bool) {
	f := cmd.Flags()
	f.StringVarP(&fl.method, "request", "X", "", "HTTP method (default GET, or POST with -d)")
	f.StringArrayVarP(&fl.headers, "header", "H", nil, "request header 'Name: value' (repeatable)")
	f.StringVarP(&fl.data, "data", "d", "", "request body: DATA, @FILE or @- for stdin (Content-Type: application/json when it starts with { or [, else none unless -H gives one)")
	f.BoolVarP(&fl.insecure, "insecure", "k", false, "skip TLS certificate verification")
	positiveDuration(f, &fl.connectTimeout, "connect-timeout", 30*time.Second, "the time allowed to connect and receive the response headers",
		"limit for connecting and receiving the response headers")
	f.StringArrayVar(&fl.redact, "redact", nil, "also redact this header `NAME` in recordings (repeatable)")
	f.BoolVar(&fl.keepSecrets, "keep-secrets", false, "record Authorization, Cookie and other credentials as they are")
	f.BoolVar(&fl.noBody, "no-body", false, "leave the request body out of recordings and the session library (by default it is kept, secrets such as password or api_key redacted)")
	f.BoolVarP(&fl.location, "location", "L", false, "follow redirects (at most 10; never https to http; -H headers are not sent to another origin)")
	fl.curlish.register(f)
	f.StringVar(&fl.maxDecoded, "max-decoded", "1GiB", "stop a compressed body once it decodes to more than `SIZE` (0 = no limit)")
	f.StringVar(&fl.maxRatio, "max-ratio", "100", "stop a compressed body decoding past `N` times its compressed size (0 = no limit)")
	registerStopLimits(f, &fl.maxBytes, &fl.maxFrames)
	f.BoolVar(&fl.noSave, "no-save", false, "do not save the session in the session library")
	f.StringVar(&fl.registry, "registry", "", "status-event registry `DIR`")
	nonNegativeDuration(f, &fl.idle, "idle", 0, idleZero, idleHelp)
	ttfeDuration(f, &fl.ttfe, invariants.DefaultTTFE, ttfeHelp)
	addDialectFlag(cmd, &fl.dialect)
	if record {
		f.StringVarP(&fl.record, "output", "o", "", "capture `FILE` to write (framescope JSONL)")
		_ = cmd.MarkFlagRequired("output")
		f.BoolVar(&fl.frames, "frames", false, "also print every frame as it arrives (default: only the check summary)")
	} else {
		f.StringVar(&fl.record, "record", "", "also write the capture to `FILE` (framescope JSONL)")
		f.BoolVar(&fl.headless, "headless", false, "print frames and the report instead of opening the terminal UI (the default when stdout is not a terminal)")
	}
}

func (fl *liveFlags) options(url string, stdin io.Reader) (live.LiveOptions, error) {
	url = normalizeURL(url)
	opts := live.LiveOptions{
		Connect: live.ConnectOptions{
			URL: url, Method: fl.method, Headers: fl.headers, Insecure: fl.insecure,
			ConnectTimeout: fl.connectTimeout, Redact: fl.redact, KeepSecrets: fl.keepSecrets, NoBody: fl.noBody,
			FollowRedirects: fl.location,
		},
		RecordPath: fl.record,
		Check:      invariants.Options{Idle: fl.idle, TTFE: fl.ttfe, Dialect: fl.dialect},
	}
	if err := fl.inflateBounds(&opts.Connect); err != nil {
		return opts, err
	}
	stop, err := stopLimits(fl.maxBytes, fl.maxFrames)
	if err != nil {
		return opts, err
	}
	opts.Stop = stop
	if err := fl.curlish.apply(&opts.Connect, fl.data, stdin); err != nil {
		return opts, err
	}
	if fl.data != "" {
		body, err := readData(fl.data, stdin)
		if err != nil {
			return opts, err
		}
		opts.Connect.Body = body
	}
	if fl.registry != "" {
		reg, err := invariants.LoadRegistry(fl.registry)
		if err != nil {
			return opts, err
		}
		opts.Check.Registry = reg
	}
	if !fl.noSave {
		lib, err := library.DefaultLibrary()
		if err != nil {
			return opts, fmt.Errorf("session library: %w (use --no-save)", err)
		}
		opts.Library = lib
	}
	return opts, nil
}

// inflateBounds reads --max-decoded and --max-ratio (0 on the command
// line = no limit; ConnectOptions says that with -1).
func (fl *liveFlags) inflateBounds(c *live.ConnectOptions) error {
	if fl.maxDecoded != "" {
		n, err := sessions.ParseSize(fl.maxDecoded)
		if err != nil {
			return fmt.Errorf("--max-decoded: %w", err)
		}
		c.MaxDecoded = cmp.Or(n, -1)
	}
	if fl.maxRatio != "" {
		r, err := strconv.ParseFloat(fl.maxRatio, 64)
		if err != nil || r < 0 || (r > 0 && r < 1) || math.IsNaN(r) || math.IsInf(r, 0) {
			return fmt.Errorf("--max-ratio %q: want a ratio of at least 1, or 0 for no limit", decode.Sanitize(fl.maxRatio))
		}
		c.MaxRatio = cmp.Or(r, -1)
	}
	return nil
}

// readData resolves curl's -d forms: DATA, @FILE, @- (stdin).
func readData(arg string, stdin io.Reader) ([]byte, error) {
	switch {
	case arg == "@-":
		return io.ReadAll(stdin)
	case strings.HasPrefix(arg, "@"):
		b, err := os.ReadFile(arg[1:])
		if err != nil {
			return nil, fmt.Errorf("-d %s: %w", arg, err)
		}
		return b, nil
	}
	return []byte(arg), nil
}

func newConnectCmd(name string, stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	var fl liveFlags
	cmd := &cobra.Command{
		Use:   name + " URL",
		Short: "Connect to a live SSE endpoint and inspect the stream as it arrives; save the session",
		Long: `Send one request (never retried: a turn stream is one-shot) and inspect the stream
in the terminal UI as it arrives (x cancels the stream, q quits). With --headless,
or when stdout is not a terminal, print every frame and alarm as it arrives and end
with the check report; Ctrl-C cancels the stream (the client-disconnect path,
recorded as "cancelled"), and so do --max-bytes and --max-frames once reached
("cancelled: stopped: --max-frames N reached"). The session is saved in the session library (see:
framescope sessions) unless --no-save.`,
		Example: `  framescope connect http://127.0.0.1:8080/api/chat -d @req.json -H "Authorization: Bearer $TOKEN"
  framescope record http://127.0.0.1:8080/api/chat -d '{"message":"hi"}' -o turn.jsonl`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts, err := fl.options(args[0], stdin)
			if err != nil {
				return err
			}
			opts.Source = name
			if name == "connect" && !fl.headless && ui.IsTerminal(stdout) {
				return runLiveTUI(args[0], opts, fl.curlish.maxTime, stderr)
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			ctx, cancel := fl.curlish.deadline(ctx, stderr)
			defer cancel()
			return runLive(ctx, opts, stdout, stderr, name == "record" && !fl.frames)
		},
	}
	if name == "record" {
		cmd.Short = "Record a live SSE stream to a capture file (headless) and print the check summary"
		cmd.Long = `Send one request (never retried: a turn stream is one-shot) and write the stream
to a framescope JSONL capture (-o FILE) as it arrives, without the terminal UI; then
print the check report (--frames also prints every frame as it arrives). Ctrl-C
cancels the stream (recorded as "cancelled"); --max-bytes and --max-frames stop it
the same way once reached (recorded as "cancelled: stopped: --max-frames N reached",
exit status as for Ctrl-C), so a flooding server cannot fill the disk. The session is also saved in the
session library (see: framescope sessions) unless --no-save. Exit status: 0 clean,
1 an error alarm, 2 the request failed or the recording lost data.`
		cmd.Example = `  framescope record http://127.0.0.1:8080/api/chat -d '{"message":"hi"}' -o turn.jsonl
  framescope record localhost:8080/api/chat -d @req.json -H "Authorization: Bearer $TOKEN" -o turn.jsonl --frames`
	}
	fl.register(cmd, name == "record")
	return cmd
}

// runLive runs a live session and prints it: the response line, every frame
// with its alarms as they arrive (unless quiet), then the report.
func runLive(ctx context.Context, opts live.LiveOptions, stdout, stderr io.Writer, quiet bool) error {
	var line []byte
	printAlarms := func(as []invariants.Alarm) {
		for _, a := range as {
			fmt.Fprintf(stdout, "%6s   ! %-5s %s: %s\n", "", a.Severity, a.Rule, decode.Sanitize(a.Message))
		}
	}
	h := pipeline.Handler{OnAlarms: printAlarms}
	if !quiet {
		h.OnItem = func(it *pipeline.Item) {
			line = pipeline.AppendItemText(line[:0], it)
			stdout.Write(line)
			printAlarms(it.Alarms)
		}
	}
	opts.OnResponse = func(r live.ResponseInfo) {
		method := cmp.Or(r.Method, opts.Connect.Method)
		if method == "" {
			method = "GET"
			if opts.Connect.Body != nil {
				method = "POST"
			}
		}
		fmt.Fprintf(stderr, "%s %s → %s %s %s\n", method, decode.Sanitize(r.URL), decode.Sanitize(r.Proto),
			decode.Sanitize(r.StatusText), decode.Sanitize(r.ContentType))
		if r.RequestedURL != "" {
			fmt.Fprintf(stderr, "  (redirected from %s)\n", decode.Sanitize(r.RequestedURL))
		}
		if loc := r.Headers.Get("Location"); loc != "" && r.Status/100 == 3 {
			fmt.Fprintf(stderr, "Location: %s\n", decode.Sanitize(loc))
		}
		if len(r.ErrorBody) > 0 {
			fmt.Fprintf(stderr, "response body (first %d bytes):\n%s\n", len(r.ErrorBody), decode.SanitizeMultiline(string(r.ErrorBody)))
		}
	}
	res, err := live.RunLive(ctx, opts, h)
	if res == nil {
		return err
	}
	if err != nil {
		fmt.Fprintln(stderr, "framescope:", decode.SanitizeMultiline(err.Error()))
	}
	if res.Report != nil {
		if werr := res.Report.WriteText(stdout); werr != nil {
			return werr
		}
	}
	if res.RecordPath != "" {
		fmt.Fprintf(stderr, "recorded to %s\n", decode.Sanitize(res.RecordPath))
	}
	if res.SessionID != "" {
		fmt.Fprintf(stderr, "saved as session %s (framescope check @%s)\n", res.SessionID, res.SessionID)
	}
	printPruneNote(stderr, res)
	if lost := (*live.RecordError)(nil); errors.As(err, &lost) {
		return exitError{2} // a recording lost data: the message is above
	}
	if res.Report != nil && res.Report.Counts.Reaches(invariants.SevError) {
		return exitError{1}
	}
	return nil
}

func newDemoCmd(stdout, stderr io.Writer) *cobra.Command {
	var speed float64
	var noSave, quiet, headless bool
	cmd := &cobra.Command{
		Use:   "demo [SCENARIO]",
		Short: "Run a built-in scenario through the reference relay and the live path",
		Long: "Start the reference relay in-process on a loopback port, connect to it through the\n" +
			"live path and inspect the turn in the terminal UI (headless — frames and the check\n" +
			"report on stdout — with --headless or when stdout is not a terminal).\n" +
			"Scenarios: " + strings.Join(replay.ScenarioNames(), ", ") + ".",
		Args:      cobra.MaximumNArgs(1),
		ValidArgs: replay.ScenarioNames(),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := "happy"
			if len(args) == 1 {
				name = args[0]
			}
			if !headless && !quiet && ui.IsTerminal(stdout) {
				return runDemoTUI(name, speed, noSave, stderr)
			}
			relay, err := replay.NewRelay(replay.RelayOptions{Scenario: name, Speed: speed})
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
			if !noSave {
				if lib, err := library.DefaultLibrary(); err == nil {
					opts.Library = lib
				}
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			return runLive(ctx, opts, stdout, stderr, quiet)
		},
	}
	cmd.Flags().BoolVar(&headless, "headless", false, "print frames and the report instead of opening the terminal UI")
	relaySpeedVar(cmd.Flags(), &speed, "speed", 1, "scenario timing scale (2 = twice as fast, 0 = no pauses)")
	cmd.Flags().BoolVar(&noSave, "no-save", false, "do not save the session in the session library")
	cmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "print only the check report")
	return cmd
}

func newServeCmd(stdout, stderr io.Writer) *cobra.Command {
	var (
		addr, path, speedText, scenario, contentType string
		loop, cors, lan, listScenarios               bool
		allowOrigins                                 []string
		drop, dup, garble                            []int
		stalls                                       []string
		cutAfter, floodFrames                        int
		idle, bodyTimeout                            time.Duration
	)
	cmd := &cobra.Command{
		Use:   "serve CAPTURE | --scenario NAME",
		Short: "Replay a capture byte-exact (with faults), or run a built-in scenario, as an SSE server",
		Long: `Serve a capture to any SSE client (a mobile app, a browser, curl): every request
(GET or POST) gets a fresh byte-exact replay with the original timing scaled by
--speed, as text/event-stream (--content-type keep sends the captured type). Fault
flags drop, duplicate, cut, stall or garble frames (0-based frame indexes).
--scenario runs the reference v0.5 relay instead. Listens on loopback only unless
--lan, and refuses Host and Origin headers other than loopback ones and those named
by --allow-origin (a defence against DNS rebinding).`,
		Example: `  framescope serve bug-123.jsonl --speed max
  framescope serve turn.sse --cut-after 5 --stall 3s@2
  framescope serve turn.jsonl --lan                                  # a phone on the LAN: prints the URL to use
  framescope serve turn.jsonl --lan --allow-origin mybox.local       # ... that reaches this machine by name
  framescope serve turn.jsonl --cors --allow-origin http://dev.test:5173   # a web app served from another origin
  framescope serve --scenario axis2`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if listScenarios {
				for _, sc := range replay.Scenarios() {
					fmt.Fprintf(stdout, "%-8s %s\n", sc.Name, sc.Summary)
				}
				return nil
			}
			speed, err := replay.ParseSpeed(speedText)
			if err != nil {
				return err
			}
			allow, err := replay.ParseAllowList(allowOrigins)
			if err != nil {
				return err
			}
			ctype, err := replay.ParseContentType(contentType)
			if err != nil {
				return err
			}
			if lan && !cmd.Flags().Changed("addr") {
				addr = "0.0.0.0:7070"
			}
			if err := replay.CheckBind(addr, lan); err != nil {
				return err
			}
			if err := serveFlagsApply(cmd, scenario != ""); err != nil {
				return err
			}
			var handler http.Handler
			what := ""
			switch {
			case scenario != "" && len(args) == 1:
				return errors.New("give a CAPTURE or --scenario, not both")
			case scenario != "":
				relaySpeed := speed
				if relaySpeed > 1e9 {
					relaySpeed = 0
				}
				relay, err := replay.NewRelay(replay.RelayOptions{Scenario: scenario, Path: path, Speed: relaySpeed,
					Idle: idle, FloodFrames: floodFrames, Log: stderr})
				if err != nil {
					return err
				}
				handler = replay.Guard(relay, replay.GuardOptions{Allow: allow, CORS: cors, BodyTimeout: bodyTimeout})
				what = "scenario " + scenario
			case len(args) == 1:
				rep, err := replay.LoadReplay(args[0])
				if err != nil {
					return err
				}
				for _, p := range rep.Problems {
					fmt.Fprintf(stderr, "framescope: warning: %s\n", decode.Sanitize(p.Message))
				}
				faults := replay.NoFaults()
				faults.Drop, faults.Dup, faults.Garble, faults.CutAfter = drop, dup, garble, cutAfter
				for _, s := range stalls {
					st, err := replay.ParseStall(s)
					if err != nil {
						return fmt.Errorf("--stall %s: %w", s, err)
					}
					faults.Stalls = append(faults.Stalls, st)
				}
				if err := rep.CheckFaults(faults); err != nil {
					return err
				}
				if sent := replay.ReplayContentType(rep.Meta, ctype); rep.Meta.HTTP && rep.Meta.ContentType != "" && sent != rep.Meta.ContentType {
					fmt.Fprintf(stderr, "framescope: note: the capture's Content-Type %s is served as %s (--content-type keep sends it as captured)\n",
						decode.Sanitize(rep.Meta.ContentType), decode.Sanitize(sent))
				}
				handler = rep.Handler(replay.ReplayOptions{Path: path, Speed: speed, Loop: loop, Allow: allow, CORS: cors,
					ContentType: ctype, BodyTimeout: bodyTimeout, Faults: faults, Log: stderr})
				what = fmt.Sprintf("%s (%d frames)", decode.Sanitize(args[0]), rep.Frames)
				// Loading and planning a big capture leaves garbage as big
				// as the plan: give it back before serving for hours.
				debug.FreeOSMemory()
			default:
				return errors.New("give a CAPTURE to replay or --scenario NAME (see --scenarios)")
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return err
			}
			if err := replay.CheckListener(ln.Addr(), lan); err != nil {
				ln.Close()
				return err
			}
			var lanURLs []string
			if lan {
				local := replay.LocalAddrs()
				allow.AddAddrs(local...) // what a phone types is this machine's address
				lanURLs = replay.LANURLs(ln.Addr(), path, local)
			}
			// Timeouts for every stage a client controls: the headers, the
			// body (BodyTimeout, in the handler) and an idle keep-alive
			// connection. No write timeout: a replay may last for hours.
			srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: time.Minute}
			fmt.Fprintf(stderr, "serving %s at http://%s%s (Ctrl-C to stop)\n", what, ln.Addr(), path)
			switch {
			case !lan:
			case len(lanURLs) > 0:
				for _, u := range lanURLs {
					fmt.Fprintf(stderr, "  from another device: %s\n", u)
				}
			case replay.CheckListener(ln.Addr(), false) == nil:
				fmt.Fprintf(stderr, "  --lan, but --addr %s is loopback: only this machine can connect (--addr 0.0.0.0:PORT listens on the network)\n", ln.Addr())
			default:
				fmt.Fprintf(stderr, "  --lan: no network address of this machine found to reach %s from another device\n", ln.Addr())
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			go func() {
				<-ctx.Done()
				shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
				defer cancel()
				srv.Shutdown(shut)
				srv.Close()
			}()
			if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				return err
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&addr, "addr", "127.0.0.1:7070", "listen address (a non-loopback one needs --lan)")
	f.StringVar(&path, "path", replay.DefaultReplayPath, "URL path to serve")
	f.StringVar(&speedText, "speed", "1", "timing scale: 1 = as recorded, 2 = twice as fast, max = no pauses (the least: 0.001)")
	f.BoolVar(&loop, "loop", false, "replay again and again on the same response")
	f.IntSliceVar(&drop, "drop", nil, "do not send frame `N` (repeatable)")
	f.IntSliceVar(&dup, "dup", nil, "send frame `N` twice (repeatable)")
	frameIndexVar(f, &cutAfter, "cut-after", "close the connection abruptly right after frame `N`")
	f.StringArrayVar(&stalls, "stall", nil, "pause `D@N`: D before frame N (e.g. 5s@3; repeatable)")
	f.IntSliceVar(&garble, "garble", nil, "corrupt frame `N`'s data (repeatable)")
	f.BoolVar(&lan, "lan", false, "listen on the network (default address 0.0.0.0:7070) and serve this machine's addresses: devices on the LAN can fetch the replay")
	f.StringArrayVar(&allowOrigins, "allow-origin", nil, "also serve this `HOST` in Host and Origin headers (HOST, HOST:PORT or an origin http://HOST:PORT; repeatable)")
	f.BoolVar(&cors, "cors", false, "send CORS headers for browser clients (loopback and --allow-origin origins)")
	f.StringVar(&contentType, "content-type", "sse", "response Content-Type: sse (text/event-stream), keep (the capture's own) or a media `TYPE`")
	positiveDuration(f, &bodyTimeout, "body-timeout", replay.DefaultBodyTimeout, "a client must send its request body in time", "how long a client may take to send its request body (then 408)")
	f.StringVar(&scenario, "scenario", "", "run a built-in scenario `NAME` through the reference relay")
	f.BoolVar(&listScenarios, "scenarios", false, "list the built-in scenarios")
	nonNegativeDuration(f, &idle, "idle", 3*time.Second, "0 = the relay's default, 3s", "scenario relay: idle timeout before it synthesizes cancelled IDLE_TIMEOUT")
	f.IntVar(&floodFrames, "flood-frames", 50000, "flood scenario: number of text frames")
	_ = cmd.RegisterFlagCompletionFunc("scenario", cobra.FixedCompletions(replay.ScenarioNames(), cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("content-type", cobra.FixedCompletions([]string{"sse", "keep"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// serveFlagsApply refuses flags that the chosen mode would ignore: fault
// flags shape a capture's replay, the relay flags a scenario.
func serveFlagsApply(cmd *cobra.Command, scenario bool) error {
	replayOnly := []string{"drop", "dup", "cut-after", "stall", "garble", "loop", "content-type"}
	scenarioOnly := []string{"idle", "flood-frames"}
	names, mode, other := replayOnly, "--scenario", "a CAPTURE's replay"
	if !scenario {
		names, mode, other = scenarioOnly, "a CAPTURE's replay", "--scenario"
	}
	for _, n := range names {
		if cmd.Flags().Changed(n) {
			return fmt.Errorf("--%s applies to %s, not to %s", n, other, mode)
		}
	}
	return nil
}

// referenceKit holds the captures `framescope reference --export-tests`
// ships: the reference probes, the examples and the PC3 rule captures
// (with their .want notes, which say what each one is about).
//
//go:embed testdata/reference/probes testdata/examples testdata/rules/*.sse testdata/rules/*.jsonl testdata/rules/*.want
var referenceKit embed.FS

func newReferenceCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	var format, replay, profile, exportDir, diagram string
	var entry int
	var clientIdle time.Duration
	cmd := &cobra.Command{
		Use:   "reference [--format md|mermaid|dot|json] [--diagram NAME] | --replay CAPTURE [--profile v0.5|v0.4|both] | --export-tests DIR",
		Short: "Print the reference client state machine, run it over a capture, or export its conformance kit",
		Long: `Print the state machine a correct PC3 client follows (and the v0.4 client beside
it): md is a document to implement from (docs/client-state-machine.md), mermaid a
stateDiagram-v2, dot a Graphviz graph, json the machine data. md and json carry both
profiles; mermaid and dot draw --profile (default v0.5), the whole machine or one
--diagram: core (the lifecycle at a glance) or a streaming region (tools,
components, content, progress, degraded).

With --replay, run the machine over a capture (any format): for each frame, the
transition taken (from → to, action, clause) and the client view when it changed;
where the v0.4 client diverges, both. On a timed capture (JSONL, live) the client's
idle timer fires after --client-idle without a frame (default 60s; 0 = off); raw SSE
and HAR have no arrival times, so an explicit --client-idle is refused there.

With --export-tests DIR, write the conformance kit: the probe, example and rule
captures, and after every input the client view the machine expects (JSON), for a
client team to run against its own client (format: DIR/README.md).`,
		Example: `  framescope reference --format mermaid --diagram core > core.mmd
  framescope reference --replay testdata/examples/example-axis2-recovered.sse
  framescope reference --export-tests ./client-kit --profile both`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			modes := 0
			for _, on := range []bool{replay != "", exportDir != ""} {
				if on {
					modes++
				}
			}
			if modes > 1 {
				return errors.New("--replay and --export-tests are different modes (give one)")
			}
			if exportDir != "" {
				for _, n := range []string{"format", "diagram", "entry", "client-idle"} {
					if cmd.Flags().Changed(n) {
						return fmt.Errorf("--%s does not apply to --export-tests", n)
					}
				}
				profiles := []pc3.Profile{pc3.ProfileV05}
				if profile != "" {
					var err error
					if profiles, err = reference.ParseProfiles(profile); err != nil {
						return err
					}
				}
				sources, err := reference.KitSources(referenceKit)
				if err != nil {
					return err
				}
				idx, err := reference.ExportKit(exportDir, referenceKit, sources, reference.KitOptions{
					Profiles: profiles, ClientIdle: pc3.DefaultClientIdle, Readme: pc3.KitReadme(),
				})
				if err != nil {
					fmt.Fprintf(stderr, "framescope: --export-tests: %s\n", decode.Sanitize(err.Error()))
					return exitError{2}
				}
				fmt.Fprintf(stdout, "wrote %d cases to %s (README.md says how to run them)\n", len(idx.Cases), decode.Sanitize(exportDir))
				return nil
			}
			if replay == "" {
				if cmd.Flags().Changed("client-idle") {
					return errors.New("--client-idle applies to --replay")
				}
				p := pc3.ProfileV05
				switch profile {
				case "", "both", "v0.5", "0.5":
				case "v0.4", "0.4":
					p = pc3.ProfileV04
				default:
					return fmt.Errorf("--profile %q: want v0.5, v0.4 or both", profile)
				}
				if cmd.Flags().Changed("diagram") {
					return pc3.RenderReferenceDiagram(stdout, format, p, diagram)
				}
				return pc3.RenderReference(stdout, format, p)
			}
			if cmd.Flags().Changed("format") || cmd.Flags().Changed("diagram") {
				return errors.New("--format and --diagram print the machine; --replay prints the run (give one)")
			}
			profiles, err := reference.ParseProfiles(profile)
			if err != nil {
				return err
			}
			c, err := capture.Open(replay, capture.OpenOptions{Entry: entry, EntryGiven: entry != -1, Stdin: stdin})
			if err != nil {
				return err
			}
			defer c.Close()
			if cmd.Flags().Changed("client-idle") && clientIdle > 0 && !c.Meta().Timed {
				return fmt.Errorf("--client-idle: %s has no arrival times (%s), so the client's idle timer cannot be replayed; drop the flag or replay a timed capture (JSONL)",
					decode.Sanitize(replay), c.Meta().Kind)
			}
			opts := reference.ReferenceOptions{Profiles: profiles, ClientIdle: clientIdle}
			if _, err := reference.WriteReferenceReplay(c, opts, stdout); err != nil {
				fmt.Fprintf(stderr, "framescope: %s: %s\n", decode.Sanitize(replay), decode.Sanitize(err.Error()))
				return exitError{2}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&format, "format", "md", "machine format: md, mermaid, dot or json")
	f.StringVar(&diagram, "diagram", "machine", "mermaid/dot: which diagram (machine, core, tools, components, content, progress, degraded)")
	f.StringVar(&replay, "replay", "", "run the machine over `CAPTURE` (raw SSE, JSONL, HAR, NDJSON, @session, - for stdin)")
	f.StringVar(&exportDir, "export-tests", "", "write the conformance kit (captures + expected client views) into `DIR`")
	f.StringVar(&profile, "profile", "", "client profile: v0.5, v0.4 or both (replay default both; diagrams and kit default v0.5)")
	entryVar(f, &entry, "HAR: which SSE entry to replay (0-based; default the first)")
	nonNegativeDuration(f, &clientIdle, "client-idle", pc3.DefaultClientIdle, "0 = off", "replay: the client's idle timer, fired after this long without a frame on timed captures (0 = off)")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(pc3.ReferenceFormats, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("diagram", cobra.FixedCompletions(pc3.ReferenceDiagrams(), cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("profile", cobra.FixedCompletions([]string{"v0.5", "v0.4", "both"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}
