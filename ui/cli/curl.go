package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"framescope/decode"
	"framescope/ui"
)

// framescopeRequestFlags are connect's flags that shape the request: after
// "--" they are refused, the curl command says the request.
var framescopeRequestFlags = []string{"request", "header", "data", "data-raw", "data-binary", "json", "cookie", "user"}

// curlOptions are curl's streams, the pasted command and the framescope
// flags after "--".
type curlOptions struct {
	ioStreams
	ctx      context.Context
	curlArgs []string               // the curl command as given, before "--"
	isFlag   func(name string) bool // name is a framescope flag of curl's
	live     liveOptions
	output   string // -o FILE after "--"
}

// newCurlCmd declares curl's flags (read after "--" by curlFlags); runF
// (curlRun unless a test gives one) does the work.
func newCurlCmd(env Env, runF func(*curlOptions) error) *cobra.Command {
	o := &curlOptions{ioStreams: env.streams()}
	if runF == nil {
		runF = curlRun
	}
	cmd := &cobra.Command{
		Use:   "curl CURL-COMMAND… [-- FRAMESCOPE-FLAGS]",
		Short: "Connect with a pasted curl command line (a browser's \"Copy as cURL\") and inspect the stream",
		Long: `Paste a whole curl command — as separate words, or as one quoted argument holding
the command with its quotes, $'…' strings and \ or ^ line continuations — and
framescope sends exactly that request (method, URL, headers, body) and inspects
the stream as connect does: the terminal UI on a terminal, frames and the check
report otherwise (or with -- --headless).

framescope's own flags go after "--": -o FILE (or --record FILE) keeps the capture,
--dialect, --headless, --no-save, --idle, … as for connect.

Curl options that only change curl's output or transport (-s, -S, -N, -v, -i, -#,
--http2, --tlsv1.2, -o, --retry, …) are ignored with a note on stderr. Options
that would change the request and that framescope cannot honour (-F, -T, -x,
--cacert, -E, --digest, …) and unknown options are refused, naming the option.
With -d and no Content-Type, curl's own default is sent
(application/x-www-form-urlencoded); --json sends application/json.
Accept-Encoding codings framescope cannot decode (zstd) are not offered.`,
		Example: `  framescope curl 'https://api.example.com/chat' -H 'content-type: application/json' --data-raw '{"q":"hi"}' --compressed
  framescope curl "$(pbpaste)" -- -o turn.jsonl --headless`,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if run, err := curlFlags(cmd, o, args); !run {
				return err
			}
			o.ctx = cmd.Context()
			return runF(o)
		},
	}
	o.live.register(cmd, false)
	cmd.Flags().StringVarP(&o.output, "output", "o", "", "after --: write the capture to `FILE` (as --record)")
	return cmd
}

// curlFlags splits curl's arguments at "--": the curl command before it,
// framescope's flags after it, parsed into o. run is false when there is
// nothing to run: the help was asked for (and printed), or an error.
func curlFlags(cmd *cobra.Command, o *curlOptions, args []string) (run bool, err error) {
	curlArgs, own := args, []string(nil)
	for i, a := range args {
		if a == "--" {
			curlArgs, own = args[:i], args[i+1:]
			break
		}
	}
	switch {
	case len(args) == 0, len(curlArgs) == 1 && (curlArgs[0] == "-h" || curlArgs[0] == "--help"):
		return false, cmd.Help()
	case len(curlArgs) == 0:
		return false, errors.New("no curl command before --: paste it after \"framescope curl\"")
	}
	cmd.DisableFlagParsing = false
	f := cmd.Flags()
	if err := f.Parse(own); err != nil {
		return false, fmt.Errorf("framescope flags after --: %w", err)
	}
	if f.NArg() > 0 {
		return false, fmt.Errorf("after --, framescope flags only: %s is not one (the curl command goes before --)", quoteArg(f.Arg(0)))
	}
	for _, n := range framescopeRequestFlags {
		if f.Changed(n) {
			return false, fmt.Errorf("--%s after --: the request comes from the curl command; put it there", n)
		}
	}
	o.curlArgs = curlArgs
	o.isFlag = func(name string) bool { return cmd.Flags().Lookup(name) != nil }
	return true, nil
}

// curlRun is curl: the pasted request sent, its stream inspected as
// connect does.
func curlRun(o *curlOptions) error {
	fl := &o.live
	if o.output != "" {
		if fl.record != "" {
			return errors.New("give -o or --record, not both")
		}
		fl.record = o.output
	}
	words, err := curlCommandWords(o.curlArgs)
	if err != nil {
		return err
	}
	req, err := parseCurl(words, o.stdin)
	var unknown unknownCurlOptionError
	if errors.As(err, &unknown) {
		name, _, _ := strings.Cut(strings.TrimLeft(unknown.Name, "-"), "=")
		if o.isFlag(name) && strings.HasPrefix(unknown.Name, "--") {
			return fmt.Errorf("%s is a framescope flag, not a curl option: framescope flags go after -- (framescope curl … -- %s)", quoteArg(unknown.Name), quoteArg(unknown.Name))
		}
	}
	if err != nil {
		return err
	}
	for _, n := range req.notes {
		fmt.Fprintln(o.stderr, "framescope:", decode.Sanitize(n))
	}
	fl.fromCurl(req)
	opts, err := fl.session(req.url, o.stdin)
	if err != nil {
		return err
	}
	if req.hasBody {
		opts.Connect.Body = req.body
	}
	opts.Source = "curl"
	opts.Connect.AsPasted = true
	if !fl.headless && ui.IsTerminal(o.stdout) {
		return runLiveTUI(opts.Connect.URL, opts, fl.curlish.maxTime, o.stderr)
	}
	ctx, stop := notifyStop(o.ctx)
	defer stop()
	ctx, cancel := fl.curlish.deadline(ctx, o.stderr)
	defer cancel()
	return runLive(ctx, opts, o.stdout, o.stderr, false)
}

// fromCurl takes the pasted command's request into the flags: its method
// and headers, and the transport options it gives.
func (fl *liveOptions) fromCurl(req *curlRequest) {
	fl.insecure = fl.insecure || req.insecure
	fl.location = fl.location || req.location
	if req.maxTime > 0 {
		fl.curlish.maxTime = req.maxTime
	}
	if req.connectTimeout > 0 {
		fl.connectTimeout = req.connectTimeout
	}
	fl.method, fl.headers = req.method, req.headers
}
