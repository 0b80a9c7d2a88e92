package typedlines

import (
	"strings"
	"testing"

	"framescope/invariants"
	"framescope/invariants/dialects/dialecttest"
)

const valid = `data: {"type":"log","content":"Understanding your query..."}

data: {"type":"ping"}

data: {"type":"text","delta":"Based on "}

data: {"type":"text","delta":"your criteria"}

data: {"type":"data","structuredData":{"type":"repo_list","items":[]}}

data: {"type":"done","stats":{"executionTime":8450}}

`

func TestMapping(t *testing.T) {
	res := dialecttest.Run(Dialect, valid)
	if n := dialecttest.Serious(res.Alarms); n != 0 {
		t.Fatalf("valid stream raises %v", dialecttest.Lines(res.Alarms))
	}
	want := []string{
		`progress text="Understanding your query..."`,
		`heartbeat`,
		`text text="Based on "`,
		`text text="your criteria"`,
		``,
		`terminal name="done" outcome=completed`,
	}
	dialecttest.WantMoves(t, res, want)
	if len(res.Turns) != 1 || res.Turns[0].Outcome != "completed" || res.Turns[0].TerminalEvent != "done" {
		t.Errorf("turns %+v", res.Turns)
	}
}

func TestRules(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       []string
	}{
		{"error ends the turn as failed", `data: {"type":"error","error":{"code":"RATE_LIMIT","message":"slow down"}}` + "\n\n", nil},
		{"unknown code", `data: {"type":"error","error":{"code":"E42","message":"x"}}` + "\n\n", []string{"error-code-unknown warn 0"}},
		{"error without message", `data: {"type":"error","error":{"code":"UNKNOWN"}}` + "\n\n", []string{"payload-malformed error 0"}},
		{"event: field", "event: text\ndata: {\"type\":\"text\",\"delta\":\"a\"}\n\ndata: {\"type\":\"done\",\"stats\":{}}\n\n", []string{"sse-field-unexpected warn 0"}},
		{"log after text", `data: {"type":"text","delta":"a"}` + "\n\n" + `data: {"type":"log","content":"b"}` + "\n\n" + `data: {"type":"done","stats":{}}` + "\n\n", []string{"event-order warn 1"}},
		{"no terminal", `data: {"type":"text","delta":"a"}` + "\n\n", []string{"terminal-missing error -"}},
		{"frame after done", `data: {"type":"done","stats":{}}` + "\n\n" + `data: {"type":"ping"}` + "\n\n", []string{"after-terminal error 1"}},
		{"unknown type", `data: {"type":"progress"}` + "\n\n" + `data: {"type":"done","stats":{}}` + "\n\n", []string{"event-unknown info 0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := dialecttest.Lines(dialecttest.Run(Dialect, tc.body).Alarms)
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestSniff(t *testing.T) {
	d := invariants.NewDetector([]invariants.Dialect{Dialect})
	if got := dialecttest.Detect(d, `data: {"type":"text","delta":"a"}`+"\n\n"); got != nil {
		t.Errorf("one text frame decided %s; it is ambiguous", got.Name())
	}
	d = invariants.NewDetector([]invariants.Dialect{Dialect})
	if got := dialecttest.Detect(d, valid); got != Dialect {
		t.Errorf("valid stream detected as %v", got)
	}
}

// TestMutations: dropping, duplicating or moving the terminal of a valid
// stream is always reported.
func TestMutations(t *testing.T) {
	for name, body := range dialecttest.TerminalMutations(valid, 5) {
		if dialecttest.Serious(dialecttest.Run(Dialect, body).Alarms) == 0 {
			t.Errorf("%s: no alarm", name)
		}
	}
}

func FuzzMap(f *testing.F) {
	dialecttest.Fuzz(f, Dialect, valid, `data: {"type":"error","error":{"code":1}}`+"\n\n", "data: {\"type\":\"text\"\n\n")
}

func TestHotPathAllocs(t *testing.T) {
	dialecttest.HotPathAllocs(t, Dialect, `data: {"type":"log","content":"a"}`+"\n\n", `data: {"type":"text","delta":"more text"}`+"\n\n")
}
