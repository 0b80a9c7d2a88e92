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
// nanoseconds (the calendar arithmetic done here, not by time.Date).
func parseUnix[T string | []byte](s T) (int64, int32, bool) {
	n := len(s)
	if n < 19 {
		return 0, 0, false
	}
	num := func(i, w int) (int, bool) {
		v := 0
		for j := i; j < i+w; j++ {
			c := s[j]
			if c < '0' || c > '9' {
				return 0, false
			}
			v = v*10 + int(c-'0')
		}
		return v, true
	}
	year, ok1 := num(0, 4)
	month, ok2 := num(5, 2)
	day, ok3 := num(8, 2)
	hour, ok4 := num(11, 2)
	min, ok5 := num(14, 2)
	sec, ok6 := num(17, 2)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || s[4] != '-' || s[7] != '-' ||
		(s[10] != 'T' && s[10] != 't' && s[10] != ' ') || s[13] != ':' || s[16] != ':' {
		return 0, 0, false
	}
	if month < 1 || month > 12 || day < 1 || day > invariants.DaysIn(year, month) || hour > 23 || min > 59 || sec > 60 {
		return 0, 0, false
	}
	i := 19
	nsec := 0
	if i < n && (s[i] == '.' || s[i] == ',') {
		i++
		start := i
		scale := 100000000
		for i < n && s[i] >= '0' && s[i] <= '9' {
			nsec += int(s[i]-'0') * scale
			scale /= 10
			i++
		}
		if i == start {
			return 0, 0, false
		}
	}
	offset := 0
	if i < n {
		switch s[i] {
		case 'Z', 'z':
			i++
		case '+', '-':
			sign := 1
			if s[i] == '-' {
				sign = -1
			}
			i++
			oh, ok := 0, false
			if i+2 <= n {
				oh, ok = num(i, 2)
			}
			if !ok || oh > 23 {
				return 0, 0, false
			}
			i += 2
			if i < n && s[i] == ':' {
				i++
			}
			om, ok := 0, false
			if i+2 <= n {
				om, ok = num(i, 2)
			}
			if !ok || om > 59 {
				return 0, 0, false
			}
			i += 2
			offset = sign * (oh*3600 + om*60)
		default:
			return 0, 0, false
		}
	}
	if i != n {
		return 0, 0, false
	}
	if sec == 60 {
		sec = 59 // leap second: keep ordering sane
	}
	days := invariants.DaysFromCivil(year, month, day)
	return days*86400 + int64(hour*3600+min*60+sec) - int64(offset), int32(nsec), true
}
