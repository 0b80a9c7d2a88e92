package report

import (
	"strconv"
	"strings"
	"time"

	"framescope/decode"
	"framescope/invariants"
)

// JUnitClass is an input's JUnit classname: "framescope_" and the input
// with its dots, slashes and backslashes made underscores. CI UIs
// (Jenkins, GitLab, Azure) split a classname at its dots into packages
// and a class, and some at slashes too: captures/a.sse became package
// "framescope.captures/a", class "sse".
func JUnitClass(source string) string {
	return "framescope_" + strings.Map(func(r rune) rune {
		switch r {
		case '.', '/', '\\':
			return '_'
		}
		return r
	}, decode.Sanitize(source))
}

// junitSeconds is a JUnit time attribute: seconds, to the millisecond.
func junitSeconds(d time.Duration) string {
	return strconv.FormatFloat(max(d, 0).Seconds(), 'f', 3, 64)
}

// turnTime is a testcase's time: the turn's duration as the capture's
// arrival times measured it (0 for a capture without them). It is the
// stream's time, not the checker's: the same capture reports the same
// times on every run.
func turnTime(t *invariants.Turn) time.Duration {
	if !t.Timing.Timed {
		return 0
	}
	return t.Timing.Duration
}

// streamTime is the suite's time: its turns' times summed.
func (r *Report) streamTime() time.Duration {
	var d time.Duration
	_ = r.eachTurn(func(_ int, t *invariants.Turn) error {
		d += turnTime(t)
		return nil
	})
	return d
}
