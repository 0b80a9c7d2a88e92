package invariants

import (
	"time"

	"framescope/decode"
)

// Server timestamps (docs/timing.md "Server timestamps"): where a dialect
// stamps each frame, its mapper parses the stamp (the parsers here, which
// allocate nothing) and hands it to Mapping.Stamp; the Engine keeps each
// turn's earliest and latest stamps, and delivery-buffered reads their
// spread against the arrivals, as PC3's checker does with its envelope
// timestamp. A stamp that does not parse is ignored for timing: whether it
// is well-formed is the dialect's own rules' business.

// Instant is a server timestamp as Unix seconds and nanoseconds, compared
// and subtracted without building a time.Time.
type Instant struct {
	Sec  int64
	Nsec int32
}

// Before reports whether a is earlier than b.
func (a Instant) Before(b Instant) bool {
	return a.Sec < b.Sec || a.Sec == b.Sec && a.Nsec < b.Nsec
}

// Sub is a − b (saturating at about ±292 years, time.Duration's range).
func (a Instant) Sub(b Instant) time.Duration {
	ds := a.Sec - b.Sec
	const maxSec = int64(1<<63-1) / int64(time.Second)
	if ds > maxSec-1 {
		return time.Duration(1<<63 - 1)
	}
	if ds < -maxSec+1 {
		return time.Duration(-1 << 63)
	}
	return time.Duration(ds)*time.Second + time.Duration(a.Nsec-b.Nsec)
}

// Time is the instant as a time.Time (UTC).
func (a Instant) Time() time.Time { return time.Unix(a.Sec, int64(a.Nsec)).UTC() }

// StampRFC3339 parses a JSON string holding an RFC 3339 / ISO 8601
// date-time (PC3's timestamp, public-sse-v1's server_timestamp, go-bus's
// createdAt, Ollama's created_at). A string with escapes is no stamp: no
// server writes one, and unescaping would allocate.
func StampRFC3339(r decode.Raw) (Instant, bool) {
	if len(r) < 2 || r[0] != '"' || r[len(r)-1] != '"' {
		return Instant{}, false
	}
	return ParseRFC3339([]byte(r[1 : len(r)-1]))
}

// StampUnixSeconds parses a JSON number of Unix seconds (OpenAI chat's
// created), a fraction allowed.
func StampUnixSeconds(r decode.Raw) (Instant, bool) { return parseUnixNumber(r, 0) }

// StampUnixMillis parses a JSON number of Unix milliseconds (typed-lines'
// and AG-UI's timestamp), a fraction allowed.
func StampUnixMillis(r decode.Raw) (Instant, bool) { return parseUnixNumber(r, 3) }

// parseUnixNumber reads a non-negative JSON number of Unix seconds scaled
// by 10^-shift (3: milliseconds): digits, an optional fraction, no sign or
// exponent (no server sends one; a stamp that is not plain is ignored).
func parseUnixNumber(r decode.Raw, shift int) (Instant, bool) {
	n := len(r)
	i := 0
	var whole int64
	for i < n && r[i] >= '0' && r[i] <= '9' {
		if i >= 18 { // past int64 seconds of any plausible clock
			return Instant{}, false
		}
		whole = whole*10 + int64(r[i]-'0')
		i++
	}
	if i == 0 {
		return Instant{}, false
	}
	// The fraction of the unit, in nanoseconds of the unit.
	var frac int64
	if i < n && r[i] == '.' {
		i++
		start := i
		scale := int64(100000000)
		for i < n && r[i] >= '0' && r[i] <= '9' {
			frac += int64(r[i]-'0') * scale
			scale /= 10
			i++
		}
		if i == start {
			return Instant{}, false
		}
	}
	if i != n {
		return Instant{}, false
	}
	if shift == 0 {
		return Instant{Sec: whole, Nsec: int32(frac)}, true
	}
	// Milliseconds: whole ms and a fraction of one.
	return Instant{Sec: whole / 1000, Nsec: int32(whole%1000)*1e6 + int32(frac/1000)}, true
}

// ParseRFC3339 parses an RFC 3339 / ISO 8601 date-time: a full date, 'T'
// (or 't' or a space, as RFC 3339 allows), hh:mm:ss with an optional
// fraction, and an optional zone (Z or ±hh:mm / ±hhmm; without one the time
// is read as UTC). Hand-rolled and not generic (a generic parser's calls go
// through a dictionary): time.Parse costs more than the rest of a frame's
// mapping, and this allocates nothing.
func ParseRFC3339(s []byte) (Instant, bool) {
	if len(s) < 19 {
		return Instant{}, false
	}
	base, ok := parseMinute(s[:16])
	if !ok {
		return Instant{}, false
	}
	return parseSeconds(base, s[16:])
}

// parseMinute reads "YYYY-MM-DDThh:mm" as Unix seconds.
func parseMinute(s []byte) (int64, bool) {
	year, ok1 := digits(s, 0, 4)
	month, ok2 := digits(s, 5, 2)
	day, ok3 := digits(s, 8, 2)
	hour, ok4 := digits(s, 11, 2)
	minute, ok5 := digits(s, 14, 2)
	if !(ok1 && ok2 && ok3 && ok4 && ok5) || s[4] != '-' || s[7] != '-' ||
		(s[10] != 'T' && s[10] != 't' && s[10] != ' ') || s[13] != ':' {
		return 0, false
	}
	if month < 1 || month > 12 || day < 1 || day > DaysIn(year, month) || hour > 23 || minute > 59 {
		return 0, false
	}
	return DaysFromCivil(year, month, day)*86400 + int64(hour*3600+minute*60), true
}

