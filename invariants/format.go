package invariants

import (
	"fmt"
	"strconv"
	"time"

	"framescope/decode"
)

// The few formats every alarm message and pane shares, in one place.

// FormatBytes formats a byte count in binary units with one decimal
// ("1.5 KiB", "3.2 MiB"; "2.00 GiB" from a GiB on). With whole, an exact
// multiple of the unit prints without the decimal ("256 KiB"), as the
// engine's size tiers read.
func FormatBytes(n int64, whole bool) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case n >= 1<<20 && whole && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10 && whole && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// FormatDur rounds a duration to the millisecond for a message.
func FormatDur(d time.Duration) string { return d.Round(time.Millisecond).String() }

// Label says how a stream ended, for messages ("EOF", "transport
// error: …", "cancelled by the client").
func (e End) Label() string {
	switch e.Kind {
	case EndError:
		if e.Detail != "" {
			return "transport error: " + decode.Clip(e.Detail, 80)
		}
		return "transport error"
	case EndCancelled:
		return "cancelled by the client"
	}
	return "EOF"
}

// Plural counts a noun: "1 delta", "2 deltas", "0 chunks".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
