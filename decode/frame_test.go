package decode

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

func frameOf(data string) *Frame {
	ev := &Event{Raw: []byte("data: " + data + "\n\n"), Data: []byte(data), HasData: true}
	return DecodeFrame(ev, 0)
}

func TestDecodeFrame(t *testing.T) {
	f := frameOf(`{"event_type":"tool_call","version":"0.5","timestamp":"2026-05-15T18:00:00.400Z","response_id":"resp_abc","tool_call":{"id":"call_1","name":"search_offers","type":"mcp"}}`)
	if !f.Decoded() || f.Type() != "tool_call" || f.VersionString() != "0.5" || f.RID() != "resp_abc" || f.IsV04() {
		t.Fatalf("envelope: %+v", f)
	}
	if tc := f.ToolCall(); !tc.Valid || tc.ID != "call_1" || tc.Name != "search_offers" || tc.Type != "mcp" {
		t.Fatalf("tool_call %+v", tc)
	}

	tests := []struct {
		name    string
		data    string
		problem Problem
		done    bool
		utf8bad bool
	}{
		{"done", `[DONE]`, ProblemNone, true, false},
		{"done with space is not the sentinel", `[DONE] `, ProblemNotJSON, false, false},
		{"not json", `{oops`, ProblemNotJSON, false, false},
		{"array", `[1]`, ProblemNotObject, false, false},
		{"string", `"x"`, ProblemNotObject, false, false},
		{"empty", ``, ProblemNotJSON, false, false},
		{"invalid utf8 in object", "{\"event_type\":\"text\",\"chunk\":\"\xff\"}", ProblemNone, false, true},
	}
	for _, tt := range tests {
		f := frameOf(tt.data)
		if f.Problem != tt.problem || f.Done != tt.done || f.InvalidUTF8 != tt.utf8bad {
			t.Errorf("%s: problem=%v done=%v utf8bad=%v", tt.name, f.Problem, f.Done, f.InvalidUTF8)
		}
		if tt.problem != ProblemNone && f.ProblemDetail() == "" {
			t.Errorf("%s: no problem detail", tt.name)
		}
	}
}

func TestPayloads(t *testing.T) {
	d := frameOf(`{"event_type":"data_loaded","data":{"id":"p1","type":"offer_list","key":{"ids":[1]},"items":[{"a":1},{"b":2}]}}`).DataRef()
	if !d.HasID || d.ID != "p1" || !d.HasType || d.ItemCount != 2 || string(d.Key) != `{"ids":[1]}` {
		t.Errorf("data ref %+v", d)
	}
	s := frameOf(`{"event_type":"status","data":{"event_id":"searching_offers","message":"Searching..."}}`).Status()
	if !s.HasEventID || !s.HasMessage || s.EventID != "searching_offers" {
		t.Errorf("status %+v", s)
	}
	e := frameOf(`{"event_type":"error","error":{"code":"CCS_ENVELOPE_ERROR"},"is_final":false}`)
	if ei := e.ErrorInfo(); !ei.HasCode || ei.Code != "CCS_ENVELOPE_ERROR" || !ei.HasIsFinal || ei.IsFinal {
		t.Errorf("error info %+v", ei)
	}
	terminal := map[string]Terminality{
		`{"event_type":"completed"}`:                                 TerminalCompleted,
		`{"event_type":"cancelled","error":{"code":"IDLE_TIMEOUT"}}`: TerminalCancelled,
		`{"event_type":"error","is_final":true}`:                     TerminalError,
		`{"event_type":"error","is_final":false}`:                    NotTerminal,
		`{"event_type":"error"}`:                                     TerminalError,
		`{"event_type":"error","is_final":"false"}`:                  TerminalError,
		`{"event_type":"error","version":"0.4","is_final":false}`:    TerminalError,
		`{"event_type":"text","chunk":"x"}`:                          NotTerminal,
		`[DONE]`:                                                     NotTerminal,
	}
	for data, want := range terminal {
		if got := frameOf(data).Terminal(); got != want {
			t.Errorf("%s: terminal %v, want %v", data, got, want)
		}
	}
	if u := frameOf(`{"input_tokens":1,"output_tokens":2,"total_tokens":3}`).Usage(); string(u.Total) != "3" || u.Cached != nil {
		t.Errorf("usage %+v", u)
	}
}

func TestFrameClone(t *testing.T) {
	buf := []byte(`{"event_type":"text","version":"0.5","timestamp":"t","response_id":"r","chunk":"hello"}`)
	ev := &Event{Raw: buf, Data: buf, HasData: true}
	var dec Decoder
	f := dec.Decode(ev, 0, false)
	c := f.Clone()
	for i := range buf {
		buf[i] = 'x'
	}
	if c.Type() != "text" || string(c.Chunk()) != `"hello"` || c.RID() != "r" {
		t.Fatalf("clone aliases the buffer: %q %q", c.Type(), c.Chunk())
	}
}

