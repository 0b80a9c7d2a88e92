package pc3

import (
	"testing"

	"framescope/invariants/dialects/dialecttest"
)

// TestMoves: PC3's frames on the common turn model, as the panes read
// them (PC3's rules stay invariants.Checker's).
func TestMoves(t *testing.T) {
	env := `"version":"0.5","timestamp":"2026-06-02T09:40:00.000Z","response_id":"resp_1"`
	frame := func(typ, rest string) string {
		if rest != "" {
			rest = "," + rest
		}
		return "event: " + typ + "\ndata: {\"event_type\":\"" + typ + "\"," + env + rest + "}\n\n"
	}
	body := frame("response_id", "") +
		frame("status", `"data":{"event_id":"searching","message":"Searching..."}`) +
		frame("tool_call", `"tool_call":{"id":"c1","name":"search","type":"function"}`) +
		frame("data_loading", `"data":{"id":"cards","type":"offer_list"}`) +
		frame("tool_completed", `"tool_call":{"id":"c1","name":"search","type":"function"}`) +
		frame("data_loaded", `"data":{"id":"cards","type":"offer_list","items":[]}`) +
		frame("text", `"chunk":"Hi"`) +
		frame("error", `"error":{"code":"CCS_ENVELOPE_ERROR","enricher_id":"e","reason":"timeout"},"is_final":false`) +
		frame("completed", "") + "data: [DONE]\n\n"
	res := dialecttest.Run(Dialect, body)
	want := []string{
		`turn-key key="resp_1"`,
		`progress name="searching" text="Searching..."`,
		`tool-open key="c1" name="search"`,
		`span-open span=placeholder key="cards" name="offer_list"`,
		`tool-close key="c1" name="search" outcome=completed`,
		`span-close span=placeholder key="cards" name="offer_list"`,
		`text text="Hi"`,
		`error code="CCS_ENVELOPE_ERROR"`,
		`terminal name="completed" outcome=completed`,
		``,
	}
	dialecttest.WantMoves(t, res, want)
	if len(res.Turns) != 1 || res.Turns[0].Outcome != "completed" || res.Turns[0].TerminalEvent != "completed" {
		t.Errorf("turns %+v", res.Turns)
	}
}
