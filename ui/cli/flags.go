package cli

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"framescope/invariants"
	"framescope/invariants/dialects"
	"framescope/invariants/dialects/pc3"
	"framescope/sessions"
	"framescope/sessions/live"
	"framescope/sessions/replay"
)

// Flag values that check their range as they are parsed: a value out of
// range is a one-line error naming the flag (exit 2), never a silent
// surprise such as a negative timeout that means "off" or a speed that
// overflows into "as fast as possible".

// durationFlag is a time.Duration flag with a lower bound.
type durationFlag struct {
	p        *time.Duration
	positive bool // 0 is refused too
	zeroOff  bool // 0 is stored as -1, the checker's "off"
	why      string
}

// nonNegativeDuration registers a duration flag that refuses negative
// values; why explains what the least values mean.
func nonNegativeDuration(f *pflag.FlagSet, p *time.Duration, name string, value time.Duration, why, usage string) {
	*p = value
	f.Var(&durationFlag{p: p, why: why}, name, usage)
}

// positiveDuration registers a duration flag that refuses 0 and negatives.
func positiveDuration(f *pflag.FlagSet, p *time.Duration, name string, value time.Duration, why, usage string) {
	*p = value
	f.Var(&durationFlag{p: p, positive: true, why: why}, name, usage)
}

// ttfeDuration registers --ttfe: 0 turns the bound off (the checker's
// negative), negatives are refused; unset (value 0) leaves the dialect's
// default (invariants.DefaultTTFE, or none for a subscription stream).
func ttfeDuration(f *pflag.FlagSet, p *time.Duration, value time.Duration, usage string) {
	*p = value
	f.Var(&durationFlag{p: p, zeroOff: true, why: "0 turns the ttfe check off"}, "ttfe", usage)
}

func (d *durationFlag) Set(s string) error {
	v, err := time.ParseDuration(s)
	if err != nil {
		// A bare number is seconds, as curl reads --connect-timeout 2.
		f, ferr := strconv.ParseFloat(s, 64)
		if ferr != nil || math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > 1e9 {
			return errors.New("want seconds or a duration such as 500ms, 30s or 2m")
		}
		v = time.Duration(f * float64(time.Second))
	}
	switch {
	case v < 0:
		return fmt.Errorf("must not be negative (%s)", d.why)
	case v == 0 && d.positive:
		return fmt.Errorf("must be more than 0 (%s)", d.why)
	case v == 0 && d.zeroOff:
		v = -1
	}
	*d.p = v
	return nil
}

func (d *durationFlag) String() string {
	if d.p == nil || *d.p == 0 || (*d.p < 0 && d.zeroOff) {
		return "0" // help shows no "(default 0s)": the usage says what 0 means
	}
	return d.p.String()
}

func (d *durationFlag) Type() string { return "duration" }

// frameFlag is a 0-based frame index; its default -1 means "none".
type frameFlag struct{ p *int }

func frameIndexVar(f *pflag.FlagSet, p *int, name string, usage string) {
	*p = -1
	f.Var(frameFlag{p}, name, usage)
}

func (fl frameFlag) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return errors.New("want a frame index (0, 1, 2, …)")
	}
	if n < 0 {
		return errors.New("frame indexes start at 0")
	}
	*fl.p = n
	return nil
}

func (fl frameFlag) String() string {
	if fl.p == nil || *fl.p < 0 {
		return "" // none: help shows no "(default -1)"
	}
	return strconv.Itoa(*fl.p)
}

func (fl frameFlag) Type() string { return "int" }

// relaySpeedFlag is demo's --speed, read as serve reads its own
// (replay.ParseSpeed): a factor no slower than replay.MinSpeed, or 0 / max
// for no pauses (stored as 0, what the relay takes for "no pauses").
type relaySpeedFlag struct{ p *float64 }

func relaySpeedVar(f *pflag.FlagSet, p *float64, name string, value float64, usage string) {
	*p = value
	f.Var(relaySpeedFlag{p}, name, usage)
}

func (fl relaySpeedFlag) Set(s string) error {
	v, err := replay.ParseSpeed(s)
	if err != nil {
		_, msg, _ := strings.Cut(err.Error(), ": ")
		return errors.New(msg)
	}
	if math.IsInf(v, 1) {
		v = 0
	}
	*fl.p = v
	return nil
}

func (fl relaySpeedFlag) String() string {
	if fl.p == nil {
		return "0"
	}
	return strconv.FormatFloat(*fl.p, 'g', -1, 64)
}

func (fl relaySpeedFlag) Type() string { return "float" }

// entryVar registers --entry: a HAR entry's 0-based place in log.entries
// (every entry counted, SSE or not: the N of FILE#N); unset (or -1 given)
// is automatic, shown as no default in help.
func entryVar(f *pflag.FlagSet, p *int, usage string) {
	*p = -1
	f.Var(entryFlag{p}, "entry", usage)
}

type entryFlag struct{ p *int }

