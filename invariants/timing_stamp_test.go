package invariants_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects/dialecttest"
)

func TestStampRFC3339(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string // RFC 3339 in UTC, "" when it must not parse
	}{
		{`"2026-05-15T18:00:00.050Z"`, "2026-05-15T18:00:00.05Z"},
		{`"2025-09-18T10:15:03.123456789Z"`, "2025-09-18T10:15:03.123456789Z"},
		{`"2024-02-29T23:59:59+02:00"`, "2024-02-29T21:59:59Z"},
		{`"2024-03-01 01:00:00-0130"`, "2024-03-01T02:30:00Z"},
		{`"2025-06-02T09:14:03.137"`, "2025-06-02T09:14:03.137Z"}, // no zone: UTC
		{`"1969-12-31T23:59:59Z"`, "1969-12-31T23:59:59Z"},
		{`"2023-02-29T00:00:00Z"`, ""}, // no such day
		{`"2025-13-01T00:00:00Z"`, ""},
		{`"2025-06-02T09:14:03."`, ""},
		{`"2025-06-02T09:14:03Zjunk"`, ""},
		{`"2025-06-02T09:14:03+5"`, ""},
		{`"2025-06-02"`, ""},
		{`"2025\u002d06-02T09:14:03Z"`, ""}, // escaped: no server writes one
		{`1734567890`, ""},
		{`"`, ""},
		{``, ""},
	} {
		at, ok := invariants.StampRFC3339(decode.Raw(c.in))
		got := ""
		if ok {
			got = at.Time().Format(time.RFC3339Nano)
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.in, got, c.want)
		}
	}
}

func TestStampUnix(t *testing.T) {
	for _, c := range []struct {
		in     string
		millis bool
		want   string
	}{
		{`1734567890123`, true, "2024-12-19T00:24:50.123Z"},
		{`1734567890123.5`, true, "2024-12-19T00:24:50.1235Z"},
		{`1734567890`, false, "2024-12-19T00:24:50Z"},
		{`1734567890.25`, false, "2024-12-19T00:24:50.25Z"},
		{`0`, false, "1970-01-01T00:00:00Z"},
		{`-1`, false, ""},
		{`1e9`, false, ""},
		{`"1734567890"`, false, ""},
		{`1.`, false, ""},
		{`1234567890123456789012`, true, ""}, // past any clock: no overflow
		{``, false, ""},
	} {
		parse := invariants.StampUnixSeconds
		if c.millis {
			parse = invariants.StampUnixMillis
		}
		at, ok := parse(decode.Raw(c.in))
		got := ""
		if ok {
			got = at.Time().Format(time.RFC3339Nano)
		}
		if got != c.want {
			t.Errorf("%s (millis %v): got %q, want %q", c.in, c.millis, got, c.want)
		}
	}
}

func TestStampParsersAllocateNothing(t *testing.T) {
	iso, ms := decode.Raw(`"2025-09-18T10:15:03.123456789+02:00"`), decode.Raw(`1734567890123`)
	if n := testing.AllocsPerRun(100, func() {
		invariants.StampRFC3339(iso)
		invariants.StampUnixMillis(ms)
	}); n != 0 {
		t.Errorf("%v allocations a stamp", n)
	}
}

// FuzzStampParsers: no input panics, and a stamp that parses agrees with
// the standard library where both read it.
func FuzzStampParsers(f *testing.F) {
	for _, s := range []string{`"2026-05-15T18:00:00.050Z"`, `"2024-02-29T23:59:59+02:00"`, `1734567890123.5`, `1734567890`, `"9999-12-31T23:59:60Z"`, `"0000-01-01T00:00:00-23:59"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		at, ok := invariants.StampRFC3339(decode.Raw(s))
		if ok && len(s) > 2 && strings.HasSuffix(s, `Z"`) && !strings.Contains(s, ":60") && !strings.ContainsAny(s, " tz,") {
			if want, err := time.Parse(time.RFC3339Nano, s[1:len(s)-1]); err == nil && !want.Equal(at.Time()) {
				t.Errorf("%s: %s, time.Parse %s", s, at.Time(), want)
			}
		}
		invariants.StampUnixMillis(decode.Raw(s))
		invariants.StampUnixSeconds(decode.Raw(s))
	})
}

// stamped: frames of a toy turn each stamped ts (seconds after base).
func stamp(sec float64) string {
	base := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	return base.Add(dur(sec)).Format(time.RFC3339Nano)
}

