package sessions

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"framescope/invariants"
	"framescope/invariants/dialect"
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
			if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
				t.Errorf("Content-Type %q", ct)
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
	c, err := OpenReader("t.sse", strings.NewReader(body), OpenOptions{Entry: -1})
	if err != nil {
		t.Fatal(err)
	}
	var name string
	moves := 0
	rep, err := CheckWith(c, invariants.Options{}, Handler{
		OnDialect: func(d dialect.Dialect) { name = d.Name() },
		WantMoves: true,
		OnItem:    func(it Item) { moves += len(it.Moves) },
	})
	if err != nil || rep.Dialect != "typed-lines" || name != "typed-lines" || moves != 3 {
		t.Errorf("dialect %q/%q, %d moves, err %v", rep.Dialect, name, moves, err)
	}
}
