package decode

import (
	"fmt"
	"strings"
	"testing"
)

// unindexed is f as a frame built by hand: the same members, no index, so
// every lookup scans the members one by one (the reference).
func unindexed(f *Frame) *Frame {
	c := *f
	c.idx = frameIndex{}
	return &c
}

// TestFrameIndexMatchesScan: what the index answers — Get, Type, TypeIs,
// IsV04/IsV05 and the payload accessors — equals the member-by-member scan,
// with repeated keys (the last wins), escaped keys and values, keys of
// the same length as the known ones, and frames too wide to index.
func TestFrameIndexMatchesScan(t *testing.T) {
	wide := make([]string, 0, 300)
	for i := range 300 {
		wide = append(wide, fmt.Sprintf(`"k%d":%d`, i, i))
	}
	datas := []string{
		`{"event_type":"text","version":"0.5","timestamp":"2026-01-01T00:00:00Z","response_id":"r","chunk":"hi"}`,
		`{"event_type":"text","chunk":"a","chunk":"b","chunkx":1,"chunq":2}`,
		`{"event_type":"t\u0065xt","version":"0\u002e4","ch\u0075nk":"x","chunk ":"no"}`,
		`{"event_type":"tool_call","tool_call":{"id":"c1","name":"n","type":"mcp","id":"c2"}}`,
		`{"event_type":"tool_completed","tool_call":{"i\u0064":"c\u0031","name":"","type":"x"}}`,
		`{"event_type":"tool_call","tool_call":[1]}`,
		`{"event_type":"data_loaded","data":{"id":"d","type":"t","key":{"a":1},"items":[1,2,3]}}`,
		`{"event_type":"data_loading","data":{"id":"","type":7}}`,
		`{"event_type":"status","data":{"event_id":"a.b","message":"m","event_id":"c"}}`,
		`{"event_type":"status","data":"x"}`,
		`{"event_type":"error","error":{"code":"X"},"is_final":false,"is_final":true}`,
		`{"event_type":"usage","input_tokens":1,"output_tokens":2,"total_tokens":3,"reasoning_tokens":0,"cached_tokens":4,"input_tokens":9}`,
		`{"event_type":"episode","episode_id":"ep"}`,
		`{"event_type":"weird","version":"0.6"}`,
		`{"event_type":7,"version":4}`,
		`{"event_type":"support_content","version":"0.5"}`,
		`{"event_type":"text",` + strings.Join(wide, ",") + `,"chunk":"late"}`,
		`{}`,
	}
	keys := []string{"event_type", "version", "timestamp", "response_id", "chunk", "tool_call", "data",
		"error", "is_final", "episode_id", "input_tokens", "output_tokens", "total_tokens",
		"reasoning_tokens", "cached_tokens", "chunkx", "k299", "absent"}
	names := append(typeNames[:], "weird", "", "txt")
	for _, data := range datas {
		f := DecodeFrame(&Event{Data: []byte(data), Raw: []byte("data: " + data + "\n\n"), HasData: true}, 0)
		if !f.Decoded() {
			t.Fatalf("%.60s: not decoded: %s", data, f.ProblemDetail())
		}
		ref := unindexed(f)
		for _, k := range keys {
			if got, want := string(f.Get(k)), string(ref.Get(k)); got != want {
				t.Errorf("%.60s: Get(%q) = %q, scan gives %q", data, k, got, want)
			}
		}
		check := func(what string, got, want any) {
			t.Helper()
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%.60s: %s = %v, scan gives %v", data, what, got, want)
			}
		}
		check("Type", f.Type(), ref.Type())
		check("IsV04", f.IsV04(), ref.IsV04())
		check("IsV05", f.IsV05(), ref.IsV05())
		for _, n := range names {
			check("TypeIs("+n+")", f.TypeIs(n), f.EventType.StrEq(n))
		}
		check("ToolCall", f.ToolCall(), ref.ToolCall())
		check("DataRef", f.DataRef(), ref.DataRef())
		check("Status", f.Status(), ref.Status())
		check("ErrorInfo", f.ErrorInfo(), ref.ErrorInfo())
		check("Usage", f.Usage(), ref.Usage())
		check("Chunk", string(f.Chunk()), string(ref.Chunk()))
		check("Terminal", f.Terminal(), ref.Terminal())
		// The views agree with the copying accessors.
		tc, v := f.ToolCall(), f.ToolCallView()
		id, _ := v.ID.NonEmptyStr()
		check("ToolCallView", fmt.Sprint(id, v.Valid, v.Present), fmt.Sprint(tc.ID, tc.Valid, tc.Present))
		st := f.Status()
		eid, msg := f.StatusView()
		check("StatusView", fmt.Sprint(eid.IsNonEmptyStr(), msg.IsNonEmptyStr()), fmt.Sprint(st.HasEventID, st.HasMessage))
		// A clone is indexed on its own bytes.
		cl := f.Clone()
		check("Clone Chunk", string(cl.Chunk()), string(ref.Chunk()))
		check("Clone Type", cl.Type(), ref.Type())
	}
}

// TestFrameIndexReference: the reference scan itself reads what the
// frames say (so the comparison above cannot pass on two wrong answers).
func TestFrameIndexReference(t *testing.T) {
	tests := []struct {
		data, typ, chunk string
		v04              bool
	}{
		{`{"event_type":"text","chunk":"a","chunk":"b"}`, "text", `"b"`, false},
		{`{"event_type":"t\u0065xt","version":"0\u002e4","ch\u0075nk":"x"}`, "text", `"x"`, true},
		{`{"event_type":"weird","version":"0.4"}`, "weird", ``, true},
	}
	for _, tt := range tests {
		f := DecodeFrame(&Event{Data: []byte(tt.data), HasData: true}, 0)
		if f.Type() != tt.typ || string(f.Chunk()) != tt.chunk || f.IsV04() != tt.v04 {
			t.Errorf("%s: type %q chunk %q v04 %v, want %q %q %v", tt.data, f.Type(), f.Chunk(), f.IsV04(), tt.typ, tt.chunk, tt.v04)
		}
	}
}

// TestStrBytes: the decoded bytes of a string value, aliasing the literal
// only when it has no escapes.
func TestStrBytes(t *testing.T) {
	tests := []struct {
		raw, want string
		ok        bool
	}{
		{`"abc"`, "abc", true},
		{`""`, "", true},
		{`"a\nb\u00e9"`, "a\nbé", true},
		{`7`, "", false},
		{``, "", false},
	}
	for _, tt := range tests {
		got, ok := Raw(tt.raw).StrBytes()
		if string(got) != tt.want || ok != tt.ok {
			t.Errorf("StrBytes(%s) = %q, %v; want %q, %v", tt.raw, got, ok, tt.want, tt.ok)
		}
	}
}

// TestTypeStringCache: event types that share a slot of the framer's
// direct-mapped cache still come back as themselves.
func TestTypeStringCache(t *testing.T) {
	types := []string{"text", "txet", "tool_call", "tool_completed", "a", "b", "ab", "ba", "status", "sutats"}
	var in strings.Builder
	for range 3 {
		for _, ty := range types {
			fmt.Fprintf(&in, "event: %s\ndata: x\n\n", ty)
		}
	}
	var got []string
	NewFramer().Feed([]byte(in.String()), func(ev *Event) { got = append(got, ev.Type) })
	if len(got) != 3*len(types) {
		t.Fatalf("%d events, want %d", len(got), 3*len(types))
	}
	for i, g := range got {
		if g != types[i%len(types)] {
			t.Errorf("event %d: type %q, want %q", i, g, types[i%len(types)])
		}
	}
}
