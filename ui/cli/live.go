package cli

import (
	"cmp"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"framescope/decode"
	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/codings"
	"framescope/sessions/library"
	"framescope/sessions/live"
	"framescope/sessions/pipeline"
	"framescope/sessions/record"
	"framescope/ui"
	"framescope/ui/source"
)

// What the commands that open a live connection share (connect, record,
// curl, the root's URL shorthand and the picker): their flags, curl's
// among them, and running a session headless or in the inspector.

// liveOptions are the flags of connect, record and curl: the request and
// what to do with the stream.
type liveOptions struct {
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
	flavor                string
	location              bool // -L: follow redirects
	curlish                    // the rest of what "Copy as cURL" emits
	// A compressed body's bounds ("" when the flags are not registered:
	// the shorthand and the picker take the defaults).
	maxDecoded, maxRatio string
	// Deliberate stops (--max-bytes, --max-frames; "" and 0: none).
	maxBytes  string
	maxFrames int
}

func (fl *liveOptions) register(cmd *cobra.Command, record bool) {
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
	ttfeDuration(f, &fl.ttfe, 0, ttfeHelp)
	addDialectFlag(cmd, &fl.dialect)
	addFlavorFlag(cmd, &fl.flavor)
	if record {
		f.StringVarP(&fl.record, "output", "o", "", "capture `FILE` to write (framescope JSONL)")
		_ = cmd.MarkFlagRequired("output")
		f.BoolVar(&fl.frames, "frames", false, "also print every frame as it arrives (default: only the check summary)")
	} else {
		f.StringVar(&fl.record, "record", "", "also write the capture to `FILE` (framescope JSONL)")
		f.BoolVar(&fl.headless, "headless", false, "print frames and the report instead of opening the terminal UI (the default when stdout is not a terminal)")
	}
}

