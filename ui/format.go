package ui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"framescope/invariants"
)

// Numbers, sizes and durations as the panes write them.

// fmtBytes formats a size in bytes: 512 B, 1.5 KiB, 3.2 MiB, 1.05 GiB.
func fmtBytes(n int64) string { return invariants.FormatBytes(n, false) }

// fmtDur formats a duration compactly: 4ms, 800ms, 1.20s, 75s.
func fmtDur(d time.Duration) string {
	return strings.TrimPrefix(fmtGap(d), "+")
}

// fmtOffset formats a time since the response started: +1.204s, +2m03.1s.
func fmtOffset(d time.Duration) string {
	sign := "+"
	if d < 0 {
		sign, d = "-", -d
	}
	if d < 100*time.Second {
		return sign + strconv.FormatFloat(d.Seconds(), 'f', 3, 64) + "s"
	}
	m := int(d / time.Minute)
	s := (d % time.Minute).Seconds()
	return fmt.Sprintf("%s%dm%04.1fs", sign, m, s)
}

// fmtGap formats the gap between two frames: +4ms, +800ms, +1.20s, +75s.
func fmtGap(d time.Duration) string {
	sign := "+"
	if d < 0 {
		sign, d = "-", -d
	}
	switch {
	case d == 0:
		return sign + "0ms"
	case d < time.Millisecond:
		return sign + strconv.FormatInt(int64(d/time.Microsecond), 10) + "µs"
	case d < time.Second:
		return sign + strconv.FormatInt(int64(d/time.Millisecond), 10) + "ms"
	case d < 10*time.Second:
		return sign + strconv.FormatFloat(d.Seconds(), 'f', 2, 64) + "s"
	case d < 1000*time.Second:
		return sign + strconv.FormatInt(int64(d/time.Second), 10) + "s"
	}
	return sign + strconv.FormatInt(int64(d/time.Minute), 10) + "m"
}

// shortDuration formats a session's length for the picker: 800ms, 4.2s,
// 3m07s, 2h05m.
func shortDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Hour:
		d = d.Round(time.Second)
		return fmt.Sprintf("%dm%02ds", int(d/time.Minute), int(d%time.Minute/time.Second))
	}
	d = d.Round(time.Minute)
	return fmt.Sprintf("%dh%02dm", int(d/time.Hour), int(d%time.Hour/time.Minute))
}

// commas writes n with thousands separators (999,900).
func commas(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
