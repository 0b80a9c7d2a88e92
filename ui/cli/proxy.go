package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"math"
	"net"
	"net/http"
	"os"
	"path"
	"strconv"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"framescope/decode"
	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/faults"
	"framescope/sessions/frontdoor"
	"framescope/sessions/library"
	"framescope/sessions/pipeline"
	"framescope/sessions/proxy"
	"framescope/ui"
	"framescope/ui/store"
)

// proxyOptions are proxy's streams, argument and flags.
type proxyOptions struct {
	ioStreams
	ctx                     context.Context
	upstream                string // UPSTREAM, when given
	hasUpstream             bool
	listen, failOn, dialect string
	upstreamCA              string
	allowRemote, mitm       bool
	allowLoopbackTargets    bool
	mitmHosts, redact       []string
	allowOrigins            []string
	headless, noSave, keep  bool
	faults                  []string
	maxSpill                string
	maxFlows                int
	maxConns                int
	maxBytes                string // --max-bytes, per stream
	maxFrames               int    // --max-frames, per stream
}

// newProxyCmd declares proxy's flags; runF (proxyRun unless a test gives
// one) does the work.
func newProxyCmd(env Env, runF func(*proxyOptions) error) *cobra.Command {
	o := &proxyOptions{ioStreams: env.streams()}
	if runF == nil {
		runF = proxyRun
	}
	cmd := &cobra.Command{
		Use:   "proxy [UPSTREAM]",
		Short: "Proxy an app's traffic: every stream it receives recorded, checked live and saved",
		Long: `With an UPSTREAM URL, a reverse proxy: point the app's base URL at the listen address.
Without one, an HTTP proxy (HTTP_PROXY, HTTPS_PROXY, a device's proxy setting):
absolute-form requests are forwarded and CONNECT is tunnelled blind, or decrypted
with --mitm (trust the CA first: framescope proxy ca). Every response byte reaches
the app as soon as it is read. Responses that are streams (text/event-stream,
NDJSON, SSE without a Content-Type; compressed ones decoded for the check, passed
on as they came) are checked live with detection and saved in the session library; one line per finished flow, a total on Ctrl-C. --fail-on makes
the exit status 1 when a stream had an alarm at that level. On a terminal the
Flows screen lists every request as it happens (enter inspects a stream, live, or
shows any other flow's request and response; esc goes back; q stops the proxy); --headless, or a stdout that is no terminal, prints the lines.`,
		Example: `  framescope proxy http://127.0.0.1:7070                 # then point the app at http://127.0.0.1:7071
  HTTP_PROXY=http://127.0.0.1:7071 npm test & framescope proxy --fail-on warn
  framescope proxy --mitm --mitm-hosts 'api.*'           # HTTPS_PROXY, decrypting api.* only`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.ctx = cmd.Context()
			if len(args) == 1 {
				o.upstream, o.hasUpstream = args[0], true
			}
			return runF(o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.listen, "listen", "127.0.0.1:7071", "listen address (a non-loopback one needs --allow-remote; --addr is the same)")
	aliasFlag(f, "addr", "listen")
	f.BoolVar(&o.allowRemote, "allow-remote", false, "allow a --listen address other machines can reach")
	f.BoolVar(&o.allowLoopbackTargets, "allow-loopback-targets", false, "let clients on other machines (--allow-remote) reach this machine's loopback (127.0.0.1, localhost) through the forward proxy")
	f.StringArrayVar(&o.allowOrigins, "allow-origin", nil, "also proxy requests with this `HOST` in Host and Origin headers (HOST, HOST:PORT or an origin http://HOST:PORT; repeatable; others are refused, against DNS rebinding)")
	f.BoolVar(&o.mitm, "mitm", false, "decrypt HTTPS (CONNECT) with framescope's local CA (see: framescope proxy ca)")
	f.StringArrayVar(&o.mitmHosts, "mitm-hosts", nil, "with --mitm, decrypt only hosts matching `PATTERN` (path.Match: api.*, *.example.com; repeatable)")
	f.StringVar(&o.failOn, "fail-on", "", "exit status 1 when a stream had an alarm at this level: error or warn")
	f.BoolVar(&o.headless, "headless", false, "print one line per finished flow instead of the Flows screen (the default when stdout is not a terminal)")
	f.BoolVar(&o.noSave, "no-save", false, "do not save streams in the session library")
	f.BoolVar(&o.keep, "keep-secrets", false, "record Authorization, Cookie and other credentials as they are")
	f.StringArrayVar(&o.redact, "redact", nil, "also redact this header `NAME` in recordings (repeatable)")
	f.StringVar(&o.upstreamCA, "upstream-cacert", "", "also trust the CA certificates in PEM `FILE` for upstream TLS (a staging server's own CA)")
	f.StringVar(&o.maxSpill, "max-spill", "1GiB", "when a checker falls behind, hold at most `SIZE` of its streams on disk (all together) before leaving bytes out of the check and recording (0 = no limit)")
	f.IntVar(&o.maxConns, "max-conns", frontdoor.DefaultMaxConns, "at most `N` connections open at once (the app's, tunnels included); one more is answered 503")
	f.IntVar(&o.maxFlows, "max-flows", proxy.DefaultMaxFlows, "remember at most `N` flows for the Flows screen and their details (the oldest finished ones are forgotten; streams stay in the library)")
	f.StringVar(&o.maxBytes, "max-bytes", "", "end each stream's recording and check once it holds `SIZE` of the stream (e.g. 100MB; after the last whole event; the app's stream goes on; 0 = no limit)")
	f.Var(maxFramesFlag{&o.maxFrames}, "max-frames", "end each stream's recording and check right after `N` frames (the app's stream goes on; 0 = no limit)")
	f.StringArrayVar(&o.faults, "fault", nil, "inject a fault into matching streams on their way to the app, e.g. 'cut-after=5', 'drop=3,7 path=/v1/*', 'stall=2s@3', 'drop-terminal', 'buffer=64KiB', 'burst=10', 'gzip' (`SPEC`; repeatable; docs/proxy.md)")
	addDialectFlag(cmd, &o.dialect)
	_ = cmd.RegisterFlagCompletionFunc("fail-on", cobra.FixedCompletions([]string{"error", "warn"}, cobra.ShellCompDirectiveNoFileComp))
	cmd.AddCommand(newProxyCACmd(env, nil))
	return cmd
}

// proxyRun is proxy: it listens until Ctrl-C (or, on the Flows screen, q)
// and prints the total.
func proxyRun(o *proxyOptions) error {
	failOn, failing, err := proxyFailOn(o.failOn)
	if err != nil {
		return err
	}
	if err := proxy.CheckListen(o.listen, o.allowRemote); err != nil {
		return err
	}
	opts, err := proxyCheck(o)
	if err != nil {
		return err
	}
	if err := proxyUpstream(o, &opts); err != nil {
		return err
	}
	if err := proxyMITM(o, &opts); err != nil {
		return err
	}
	if !o.noSave {
		max, err := library.LibraryMax(os.Getenv)
		if err != nil {
			return fmt.Errorf("session library: %w (use --no-save)", err)
		}
		opts.LibraryMax = max // the recordings in flight stay within it
		lib, err := library.DefaultLibrary()
		if err != nil {
			return fmt.Errorf("session library: %w (use --no-save)", err)
		}
		opts.Library = lib
	}
	raw, err := net.Listen("tcp", o.listen)
	if err != nil {
		return err
	}
	// At most --max-conns connections, each holding a request in flight
	// (503 past it, logged when headless: the screen would be drawn over);
	// no write timeout: an app paused in a debugger keeps its streams.
	limits := frontdoor.ConnLimits{MaxConns: o.maxConns, WriteTimeout: -1, Name: "framescope proxy"}
	if o.headless || !ui.IsTerminal(o.stdout) {
		limits.Log = o.stderr
	}
	ln := frontdoor.Limit(raw, limits)
	opts.Listen = ln.Addr().String()
	// The Flows screen keeps every stream's items from its start, for the
	// inspector (headless: nobody looks, nothing is kept).
	var streams *store.FlowStreams
	if !o.headless && ui.IsTerminal(o.stdout) {
		streams = store.NewFlowStreams(0, 0)
		opts.OnStream = func(f proxy.Flow, meta sessions.Meta) pipeline.Handler { return streams.Start(f.ID, meta) }
	}
	p := proxy.New(opts)
	srv := &http.Server{Handler: p, ReadHeaderTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute,
		ErrorLog: proxyErrorLog}
	proxyAnnounce(o.stderr, ln.Addr(), opts)
	if !o.headless && ui.IsTerminal(o.stdout) {
		return runProxyScreen(p, srv, ln, streams, opts, failing, failOn, o.stdout)
	}
	return runProxyHeadless(o.ctx, p, srv, ln, failing, failOn, o.stdout)
}

// proxyFailOn reads --fail-on: failing is whether it was given.
func proxyFailOn(v string) (failOn invariants.Severity, failing bool, err error) {
	switch v {
	case "":
	case "error", "warn":
		failOn, _ = invariants.ParseSeverity(v)
		failing = true
	default:
		return failOn, false, fmt.Errorf("--fail-on %q: want error or warn", v)
	}
	return failOn, failing, nil
}

// proxyCheck is the proxy's options as the check and its bounds shape
// them: --dialect, the redactions, --allow-origin, --max-spill,
// --max-flows, --max-conns and --fault.
func proxyCheck(o *proxyOptions) (proxy.Options, error) {
	check, err := checkerOptions(o.dialect, "", "", 0, 0)
	if err != nil {
		return proxy.Options{}, err
	}
	opts := proxy.Options{Check: check, Redact: o.redact, KeepSecrets: o.keep, AllowLoopbackTargets: o.allowLoopbackTargets}
	if opts.Allow, err = frontdoor.ParseAllowList(o.allowOrigins); err != nil {
		return opts, err
	}
	if o.allowRemote {
		opts.Allow.AddAddrs(frontdoor.LocalAddrs()...) // what a device on the network types
	}
	spill, err := sessions.ParseSize(o.maxSpill)
	if err != nil {
		return opts, fmt.Errorf("--max-spill: %w", err)
	}
	opts.MaxSpill = cmp.Or(spill, math.MaxInt64) // as every size flag: 0 is no limit
	if o.maxFlows < 1 {
		return opts, fmt.Errorf("--max-flows %d: want at least 1", o.maxFlows)
	}
	opts.MaxFlows = o.maxFlows
	if opts.Limits, err = stopLimits(o.maxBytes, o.maxFrames); err != nil {
		return opts, err
	}
	if o.maxConns < 1 {
		return opts, fmt.Errorf("--max-conns %d: want at least 1", o.maxConns)
	}
	for _, spec := range o.faults {
		fault, err := faults.Parse(spec)
		if err != nil {
			return opts, err
		}
		opts.Faults = append(opts.Faults, fault)
	}
	return opts, nil
}

// proxyUpstream reads UPSTREAM (a reverse proxy) and --upstream-cacert.
func proxyUpstream(o *proxyOptions, opts *proxy.Options) error {
	if o.hasUpstream {
		u, err := proxy.ParseUpstream(o.upstream, o.listen)
		if err != nil {
			return err
		}
		if o.mitm {
			return errors.New("--mitm decrypts CONNECT tunnels of a forward proxy: a reverse proxy to an https:// upstream already sees its traffic")
		}
		opts.Upstream = u
	}
	if o.upstreamCA != "" {
		tr, err := proxy.TransportTrusting(o.upstreamCA)
		if err != nil {
			return err
		}
		opts.Transport = tr
	}
	return nil
}

// proxyMITM reads --mitm and --mitm-hosts: the local CA, made on first
// use.
func proxyMITM(o *proxyOptions, opts *proxy.Options) error {
	if len(o.mitmHosts) > 0 && !o.mitm {
		return errors.New("--mitm-hosts needs --mitm")
	}
	for _, pat := range o.mitmHosts {
		if _, err := path.Match(pat, ""); err != nil { // it would decrypt nothing, silently
			return fmt.Errorf("--mitm-hosts %s is not a glob pattern (path.Match: %v; a literal [ is written \\[)", sessions.CleanShort(strconv.Quote(pat), 60), err)
		}
	}
	if !o.mitm {
		return nil
	}
	dir, err := proxy.CADir()
	if err != nil {
		return err
	}
	ca, created, err := proxy.LoadOrCreateCA(dir)
	if err != nil {
		return err
	}
	if created {
		fmt.Fprintf(o.stderr, "created framescope's certificate authority: %s (framescope proxy ca says how to trust it)\n", decode.Sanitize(ca.CertPath))
	}
	opts.CA, opts.MITMHosts = ca, o.mitmHosts
	return nil
}

// proxyAnnounce says on stderr where the proxy listens and how to point
// the app at it.
func proxyAnnounce(stderr io.Writer, listen net.Addr, opts proxy.Options) {
	addr := listen.String()
	if opts.Upstream != nil {
		fmt.Fprintf(stderr, "framescope proxy: http://%s → %s (%s)\n  point the app's base URL at http://%s; Ctrl-C stops\n",
			addr, decode.Sanitize(sessions.RedactURL(opts.Upstream.String())), proxy.Reach(listen), addr)
	} else {
		fmt.Fprintf(stderr, "framescope proxy: forward proxy at http://%s (%s)\n  HTTP_PROXY=http://%s HTTPS_PROXY=http://%s, or a device's proxy setting; Ctrl-C stops\n",
			addr, proxy.Reach(listen), addr, addr)
		if proxy.Remote(listen) {
			if opts.AllowLoopbackTargets {
				fmt.Fprintf(stderr, "  WARNING: other devices can reach this machine's loopback-only services (127.0.0.1, localhost) through it (--allow-loopback-targets)\n")
			} else {
				fmt.Fprintf(stderr, "  other devices may not reach this machine's loopback (127.0.0.1, localhost) through it: 403 (--allow-loopback-targets allows it)\n")
			}
		}
	}
}

// runProxyHeadless serves until Ctrl-C, printing one line per finished
// flow, then the total.
func runProxyHeadless(ctx context.Context, p *proxy.Proxy, srv *http.Server, ln net.Listener,
	failing bool, failOn invariants.Severity, stdout io.Writer) error {
	sub := p.Subscribe()
	var tally proxyTally
	printed := make(chan struct{})
	feedCtx, stopFeed := context.WithCancel(context.Background())
	go func() {
		defer close(printed)
		for {
			_, err := printFlows(feedCtx, sub, &tally, stdout)
			if err != nil {
				return
			}
		}
	}()

	sig, stop := notifyStop(ctx)
	defer stop()
	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()
	var err error
	select {
	case <-sig.Done():
	case err = <-serveErr:
	}
	stopProxy(srv, p)
	stopFeed()
	<-printed
	for { // what the feed had not handed yet
		n, ferr := printFlows(feedCtx, sub, &tally, stdout)
		if ferr != nil || n == 0 {
			break
		}
	}
	sub.Close()
	tally.write(stdout)
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return tally.exitStatus(failing, failOn)
}

// printFlows takes what the feed hands next and prints the finished flows
// in it, counted in the tally; n is how many flows it handed.
func printFlows(ctx context.Context, sub *proxy.Subscription, tally *proxyTally, stdout io.Writer) (n int, err error) {
	fs, err := sub.Next(ctx)
	for _, f := range fs {
		if f.Done {
			tally.add(f)
			writeFlowLine(stdout, f)
		}
	}
	return len(fs), err
}

// proxyTally counts what a proxy run saw, for the total.
type proxyTally struct {
	mu                     sync.Mutex
	flows, streams, behind int
	recordFailed           int    // streams whose recording failed
	firstRecordErr         string // the first one's cause
	withError, withWarn    int
	counts                 invariants.Counts
}

func (t *proxyTally) add(f proxy.Flow) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.flows++
	if f.Kind != proxy.KindStream {
		return
	}
	t.streams++
	if f.RecordErr != "" {
		if t.recordFailed == 0 {
			t.firstRecordErr = f.RecordErr
		}
		t.recordFailed++
	}
	t.counts.Error += f.Counts.Error
	t.counts.Warn += f.Counts.Warn
	t.counts.Info += f.Counts.Info
	if f.Counts.Error > 0 {
		t.withError++
	}
	if f.Counts.Warn > 0 {
		t.withWarn++
	}
	if f.Behind > 0 {
		t.behind++
	}
}

