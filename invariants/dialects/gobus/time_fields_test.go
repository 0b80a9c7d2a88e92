package gobus

import (
	"encoding/json"
	"testing"
	"time"

	"framescope/decode"
	"framescope/invariants"
)

// goTime must take exactly what the reference client's json.Unmarshal
// into a time.Time takes, at the same instant: the standard library is
// the oracle.
func checkGoTime(t *testing.T, raw string) {
	t.Helper()
	var want time.Time
	stdErr := json.Unmarshal([]byte(raw), &want)
	var m invariants.Mapping
	at, ok := goTime(decode.Raw(raw), &m)
	if raw == "null" {
		return // null is skipped before goTime (the zero value)
	}
	if ok != (stdErr == nil) {
		t.Fatalf("%s: goTime ok=%v, encoding/json err=%v", raw, ok, stdErr)
	}
	if ok && !at.Time().Equal(want) {
		t.Fatalf("%s: goTime %v, encoding/json %v", raw, at.Time(), want)
	}
}

var goTimeSeeds = []string{
	`"2025-06-02T09:14:03.118Z"`, `"2025-06-02T09:14:03Z"`, `"2025-06-02T09:14:03.118234567+05:30"`,
	`"2025-06-02T09:14:03-00:00"`, `"2024-02-29T23:59:59.999999999Z"`, `"0001-01-01T00:00:00Z"`,
	`"2025-06-02 09:14:03Z"`, `"2025-06-02t09:14:03Z"`, `"2025-06-02T09:14:03"`, `"2025-06-02T09:14:03z"`,
	`"2025-06-02T09:14:03,118Z"`, `"2016-12-31T23:59:60Z"`, `"2025-06-02T09:14:03+0530"`,
	`"2025-02-30T09:14:03Z"`, `"2025-06-02T24:00:00Z"`, `"2025-06-02T09:14:03+24:00"`, `"2025-06-02T09:14:03+05:60"`,
	`"2025-06-02T09:14:03.Z"`, `"2025-06-02T9:14:03Z"`, `"\u0032025-06-02T09:14:03Z"`, `"2025-13-02T09:14:03Z"`,
	`1748855643`, `"yesterday"`, `""`, `"2025-06-02T09:14:03.1234567890123Z"`, `"2025-06-02T09:14:03+05:30x"`,
}

func TestGoTimeAgreesWithEncodingJSON(t *testing.T) {
	for _, raw := range goTimeSeeds {
		checkGoTime(t, raw)
	}
}

func FuzzGoTime(f *testing.F) {
	for _, raw := range goTimeSeeds {
		f.Add(raw)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if !json.Valid([]byte(raw)) {
			return
		}
		checkGoTime(t, raw)
	})
}
