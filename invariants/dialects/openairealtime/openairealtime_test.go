package openairealtime

import (
	"strings"
	"testing"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects/dialecttest"
)

// run checks a two-way session: lines starting "> " are the client's.
func run(t *testing.T, session string) []string {
	t.Helper()
	chk := Dialect.NewChecker(invariants.Options{})
	tw, ok := chk.(invariants.TwoWay)
	if !ok {
		t.Fatal("openai-realtime's checker is not TwoWay")
	}
	var dec decode.Decoder
	var alarms []invariants.Alarm
	for _, line := range strings.Split(strings.TrimSpace(session), "\n") {
		line = strings.TrimSpace(line)
		client := strings.HasPrefix(line, "> ")
		line = strings.TrimPrefix(line, "> ")
		fr := decode.NewFramer()
		fr.Feed([]byte("data: "+line+"\n\n"), func(ev *decode.Event) {
			f := dec.Decode(ev, 0, false)
			if client {
				alarms = append(alarms, tw.ObserveClient(f)...)
			} else {
				alarms = append(alarms, chk.Observe(f)...)
			}
		})
	}
	alarms = append(alarms, chk.End(invariants.End{Kind: invariants.EndEOF})...)
	var out []string
	for _, a := range alarms {
		out = append(out, a.Rule+" "+string(a.Severity))
	}
	return out
}

const created = `{"type":"response.created","event_id":"s2","response":{"id":"r1","status":"in_progress"}}`
const done = `{"type":"response.done","event_id":"s9","response":{"id":"r1","status":"completed"}}`

func TestRules(t *testing.T) {
	for _, tc := range []struct {
		name, session string
		want          string
	}{
		{"answered", `> {"type":"response.create","event_id":"c1"}
` + created + "\n" + done, ""},
		{"unanswered", `> {"type":"response.create","event_id":"c1"}
> {"type":"response.create","event_id":"c2"}
` + created + "\n" + done, "response-unanswered error"},
		{"answered by an error", `> {"type":"response.create","event_id":"c1"}
> {"type":"response.create","event_id":"c2"}
` + created + `
{"type":"error","event_id":"s3","error":{"code":"conversation_already_has_active_response","event_id":"c2"}}
` + done, ""},
		{"error names no client event", `> {"type":"session.update","event_id":"c1"}
{"type":"error","event_id":"s1","error":{"code":"x","event_id":"c7"}}`, "error-ref-unknown warn"},
		{"server frames only: no client event to name", `{"type":"error","event_id":"s1","error":{"code":"x","event_id":"c7"}}`, ""},
		{"client event_id repeated", `> {"type":"session.update","event_id":"c1"}
> {"type":"session.update","event_id":"c1"}`, "event-id-duplicate warn"},
		{"the same id both ways is no repeat", `> {"type":"session.update","event_id":"e1"}
{"type":"session.updated","event_id":"e1"}`, ""},
		{"unknown client event", `> {"type":"response.teleport","event_id":"c1"}`, "event-unknown info"},
		{"arguments not JSON", created + `
{"type":"response.output_item.added","event_id":"s3","response_id":"r1","item":{"id":"i1","type":"function_call","call_id":"k1","name":"f"}}
{"type":"response.function_call_arguments.done","event_id":"s4","response_id":"r1","call_id":"k1","arguments":"{\"a\":"}
{"type":"response.output_item.done","event_id":"s5","response_id":"r1","item":{"id":"i1","type":"function_call","call_id":"k1"}}
` + done, "tool-malformed error"},
		{"audio into no part", created + `
{"type":"response.output_audio.delta","event_id":"s3","response_id":"r1","item_id":"i1","content_index":0,"delta":"AAAA"}
{"type":"response.output_audio.delta","event_id":"s4","response_id":"r1","item_id":"i1","content_index":0,"delta":"AAAA"}
` + done, "span-orphan error"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := strings.Join(run(t, tc.session), " | ")
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestServerOnly: read without its client frames (an SSE body, or a
// checker that is handed none) the dialect still checks the server's.
func TestServerOnly(t *testing.T) {
	res := dialecttest.Run(Dialect, "data: "+created+"\n\ndata: "+done+"\n\n")
	if n := dialecttest.Serious(res.Alarms); n != 0 {
		t.Errorf("alarms: %v", dialecttest.Lines(res.Alarms))
	}
	if len(res.Turns) != 1 || res.Turns[0].ResponseID != "r1" {
		t.Errorf("turns: %+v", res.Turns)
	}
}

func TestAudioSummary(t *testing.T) {
	var dec decode.Decoder
	fr := decode.NewFramer()
	var s string
	fr.Feed([]byte(`data: {"type":"response.output_audio.delta","event_id":"e","delta":"`+strings.Repeat("AAAA", 12000)+`"}`+"\n\n"), func(ev *decode.Event) {
		s = Dialect.Summary(dec.Decode(ev, 0, false))
	})
	if !strings.Contains(s, "36000 bytes of audio, 750 ms") || strings.Contains(s, "AAAA") {
		t.Errorf("summary %q", s)
	}
}

func FuzzMap(f *testing.F) {
	dialecttest.Fuzz(f, Dialect, "data: "+created+"\n\ndata: "+done+"\n\n")
}