func (t *proxyTally) reaches(s invariants.Severity) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.counts.Reaches(s)
}

func (t *proxyTally) write(w io.Writer) {
	t.mu.Lock()
	defer t.mu.Unlock()
	fmt.Fprintf(w, "total: %s, %s checked: %d error, %d warn, %d info alarms (%s with errors, %d with warnings)\n",
		invariants.Plural(t.flows, "flow"), invariants.Plural(t.streams, "stream"), t.counts.Error, t.counts.Warn, t.counts.Info,
		invariants.Plural(t.withError, "stream"), t.withWarn)
	if t.behind > 0 {
		fmt.Fprintf(w, "  %s not checked whole: the checker fell behind the app\n", pluralWas(t.behind))
	}
	if t.recordFailed > 0 {
		fmt.Fprintf(w, "  %s not recorded whole (%s)\n", pluralWas(t.recordFailed), sessions.Clean(t.firstRecordErr))
	}
}

// exitStatus is the run's status once the total is written: 2 when a
// recording failed (as `record` exits on a full disk), 1 when --fail-on
// is reached, else nil.
func (t *proxyTally) exitStatus(failing bool, failOn invariants.Severity) error {
	t.mu.Lock()
	failed := t.recordFailed > 0
	t.mu.Unlock()
	if failed {
		return exitError{2}
	}
	if failing && t.reaches(failOn) {
		return exitError{1}
	}
	return nil
}

