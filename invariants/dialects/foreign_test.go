package dialects_test

import (
	"testing"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects"
)

// TestForeignKeysSayNo: a frame that carries a member another dialect
// declares as its envelope (Spec.Keys) is not this dialect's, whatever its
// type says. The foreign set is derived from the registry, so these rows
// live here rather than in each dialect's own sniff table.
func TestForeignKeysSayNo(t *testing.T) {
	for _, tc := range []struct {
		dialect, data string
	}{
		{"ai-sdk-ui", `{"type":"text-delta","id":"a","delta":"x","eventSeq":1}`},                       // another dialect's envelope key
		{"anthropic-messages", `{"type":"message_start","eventSeq":3,"turnId":"t"}`},                   // a bus frame reusing the name
		{"anthropic-messages", `{"type":"ping","eventSeq":9}`},                                         // go-bus
		{"go-bus", `{"type":"error","errorText":"x"}`},                                                 // another dialect's envelope key
		{"go-bus", `{"type":"error","code":"server_error","message":"x","sequence_number":3}`},         // another dialect's envelope key
		{"go-bus", `{"schema":"public_sse_v1","kind":"lifecycle","type":"usage"}`},                     // another dialect's envelope key
		{"go-bus", `{"type":"tool_call_started","turnId":"t1","object":"chat.completion.chunk"}`},      // another dialect's envelope key
		{"openai-chat", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`}, // another dialect's envelope key
		{"openai-chat", `{"type":"error","error":{"code":"TIMEOUT","message":"x"}}`},                   // another dialect's envelope key
	} {
		d, ok := dialects.Lookup(tc.dialect)
		if !ok {
			t.Fatalf("no dialect %s", tc.dialect)
		}
		ev := decode.Event{Data: []byte(tc.data), HasData: true, Raw: []byte("data: " + tc.data + "\n\n")}
		f := decode.DecodeFrame(&ev, 0)
		if got := d.Sniff(f, invariants.ForeignKeys(d, dialects.All)); got != invariants.No {
			t.Errorf("%s: %s sniffs %v, want No", tc.dialect, tc.data, got)
		}
		if got := d.Sniff(f, invariants.Keys{}); got == invariants.No {
			t.Errorf("%s: %s is No without foreign keys: the row tests nothing", tc.dialect, tc.data)
		}
	}
}
