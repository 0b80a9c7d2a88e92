// Package cli is framescope's command line: the root command and one
// file per command (check.go, open.go, connect.go, …). Each command is
// options and a run function: newXCmd(env, runF) declares the flags into
// an xOptions that carries the streams (ioStreams) too, and its RunE hands
// the options to runF, xRun unless a test gives its own. flags.go holds
// the flag values that check their range, live.go what the commands that
// open a connection share, curlcmd.go and shellwords.go read a pasted curl
// command. The root package only runs the tree (NewRoot, Execute).
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/spf13/cobra"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects"
	"framescope/sessions"
	"framescope/sessions/library"
	"framescope/ui"
)

// exitError carries an exit status out of a command.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// Env is what the command tree reads and writes, and what it ships.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// ReferenceKit holds the captures `framescope reference
	// --export-tests` writes out (testdata/reference/probes,
	// testdata/examples, testdata/rules): the repository's testdata, so the
	// root package embeds them.
	ReferenceKit fs.FS
}

// ioStreams are what a command reads and writes: the tree's Env streams,
// carried by every command's options.
type ioStreams struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

func (e Env) streams() ioStreams {
	return ioStreams{stdin: e.Stdin, stdout: e.Stdout, stderr: e.Stderr}
}

// Execute runs the command tree over the command line args (the
// shorthands of the root command first turned into their commands) and
// returns the exit status: 0, the status a command chose, or 2 with the
// error on the tree's stderr.
func Execute(root *cobra.Command, args []string) int {
	root.SetArgs(shorthandArgs(root, args))
	err := root.Execute()
	var ee exitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.code
	default:
		// Credentials in a URL or query a message quotes (a pasted curl
		// line, a refused option) are masked: an error is printed, logged
		// by CI, pasted into tickets.
		fmt.Fprintln(root.ErrOrStderr(), "framescope:", decode.SanitizeMultiline(sessions.RedactMessage(err.Error())))
		return 2
	}
}

// rootLong is the root command's description, naming every dialect of the
// registry (a new dialect is named without editing this file).
func rootLong() string {
	var names []string
	for _, d := range dialects.All {
		if d != invariants.SSE {
			names = append(names, d.Name())
		}
	}
	list := strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
	return wrapWords("framescope decodes every frame of an agent chat SSE stream — a recorded capture or a "+
		"live endpoint — and checks it against the rules of its dialect: "+list+
		" (detected, or forced with --dialect), else plain sse.", 88)
}

// wrapWords breaks text into lines of at most width bytes at spaces.
func wrapWords(text string, width int) string {
	var b strings.Builder
	line := 0
	for i, w := range strings.Fields(text) {
		if i > 0 {
			if line+1+len(w) > width {
				b.WriteByte('\n')
				line = 0
			} else {
				b.WriteByte(' ')
				line++
			}
		}
		b.WriteString(w)
		line += len(w)
	}
	return b.String()
}

// rootOptions are the root command's streams and arguments: none (the
// picker), or the FILE or URL of a shorthand.
type rootOptions struct {
	ioStreams
	ctx        context.Context
	args       []string
	help       func() error           // prints the root's help
	unknownArg func(arg string) error // why arg is no command, file or URL
}

// NewRoot builds the command tree: the root command (the picker, and the
// FILE and URL shorthands) and one command per file of this package.
func NewRoot(env Env) *cobra.Command {
	root := newRootCmd(env, nil)
	root.AddCommand(newOpenCmd(env, nil), newCheckCmd(env, nil), newDumpCmd(env, nil), newRulesCmd(env, nil),
		newConnectCmd("connect", env, nil), newRecordCmd(env, nil), newCurlCmd(env, nil),
		newSessionsCmd(env, nil), newServeCmd(env, nil), newDemoCmd(env, nil))
	root.AddCommand(newProxyCmd(env, nil))
	root.AddCommand(newReferenceCmd(env, nil))
	root.AddCommand(newStatsCmd(env, nil))
	root.AddCommand(newVersionCmd(env, nil))
	root.AddCommand(newCompletionCmd(root, env, nil))
	return root
}

// newRootCmd is the root command alone, writing to the Env's streams;
// runF (rootRun unless a test gives one) does the work.
func newRootCmd(env Env, runF func(*rootOptions) error) *cobra.Command {
	o := &rootOptions{ioStreams: env.streams()}
	if runF == nil {
		runF = rootRun
	}
	root := &cobra.Command{
		Use:   "framescope",
		Short: fmt.Sprintf("Inspect and check agent chat SSE streams: %d dialects (pc3, openai-chat, anthropic-messages, …) and plain SSE", len(dialects.All)-1),
		Long:  rootLong(),
		Example: `  framescope                                   # on a terminal: pick a recent session, a scenario, a URL or a file
  framescope capture.jsonl                     # = framescope open capture.jsonl
  framescope http://127.0.0.1:8080/api/chat    # = framescope connect URL`,
		Version:       sessions.Version,
		SilenceUsage:  true,
		SilenceErrors: true,
		// framescope FILE | - | @ID | URL are shorthands for open / connect.
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.ctx, o.args = cmd.Context(), args
			o.help = cmd.Help
			o.unknownArg = func(arg string) error { return unknownArg(cmd, arg) }
			return runF(o)
		},
	}
	root.SetVersionTemplate("framescope version {{.Version}}\n")
	root.SetIn(env.Stdin)
	root.SetOut(env.Stdout)
	root.SetErr(env.Stderr)
	root.SetFlagErrorFunc(plainFlagError)
	return root
}

