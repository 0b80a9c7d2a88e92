package pc3

import (
	"math/rand/v2"
	"regexp"
	"testing"
	"time"
)

// TestParseTimestampAgainstTimeParse: the hand-written parser gives the
// instant time.Parse gives, for RFC 3339 forms with offsets, fractions and
// odd dates, and rejects what is not a date-time. Forms RFC 3339 allows
// but time.Parse's layout does not (a space or 't' separator, no zone,
// ±hhmm, a comma, a leap second) are compared with the form time.Parse
// reads.
func TestParseTimestampAgainstTimeParse(t *testing.T) {
	tests := []struct{ in, asRFC3339 string }{
		{"2026-11-23T22:15:00Z", ""},
		{"2026-11-23T22:15:00.123Z", ""},
		{"2026-11-23T22:15:00.123456789Z", ""},
		{"2026-11-23T22:15:00.1234567891Z", "2026-11-23T22:15:00.123456789Z"}, // digits past ns dropped
		{"2026-11-23T22:15:00+05:30", ""},
		{"2026-11-23T22:15:00.5-08:00", ""},
		{"2026-11-23T00:15:00+23:59", ""},
		{"2026-01-01T00:00:00-00:01", ""},
		{"0000-01-01T00:00:00Z", ""},
		{"0000-03-01T00:00:00Z", ""},
		{"0001-02-28T23:59:59Z", ""},
		{"1969-12-31T23:59:59.999Z", ""},
		{"1970-01-01T00:00:00Z", ""},
		{"2000-02-29T12:00:00Z", ""},
		{"2024-02-29T12:00:00Z", ""},
		{"2100-03-01T00:00:00Z", ""},
		{"9999-12-31T23:59:59.999999999Z", ""},
		{"2026-11-23t22:15:00z", "2026-11-23T22:15:00Z"},
		{"2026-11-23 22:15:00Z", "2026-11-23T22:15:00Z"},
		{"2026-11-23T22:15:00", "2026-11-23T22:15:00Z"},
		{"2026-11-23T22:15:00+0530", "2026-11-23T22:15:00+05:30"},
		{"2026-11-23T22:15:00,25Z", "2026-11-23T22:15:00.25Z"},
		{"2016-12-31T23:59:60Z", "2016-12-31T23:59:59Z"},
		{"2016-12-31T23:59:60.5+01:00", "2016-12-31T23:59:59.5+01:00"},
	}
	for _, tt := range tests {
		ref := tt.in
		if tt.asRFC3339 != "" {
			ref = tt.asRFC3339
		}
		want, err := time.Parse(time.RFC3339Nano, ref)
		if err != nil {
			t.Fatalf("time.Parse(%q): %v", ref, err)
		}
		got, ok := ParseTimestamp(tt.in)
		if !ok || !got.Equal(want) || got.Location() != time.UTC {
			t.Errorf("ParseTimestamp(%q) = %v, %v; want %v in UTC", tt.in, got, ok, want)
		}
		if gb, okb := ParseTimestampBytes([]byte(tt.in)); okb != ok || !gb.Equal(got) {
			t.Errorf("ParseTimestampBytes(%q) = %v, %v; ParseTimestamp gives %v", tt.in, gb, okb, got)
		}
	}
	for _, in := range []string{
		"", "2026-11-23", "2026-11-23T22:15", "2026-11-23T22:15:00ZZ", "2026-13-01T00:00:00Z",
		"2026-00-01T00:00:00Z", "2026-02-29T00:00:00Z", "2100-02-29T00:00:00Z", "2026-04-31T00:00:00Z",
		"2026-11-23T24:00:00Z", "2026-11-23T22:60:00Z", "2026-11-23T22:15:61Z", "2026-11-23T22:15:00.Z",
		"2026-11-23T22:15:00+05", "2026-11-23T22:15:00+5:30",
		"2026-11-23X22:15:00Z", "2026/11/23T22:15:00Z", "2026-11-23T22:15:00 Z", "+026-11-23T22:15:00Z",
		"２026-11-23T22:15:00Z", "yesterday at noon",
	} {
		if got, ok := ParseTimestamp(in); ok {
			t.Errorf("ParseTimestamp(%q) = %v, want rejected", in, got)
		}
		if _, err := time.Parse(time.RFC3339Nano, in); err == nil && in != "" {
			t.Errorf("%q: time.Parse accepts it; the table expects a form both reject", in)
		}
	}
	// Offsets past ±23:59 time.Parse lets through; the parser, as before
	// its fast path, does not.
	for _, in := range []string{"2026-11-23T22:15:00+24:00", "2026-11-23T22:15:00+05:60"} {
		if got, ok := ParseTimestamp(in); ok {
			t.Errorf("ParseTimestamp(%q) = %v, want rejected", in, got)
		}
	}
}

// TestParseTimestampCalendar: over random instants of years 0000–9999
// and offsets, the parser's calendar arithmetic agrees with time.Parse.
func TestParseTimestampCalendar(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	lo := time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	hi := time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC).Unix()
	for range 20000 {
		sec := lo + rng.Int64N(hi-lo)
		zone := time.FixedZone("", (rng.IntN(48)-24)*1800)
		want := time.Unix(sec, rng.Int64N(1e9)).In(zone)
		s := want.Format(time.RFC3339Nano)
		got, ok := ParseTimestamp(s)
		if !ok || !got.Equal(want) {
			t.Fatalf("ParseTimestamp(%q) = %v, %v; want %v", s, got, ok, want)
		}
		ref, err := time.Parse(time.RFC3339Nano, s)
		if err != nil || !ref.Equal(got) {
			t.Fatalf("time.Parse(%q) = %v, %v; parser gives %v", s, ref, err, got)
		}
	}
}

// TestIsStatusID: the hand-written matcher agrees with the registry's
// identifier pattern.
func TestIsStatusID(t *testing.T) {
	re := regexp.MustCompile(`^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$`)
	for _, s := range []string{
		"searching_offers", "shop.fetching_catalog", "a", "a.b.c", "a1_.b2", "", ".", "a.", ".a", "a..b",
		"A", "aB", "1a", "a.1b", "_a", "a._b", "a b", "Searching for offers...", "a\n", "é", "a.é", "a-b",
	} {
		if got, want := isStatusID([]byte(s)), re.MatchString(s); got != want {
			t.Errorf("isStatusID(%q) = %v, the pattern says %v", s, got, want)
		}
	}
}
