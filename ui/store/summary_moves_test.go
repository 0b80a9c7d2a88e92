package store

import (
	"testing"

	"framescope/decode"
)

// TestMovesSummaryOfDataThatIsNoObject: data a dialect carries as no JSON
// object by design (langgraph's arrays and null, MCP's endpoint path and
// empty priming event) is shown as it is, not labelled "not JSON".
func TestMovesSummaryOfDataThatIsNoObject(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{``, "(empty data)"},
		{`null`, "null"},
		{`[{"content":"hi"},{"langgraph_node":"agent"}]`, `[{"content":"hi"},{"langgraph_node":"agent"}]`},
		{`/messages/?session_id=9f2c`, "text: /messages/?session_id=9f2c"},
	} {
		var d decode.Decoder
		fr := d.Decode(&decode.Event{Data: []byte(tc.data), HasData: true}, 0, false)
		if got := movesSummary(fr); got != tc.want {
			t.Errorf("%q: summary %q, want %q", tc.data, got, tc.want)
		}
	}
}