func (fl entryFlag) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < -1 {
		return errors.New("want a HAR entry's place in log.entries (0, 1, 2, …, as check names it FILE#N; -1 = automatic)")
	}
	*fl.p = n
	return nil
}

func (fl entryFlag) String() string {
	if fl.p == nil || *fl.p < 0 {
		return ""
	}
	return strconv.Itoa(*fl.p)
}

func (fl entryFlag) Type() string { return "int" }

// registerStopLimits registers --max-bytes and --max-frames (record and
// connect): a deliberate stop, recorded and reported as a cancel.
func registerStopLimits(f *pflag.FlagSet, maxBytes *string, maxFrames *int) {
	f.StringVar(maxBytes, "max-bytes", "", "stop the stream once the capture holds `SIZE` of it (e.g. 100MB; cut after the last whole event; ends as cancelled; 0 = no limit)")
	f.Var(maxFramesFlag{maxFrames}, "max-frames", "stop the stream right after `N` frames (ends as cancelled; 0 = no limit)")
}

// stopLimits reads --max-bytes and --max-frames.
func stopLimits(maxBytes string, maxFrames int) (live.StopLimits, error) {
	var l live.StopLimits
	if maxBytes != "" {
		n, err := sessions.ParseSize(maxBytes)
		if err != nil {
			return l, fmt.Errorf("--max-bytes: %w", err)
		}
		l.MaxBytes = n
	}
	l.MaxFrames = maxFrames
	return l, nil
}

type maxFramesFlag struct{ p *int }

func (fl maxFramesFlag) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return errors.New("want a number of frames (0 = no limit)")
	}
	*fl.p = n
	return nil
}

func (fl maxFramesFlag) String() string {
	if fl.p == nil || *fl.p == 0 {
		return "0"
	}
	return strconv.Itoa(*fl.p)
}

func (fl maxFramesFlag) Type() string { return "int" }

const idleHelp = "idle-gap window (default: the dialect's own, 30s for pc3)"

// idleZero and ttfeHelp explain the timing flags' least values.
const (
	idleZero = "0 = the dialect's own window"
	ttfeHelp = "time-to-first-event bound (default 2s; none for a subscription stream such as go-bus; 0 = off)"
)

// addDialectFlag adds --dialect: force a dialect instead of detecting it.
func addDialectFlag(cmd *cobra.Command, v *string) {
	cmd.Flags().StringVar(v, "dialect", "", "force the stream's `NAME`d dialect instead of detecting it (list: show them)")
	cmd.ValidArgsFunction = completeSessionIDs(true) // FILE or @ID
	_ = cmd.RegisterFlagCompletionFunc("dialect", cobra.FixedCompletions(append(dialects.Names(), "list"), cobra.ShellCompDirectiveNoFileComp))
}

// checkerOptions are the checker's options from the flags every reading
// command shares: the dialect and flavor checked, then the registry loaded.
func checkerOptions(dialect, flavor, registry string, idle, ttfe time.Duration) (invariants.Options, error) {
	opts := invariants.Options{Idle: idle, TTFE: ttfe, Dialect: dialect, Flavor: flavor}
	if err := resolveDialect(dialect); err != nil {
		return opts, err
	}
	if err := resolveFlavor(flavor); err != nil {
		return opts, err
	}
	if registry != "" {
		reg, err := pc3.LoadRegistry(registry)
		if err != nil {
			return opts, err
		}
		opts.Registry = reg
	}
	return opts, nil
}

// addFlavorFlag adds --flavor: force a dialect's provider flavor.
func addFlavorFlag(cmd *cobra.Command, v *string) {
	cmd.Flags().StringVar(v, "flavor", "", "force the dialect's provider `NAME` (openai-chat: groq, mistral, …) instead of recognising it (list: show them)")
	_ = cmd.RegisterFlagCompletionFunc("flavor", cobra.FixedCompletions(append(flavorNames(), "list"), cobra.ShellCompDirectiveNoFileComp))
}

