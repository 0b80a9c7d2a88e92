package replay

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"framescope/invariants"
	"framescope/sessions/capture"
	"framescope/sessions/pipeline"
	"framescope/sessions/report"
)

// TestDialectDemos serves every dialect's demos through the relay and
// checks what arrives: detected as the demo's dialect, the alarms the demo
// expects, the happy demo clean, the broken one tripping several rules.
func TestDialectDemos(t *testing.T) {
	n := 0
	for _, scn := range Scenarios() {
		if scn.Dialect == "" {
			continue
		}
		n++
		t.Run(scn.Name, func(t *testing.T) {
			rs := newRelayServer(t, RelayOptions{Scenario: scn.Name, Speed: 0})
			resp := rs.get(t, context.Background(), "/api/chat")
			defer resp.Body.Close()
			wantCT := "text/event-stream"
			if servesNDJSON(scn.Dialect) {
				wantCT = ndjsonType // Ollama's wire (scenarios_ndjson.go)
			}
			if ct := resp.Header.Get("Content-Type"); ct != wantCT {
				t.Errorf("Content-Type %q, want %q", ct, wantCT)
			}
			rep := checkSSE(t, scn.Name, resp.Body)
			if rep.Dialect != scn.Dialect {
				t.Errorf("detected %q, want %q", rep.Dialect, scn.Dialect)
			}
			got := TallyAlarms(rep.Alarms)
			if len(got) == 0 {
				got = nil
			}
			want := scn.Expect
			if len(want) == 0 {
				want = nil
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("alarms differ\n got: %v\nwant: %v\n%s", got, want, alarmLines(rep))
			}
			if strings.HasSuffix(scn.Name, "-broken") {
				rules := map[string]bool{}
				for _, a := range rep.Alarms {
					if a.Severity != invariants.SevInfo {
						rules[a.Rule] = true
					}
				}
				if len(rules) < 3 {
					t.Errorf("broken demo trips %d error/warn rules, want at least 3", len(rules))
				}
			} else if rep.Counts.Error+rep.Counts.Warn > 0 || len(rep.Turns) == 0 {
				t.Errorf("happy demo not clean: %+v, %d turns\n%s", rep.Counts, len(rep.Turns), alarmLines(rep))
			}
		})
	}
	if n == 0 {
		t.Fatal("no dialect demo")
	}
}

// TestCheckWithPassesDialectAndMoves: the live path (RunLive → CheckWith)
// hands the dialect and the moves on, as Run does.
func TestCheckWithPassesDialectAndMoves(t *testing.T) {
	body := `data: {"type":"log","content":"a"}` + "\n\n" + `data: {"type":"text","delta":"hi"}` + "\n\n" + `data: {"type":"done","stats":{}}` + "\n\n"
	c, err := capture.OpenReader("t.sse", strings.NewReader(body), capture.OpenOptions{Entry: -1})
	if err != nil {
		t.Fatal(err)
	}
	var name string
	moves := 0
	rep, err := report.CheckWith(c, invariants.Options{}, pipeline.Handler{
		OnDialect: func(d invariants.Dialect) { name = d.Name() },
		WantMoves: true,
		OnItem:    func(it *pipeline.Item) { moves += len(it.Moves) },
	})
	if err != nil || rep.Dialect != "typed-lines" || name != "typed-lines" || moves != 3 {
		t.Errorf("dialect %q/%q, %d moves, err %v", rep.Dialect, name, moves, err)
	}
}

// TestReportSuppressesFloods: past MaxListed alarms of one rule in one
// turn, a report counts alarms without keeping them — a flood of broken
// frames costs a bounded list — and says how many it left out.
func TestReportSuppressesFloods(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 5000; i++ {
		b.WriteString("data: not json\n\n")
	}
	c, err := capture.OpenReader("flood.sse", strings.NewReader(`data: {"event_type":"response_id","version":"0.5","timestamp":"2026-06-02T09:40:00Z","response_id":"r"}`+"\n\n"+b.String()), capture.OpenOptions{Entry: -1})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := report.Check(c, invariants.Options{})
	if err != nil {
		t.Fatal(err)
	}
	listed := 0
	for _, a := range rep.Alarms {
		if a.Rule == "frame-json" {
			listed++
		}
	}
	if rep.Dialect != "pc3" || listed != report.MaxListed || rep.Suppressed["frame-json"] != 5000-report.MaxListed || rep.Counts.Error < 5000 {
		t.Errorf("dialect %s, %d frame-json listed, suppressed %v, counts %+v", rep.Dialect, listed, rep.Suppressed, rep.Counts)
	}
	var out strings.Builder
	if err := rep.WriteJSON(&out); err != nil || !strings.Contains(out.String(), `"suppressed":{"frame-json":4900}`) {
		t.Errorf("JSON report: %v\n%.300s", err, out.String())
	}
	out.Reset()
	if err := rep.WriteText(&out); err != nil || !strings.Contains(out.String(), "frame-json ×4900") {
		t.Errorf("text report: %v\n%.300s", err, out.String())
	}
}
