package invariants

import "time"

// ParseTimestamp accepts ISO-8601 / RFC 3339 date-times: a full date, 'T'
// (or 't' or a space, as RFC 3339 allows), hh:mm:ss with an optional
// fraction, and an optional zone (Z or ±hh:mm / ±hhmm; without one the
// time is read as UTC). It is hand-rolled because time.Parse with layouts
// costs more than the rest of a frame's check.
func ParseTimestamp(s string) (time.Time, bool) { return parseTimestamp(s) }

// ParseTimestampBytes is ParseTimestamp on bytes, without a copy.
func ParseTimestampBytes(b []byte) (time.Time, bool) { return parseTimestamp(b) }

func parseTimestamp[T string | []byte](s T) (time.Time, bool) {
	n := len(s)
	if n < 19 {
		return time.Time{}, false
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
		return time.Time{}, false
	}
	if month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour > 23 || min > 59 || sec > 60 {
		return time.Time{}, false
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
			return time.Time{}, false
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
				return time.Time{}, false
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
				return time.Time{}, false
			}
			i += 2
			offset = sign * (oh*3600 + om*60)
		default:
			return time.Time{}, false
		}
	}
	if i != n {
		return time.Time{}, false
	}
	if sec == 60 {
		sec = 59 // leap second: keep ordering sane
	}
	t := time.Date(year, time.Month(month), day, hour, min, sec, nsec, time.UTC)
	return t.Add(-time.Duration(offset) * time.Second), true
}

func daysIn(year, month int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}