// writeFlowLine prints one finished flow, and for a stream its check
// summary: its alarms, then its notes. Everything from the network is
// sanitized (no escape sequence reaches the terminal).
func writeFlowLine(w io.Writer, f proxy.Flow) {
	status := "---"
	if f.Status != 0 {
		status = fmt.Sprint(f.Status)
	}
	line := fmt.Sprintf("%s %-7s %s  %s %s %s", status, decode.Sanitize(f.Method), decode.Clip(decode.Sanitize(f.URL), 120),
		f.Kind, sessions.FormatSize(f.Bytes), f.Duration.Round(time.Millisecond))
	if f.Kind == proxy.KindStream {
		line += fmt.Sprintf("  %s %s  %d error %d warn %d info", decode.Sanitize(f.Dialect), invariants.Plural(f.Frames, "frame"), f.Counts.Error, f.Counts.Warn, f.Counts.Info)
		if f.SessionID != "" {
			line += "  @" + f.SessionID
		}
	}
	if f.Err != "" {
		line += "  (" + decode.Sanitize(f.Err) + ")"
	}
	fmt.Fprintln(w, line)
	for _, a := range f.Alarms {
		fmt.Fprintf(w, "    ! %-5s %s: %s\n", a.Severity, a.Rule, decode.Sanitize(a.Message))
	}
	if n := f.Counts.Error + f.Counts.Warn + f.Counts.Info; n > len(f.Alarms) && len(f.Alarms) > 0 {
		fmt.Fprintf(w, "    … %d more (framescope check @%s)\n", n-len(f.Alarms), f.SessionID)
	}
	for _, n := range f.Notes {
		fmt.Fprintf(w, "    note: %s\n", decode.Sanitize(n))
	}
	if f.Behind > 0 {
		fmt.Fprintf(w, "    note: the checker fell behind: %s passed to the app unchecked\n", sessions.FormatSize(f.Behind))
	}
}

