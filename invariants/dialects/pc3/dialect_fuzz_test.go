package pc3

import (
	"testing"

	"framescope/invariants/dialects/dialecttest"
)

// FuzzMap: PC3 through the dialect interface (its checker and the moves
// the panes read) takes any bytes without panicking, and every alarm names
// a rule PC3 lists. invariants.FuzzChecker fuzzes the checker alone.
func FuzzMap(f *testing.F) {
	env := `"version":"0.5","timestamp":"2026-06-02T09:40:00.000Z","response_id":"r"`
	frame := func(typ, rest string) string {
		return "data: {\"event_type\":\"" + typ + "\"," + env + rest + "}\n\n"
	}
	dialecttest.Fuzz(f, Dialect,
		frame("response_id", "")+frame("tool_call", `,"tool_call":{"id":"c","name":"s","type":"mcp"}`)+
			frame("text", `,"chunk":"Hi"`)+frame("completed", "")+"data: [DONE]\n\n",
		frame("data_loading", `,"data":{"id":"d","type":"t"}`)+frame("status", `,"data":{"event_id":7}`)+
			frame("error", `,"error":{"code":1},"is_final":false`),
		"event: text\ndata: {\"event_type\":\"text\",\"chunk\":\"\xff\"}\n\n")
}