// parseSeconds reads ":ss[.fraction][zone]" after a minute at base.
func parseSeconds(base int64, s []byte) (Instant, bool) {
	n := len(s)
	sec, ok := digits(s, 1, 2)
	if n < 3 || s[0] != ':' || !ok || sec > 60 {
		return Instant{}, false
	}
	i := 3
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
			return Instant{}, false
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
				oh, ok = digits(s, i, 2)
			}
			if !ok || oh > 23 {
				return Instant{}, false
			}
			i += 2
			if i < n && s[i] == ':' {
				i++
			}
			om, ok := 0, false
			if i+2 <= n {
				om, ok = digits(s, i, 2)
			}
			if !ok || om > 59 {
				return Instant{}, false
			}
			i += 2
			offset = sign * (oh*3600 + om*60)
		default:
			return Instant{}, false
		}
	}
	if i != n {
		return Instant{}, false
	}
	if sec == 60 {
		sec = 59 // a leap second: keep the order sane
	}
	return Instant{Sec: base + int64(sec) - int64(offset), Nsec: int32(nsec)}, true
}

// digits reads the w decimal digits of s at i (false when one is not).
func digits(s []byte, i, w int) (int, bool) {
	if i+w > len(s) {
		return 0, false
	}
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

// stampCache remembers the minute of the last RFC 3339 stamp parsed: a
// stream's stamps share it frame after frame, so the date arithmetic is
// done once a minute and a stamp costs a 16-byte compare and its seconds.
type stampCache struct {
	minute [16]byte
	base   int64
	ok     bool
}

// rfc3339 is StampRFC3339 through the cache.
func (c *stampCache) rfc3339(r decode.Raw) (Instant, bool) {
	if len(r) < 21 || r[0] != '"' || r[len(r)-1] != '"' {
		return Instant{}, false
	}
	s := []byte(r[1 : len(r)-1])
	if !c.ok || string(s[:16]) != string(c.minute[:]) {
		base, ok := parseMinute(s[:16])
		if !ok {
			return Instant{}, false
		}
		copy(c.minute[:], s[:16])
		c.base, c.ok = base, true
	}
	return parseSeconds(c.base, s[16:])
}

// DaysFromCivil is the number of days from 1970-01-01 to the proleptic
// Gregorian date (H. Hinnant's algorithm: eras of 400 years).
func DaysFromCivil(year, month, day int) int64 {
	y := int64(year)
	if month <= 2 {
		y--
	}
	era := y
	if era < 0 {
		era -= 399
	}
	era /= 400
	yoe := y - era*400
	mp := int64(month) + 9
	if month > 2 {
		mp = int64(month) - 3
	}
	doy := (153*mp+2)/5 + int64(day) - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// DaysIn is the number of days in month of year (leap years counted).
func DaysIn(year, month int) int {
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

// stampSpread is a turn's server stamps as the Engine keeps them: the
// earliest and latest of its timed frames (stamps: how many were
// stamped), the coarsest resolution among them, and what the client
// waited (before: the arrival of the frame before the turn, or the
// response start; lastAt: the turn's latest frame).
type stampSpread struct {
	min, max       Instant
	stamps         int
	res            time.Duration
	before, lastAt time.Duration
}

// add records one frame's stamp.
func (s *stampSpread) add(at Instant, res time.Duration) {
	switch {
	case s.stamps == 0:
		s.min, s.max = at, at
	case at.Before(s.min):
		s.min = at
	case s.max.Before(at):
		s.max = at
	}
	s.stamps++
	s.res = max(s.res, res)
}

// verdict fills the server's spread into a turn's verdict: the stamps'
// span less their resolution (two stamps of a whole second one apart may
// be a millisecond apart), when two or more frames were stamped.
func (s *stampSpread) verdict(v *TimingVerdict) {
	if s.stamps < 2 {
		return
	}
	spread := s.max.Sub(s.min) - s.res
	if spread <= 0 && s.res > 0 {
		return // coarse stamps that say nothing
	}
	v.ServerSpread, v.HasServerSpread = max(spread, 0), true
	v.Waited = s.lastAt - s.before
}

// StampMember is the top-level member key of f, looked up from the last
// member back: a stamp is read on every frame, and servers put it last or
// near it (go-bus's createdAt, Ollama's created_at after the message), so
// this stops early where Frame.Get walks every member. The last one wins,
// as with Get; a key written with escapes is no stamp.
func StampMember(f *decode.Frame, key string) decode.Raw {
	if len(f.Members) == 0 {
		return f.Get(key)
	}
	for i := len(f.Members) - 1; i >= 0; i-- {
		m := &f.Members[i]
		if len(m.Key) == len(key) && !m.KeyEsc && string(m.Key) == key {
			return m.Value
		}
	}
	return nil
}
