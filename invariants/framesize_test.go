package invariants_test

import (
	"strings"
	"testing"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects/dialecttest"
)

// padded is a toy turn whose middle frame's data is exactly size bytes.
func padded(size int) string {
	head := `{"op":"text","text":"`
	return frames(`"op":"start"`) + "data: " + head + strings.Repeat("x", size-len(head)-2) + `"}` + "\n\n" + frames(`"op":"end"`)
}

// TestFrameLimits: the highest tier a frame passes is the one alarm, at
// its severity, naming its client; no tier, no alarm; the defaults keep
// their wording.
func TestFrameLimits(t *testing.T) {
	limits := []invariants.FrameLimit{
		{Over: 1000, Severity: invariants.SevWarn, Client: "client-a", Why: "fails past 1000"},
		{Over: 3000, Severity: invariants.SevError, Client: "every client", Why: "fails past 3000"},
		{Over: 2000, Severity: invariants.SevWarn, Client: "client-a and client-b", Why: "fail past 2000"},
	}
	tiered := invariants.Shape{Turns: invariants.TurnPerStream, FrameLimits: limits}
	unbounded := invariants.Shape{Turns: invariants.TurnPerStream, FrameUnbounded: true}
	defaults := invariants.Shape{Turns: invariants.TurnPerStream}
	for _, tc := range []struct {
		name  string
		shape invariants.Shape
		size  int
		want  string // "" none, else "SEVERITY substring"
	}{
		{"under every tier", tiered, 1000, ""},
		{"over the first", tiered, 1001, "warn client-a fails past 1000"},
		{"over two: the higher", tiered, 2001, "warn client-a and client-b fail past 2000"},
		{"over all: the highest", tiered, 3001, "error every client fails past 3000"},
		{"unbounded", unbounded, 3 << 20, ""},
		{"default warn", defaults, 256<<10 + 1, "warn over the 256 KiB target"},
		{"default error", defaults, 1<<20 + 1, "error over the 1 MiB hard limit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, a := range dialecttest.Run(toySpec(tc.shape), padded(tc.size)).Alarms {
				if a.Rule == "frame-size" {
					got = append(got, string(a.Severity)+" "+a.Message)
				}
			}
			switch {
			case tc.want == "" && len(got) != 0:
				t.Errorf("want no frame-size, got %q", got)
			case tc.want != "" && len(got) != 1:
				t.Errorf("want one frame-size, got %q", got)
			case tc.want != "":
				sev, text, _ := strings.Cut(tc.want, " ")
				if !strings.HasPrefix(got[0], sev+" ") || !strings.Contains(got[0], text) {
					t.Errorf("got %q, want %s …%s…", got[0], sev, text)
				}
			}
		})
	}
}

// TestFrameLimitOversized: an event past framescope's own limit, which no
// tier covers, is said at info (its data was not checked).
func TestFrameLimitOversized(t *testing.T) {
	spec := toySpec(invariants.Shape{Turns: invariants.TurnPerStream, FrameUnbounded: true})
	chk := spec.NewChecker(invariants.Options{})
	var dec decode.Decoder
	fr := decode.NewFramer()
	fr.SetMaxEventSize(64)
	var alarms []invariants.Alarm
	emit := func(ev *decode.Event) {
		if ev.Dispatched() {
			alarms = append(alarms, chk.Observe(dec.Decode(ev, 0, false))...)
		}
	}
	fr.Feed([]byte(padded(200)), emit)
	fr.Close(emit)
	alarms = append(alarms, chk.End(invariants.End{Kind: invariants.EndEOF})...)
	n := 0
	for _, a := range alarms {
		if a.Rule == "frame-size" {
			n++
			if a.Severity != invariants.SevInfo || !strings.Contains(a.Message, "framescope's own event limit") {
				t.Errorf("got %s %q", a.Severity, a.Message)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d frame-size alarms, want 1: %v", n, dialecttest.Lines(alarms))
	}
}

// TestFrameLimitListing: the listing shows a dialect's strongest tier and
// names each client; no tier is info; the defaults keep the shared entry.
func TestFrameLimitListing(t *testing.T) {
	listed := func(shape invariants.Shape) invariants.Rule {
		spec := toySpec(shape)
		spec.Generic = []string{"frame-size"}
		return spec.Rules()[0]
	}
	r := listed(invariants.Shape{FrameLimits: []invariants.FrameLimit{
		{Over: 4<<20 - 8, Severity: invariants.SevWarn, Client: "client-a"},
		{Over: 16 << 20, Severity: invariants.SevError, Client: "every client"}}})
	if r.Severity != invariants.SevError || !strings.Contains(r.Summary, "warn over 4194296 bytes (4 MiB - 8) (client-a)") || !strings.Contains(r.Summary, "error over 16 MiB (every client)") {
		t.Errorf("tiers: %s %q", r.Severity, r.Summary)
	}
	if r := listed(invariants.Shape{FrameUnbounded: true}); r.Severity != invariants.SevInfo {
		t.Errorf("unbounded: %s %q", r.Severity, r.Summary)
	}
	if r := listed(invariants.Shape{}); r.Severity != invariants.SevError || !strings.Contains(r.Summary, "256 KiB warn, 1 MiB error") {
		t.Errorf("defaults: %s %q", r.Severity, r.Summary)
	}
}
