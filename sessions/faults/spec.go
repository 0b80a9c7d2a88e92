package faults

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"framescope/sessions"
)

// Fault is one of the proxy's --fault: defects injected into the streams
// the proxy passes to the app, on the frames of the upstream's real
// stream, with an optional match on the request's host and path. The
// faults are serve's (a Set: frame indexes count the dispatched SSE
// events, or the NDJSON lines, from 0) plus DropTerminal.
//
// SPEC is space-separated terms (docs/proxy.md, "Faults"):
//
//	cut-after=N      drop=N[,N…]     dup=N[,N…]     garble=N[,N…]
//	stall=DUR@N[,DUR@N…]             drop-terminal
//	buffer=SIZE      burst=N         gzip
//	host=GLOB        path=GLOB       (the match; path.Match patterns)
//
// and a last fault's value may end in @/PATH, short for path=/PATH:
// 'drop=3,7@/api/chat'.
type Fault struct {
	Set Set
	// DropTerminal drops the stream's last frame: a frame is held until
	// the next one starts, or dropped when the stream ends first.
	DropTerminal bool
	// Host and Path are path.Match patterns on the request's host (no
	// port, lower case) and URL path; "" matches any.
	Host, Path string
	Spec       string // as given, for notes and the X-Framescope-Fault header
}

// Parse reads one --fault SPEC.
func Parse(spec string) (Fault, error) {
	f := Fault{Set: None(), Spec: strings.Join(strings.Fields(spec), " ")}
	bad := func(term, why string) (Fault, error) {
		return Fault{}, fmt.Errorf("--fault %s: %s: %s (docs/proxy.md lists the faults)",
			sessions.CleanShort(strconv.Quote(spec), 80), sessions.CleanShort(strconv.Quote(term), 40), why)
	}
	terms := strings.Fields(spec)
	if len(terms) == 0 {
		return bad(spec, "no fault named")
	}
	faults := 0
	for _, term := range terms {
		name, val, hasVal := strings.Cut(term, "=")
		name = strings.ToLower(name)
		if hasVal && name != "host" && name != "path" && name != "stall" {
			// The @/PATH shorthand (stall's own @ is followed by a frame index).
			if at := strings.LastIndex(val, "@/"); at >= 0 {
				if f.Path != "" {
					return bad(term, "the path is given twice")
				}
				f.Path, val = val[at+1:], val[:at]
			}
		} else if name == "stall" {
			if at := strings.Index(val, "@/"); at >= 0 {
				f.Path, val = val[at+1:], val[:at]
			}
		}
		needVal := func() error {
			if !hasVal || val == "" {
				return fmt.Errorf("needs a value: %s=…", name)
			}
			return nil
		}
		var err error
		switch name {
		case "host", "path":
			if err = needVal(); err == nil {
				if _, perr := path.Match(val, ""); perr != nil {
					err = badGlob(val, perr)
				} else if name == "host" {
					f.Host = strings.ToLower(val)
				} else {
					f.Path = val
				}
			}
			if err != nil { // (it was dropped here: host=[ matched nothing, silently)
				return bad(term, sessions.Clean(err.Error()))
			}
			continue
		case "drop", "dup", "garble":
			var ns []int
			if err = needVal(); err == nil {
				ns, err = frameList(val)
			}
			switch name {
			case "drop":
				f.Set.Drop = ns
			case "dup":
				f.Set.Dup = ns
			default:
				f.Set.Garble = ns
			}
		case "cut-after":
			if err = needVal(); err == nil {
				f.Set.CutAfter, err = frameIndex(val)
			}
		case "stall":
			if err = needVal(); err == nil {
				for _, s := range strings.Split(val, ",") {
					st, serr := ParseStall(s)
					if serr != nil {
						err = serr
						break
					}
					f.Set.Stalls = append(f.Set.Stalls, st)
				}
			}
		case "drop-terminal":
			if hasVal {
				err = fmt.Errorf("takes no value")
			}
			f.DropTerminal = true
		case "gzip":
			if hasVal {
				err = fmt.Errorf("takes no value")
			}
			f.Set.Gzip = true
		case "buffer":
			if err = needVal(); err == nil {
				var n int64
				n, err = sessions.ParseSize(val)
				if err == nil && (n <= 0 || n > MaxHold) {
					err = fmt.Errorf("want a size from 1 byte to %s", sessions.FormatSize(MaxHold))
				}
				f.Set.Buffer = int(n)
			}
		case "burst":
			if err = needVal(); err == nil {
				f.Set.Burst, err = strconv.Atoi(val)
				if err != nil || f.Set.Burst <= 0 {
					err = fmt.Errorf("want a frame count from 1")
				}
			}
		default:
			return bad(term, "no such fault (cut-after, drop, dup, garble, stall, drop-terminal, buffer, burst, gzip; host=, path=)")
		}
		if err != nil {
			return bad(term, sessions.Clean(err.Error()))
		}
		faults++
	}
	if faults == 0 {
		return bad(spec, "a match but no fault")
	}
	if f.Path != "" { // a value's @/PATH
		if _, perr := path.Match(f.Path, ""); perr != nil {
			return bad(spec, sessions.Clean(badGlob(f.Path, perr).Error()))
		}
	}
	return f, nil
}

