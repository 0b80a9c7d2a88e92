package gobus

import (
	"time"

	"framescope/decode"
	"framescope/invariants"
)

// The Event struct's time.Time members (createdAt, startedAt,
// completedAt) unmarshal through time.Time.UnmarshalJSON: a JSON string,
// its raw bytes not unescaped (go.dev/issue/47353), read by
// parseStrictRFC3339 (go/src/time/format_rfc3339.go), which since Go 1.20
// takes what time.Parse(time.RFC3339, s) takes: its stricter checks are
// disabled (go.dev/issue/54580). Anything else fails the whole
// json.Unmarshal, and the reference client drops the event.

// goTime reads a time.Time member's raw JSON value as Go's client would:
// ok false when the client refuses it.
func goTime(v decode.Raw, m *invariants.Mapping) (invariants.Instant, bool) {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return invariants.Instant{}, false
	}
	if goTimeShape(v[1 : len(v)-1]) {
		if at, ok := m.RFC3339(v); ok {
			return at, true
		}
	}
	// Off the shape Go's own marshal writes: let time.Parse say (it
	// allocates, but only for a stamp no Go server wrote).
	t, err := time.Parse(time.RFC3339, string(v[1:len(v)-1]))
	if err != nil {
		return invariants.Instant{}, false
	}
	return invariants.Instant{Sec: t.Unix(), Nsec: int32(t.Nanosecond())}, true
}

// goTimeShape is the shape Go's MarshalJSON writes (RFC3339Nano): "T",
// seconds 00-59, a period before any fraction, a zone of "Z" or ±hh:mm.
// ParseRFC3339 is lenient beyond it (a space for T, no zone, a leap
// second) where time.Parse is not; within it the two agree, and
// ParseRFC3339 checks the digits, ranges and calendar.
func goTimeShape(s []byte) bool {
	if len(s) < len("2006-01-02T15:04:05Z") || s[10] != 'T' || s[16] != ':' {
		return false
	}
	if s[17] > '5' { // seconds 60-99: Go takes 00-59
		return false
	}
	i := len("2006-01-02T15:04:05")
	if s[i] == '.' {
		i++
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	zone := s[i:]
	switch len(zone) {
	case 1:
		return zone[0] == 'Z'
	case len("-07:00"):
		return (zone[0] == '+' || zone[0] == '-') && zone[3] == ':'
	}
	return false
}
