package faults

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"framescope/decode"
)

// dispatched is the frames (dispatched events) of an SSE body.
func dispatched(body []byte) []decode.Event {
	var out []decode.Event
	_ = decode.ReadEvents(bytes.NewReader(body), func(ev *decode.Event) {
		if ev.Dispatched() {
			out = append(out, ev.Clone())
		}
	})
	return out
}

func TestGarbleBlock(t *testing.T) {
	cases := []string{
		"event: text\ndata: {\"a\":\"b: c, d\",\"e\":[1,2]}\n\n",
		"data: {\"a\":\n data: 1}\n\n",
		"data:{\"x\":1}\r\n\r\n",
		"data: \"just a string\"\n\n",
		"data: [1]\n\n",
		"data: [DONE]\n\n",
		"data: ééé\n\n",
		"data: ###\n\n",
		"data:\n\n",
		"data\n\n",
		": c\nid: 7\ndata: {\"k\":\"v\"}\nretry: 5\n\n",
	}
	for _, in := range cases {
		before := dispatched([]byte(in))
		out := Garble([]byte(in))
		after := dispatched(out)
		if len(before) != 1 || len(after) != 1 {
			t.Errorf("%q → %q: %d frames, want 1", in, out, len(after))
			continue
		}
		if bytes.Equal(before[0].Data, after[0].Data) {
			t.Errorf("%q: data unchanged", in)
		}
		if json.Valid(after[0].Data) {
			t.Errorf("%q → %q: data still valid JSON", in, out)
		}
		if len(before[0].Data) > 0 && len(out) != len(in) {
			t.Errorf("%q → %q: size changed", in, out)
		}
		if utf8.ValidString(in) && len(before[0].Data) > 0 && !bytes.Equal(before[0].Data, []byte("ééé")) && !utf8.Valid(out) {
			t.Errorf("%q → %q: UTF-8 broken", in, out)
		}
	}
}

func TestParseStall(t *testing.T) {
	good := map[string]Stall{
		"2s@5":     {Before: 5, For: 2 * time.Second},
		"500ms@0":  {Before: 0, For: 500 * time.Millisecond},
		"1.5@3":    {Before: 3, For: 1500 * time.Millisecond},
		" 1m @ 12": {Before: 12, For: time.Minute},
	}
	for in, want := range good {
		got, err := ParseStall(in)
		if err != nil || got != want {
			t.Errorf("ParseStall(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "2s", "@5", "2s@", "2s@-1", "-2s@1", "x@1", "2s@x", "2s@1.5", "NaN@1"} {
		if _, err := ParseStall(in); err == nil {
			t.Errorf("ParseStall(%q): no error", in)
		} else if !strings.Contains(err.Error(), "--stall") {
			t.Errorf("ParseStall(%q): %v does not name the flag", in, err)
		}
	}
}