// MaxHold bounds the bytes the proxy's faults hold back: --fault buffer
// and burst, and a frame held whole to be dropped, garbled or repeated (a
// larger frame passes unfaulted, with a note).
const MaxHold = 8 << 20

func frameIndex(s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%s is not a frame index (a whole number from 0)", sessions.CleanShort(strconv.Quote(s), 40))
	}
	return n, nil
}

func frameList(s string) ([]int, error) {
	var ns []int
	for _, part := range strings.Split(s, ",") {
		n, err := frameIndex(part)
		if err != nil {
			return nil, err
		}
		ns = append(ns, n)
	}
	return ns, nil
}

// Matches says whether the fault applies to a request to host (with or
// without a port) and urlPath.
func (f Fault) Matches(host, urlPath string) bool {
	if f.Host != "" {
		h := strings.ToLower(host)
		if i := strings.LastIndexByte(h, ':'); i >= 0 && !strings.HasSuffix(h, "]") {
			h = h[:i]
		}
		h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
		if ok, _ := path.Match(f.Host, h); !ok {
			return false
		}
	}
	if f.Path != "" {
		if ok, _ := path.Match(f.Path, urlPath); !ok {
			return false
		}
	}
	return true
}

// Plan is what every --fault matching one request adds up to. Lists add
// up; a single value (cut-after, buffer, burst) is the first given.
type Plan struct {
	Set
	DropTerminal bool
	specs        []string
}

// PlanFor merges the faults matching a request; ok is false when none does.
func PlanFor(faults []Fault, host, urlPath string) (Plan, bool) {
	plan := Plan{Set: None()}
	for _, f := range faults {
		if !f.Matches(host, urlPath) {
			continue
		}
		x := f.Set
		plan.Drop = append(plan.Drop, x.Drop...)
		plan.Dup = append(plan.Dup, x.Dup...)
		plan.Garble = append(plan.Garble, x.Garble...)
		plan.Stalls = append(plan.Stalls, x.Stalls...)
		if plan.CutAfter < 0 {
			plan.CutAfter = x.CutAfter
		}
		if plan.Buffer == 0 {
			plan.Buffer = x.Buffer
		}
		if plan.Burst == 0 {
			plan.Burst = x.Burst
		}
		plan.Gzip = plan.Gzip || x.Gzip
		plan.DropTerminal = plan.DropTerminal || f.DropTerminal
		plan.specs = append(plan.specs, f.Spec)
	}
	return plan, len(plan.specs) > 0
}

// String names the faults applied, as the X-Framescope-Fault header and
// the capture's note say them.
func (p Plan) String() string { return strings.Join(p.specs, "; ") }

// badGlob is the refusal of a malformed path.Match pattern (an unclosed
// [, a trailing \\): it would match nothing, and so do nothing.
func badGlob(pattern string, err error) error {
	return fmt.Errorf("%s is not a glob pattern (path.Match: %v; a literal [ is written \\[)", sessions.CleanShort(strconv.Quote(pattern), 40), err)
}
