package pc3

import (
	"framescope/invariants"
	"time"
)

// ParseTimestamp accepts ISO-8601 / RFC 3339 date-times: a full date, 'T'
// (or 't' or a space, as RFC 3339 allows), hh:mm:ss with an optional
// fraction, and an optional zone (Z or ±hh:mm / ±hhmm; without one the
// time is read as UTC). It is hand-rolled because time.Parse with layouts
// costs more than the rest of a frame's check.
func ParseTimestamp(s string) (time.Time, bool) { return parseTimestamp(s) }

// ParseTimestampBytes is ParseTimestamp on bytes, without a copy.
func ParseTimestampBytes(b []byte) (time.Time, bool) { return parseTimestamp(b) }

func parseTimestamp[T string | []byte](s T) (time.Time, bool) {
	sec, nsec, ok := parseUnix(s)
	if !ok {
		return time.Time{}, false
	}
	return time.Unix(sec, int64(nsec)).UTC(), true
}

// instant is a parsed timestamp as Unix seconds and nanoseconds: what the
// checker keeps and compares per frame, without building a time.Time.
type instant struct {
	sec  int64
	nsec int32
}

func (a instant) before(b instant) bool {
	return a.sec < b.sec || a.sec == b.sec && a.nsec < b.nsec
}

func (a instant) time() time.Time { return time.Unix(a.sec, int64(a.nsec)).UTC() }

// parseUnix is ParseTimestamp's parser: the instant as Unix seconds and
// nanoseconds, read by the shared allocation-free RFC 3339 parser that the
// other dialects' server stamps use (invariants.ParseRFC3339).
func parseUnix[T string | []byte](s T) (int64, int32, bool) {
	at, ok := invariants.ParseRFC3339([]byte(s))
	return at.Sec, at.Nsec, ok
}