// TestTimingBufferedByStamps: a later turn whose frames arrived in one
// read though the server stamped them over seconds, after the client
// waited as long, is buffered: by arrival alone (it counts from its own
// first frame) it took no time. The stamps are the message's evidence.
func TestTimingBufferedByStamps(t *testing.T) {
	spec := toySpec(invariants.Shape{Turns: invariants.TurnKeyed})
	run := func(stamps bool, at2 func(i int) float64) []invariants.Alarm {
		chk := spec.NewChecker(invariants.Options{TTFE: -1, Stall: -1})
		var dec decode.Decoder
		var all []invariants.Alarm
		feed := func(at, ts float64, obj string) {
			if stamps {
				obj += fmt.Sprintf(`,"ts":%q`, stamp(ts))
			}
			data := "{" + obj + "}"
			ev := &decode.Event{Data: []byte(data), HasData: true, Raw: []byte("data: " + data + "\n\n")}
			all = append(all, chk.Observe(dec.Decode(ev, dur(at), true))...)
		}
		// Turn a: paced over a second.
		feed(0.05, 0.05, `"op":"start","key":"a"`)
		for i := range 10 {
			feed(0.1+0.1*float64(i), 0.1+0.1*float64(i), `"op":"text","text":"ab","turn":"a"`)
		}
		feed(1.1, 1.1, `"op":"end","turn":"a"`)
		// Turn b: stamped from 1.2 s to 5.2 s; arrivals by at2.
		feed(at2(0), 1.2, `"op":"start","key":"b"`)
		for i := range 10 {
			feed(at2(i+1), 1.2+0.4*float64(i+1), `"op":"text","text":"cd","turn":"b"`)
		}
		feed(at2(11), 5.2, `"op":"end","turn":"b"`)
		return append(all, chk.End(invariants.End{Kind: invariants.EndEOF})...)
	}
	bunched := func(i int) float64 { return 5.3 }
	as := run(true, bunched)
	if rules(as) != "delivery-buffered" || !strings.Contains(as[0].Message, "server stamped them over 4s") || !strings.Contains(as[0].Message, "4.2s after the frame before") {
		t.Fatalf("bunched, stamped: %v", dialecttest.Lines(as))
	}
	// Without stamps nothing tells the turn took time.
	if as := run(false, bunched); len(as) != 0 {
		t.Errorf("bunched, unstamped: %v", dialecttest.Lines(as))
	}
	// Paced as stamped: no delivery alarm.
	if as := run(true, func(i int) float64 { return 1.25 + 0.4*float64(i) }); len(as) != 0 {
		t.Errorf("paced: %v", dialecttest.Lines(as))
	}
	// A replay at full speed (no wait): the old stamps are no evidence.
	if as := run(true, func(i int) float64 { return 1.1 + 0.0001*float64(i) }); len(as) != 0 {
		t.Errorf("replayed at once: %v", dialecttest.Lines(as))
	}
}

// TestTimingCoarseStamps: whole-second stamps (OpenAI chat's created)
// count less their resolution: 1 s apart may be a millisecond apart.
func TestTimingCoarseStamps(t *testing.T) {
	var e invariants.Instant
	if e.Sub(invariants.Instant{Sec: 1}) != -time.Second {
		t.Fatal("Sub")
	}
	tm := invariants.Timing{}
	tm.Start(true, 0)
	for i := range 10 {
		tm.Frame(i, 3*time.Second, true, 1)
	}
	s := tm.Summary()
	v := invariants.TimingVerdict{Summary: &s, HasServerSpread: true, ServerSpread: 2 * time.Second, Waited: 3 * time.Second}
	var msgs []string
	v.Judge(&invariants.Options{}, func(rule string, _ invariants.Severity, _ int, msg string) { msgs = append(msgs, rule+": "+msg) })
	if len(msgs) != 1 || !strings.Contains(msgs[0], "server stamped them over 2s") {
		t.Errorf("got %q", msgs)
	}
}

// TestTimingUsage: output tokens reported by the dialect give tokens/s
// over the content span; the server's own generation time its rate.
func TestTimingUsage(t *testing.T) {
	at, objs := paced(1, 0.1, 21) // content from 1 s to 3 s
	objs[len(objs)-1] += `,"out":120,"gen":1500`
	as, chk := timedRun(t, invariants.Options{}, at, objs)
	if len(as) != 0 {
		t.Fatalf("alarms %v", dialecttest.Lines(as))
	}
	tm := chk.Turns()[0].Timing
	if !tm.HasUsage || tm.OutputTokens != 120 || tm.ContentSpan != 2*time.Second {
		t.Fatalf("usage %+v", tm)
	}
	if tm.TokensPerSec < 59.99 || tm.TokensPerSec > 60.01 || !tm.HasGenTime || tm.ServerTokensPerSec != 80 {
		t.Errorf("tokens/s %v, server %v", tm.TokensPerSec, tm.ServerTokensPerSec)
	}
	// Cumulative reports: the latest wins; a report after the terminal
	// (OpenAI chat's usage chunk) still counts.
	at, objs = paced(1, 0.1, 21)
	objs[5] += `,"out":3`
	at = append(at, at[len(at)-1]+0.01)
	objs = append(objs, `"op":"stream","out":200`)
	_, chk = timedRun(t, invariants.Options{}, at, objs)
	if tm := chk.Turns()[0].Timing; tm.OutputTokens != 200 || tm.TokensPerSec < 99.9 || tm.TokensPerSec > 100.1 {
		t.Errorf("after the terminal: %d tokens, %v/s", tm.OutputTokens, tm.TokensPerSec)
	}
}