// proxyErrorLog silences net/http's log of broken app connections (a
// proxy sees many; the flow line says what matters).
var proxyErrorLog = log.New(io.Discard, "", 0)

// pluralWas is "1 stream was" or "N streams were".
func pluralWas(n int) string {
	if n == 1 {
		return "1 stream was"
	}
	return strconv.Itoa(n) + " streams were"
}

// stopProxy ends the streams in flight (recorded as cancelled) and waits
// for their checks and recordings.
func stopProxy(srv *http.Server, p *proxy.Proxy) {
	shut, cancel := context.WithTimeout(context.Background(), time.Second)
	srv.Shutdown(shut)
	cancel()
	srv.Close()
	p.Close()
	p.Wait()
}

// runProxyScreen serves while the Flows screen runs; when the user quits
// it stops the proxy and prints the total (the screen showed the flows).
func runProxyScreen(p *proxy.Proxy, srv *http.Server, ln net.Listener, streams *store.FlowStreams,
	opts proxy.Options, failing bool, failOn invariants.Severity, stdout io.Writer) error {
	addr := ln.Addr().String()
	fo := ui.FlowsOptions{Listen: addr, Streams: streams, Detail: p.Detail, MaxFlows: opts.MaxFlows}
	if opts.Upstream != nil {
		fo.Target = sessions.RedactURL(opts.Upstream.String())
		fo.Hint = "point the app's base URL at http://" + addr
	} else {
		fo.Hint = "HTTP_PROXY=http://" + addr + " HTTPS_PROXY=http://" + addr + " (or a device's proxy setting)"
		if opts.CA != nil {
			fo.Hint += "; trust the CA: framescope proxy ca"
		}
	}
	sub := p.Subscribe()
	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()
	err := ui.RunFlows(sub, fo, ui.RunOptions{})
	sub.Close()
	stopProxy(srv, p)
	var tally proxyTally
	for _, f := range p.Flows() {
		tally.add(f)
	}
	tally.write(stdout)
	select {
	case serr := <-serveErr:
		if err == nil && !errors.Is(serr, http.ErrServerClosed) {
			err = serr
		}
	default:
	}
	if err != nil {
		return err
	}
	return tally.exitStatus(failing, failOn)
}
