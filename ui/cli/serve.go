package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"framescope/decode"
	"framescope/invariants"
	"framescope/sessions/faults"
	"framescope/sessions/replay"
)

// serveOptions are serve's streams, argument and flags.
type serveOptions struct {
	ioStreams
	ctx                                          context.Context
	changed                                      func(flag string) bool // the flag was given
	capture                                      string                 // CAPTURE, when given
	hasCapture                                   bool
	addr, path, speedText, scenario, contentType string
	loop, cors, lan, listScenarios               bool
	allowOrigins                                 []string
	// Faults of a capture's replay.
	drop, dup, garble []int
	stalls            []string
	cutAfter          int
	// Delivery faults (docs/timing.md): --stall-at gives a bare --stall
	// its frame.
	stallAt, buffer, burst int
	gzip                   bool
	// The scenario relay.
	floodFrames       int
	idle, bodyTimeout time.Duration
	// Connection bounds (issue 24 item 12).
	maxConns     int
	writeTimeout time.Duration
}

// newServeCmd declares serve's flags; runF (serveRun unless a test gives
// one) does the work.
func newServeCmd(env Env, runF func(*serveOptions) error) *cobra.Command {
	o := &serveOptions{ioStreams: env.streams()}
	if runF == nil {
		runF = serveRun
	}
	cmd := &cobra.Command{
		Use:   "serve CAPTURE | --scenario NAME",
		Short: "Replay a capture byte-exact (with faults), or run a built-in scenario, as an SSE server",
		Long: `Serve a capture to any SSE client (a mobile app, a browser, curl): every request
(GET or POST) gets a fresh byte-exact replay with the original timing scaled by
--speed, as text/event-stream (--content-type keep sends the captured type). Fault
flags drop, duplicate, cut, stall or garble frames (0-based frame indexes).
--scenario serves a built-in scenario instead (the reference PC3 v0.5 relay, or a
demo turn of another dialect: --scenarios lists them). Listens on loopback only unless
--lan, and refuses Host and Origin headers other than loopback ones and those named
by --allow-origin (a defence against DNS rebinding).`,
		Example: `  framescope serve bug-123.jsonl --speed max
  framescope serve turn.sse --cut-after 5 --stall 3s@2
  framescope serve turn.jsonl --buffer 65536 --gzip                  # a buffering, compressing proxy: check --stall / delivery-buffered
  framescope serve turn.jsonl --lan                                  # a phone on the LAN: prints the URL to use
  framescope serve turn.jsonl --lan --allow-origin mybox.local       # ... that reaches this machine by name
  framescope serve turn.jsonl --cors --allow-origin http://dev.test:5173   # a web app served from another origin
  framescope serve --scenario axis2`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.ctx, o.changed = cmd.Context(), cmd.Flags().Changed
			if len(args) == 1 {
				o.capture, o.hasCapture = args[0], true
			}
			return runF(o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.addr, "addr", "127.0.0.1:7070", "listen address (a non-loopback one needs --lan; --listen is the same)")
	aliasFlag(f, "listen", "addr")
	f.StringVar(&o.path, "path", replay.DefaultReplayPath, "URL path to serve")
	f.StringVar(&o.speedText, "speed", "1", "timing scale: 1 = as recorded, 2 = twice as fast, 0 or max = no pauses (the least: 0.001)")
	f.BoolVar(&o.loop, "loop", false, "replay again and again on the same response")
	o.addFaultFlags(f)
	f.BoolVar(&o.lan, "lan", false, "listen on the network (default address 0.0.0.0:7070) and serve this machine's addresses: devices on the LAN can fetch the replay")
	f.StringArrayVar(&o.allowOrigins, "allow-origin", nil, "also serve this `HOST` in Host and Origin headers (HOST, HOST:PORT or an origin http://HOST:PORT; repeatable)")
	f.BoolVar(&o.cors, "cors", false, "send CORS headers for browser clients (loopback and --allow-origin origins)")
	f.StringVar(&o.contentType, "content-type", "sse", "response Content-Type: sse (text/event-stream), keep (the capture's own) or a media `TYPE`")
	f.IntVar(&o.maxConns, "max-conns", replay.DefaultMaxConns, "connections open at once; one more is answered 503")
	positiveDuration(f, &o.writeTimeout, "write-timeout", replay.DefaultWriteTimeout, "a client that does not read must be dropped",
		"drop a client that reads nothing of a write for this long (logged)")
	positiveDuration(f, &o.bodyTimeout, "body-timeout", replay.DefaultBodyTimeout, "a client must send its request body in time", "how long a client may take to send its request body (then 408)")
	f.StringVar(&o.scenario, "scenario", "", "run a built-in scenario `NAME` through the reference relay")
	f.BoolVar(&o.listScenarios, "scenarios", false, "list the built-in scenarios")
	nonNegativeDuration(f, &o.idle, "idle", 3*time.Second, "0 = the relay's default, 3s", "scenario relay: idle timeout before it synthesizes cancelled IDLE_TIMEOUT")
	f.IntVar(&o.floodFrames, "flood-frames", 50000, "flood scenario: number of text frames")
	_ = cmd.RegisterFlagCompletionFunc("scenario", cobra.FixedCompletions(replay.ScenarioNames(), cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("content-type", cobra.FixedCompletions([]string{"sse", "keep"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// addFaultFlags declares the fault flags of a capture's replay.
func (o *serveOptions) addFaultFlags(f *pflag.FlagSet) {
	f.IntSliceVar(&o.drop, "drop", nil, "do not send frame `N` (repeatable)")
	f.IntSliceVar(&o.dup, "dup", nil, "send frame `N` twice (repeatable)")
	frameIndexVar(f, &o.cutAfter, "cut-after", "close the connection abruptly right after frame `N`")
	f.StringArrayVar(&o.stalls, "stall", nil, "pause `D@N`: D before frame N (e.g. 5s@3; repeatable); a bare D pauses before --stall-at N")
	frameIndexVar(f, &o.stallAt, "stall-at", "the frame `N` a bare --stall D pauses before")
	nonNegativeIntVar(f, &o.buffer, "buffer", "hold the output until `BYTES` are pending, as a buffering proxy does (0 = off)")
	nonNegativeIntVar(f, &o.burst, "burst", "send every `N` frames in one write (0 = off)")
	f.BoolVar(&o.gzip, "gzip", false, "compress the event stream (Content-Encoding: gzip), flushed per write")
	f.IntSliceVar(&o.garble, "garble", nil, "corrupt frame `N`'s data (repeatable)")
}

// serveRun is serve: the replay or the relay, listening until Ctrl-C.
func serveRun(o *serveOptions) error {
	if o.listScenarios {
		width := 0
		for _, sc := range replay.Scenarios() {
			width = max(width, len(sc.Name))
		}
		for _, sc := range replay.Scenarios() {
			fmt.Fprintf(o.stdout, "%-*s  %s\n", width, sc.Name, sc.Summary)
		}
		return nil
	}
	speed, err := replay.ParseSpeed(o.speedText)
	if err != nil {
		return err
	}
	allow, err := replay.ParseAllowList(o.allowOrigins)
	if err != nil {
		return err
	}
	ctype, err := replay.ParseContentType(o.contentType)
	if err != nil {
		return err
	}
	if o.lan && !o.changed("addr") {
		o.addr = "0.0.0.0:7070"
	}
	if err := replay.CheckBind(o.addr, o.lan); err != nil {
		return err
	}
	if err := serveFlagsApply(o.changed, o.scenario != ""); err != nil {
		return err
	}
	var handler http.Handler
	what := ""
	switch {
	case o.scenario != "" && o.hasCapture:
		return errors.New("give a CAPTURE or --scenario, not both")
	case o.scenario != "":
		handler, what, err = serveScenario(o, speed, allow)
	case o.hasCapture:
		handler, what, err = serveCapture(o, speed, allow, ctype)
	default:
		return errors.New("give a CAPTURE to replay or --scenario NAME (see --scenarios)")
	}
	if err != nil {
		return err
	}
	if o.maxConns < 1 {
		return fmt.Errorf("--max-conns %d: want at least 1", o.maxConns)
	}
	return serveListen(o, handler, what, allow)
}

// serveScenario is the handler of --scenario: the reference relay.
func serveScenario(o *serveOptions, speed float64, allow *replay.AllowList) (http.Handler, string, error) {
	if err := checkScenario(o.scenario); err != nil {
		return nil, "", err
	}
	relaySpeed := speed
	if relaySpeed > 1e9 {
		relaySpeed = 0
	}
	relay, err := replay.NewRelay(replay.RelayOptions{Scenario: o.scenario, Path: o.path, Speed: relaySpeed,
		Idle: o.idle, FloodFrames: o.floodFrames, Log: o.stderr})
	if err != nil {
		return nil, "", err
	}
	handler := replay.Guard(relay, replay.GuardOptions{Allow: allow, CORS: o.cors, BodyTimeout: o.bodyTimeout})
	return handler, "scenario " + o.scenario, nil
}

// serveCapture is the handler of a CAPTURE: its replay, with the faults
// the flags give.
func serveCapture(o *serveOptions, speed float64, allow *replay.AllowList, ctype string) (http.Handler, string, error) {
	rep, err := replay.LoadReplay(o.capture)
	if err != nil {
		return nil, "", err
	}
	for _, p := range rep.Problems {
		fmt.Fprintf(o.stderr, "framescope: warning: %s\n", decode.Sanitize(p.Message))
	}
	fs, err := serveFaults(o)
	if err != nil {
		return nil, "", err
	}
	if err := rep.CheckFaults(fs); err != nil {
		return nil, "", err
	}
	if sent := replay.ReplayContentType(rep.Meta, ctype); rep.Meta.HTTP && rep.Meta.ContentType != "" && sent != rep.Meta.ContentType {
		fmt.Fprintf(o.stderr, "framescope: note: the capture's Content-Type %s is served as %s (--content-type keep sends it as captured)\n",
			decode.Sanitize(rep.Meta.ContentType), decode.Sanitize(sent))
	}
	handler := rep.Handler(replay.ReplayOptions{Path: o.path, Speed: speed, Loop: o.loop, Allow: allow, CORS: o.cors,
		ContentType: ctype, BodyTimeout: o.bodyTimeout, Faults: fs, Log: o.stderr})
	what := fmt.Sprintf("%s (%s)", decode.Sanitize(o.capture), invariants.Plural(rep.Frames, "frame"))
	// Loading and planning a big capture leaves garbage as big as the
	// plan: give it back before serving for hours.
	debug.FreeOSMemory()
	return handler, what, nil
}

// serveFaults are the fault flags of a capture's replay.
func serveFaults(o *serveOptions) (faults.Set, error) {
	fs := faults.None()
	fs.Drop, fs.Dup, fs.Garble, fs.CutAfter = o.drop, o.dup, o.garble, o.cutAfter
	fs.Buffer, fs.Burst, fs.Gzip = o.buffer, o.burst, o.gzip
	if o.stallAt >= 0 && len(o.stalls) == 0 {
		return fs, errors.New("--stall-at N needs --stall DURATION")
	}
	for _, s := range o.stalls {
		if o.stallAt >= 0 && !strings.Contains(s, "@") {
			s = fmt.Sprintf("%s@%d", s, o.stallAt)
		}
		st, err := faults.ParseStall(s)
		if err != nil {
			return fs, fmt.Errorf("--stall %s: %w", s, err)
		}
		fs.Stalls = append(fs.Stalls, st)
	}
	return fs, nil
}

// serveListen listens on --addr and serves handler until Ctrl-C.
func serveListen(o *serveOptions, handler http.Handler, what string, allow *replay.AllowList) error {
	raw, err := net.Listen("tcp", o.addr)
	if err != nil {
		return err
	}
	ln := replay.Limit(raw, replay.ConnLimits{MaxConns: o.maxConns, WriteTimeout: o.writeTimeout, Log: o.stderr})
	if err := replay.CheckListener(ln.Addr(), o.lan); err != nil {
		ln.Close()
		return err
	}
	var lanURLs []string
	if o.lan {
		local := replay.LocalAddrs()
		allow.AddAddrs(local...) // what a phone types is this machine's address
		lanURLs = replay.LANURLs(ln.Addr(), o.path, local)
	}
	// Timeouts for every stage a client controls: the headers, the body
	// (BodyTimeout, in the handler), each write (the Listener) and an idle
	// keep-alive connection; and a connection cap.
	srv := replay.NewServer(handler)
	ctx, stop := notifyStop(o.ctx) // before the address is printed: a signal right after it counts
	defer stop()
	serveAnnounce(o, ln.Addr(), what, lanURLs)
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
}

// serveAnnounce says on stderr where the server listens (with --lan, the
// URLs another device uses).
func serveAnnounce(o *serveOptions, addr net.Addr, what string, lanURLs []string) {
	fmt.Fprintf(o.stderr, "serving %s at http://%s%s (Ctrl-C to stop)\n", what, addr, o.path)
	switch {
	case !o.lan:
	case len(lanURLs) > 0:
		for _, u := range lanURLs {
			fmt.Fprintf(o.stderr, "  from another device: %s\n", u)
		}
	case replay.CheckListener(addr, false) == nil:
		fmt.Fprintf(o.stderr, "  --lan, but --addr %s is loopback: only this machine can connect (--addr 0.0.0.0:PORT listens on the network)\n", addr)
	default:
		fmt.Fprintf(o.stderr, "  --lan: no network address of this machine found to reach %s from another device\n", addr)
	}
}

// serveFlagsApply refuses flags that the chosen mode would ignore: fault
// flags shape a capture's replay, the relay flags a scenario.
func serveFlagsApply(changed func(flag string) bool, scenario bool) error {
	replayOnly := []string{"drop", "dup", "cut-after", "stall", "stall-at", "buffer", "burst", "gzip", "garble", "loop", "content-type"}
	scenarioOnly := []string{"idle", "flood-frames"}
	names, mode, other := replayOnly, "--scenario", "a CAPTURE's replay"
	if !scenario {
		names, mode, other = scenarioOnly, "a CAPTURE's replay", "--scenario"
	}
	for _, n := range names {
		if changed(n) {
			return fmt.Errorf("--%s applies to %s, not to %s", n, other, mode)
		}
	}
	return nil
}
