package pc3

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"framescope/invariants"
)

// TestCheckerViewsAndReuse: the rules that read the frame without copying
// it (error codes in text, tool and placeholder pairing, status ids,
// envelope leaks) decide as before on escaped and plain spellings, and the
// turn state reused from turn to turn carries nothing over.
func TestCheckerViewsAndReuse(t *testing.T) {
	var only = func(rules ...string) func([]string) []string {
		return func(got []string) []string {
			var out []string
			for _, g := range got {
				for _, r := range rules {
					if strings.HasPrefix(g, r+" ") {
						out = append(out, g)
					}
				}
			}
			return out
		}
	}
	tests := []struct {
		name   string
		stream string
		filter func([]string) []string
		want   []string
	}{
		{"error code in text, plain, escaped and split",
			newTurn("r1").open().
				f("text", `"chunk":"a RATE_LIMIT_ERROR\n"`).
				f("text", `"chunk":"IDLE\u005fTIMEOUT"`).
				f("text", `"chunk":"\u0049NTERNAL_ERROR"`).
				f("text", `"chunk":"INTERNAL_\nERROR"`).
				f("text", `"chunk":"INTERNAL\\u005fERROR"`).
				f("text", `"chunk":"nothing_here \"quoted\""`).
				completed().done().String(),
			only("error-code-in-text"),
			[]string{"error-code-in-text warn 1", "error-code-in-text warn 2", "error-code-in-text warn 3"}},
		{"tools paired by escaped ids; names compared decoded",
			newTurn("r1").open().
				f("tool_call", `"tool_call":{"id":"c\u0031","name":"search","type":"mcp"}`).
				f("tool_completed", `"tool_call":{"id":"c1","name":"se\u0061rch","type":"mcp"}`).
				f("tool_call", `"tool_call":{"id":"c2","name":"a","type":"mcp"}`).
				f("tool_completed", `"tool_call":{"id":"c2","name":"b","type":"mcp"}`).
				f("tool_completed", `"tool_call":{"id":"c3","name":"b","type":"mcp"}`).
				f("tool_call", `"tool_call":{"id":"c1","name":"x","type":"mcp"}`).
				f("tool_call", `"tool_call":{"id":"c4","name":"","type":"mcp"}`).
				completed().done().String(),
			only("tool-mismatch", "tool-orphan", "tool-duplicate", "tool-unfinished", "tool-malformed"),
			[]string{"tool-duplicate error 6", "tool-malformed error 7", "tool-mismatch error 4", "tool-orphan error 5", "tool-unfinished error 8"}},
		{"placeholders by escaped ids",
			newTurn("r1").open().
				f("data_loading", `"data":{"id":"o\u002d1","type":"offer_list","key":{"a":1,"b":2}}`).
				f("data_loaded", `"data":{"id":"o-1","type":"offer_list","key":{"b":2,"a":1},"items":[]}`).
				f("data_loading", `"data":{"id":"o-2","type":"offer_list","key":1}`).
				f("data_loaded", `"data":{"id":"o-2","type":"other","key":2,"items":[]}`).
				f("data_loaded", `"data":{"id":"o-3","type":"x","items":[]}`).
				f("data_loading", `"data":{"id":"o-4","type":"x","p\u0061yload":{},"status":"ok"}`).
				completed().done().String(),
			only("component-mismatch", "component-unannounced", "component-unfilled", "envelope-leak"),
			[]string{"component-mismatch warn 4", "component-unannounced warn 5", "component-unfilled error 7", "envelope-leak error 6"}},
		{"status ids read in place",
			newTurn("r1").open().
				f("status", `"data":{"event_id":"shop.fetching_catalog","message":"m"}`).
				f("status", `"data":{"event_id":"shop\u002efetching","message":"m"}`).
				f("status", `"data":{"event_id":"Searching...","message":"m"}`).
				f("status", `"data":{"event_id":"","message":""}`).
				completed().done().String(),
			only("status-prose", "status-malformed"),
			[]string{"status-malformed error 4", "status-prose error 3"}},
		{"a second turn starts clean: ids of the first are not seen",
			newTurn("r1").open().
				f("tool_call", `"tool_call":{"id":"c1","name":"n","type":"mcp"}`).
				f("data_loading", `"data":{"id":"d1","type":"t"}`).
				completed().done().String() +
				newTurn("r2").open().
					f("tool_completed", `"tool_call":{"id":"c1","name":"n","type":"mcp"}`).
					f("data_loaded", `"data":{"id":"d1","type":"t","items":[]}`).
					f("tool_call", `"tool_call":{"id":"c1","name":"n","type":"mcp"}`).
					completed().done().String(),
			only("tool-orphan", "tool-duplicate", "component-unannounced", "tool-unfinished", "component-unfilled"),
			[]string{"component-unannounced warn 7", "component-unfilled error 3", "tool-orphan error 6",
				"tool-unfinished error 3", "tool-unfinished error 9"}},
	}
	for _, tt := range tests {
		got := tt.filter(check(t, tt.stream, invariants.Options{}, eof()))
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}

// TestCheckerTurnReuseManyTools: a turn with more tools than the reused
// maps keep is followed by turns that still pair correctly.
func TestCheckerTurnReuseManyTools(t *testing.T) {
	b := newTurn("r1").open()
	for i := range 100 {
		b.f("tool_call", fmt.Sprintf(`"tool_call":{"id":"c%d","name":"n","type":"mcp"}`, i))
	}
	for i := range 99 {
		b.f("tool_completed", fmt.Sprintf(`"tool_call":{"id":"c%d","name":"n","type":"mcp"}`, i))
	}
	stream := b.completed().done().String() +
		newTurn("r2").open().f("tool_completed", `"tool_call":{"id":"c5","name":"n","type":"mcp"}`).completed().done().String()
	var got []string
	for _, g := range check(t, stream, invariants.Options{}, eof()) {
		if strings.HasPrefix(g, "tool-") {
			got = append(got, g)
		}
	}
	want := []string{"tool-orphan error 203", "tool-unfinished error 200"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
