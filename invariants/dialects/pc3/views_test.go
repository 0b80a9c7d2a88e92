package pc3

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"framescope/decode"
	"framescope/invariants"
)

// indexedFrame decodes one event as the pipeline does: indexed with Keys.
func indexedFrame(ev *decode.Event, index int) *decode.Frame {
	f := &decode.Frame{}
	decode.DecodeAt(f, ev, Keys, index, 0, false)
	return f
}

func frameOf(data string) *decode.Frame {
	return indexedFrame(&decode.Event{Raw: []byte("data: " + data + "\n\n"), Data: []byte(data), HasData: true}, 0)
}

// TestFrameIndexMatchesScan: what the index answers — Get, Type, TypeIs,
// IsV04/IsV05 and the payload views — equals the member-by-member scan of
// the same frame decoded without Keys, with repeated keys (the last wins),
// escaped keys and values, keys of the same length as the known ones, and
// frames too wide to index.
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
		ev := &decode.Event{Data: []byte(data), Raw: []byte("data: " + data + "\n\n"), HasData: true}
		f := indexedFrame(ev, 0)
		if !f.Decoded() {
			t.Fatalf("%.60s: not decoded: %s", data, f.ProblemDetail())
		}
		ref := decode.DecodeFrame(ev, 0) // no key set: every lookup scans
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
		check("Type", Type(f), Type(ref))
		check("IsV04", IsV04(f), IsV04(ref))
		check("IsV05", IsV05(f), IsV05(ref))
		for _, n := range names {
			check("TypeIs("+n+")", TypeIs(f, n), EventType(f).StrEq(n))
			check("TypeIs("+n+") scanned", TypeIs(ref, n), EventType(f).StrEq(n))
		}
		check("ToolCall", ToolCallOf(f), ToolCallOf(ref))
		check("DataRef", DataRefOf(f), DataRefOf(ref))
		check("Status", StatusOf(f), StatusOf(ref))
		check("ErrorInfo", ErrorInfoOf(f), ErrorInfoOf(ref))
		check("Usage", UsageOf(f), UsageOf(ref))
		check("Chunk", string(Chunk(f)), string(Chunk(ref)))
		check("Terminal", Terminal(f), Terminal(ref))
		// The views agree with the copying accessors.
		tc, v := ToolCallOf(f), ToolCallViewOf(f)
		id, _ := v.ID.NonEmptyStr()
		check("ToolCallView", fmt.Sprint(id, v.Valid, v.Present), fmt.Sprint(tc.ID, tc.Valid, tc.Present))
		st := StatusOf(f)
		eid, msg := StatusViewOf(f)
		check("StatusView", fmt.Sprint(eid.IsNonEmptyStr(), msg.IsNonEmptyStr()), fmt.Sprint(st.HasEventID, st.HasMessage))
		// A clone is indexed on its own bytes.
		cl := f.Clone()
		check("Clone Chunk", string(Chunk(cl)), string(Chunk(ref)))
		check("Clone Type", Type(cl), Type(ref))
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
		f := decode.DecodeFrame(&decode.Event{Data: []byte(tt.data), HasData: true}, 0)
		if Type(f) != tt.typ || string(Chunk(f)) != tt.chunk || IsV04(f) != tt.v04 {
			t.Errorf("%s: type %q chunk %q v04 %v, want %q %q %v", tt.data, Type(f), Chunk(f), IsV04(f), tt.typ, tt.chunk, tt.v04)
		}
	}
}

// TestIsV04Label: the version label is read as a JSON string, escapes
// decoded, so an escaped "0.4" follows v0.4 rules as the plain one does;
// anything that is not the string "0.4" does not.
func TestIsV04Label(t *testing.T) {
	for _, tc := range []struct {
		version string
		want    bool
	}{
		{`"0.4"`, true},
		{`"0\u002e4"`, true},
		{`"\u0030.4"`, true},
		{`"0.5"`, false},
		{`"0.40"`, false},
		{`0.4`, false},
		{`null`, false},
		{`""`, false},
	} {
		data := `{"event_type":"error","version":` + tc.version + `,"response_id":"r"}`
		f := frameOf(data)
		if !f.Decoded() {
			t.Fatalf("%s: not decoded (problem %v)", tc.version, f.Problem)
		}
		if got := IsV04(f); got != tc.want {
			t.Errorf("version %s: IsV04 %v, want %v", tc.version, got, tc.want)
		}
	}
}

func TestDecodeEnvelope(t *testing.T) {
	f := frameOf(`{"event_type":"tool_call","version":"0.5","timestamp":"2026-05-15T18:00:00.400Z","response_id":"resp_abc","tool_call":{"id":"call_1","name":"search_offers","type":"mcp"}}`)
	if !f.Decoded() || Type(f) != "tool_call" || VersionString(f) != "0.5" || RID(f) != "resp_abc" || IsV04(f) {
		t.Fatalf("envelope: %+v", f)
	}
	if tc := ToolCallOf(f); !tc.Valid || tc.ID != "call_1" || tc.Name != "search_offers" || tc.Type != "mcp" {
		t.Fatalf("tool_call %+v", tc)
	}
}

