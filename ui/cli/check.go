package cli

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"framescope/decode"
	"framescope/invariants"
	"framescope/sessions/capture"
	"framescope/sessions/report"
)

// checkOptions are check's streams, arguments and flags.
type checkOptions struct {
	ioStreams
	inputs   []string // FILE..., FOLDER, - or @ID
	format   string
	registry string
	failOn   string
	idle     time.Duration
	ttfe     time.Duration
	entry    int
	entryURL string
	dialect  string
	flavor   string
	minSev   string
	quiet    bool
	timing   timingFlags
}

// newCheckCmd declares check's flags; runF (checkRun unless a test gives
// one) does the work.
func newCheckCmd(env Env, runF func(*checkOptions) error) *cobra.Command {
	o := &checkOptions{ioStreams: env.streams()}
	if runF == nil {
		runF = checkRun
	}
	cmd := &cobra.Command{
		Use:   "check FILE...",
		Short: "Check captures against the rule catalog (exit 0 clean, 1 alarms, 2 unreadable)",
		Long: `Check one or more captures (raw SSE, framescope JSONL, HAR, NDJSON frames, JSON
values as jq prints them; - for stdin; gzip-compressed too) and report every alarm. A FOLDER is every capture below
it (.sse, .jsonl, .har, .ndjson, .jsonlines, .json, .events, and those .gz), sorted. With
--format json, one JSON object per input, one per line (an unreadable input gets
one too, with "error"). A HAR is checked entry by entry, each SSE entry reported as
FILE#N with its request (method and URL), N its place in log.entries. Exit status: 0
when no alarm reaches --fail-on, 1 when one does, 2 when an input cannot be read or the
command line is wrong.`,
		Example: `  framescope check capture.sse                          # text report; exit 0 clean, 1 alarms, 2 unreadable
  framescope check captures/*.sse --format junit > framescope.xml   # CI: one testsuite per input
  framescope check captures/                            # every capture below the folder, sorted
  framescope check bug-123.sse.gz                       # gzip is read as it is
  framescope check bug-123.har                          # every SSE entry of the HAR (bug-123.har#N: log.entries[N])
  framescope check bug-123.har --entry 2                # only log.entries[2]
  framescope check bug-123.har --entry-url /v1/messages # only the entries whose URL holds /v1/messages
  framescope check turn.jsonl --format json --fail-on warn   # NDJSON report; warnings fail too
  framescope check turn.jsonl --max-first-content 2s --max-gap 3s --min-rate 20/s   # latency budgets for CI
  curl -sN localhost:8080/api/chat | framescope check -`,
		Args: func(cmd *cobra.Command, args []string) error {
			if o.dialect == "list" || o.flavor == "list" {
				return nil
			}
			return cobra.MinimumNArgs(1)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o.inputs = args
			return runF(o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.format, "format", "text", "output format: text, json, junit, github (Actions annotations and job summary) or sarif (code scanning)")
	f.StringVar(&o.registry, "registry", "", "status-event registry `DIR` (platform/ and verticals/*/status_events.yaml)")
	f.StringVar(&o.failOn, "fail-on", "error", "lowest severity that makes the exit status 1: error, warn or info")
	f.StringVar(&o.minSev, "min-severity", "info", "text format: list alarms of this severity and up (error, warn or info; counts still count all)")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "text format: hide info alarms (= --min-severity warn)")
	nonNegativeDuration(f, &o.idle, "idle", 0, idleZero, idleHelp)
	ttfeDuration(f, &o.ttfe, 0, ttfeHelp)
	addTimingFlags(f, &o.timing)
	entryVar(f, &o.entry, "HAR: check only log.entries[`N`], an SSE entry (N counts every entry of the HAR, SSE or not, as reports name it FILE#N; default every SSE entry)")
	entryURLVar(cmd, &o.entryURL, "HAR: check only the SSE entries whose URL holds `PATTERN` (* for any characters), each reported as FILE#N")
	addDialectFlag(cmd, &o.dialect)
	addFlavorFlag(cmd, &o.flavor)
	cmd.ValidArgsFunction = completeSessionIDs(true) // FILE or @ID
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(checkFormats, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("fail-on", cobra.FixedCompletions([]string{"error", "warn", "info"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// checkRun is check: every input's report in argument order, and the exit
// status of the worst (2 unreadable, 1 an alarm at --fail-on, 0 clean).
func checkRun(o *checkOptions) error {
	failOn, ok := parseSeverityFlag(o.failOn)
	if !ok {
		return fmt.Errorf("--fail-on %q: want error, warn or info", o.failOn)
	}
	if !slices.Contains(checkFormats, o.format) {
		return fmt.Errorf("--format %q: want text, json, junit, github or sarif", o.format)
	}
	if o.dialect == "list" {
		return listDialects(o.stdout)
	}
	if o.flavor == "list" {
		return listFlavors(o.stdout)
	}
	opts, err := checkerOptions(o.dialect, o.flavor, o.registry, o.idle, o.ttfe)
	if err != nil {
		return err
	}
	o.timing.apply(&opts)
	code := 0
	textOpts, err := checkTextOptions(*o, o.stdout)
	if err != nil {
		return err
	}
	out := startOutput(o)
	inputs := checkInputs(o.inputs, o.stdin, o.entry, o.entryURL)
	defer closeInputs(inputs)
	for i, res := range checkAll(inputs, opts) {
		c, err := checkWrite(o, inputs[i], <-res, failOn, textOpts, out)
		if err != nil {
			return err
		}
		code = max(code, c)
	}
	if err := out.finish(o, len(inputs)); err != nil {
		return err
	}
	if code != 0 {
		return exitError{code}
	}
	return nil
}

// checkWrite writes one input's report (or, unreadable, why) and returns
// its exit status: 2 unreadable, 1 an alarm reaches failOn (or a budget
// could not be checked under --require-timing), else 0. The error is one
// writing the report.
func checkWrite(o *checkOptions, in checkInput, r checked, failOn invariants.Severity, textOpts report.TextOptions, out *checkOutput) (int, error) {
	name := in.name
	rep, err := r.rep, r.err
	if rep == nil {
		fmt.Fprintln(o.stderr, "framescope:", decode.SanitizeMultiline(err.Error()))
		switch o.format {
		case "junit":
			if werr := report.WriteJUnitError(o.stdout, name, err); werr != nil {
				return 0, werr
			}
		case "json":
			if werr := report.WriteJSONError(o.stdout, name, err); werr != nil {
				return 0, werr
			}
		}
		if werr := out.unreadable(o, in, err); werr != nil {
			return 0, werr
		}
		return 2, nil
	}
	if name != in.path {
		rep.Source = name // FILE#N: one SSE entry of a HAR
	}
	// A gate that cannot measure must not pass in silence.
	rep.SetBudgets(o.timing.given(), o.timing.requireTiming)
	// A read error part way: the report shows what was read, and the input
	// counts as unreadable (exit 2), never as clean. (A reader that keeps
	// the error as the capture's end raises a capture-corrupt error
	// instead: the bytes after it are lost.)
	readFailed := err != nil
	if readFailed {
		fmt.Fprintf(o.stderr, "framescope: %s: read error: %s\n", decode.Sanitize(name), decode.Sanitize(err.Error()))
	}
	code := 0
	switch {
	case readFailed:
		code = 2
	case rep.Counts.Reaches(failOn), rep.BudgetsFail():
		code = 1
	}
	switch o.format {
	case "json":
		err = rep.WriteJSON(o.stdout)
	case "junit":
		err = rep.WriteJUnit(o.stdout, failOn)
	case "text":
		err = rep.WriteTextWith(o.stdout, textOpts)
	default:
		err = out.write(o, in, rep)
	}
	out.tally.Add(rep, code)
	_ = rep.Close() // its turns kept out of the heap (CheckToWrite)
	if err != nil {
		return 0, err
	}
	return code, nil
}

// checkTextOptions shapes check's text report: the severities listed, and
// on a terminal, colours and lines fitted to its width.
func checkTextOptions(fl checkOptions, stdout io.Writer) (report.TextOptions, error) {
	var o report.TextOptions
	min, ok := parseSeverityFlag(fl.minSev)
	if !ok {
		return o, fmt.Errorf("--min-severity %q: want error, warn or info", fl.minSev)
	}
	if fl.quiet && min.Rank() < invariants.SevWarn.Rank() {
		min = invariants.SevWarn
	}
	o.MinSeverity = min
	if f, ok := stdout.(*os.File); ok && term.IsTerminal(f.Fd()) {
		o.Color = os.Getenv("NO_COLOR") == ""
		if w, _, err := term.GetSize(f.Fd()); err == nil && w > 0 {
			o.Width = w
		}
	}
	return o, nil
}

// checkInput is one report of check: a capture, or one SSE entry of a HAR.
type checkInput struct {
	name  string // as reported: FILE, or FILE#N for entry N of a HAR
	path  string // as opened
	entry int    // -1: not chosen
	err   error  // why it cannot be read before it is opened (a subfolder)
	// src is the input opened once (capture.Input): a stream's bytes
	// are read by its one report, a file is opened again by each.
	src *capture.Input
}

// checkInputs expands each folder into the captures below it
// (checkfolder.go), and each HAR of several SSE entries into one input per
// entry (FILE#N, N its place in log.entries), unless --entry picks one, or
// those --entry-url matches (check_entries.go). Each argument is opened
// once (capture.OpenInput): stdin, a pipe or a FIFO is read once, by its
// report, from the bytes its sniff read.
func checkInputs(args []string, stdin io.Reader, entry int, entryURL string) []checkInput {
	var out []checkInput
	for _, fi := range expandFolders(args) {
		a := fi.path
		in := checkInput{name: a, path: a, entry: entry, err: fi.err}
		if fi.err != nil {
			out = append(out, in)
			continue
		}
		in.src = capture.OpenInput(a, capture.OpenOptions{Stdin: stdin})
		out = append(out, harInputs(in, entry, entryURL)...)
	}
	return out
}

// closeInputs closes the streams no report read.
func closeInputs(inputs []checkInput) {
	for _, in := range inputs {
		if in.src != nil {
			_ = in.src.Close()
		}
	}
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
func checkAll(names []checkInput, opts invariants.Options) []chan checked {
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
				rep, err := checkOne(names[i], opts, len(names) > 1)
				out[i] <- checked{rep, err}
			}
		}()
	}
	return out
}

// checkOne checks one input; oneStage keeps its pipeline on one goroutine
// (checkAll's workers already keep the cores busy).
func checkOne(in checkInput, opts invariants.Options, oneStage bool) (*report.Report, error) {
	if in.err != nil {
		return nil, in.err
	}
	if err := emptyFolder(in.path); err != nil {
		return nil, err
	}
	src := in.src
	if src == nil {
		src = capture.OpenInput(in.path, capture.OpenOptions{})
	}
	c, err := src.Open(in.entry)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	// Written, never read: turns are kept out of the heap (memory flat in
	// the number of turns).
	return report.CheckToWrite(c, opts, oneStage)
}