// session is the live session the flags describe, to url.
func (fl *liveOptions) session(url string, stdin io.Reader) (live.LiveOptions, error) {
	url = normalizeURL(url)
	opts := live.LiveOptions{
		Connect: live.ConnectOptions{
			URL: url, Method: fl.method, Headers: fl.headers, Insecure: fl.insecure,
			ConnectTimeout: fl.connectTimeout, Redact: fl.redact, KeepSecrets: fl.keepSecrets, NoBody: fl.noBody,
			FollowRedirects: fl.location,
		},
		RecordPath: fl.record,
	}
	check, err := checkerOptions(fl.dialect, fl.flavor, fl.registry, fl.idle, fl.ttfe)
	if err != nil {
		return opts, err
	}
	opts.Check = check
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
	if !fl.noSave {
		// The library's cap is read when the session is saved: a bad one
		// fails here, before the one-shot request is sent.
		if _, err := library.LibraryMax(os.Getenv); err != nil {
			return opts, fmt.Errorf("session library: %w (use --no-save)", err)
		}
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
func (fl *liveOptions) inflateBounds(c *live.ConnectOptions) error {
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

// curlish holds the curl flags connect and record accept beyond -X -H -d
// -k -L, so a command from a browser's "Copy as cURL" runs as it is.
type curlish struct {
	dataRaw, dataBinary, json string
	cookies                   []string
	user                      string
	maxTime                   time.Duration
	noBuffer, silent          bool
	include, verbose          bool
	compressed                bool
}

func (c *curlish) register(f *pflag.FlagSet) {
	f.StringVar(&c.dataRaw, "data-raw", "", "request body `DATA`, as it is (@ is not special)")
	f.StringVar(&c.dataBinary, "data-binary", "", "request body: `DATA`, @FILE or @- (as -d)")
	f.StringVar(&c.json, "json", "", "JSON request body: `DATA`, @FILE or @-; sends Content-Type: application/json")
	f.StringArrayVarP(&c.cookies, "cookie", "b", nil, "send cookies `NAME=VALUE[; …]` (repeatable)")
	f.StringVarP(&c.user, "user", "u", "", "HTTP basic authentication `USER:PASSWORD`")
	nonNegativeDuration(f, &c.maxTime, "max-time", 0, "0 = no limit",
		"stop the whole exchange after this long, in seconds or a duration (0 = no limit); in the inspector the stream is cancelled as x does")
	f.BoolVarP(&c.noBuffer, "no-buffer", "N", false, "accepted for curl compatibility (framescope never buffers the stream)")
	f.BoolVarP(&c.silent, "silent", "s", false, "accepted for curl compatibility (no effect)")
	f.BoolVarP(&c.include, "include", "i", false, "accepted for curl compatibility (the response line and headers are always shown)")
	f.BoolVarP(&c.verbose, "verbose", "v", false, "accepted for curl compatibility (no effect)")
	f.BoolVar(&c.compressed, "compressed", false, "ask for a compressed body (Accept-Encoding: "+codings.Accept+"); a compressed body is decoded with or without it")
}

// apply adds the body, cookie and authentication flags to the request.
// data is -d's value: only one body flag may be given.
func (c *curlish) apply(o *live.ConnectOptions, data string, stdin io.Reader) error {
	given := 0
	for _, v := range []string{data, c.dataRaw, c.dataBinary, c.json} {
		if v != "" {
			given++
		}
	}
	if given > 1 {
		return errors.New("give one request body: -d, --data-raw, --data-binary or --json")
	}
	switch {
	case c.dataRaw != "":
		o.Body = []byte(c.dataRaw)
	case c.dataBinary != "", c.json != "":
		body, err := readData(c.dataBinary+c.json, stdin)
		if err != nil {
			return err
		}
		o.Body = body
		if c.json != "" && !hasHeader(o.Headers, "Content-Type") {
			o.Headers = append(o.Headers, "Content-Type: application/json")
		}
	}
	for _, ck := range c.cookies {
		if !strings.Contains(ck, "=") {
			return fmt.Errorf("-b %q: a cookie jar file is not read; give NAME=VALUE", ck)
		}
		o.Headers = append(o.Headers, "Cookie: "+ck)
	}
	if c.user != "" {
		if !strings.Contains(c.user, ":") {
			return errors.New("-u: give USER:PASSWORD (framescope does not prompt for the password)")
		}
		o.Headers = append(o.Headers, "Authorization: Basic "+base64.StdEncoding.EncodeToString([]byte(c.user)))
	}
	if c.compressed && !hasHeader(o.Headers, "Accept-Encoding") {
		o.Headers = append(o.Headers, "Accept-Encoding: "+codings.Accept)
	}
	return nil
}

func hasHeader(hs []string, name string) bool {
	for _, h := range hs {
		n, _, _ := strings.Cut(h, ":")
		if strings.EqualFold(strings.TrimSpace(n), name) {
			return true
		}
	}
	return false
}

// deadline bounds a headless run by --max-time.
func (c *curlish) deadline(ctx context.Context, stderr io.Writer) (context.Context, context.CancelFunc) {
	if c.maxTime <= 0 {
		return ctx, func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	t := time.AfterFunc(c.maxTime, func() {
		fmt.Fprintf(stderr, "framescope: --max-time %s reached: stopping the stream\n", c.maxTime)
		cancel()
	})
	return ctx, func() { t.Stop(); cancel() }
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
	opts.Check.EveryMessage = true // every alarm is printed, past the report's listing too
	if !quiet {
		h.OnItem = func(it *pipeline.Item) {
			line = pipeline.AppendItemText(line[:0], it)
			stdout.Write(line)
			printAlarms(it.Alarms)
		}
	}
	opts.OnResponse = func(r live.ResponseInfo) { writeResponse(stderr, r, opts.Connect) }
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
	if lost := (*record.Error)(nil); errors.As(err, &lost) {
		return exitError{2} // a recording lost data: the message is above
	}
	if streamFailed(res) {
		return exitError{2} // the report's end and alarm say why
	}
	if res.Report != nil && res.Report.Counts.Reaches(invariants.SevError) {
		return exitError{1}
	}
	return nil
}

// writeResponse prints the response line of a live session (and a
// redirect, or the body of an error response) on stderr.
func writeResponse(stderr io.Writer, r live.ResponseInfo, req live.ConnectOptions) {
	method := cmp.Or(r.Method, req.Method)
	if method == "" {
		method = "GET"
		if req.Body != nil {
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

// streamFailed reports whether a live stream's body could not be decoded
// (a coding that failed, more stacked codings than framescope decodes):
// the request failed, whatever the alarms. A decoding bound reached
// (--max-decoded, --max-ratio) is a stop by choice, as --max-bytes is.
func streamFailed(res *live.LiveResult) bool {
	return res.DecodeFailed != ""
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

// reportLiveTUI reports, for each session of a TUI run in order, what
// headless runs report: the recording, the saved session. The exit status
// is 1 when any session had an error alarm; a last session that could not
// run at all is the command's error.
func reportLiveTUI(outs []*source.LiveOutcome, stderr io.Writer) error {
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
		if streamFailed(res) {
			code = 2
		}
		var lost *record.Error
		if errors.As(out.Err, &lost) {
			code = 2 // a recording lost data
		}
	}
	if code != 0 {
		return exitError{code}
	}
	return nil
}