func TestPayloads(t *testing.T) {
	d := DataRefOf(frameOf(`{"event_type":"data_loaded","data":{"id":"p1","type":"offer_list","key":{"ids":[1]},"items":[{"a":1},{"b":2}]}}`))
	if !d.HasID || d.ID != "p1" || !d.HasType || d.ItemCount != 2 || string(d.Key) != `{"ids":[1]}` {
		t.Errorf("data ref %+v", d)
	}
	s := StatusOf(frameOf(`{"event_type":"status","data":{"event_id":"searching_offers","message":"Searching..."}}`))
	if !s.HasEventID || !s.HasMessage || s.EventID != "searching_offers" {
		t.Errorf("status %+v", s)
	}
	e := frameOf(`{"event_type":"error","error":{"code":"CCS_ENVELOPE_ERROR"},"is_final":false}`)
	if ei := ErrorInfoOf(e); !ei.HasCode || ei.Code != "CCS_ENVELOPE_ERROR" || !ei.HasIsFinal || ei.IsFinal {
		t.Errorf("error info %+v", ei)
	}
	terminal := map[string]invariants.Terminality{
		`{"event_type":"completed"}`:                                 invariants.TerminalCompleted,
		`{"event_type":"cancelled","error":{"code":"IDLE_TIMEOUT"}}`: invariants.TerminalCancelled,
		`{"event_type":"error","is_final":true}`:                     invariants.TerminalError,
		`{"event_type":"error","is_final":false}`:                    invariants.NotTerminal,
		`{"event_type":"error"}`:                                     invariants.TerminalError,
		`{"event_type":"error","is_final":"false"}`:                  invariants.TerminalError,
		`{"event_type":"error","version":"0.4","is_final":false}`:    invariants.TerminalError,
		`{"event_type":"text","chunk":"x"}`:                          invariants.NotTerminal,
		`[DONE]`:                                                     invariants.NotTerminal,
	}
	for data, want := range terminal {
		if got := Terminal(frameOf(data)); got != want {
			t.Errorf("%s: terminal %v, want %v", data, got, want)
		}
	}
	if u := UsageOf(frameOf(`{"input_tokens":1,"output_tokens":2,"total_tokens":3}`)); string(u.Total) != "3" || u.Cached != nil {
		t.Errorf("usage %+v", u)
	}
}

// TestFrameClone: a clone reads its envelope and payload from its own
// bytes.
func TestFrameClone(t *testing.T) {
	buf := []byte(`{"event_type":"text","version":"0.5","timestamp":"t","response_id":"r","chunk":"hello"}`)
	ev := &decode.Event{Raw: buf, Data: buf, HasData: true}
	dec := decode.Decoder{Keys: Keys}
	f := dec.Decode(ev, 0, false)
	c := f.Clone()
	for i := range buf {
		buf[i] = 'x'
	}
	if Type(c) != "text" || string(Chunk(c)) != `"hello"` || RID(c) != "r" {
		t.Fatalf("clone aliases the buffer: %q %q", Type(c), Chunk(c))
	}
}

// TestExcerpt: an excerpt leads with the event type and leaves the
// envelope out, as every report's excerpts do; an escaped envelope key is
// kept.
func TestExcerpt(t *testing.T) {
	for data, want := range map[string]string{
		`{"event_type":"status","version":"0.5","timestamp":"t","response_id":"r","data":{"event_id":"x"}}`: `status {"data":{"event_id":"x"}}`,
		`{"choices":[],"timestamp":1}`:            `{"choices":[]}`,
		`{"event_type":7,"chunk":"hi"}`:           `{"chunk":"hi"}`,
		`{"event\u005ftype":"text","chunk":"hi"}`: `text {"event\u005ftype":"text","chunk":"hi"}`,
		`not json`: `not json`,
		`{"event_type":"text","chunk":"` + strings.Repeat("é", 30) + `"}`: `text {"chunk":"` + strings.Repeat("é", 7) + `…`,
	} {
		max := 400
		if strings.HasSuffix(want, "…") {
			max = 30
		}
		if got := frameOf(data).PayloadExcerpt(max, &Excerpt); got != want {
			t.Errorf("%.40s: excerpt %q, want %q", data, got, want)
		}
		if got := decode.DecodeFrame(&decode.Event{Data: []byte(data), HasData: true}, 0).PayloadExcerpt(max, &Excerpt); got != want {
			t.Errorf("%.40s unindexed: excerpt %q, want %q", data, got, want)
		}
	}
	if !bytes.Equal(frameOf(`{}`).AppendPayloadExcerpt([]byte("p"), 9, &Excerpt), []byte("p{}")) {
		t.Error("empty object")
	}
}
