package replay

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"
	"sync"
	"time"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects"
	"framescope/sessions/capture"
	"framescope/sessions/report"
)

// allScenarios is PC3's scenarios, then the demos every dialect ships
// (named after the dialect: "go-bus", "go-bus-broken"), built once.
var allScenarios = sync.OnceValue(func() []Scenario {
	out := append([]Scenario(nil), scenarioList...)
	for _, d := range dialects.All {
		dm, ok := d.(invariants.Demoer)
		if !ok {
			continue
		}
		for _, demo := range dm.Demos() {
			out = append(out, demoScenario(d.Name(), demo))
		}
	}
	return out
})

// demoScenario turns a dialect's demo into a scenario the relay plays, with
// Expect computed by checking the demo's body as `check` would.
func demoScenario(name string, demo invariants.Demo) Scenario {
	s := Scenario{Name: demoScenarioName(name, demo), Summary: demo.Summary, Dialect: name, pace: demo.Pace}
	if s.pace <= 0 {
		s.pace = 120 * time.Millisecond
	}
	s.script = splitBlocks(demo.Body)
	s.ndjson = servesNDJSON(name)
	if rep, err := report.Check(capture.RawSSE(s.Name, strings.NewReader(demo.Body)), invariantsOptions(name)); err == nil {
		s.Expect = TallyAlarms(rep.Alarms)
	}
	return s
}

// splitBlocks cuts an SSE body into its blocks, each with its blank line.
func splitBlocks(body string) []string {
	var out []string
	fr := decode.NewFramer()
	keep := func(ev *decode.Event) { out = append(out, string(ev.Raw)) }
	fr.Feed([]byte(body), keep)
	fr.Close(keep)
	return out
}

// runScript plays a dialect demo: each block as it is, pace apart (scaled
// by the relay's speed), until the script ends or the client leaves.
func (t *relayTurn) runScript(ctx context.Context) string {
	rl := t.rl
	pace := rl.scn.pace
	if rl.scn.ndjson {
		t.ndjsonHead()
	} else if err := t.sess.Flush(); err != nil { // sends the event-stream head
		return "write failed: " + err.Error()
	}
	var timer *time.Timer
	for i, block := range rl.scn.script {
		if d := scaleDur(pace, rl.opts.Speed); d > 0 && i > 0 {
			if timer == nil {
				timer = time.NewTimer(d)
				defer timer.Stop()
			} else {
				timer.Reset(d)
			}
			select {
			case <-timer.C:
			case <-ctx.Done():
				return fmt.Sprintf("client disconnected after %d of %d blocks", i, len(rl.scn.script))
			}
		}
		if err := t.writeRaw(block); err != nil {
			return fmt.Sprintf("write failed after %d of %d blocks: %v", i, len(rl.scn.script), err)
		}
	}
	return fmt.Sprintf("played the %s demo (%d blocks)", rl.scn.Dialect, len(rl.scn.script))
}

// writeRaw sends one SSE block verbatim and flushes it.
func (t *relayTurn) writeRaw(block string) error {
	if t.rl.scn.ndjson {
		if err := t.writeNDJSON(block); err != nil {
			return err
		}
	} else {
		if _, err := io.WriteString(t.sess.Res, block); err != nil {
			return err
		}
		if err := t.sess.Flush(); err != nil {
			return err
		}
	}
	if strings.Contains(block, "data") {
		t.sent++
	}
	return nil
}

func scaleDur(d time.Duration, speed float64) time.Duration {
	if d <= 0 || speed == 0 || math.IsInf(speed, 1) {
		return 0
	}
	return time.Duration(float64(d) / speed)
}

func invariantsOptions(dialectName string) invariants.Options {
	return invariants.Options{Dialect: dialectName}
}

// demoScenarioName is a dialect demo's scenario name: the dialect's, or
// DIALECT-NAME ("gemini-broken").
func demoScenarioName(dialect string, demo invariants.Demo) string {
	if demo.Name != "" {
		return dialect + "-" + demo.Name
	}
	return dialect
}