// checkClone: a clone reads exactly as the frame decoded afresh from its
// bytes (members, envelope, accessors), and shares none of the frame's.
func checkClone(t *testing.T, fr *Frame) {
	t.Helper()
	c := fr.Clone()
	fresh := DecodeFrame(&c.Event, fr.Index)
	same := len(c.Members) == len(fresh.Members) &&
		bytes.Equal(c.EventType, fresh.EventType) && bytes.Equal(c.Version, fresh.Version) &&
		bytes.Equal(c.Timestamp, fresh.Timestamp) && bytes.Equal(c.ResponseID, fresh.ResponseID) &&
		c.Type() == fresh.Type() && c.RID() == fresh.RID() && bytes.Equal(c.Chunk(), fresh.Chunk()) &&
		c.Terminal() == fresh.Terminal() && c.Problem == fresh.Problem
	for i := 0; same && i < len(c.Members); i++ {
		same = bytes.Equal(c.Members[i].Key, fresh.Members[i].Key) && bytes.Equal(c.Members[i].Value, fresh.Members[i].Value) &&
			c.Members[i].KeyEsc == fresh.Members[i].KeyEsc
	}
	if !same {
		t.Fatalf("clone of %q reads differently from a fresh decode", fr.Data)
	}
	// Scribble over the frame's bytes: the clone must not change.
	keep := append([]byte(nil), fr.Data...)
	keepRaw := append([]byte(nil), fr.Raw...)
	for i := range fr.Data {
		fr.Data[i] = 'x'
	}
	for i := range fr.Raw {
		fr.Raw[i] = 'x'
	}
	for i := range c.Members {
		if !bytes.Equal(c.Members[i].Key, fresh.Members[i].Key) || !bytes.Equal(c.Members[i].Value, fresh.Members[i].Value) {
			t.Fatalf("clone of %q aliases the frame's bytes", keep)
		}
	}
	copy(fr.Raw, keepRaw)
	copy(fr.Data, keep)
}

func TestFrameCloneRepoints(t *testing.T) {
	for _, s := range []string{
		`{"event_type":"text","version":"0.5","timestamp":"t","response_id":"r","data":{"chunk":"hi"}}`,
		`{"a":1,"a":2,"":"empty key","k\u0065y":"esc"}`, `{}`, `[DONE]`, `{"a":`, `{"type":"x"} `,
	} {
		checkClone(t, frameOf(s))
	}
}

func FuzzDecodeFrame(f *testing.F) {
	for _, s := range []string{`[DONE]`, `{"event_type":"text","chunk":"x"}`, `{"event_type":"error","error":{"code":1},"is_final":null}`,
		`{"event_type":"data_loaded","data":{"id":1,"items":{}}}`, `{"tool_call":[]}`, `{"a":`, "\xff{}", `{"event\u005ftype":"status","data":{"event_id":7}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		data = data[:min(len(data), fuzzMaxInput)] // see fuzzMaxInput
		fr := frameOf(string(data))
		_ = fr.Type()
		_ = fr.RID()
		_ = fr.Terminal()
		_ = fr.ToolCall()
		_ = fr.DataRef()
		_ = fr.Status()
		_ = fr.ErrorInfo()
		_ = fr.Usage()
		checkClone(t, fr)
		if fr.Problem == ProblemNone && !fr.Done && len(fr.Members) == 0 && len(trimWS(data)) > 2 {
			// a decoded non-empty object has members
			var n int
			Walk(data, func(tok Token) bool {
				if tok.Kind == TokKey && tok.Depth == 1 {
					n++
				}
				return true
			})
			if n > 0 {
				t.Fatalf("decoded object with %d keys has no members", n)
			}
		}
	})
}

// TestAppendPayloadExcerpt: appending the excerpt after other bytes gives
// those bytes and then PayloadExcerpt, for frames short and long, decoded
// or not, cut at a rune boundary.
func TestAppendPayloadExcerpt(t *testing.T) {
	for _, data := range []string{
		`{"event_type":"text","chunk":"hi"}`,
		`{"event_type":"text","version":"0.5","chunk":"` + strings.Repeat("é", 300) + `"}`,
		`not json ` + strings.Repeat("✓", 200),
		`[DONE]`,
		`{}`,
	} {
		f := DecodeFrame(&Event{Raw: []byte("data: " + data + "\n\n"), Data: []byte(data), HasData: true}, 0)
		for _, max := range []int{5, 40, 400} {
			want := f.PayloadExcerpt(max)
			if got := string(f.AppendPayloadExcerpt([]byte("pre"), max)); got != "pre"+want {
				t.Errorf("%.20q max %d: %q, want %q", data, max, got, "pre"+want)
			}
			if !utf8.ValidString(want) || len(want) > max+len("…") {
				t.Errorf("%.20q max %d: excerpt %q is not cut at a rune within max", data, max, want)
			}
		}
	}
}