// rootRun is the root command: on a terminal with no argument the picker
// (else the help), or the FILE or URL shorthand.
func rootRun(o *rootOptions) error {
	if len(o.args) == 0 {
		if !ui.IsTerminal(o.stdout) {
			return o.help()
		}
		return runPicker(o.stdin, o.stderr)
	}
	arg := o.args[0]
	isURL := isURLArg(arg)
	isCapture := arg == "-" || strings.HasPrefix(arg, "@")
	if !isURL && !isCapture {
		if _, err := os.Stat(arg); err == nil {
			isCapture = true
		}
	}
	switch {
	case len(o.args) > 1 && (isURL || isCapture):
		return fmt.Errorf("one FILE or URL at a time (got %d arguments)", len(o.args))
	case isURL:
		return rootConnect(o, normalizeURL(arg))
	case isCapture:
		return openOrDump(arg, o.stdin, o.stdout, o.stderr, -1, invariants.Options{})
	}
	return o.unknownArg(arg)
}

// rootConnect is the URL shorthand: connect URL with connect's defaults.
func rootConnect(o *rootOptions, url string) error {
	var fl liveOptions
	opts, err := fl.session(url, o.stdin)
	if err != nil {
		return err
	}
	opts.Source = "connect"
	if !ui.IsTerminal(o.stdout) {
		ctx, stop := notifyStop(o.ctx)
		defer stop()
		return runLive(ctx, opts, o.stdout, o.stderr, false)
	}
	return runLiveTUI(url, opts, 0, o.stderr)
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
		var fl liveOptions
		opts, err := fl.session(choice.Value, stdin)
		if err != nil {
			return err
		}
		opts.Source = "connect"
		return runLiveTUI(choice.Value, opts, 0, stderr)
	}
	return nil
}

// shorthandArgs turns the shorthands `framescope URL [flags]` and
// `framescope FILE|-|@ID [flags]` into `connect URL [flags]` and
// `open FILE [flags]`, so they take exactly the flags of those commands.
// A first word that names a command, or a flag, is left alone.
func shorthandArgs(root *cobra.Command, args []string) []string {
	if len(args) == 0 {
		return args
	}
	arg := args[0]
	if arg != "-" && strings.HasPrefix(arg, "-") {
		return args
	}
	for _, c := range root.Commands() {
		if c.Name() == arg || c.HasAlias(arg) {
			return args
		}
	}
	switch {
	case isURLArg(arg):
		return append([]string{"connect"}, args...)
	case arg == "-" || strings.HasPrefix(arg, "@"):
		return append([]string{"open"}, args...)
	}
	if _, err := os.Stat(arg); err == nil {
		return append([]string{"open"}, args...)
	}
	return args
}

// isURLArg: an http(s) URL, or one without a scheme that starts with a
// host and port (localhost:8080/api/chat, 127.0.0.1:8080/x) or localhost.
func isURLArg(arg string) bool {
	if strings.HasPrefix(arg, "http://") || strings.HasPrefix(arg, "https://") {
		return true
	}
	return schemelessHost(arg)
}

// schemelessHost reports whether arg is HOST:PORT[/…] or localhost[/…]
// with no scheme, and is not an existing file.
func schemelessHost(arg string) bool {
	if strings.Contains(arg, "://") {
		return false
	}
	hostport, _, _ := strings.Cut(arg, "/")
	if hostport == "localhost" {
		_, err := os.Stat(arg)
		return err != nil
	}
	host, port, err := net.SplitHostPort(hostport)
	if err != nil || host == "" || port == "" {
		return false
	}
	for _, r := range port {
		if r < '0' || r > '9' {
			return false
		}
	}
	_, err = os.Stat(arg)
	return err != nil
}

// normalizeURL gives a URL without a scheme http://, as curl does.
func normalizeURL(u string) string {
	if schemelessHost(u) {
		return "http://" + u
	}
	return u
}

// unknownArg explains a first argument that is no command, file or URL:
// a mistyped command gets "did you mean", a path says it does not exist.
func unknownArg(cmd *cobra.Command, arg string) error {
	clean := decode.Sanitize(arg)
	if cmd.SuggestionsMinimumDistance <= 0 {
		cmd.SuggestionsMinimumDistance = 2 // as cobra does for its own "unknown command"
	}
	if sugg := cmd.SuggestionsFor(arg); len(sugg) > 0 {
		return fmt.Errorf("unknown command %q\n\nDid you mean this?\n    %s\n\n(see framescope --help)", clean, strings.Join(sugg, "\n    "))
	}
	if strings.ContainsAny(arg, `/\`) || filepath.Ext(arg) != "" {
		if _, err := os.Stat(arg); errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s: no such file", clean)
		}
	}
	return fmt.Errorf("unknown command or file %q: no command of that name and no such file (see framescope --help)", clean)
}

// strconvDetail matches the Go parse error pflag wraps for a number flag
// (`strconv.ParseInt: parsing "x": invalid syntax`).
var strconvDetail = regexp.MustCompile(`strconv\.Parse(Int|Uint|Float|Bool): parsing "[^"]*": (invalid syntax|value out of range)`)

// plainFlagError says what a flag wants instead of Go's parse error, and
// points at the command's help.
func plainFlagError(cmd *cobra.Command, err error) error {
	msg := strconvDetail.ReplaceAllStringFunc(err.Error(), func(m string) string {
		sub := strconvDetail.FindStringSubmatch(m)
		switch {
		case sub[2] == "value out of range":
			return "the number is out of range"
		case sub[1] == "Float":
			return "want a number"
		case sub[1] == "Bool":
			return "want true or false"
		}
		return "want a whole number"
	})
	return fmt.Errorf("%s%s (see %s --help)", msg, flagSuggestion(cmd, err), cmd.CommandPath())
}