// flavorNames lists every flavor any dialect knows, sorted, once each.
func flavorNames() []string {
	var out []string
	for _, d := range dialects.All {
		if f, ok := d.(invariants.Flavorer); ok {
			for _, fl := range f.Flavors() {
				if !slices.Contains(out, fl.Name) {
					out = append(out, fl.Name)
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// resolveFlavor checks a --flavor value: "" or a flavor some dialect knows.
func resolveFlavor(name string) error {
	if name == "" || slices.Contains(flavorNames(), name) {
		return nil
	}
	known := flavorNames()
	if len(known) == 0 {
		return fmt.Errorf("--flavor %q: no dialect has provider flavors", name)
	}
	return fmt.Errorf("--flavor %q: unknown (known: %s; --flavor list describes them)", name, strings.Join(known, ", "))
}

// listFlavors prints every dialect's flavors: how each is recognised and
// what it changes.
func listFlavors(w io.Writer) error {
	for _, d := range dialects.All {
		f, ok := d.(invariants.Flavorer)
		if !ok || len(f.Flavors()) == 0 {
			continue
		}
		fmt.Fprintf(w, "%s\n", d.Name())
		writeFlavors(w, f.Flavors())
	}
	return nil
}

// writeFlavors is the flavor table of one dialect.
func writeFlavors(w io.Writer, fls []invariants.Flavor) {
	fmt.Fprintf(w, "  %-12s %-14s %s\n", "FLAVOR", "PROVIDER", "RECOGNISED BY · CHANGES")
	for _, fl := range fls {
		fmt.Fprintf(w, "  %-12s %-14s %s\n", fl.Name, fl.Provider, fl.Recognised)
		if fl.Changes != "" {
			fmt.Fprintf(w, "  %-12s %-14s changes: %s\n", "", "", fl.Changes)
		}
	}
}

// listDialects prints every dialect with its one-line description.
func listDialects(w io.Writer) error {
	for _, d := range dialects.All {
		fmt.Fprintf(w, "%-20s %s\n", d.Name(), d.Description())
	}
	return nil
}

// timingFlags are check's delivery bounds and latency budgets
// (docs/timing.md): each budget is off unless given.
type timingFlags struct {
	stall, maxFirstContent, maxGap time.Duration
	minRate                        float64
	requireTiming                  bool
}

func addTimingFlags(f *pflag.FlagSet, t *timingFlags) {
	*t = timingFlags{stall: invariants.DefaultStall}
	f.Var(&durationFlag{p: &t.stall, zeroOff: true, why: "0 turns delivery-stall off"}, "stall", "content gap inside a turn that raises delivery-stall (0 = off)")
	positiveDuration(f, &t.maxFirstContent, "max-first-content", 0, "a budget of 0 could never be met", "budget: raise budget-first-content (error) when a turn's first content arrives later")
	positiveDuration(f, &t.maxGap, "max-gap", 0, "a budget of 0 could never be met", "budget: raise budget-gap (error) when two content frames are further apart")
	f.Var(&rateFlag{p: &t.minRate}, "min-rate", "budget: raise budget-rate (error) when a turn's content comes slower, in deltas per second (20/s, 20)")
	f.BoolVar(&t.requireTiming, "require-timing", false, "fail an input (exit 1) whose latency budgets cannot be checked (no arrival times)")
}

// apply puts the bounds into the checker's options.
func (t timingFlags) apply(o *invariants.Options) {
	o.Stall, o.MaxFirstContent, o.MaxGap, o.MinRate = t.stall, t.maxFirstContent, t.maxGap, t.minRate
}

// given lists the budgets given, as flags ("--max-gap 3s"), for the
// report to say which it could not check.
func (t timingFlags) given() []string {
	var out []string
	if t.maxFirstContent > 0 {
		out = append(out, "--max-first-content "+invariants.FormatDur(t.maxFirstContent))
	}
	if t.maxGap > 0 {
		out = append(out, "--max-gap "+invariants.FormatDur(t.maxGap))
	}
	if t.minRate > 0 {
		out = append(out, "--min-rate "+strconv.FormatFloat(t.minRate, 'g', -1, 64)+"/s")
	}
	return out
}

// rateFlag is a rate in deltas per second: "20/s", "20" or "1200/min".
type rateFlag struct{ p *float64 }

func (r *rateFlag) Set(s string) error {
	v, per := strings.TrimSpace(s), 1.0
	switch {
	case strings.HasSuffix(v, "/s"):
		v = strings.TrimSuffix(v, "/s")
	case strings.HasSuffix(v, "/min"):
		v, per = strings.TrimSuffix(v, "/min"), 60
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	// A rate that is not finite, or so small it rounds to zero a second
	// (5e-324/min), would turn the budget off in silence.
	perSec := f / per
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f <= 0 || perSec <= 0 {
		return errors.New("want a positive rate of content deltas such as 20/s, 20 or 1200/min")
	}
	*r.p = perSec
	return nil
}

func (r *rateFlag) String() string {
	if r.p == nil || *r.p == 0 {
		return ""
	}
	return strconv.FormatFloat(*r.p, 'g', -1, 64) + "/s"
}

func (r *rateFlag) Type() string { return "rate" }

// countFlag is a whole number of 0 or more (a byte or frame count).
type countFlag struct{ p *int }

func nonNegativeIntVar(f *pflag.FlagSet, p *int, name, usage string) {
	*p = 0
	f.Var(countFlag{p}, name, usage)
}

func (c countFlag) Set(s string) error {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 0 {
		return errors.New("want a whole number, 0 or more")
	}
	*c.p = n
	return nil
}

func (c countFlag) String() string {
	if c.p == nil || *c.p == 0 {
		return ""
	}
	return strconv.Itoa(*c.p)
}

func (c countFlag) Type() string { return "int" }

// entryURLVar registers --entry-url, which picks HAR entries by URL; it
// and --entry exclude each other.
func entryURLVar(cmd *cobra.Command, p *string, usage string) {
	cmd.Flags().StringVar(p, "entry-url", "", usage)
	cmd.MarkFlagsMutuallyExclusive("entry", "entry-url")
}
