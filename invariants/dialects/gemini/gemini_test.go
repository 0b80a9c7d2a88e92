package gemini

import (
	"strings"
	"testing"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects/dialecttest"
)

func capture(t testing.TB, name string) string { return dialecttest.Capture(t, "gemini", name) }

// TestMappingGenerate: a streamGenerateContent turn maps thought parts to
// reasoning, text to the turn's text, a functionCall to a call the client
// runs (opened, its args, ready); the terminal comes at the end of the
// stream (EndStream), not on the finishing chunk.
func TestMappingGenerate(t *testing.T) {
	res := dialecttest.Run(Dialect, capture(t, "valid-generate.sse"))
	if n := dialecttest.Serious(res.Alarms); n != 0 {
		t.Fatalf("valid stream raises %v", dialecttest.Lines(res.Alarms))
	}
	dialecttest.WantMoves(t, res, []string{
		`turn-start key="bH6LaZW8Fp_3nsEPqtaSwQ4"; reasoning text="**Planning**\n\nLook the order up first."`,
		`text text="Let me look"`,
		`text text=" that up."`,
		`tool-open key="call 1" name="lookup_order"; tool-args key="call 1" text={"order_id":"A-1042"}; tool-ready key="call 1"`,
		`text text=""`,
	})
	if len(res.Turns) != 1 || res.Turns[0].Outcome != invariants.TurnCompleted || res.Turns[0].ResponseID != "bH6LaZW8Fp_3nsEPqtaSwQ4" {
		t.Errorf("turns %+v", res.Turns)
	}
}

// TestMappingInteractions: steps are spans by index; a function_call step
// opens the call its arguments_delta fills and its step.stop readies.
func TestMappingInteractions(t *testing.T) {
	res := dialecttest.Run(Dialect, capture(t, "valid-interactions.sse"))
	if n := dialecttest.Serious(res.Alarms); n != 0 {
		t.Fatalf("valid stream raises %v", dialecttest.Lines(res.Alarms))
	}
	dialecttest.WantMoves(t, res, []string{
		`turn-start key="v1_ChdVbXNIYXVEUkVacmpxdHNQb3JQeXlBRRIX"`,
		`progress text="in_progress"`,
		`span-open span=step key=0 name="thought"`,
		`reasoning span=step key=0 text="Need the weather."`,
		`span-close span=step key=0`,
		`span-open span=step key=1 name="model_output"`,
		`text span=step key=1 text="Checking the weather."`,
		`span-close span=step key=1`,
		`span-open span=step key=2 name="function_call"; tool-open key="61nzpsv4" name="getWeather"`,
		`tool-args key="61nzpsv4" text="{\"location\":\"Paris\"}"`,
		`tool-ready key="61nzpsv4"; span-close span=step key=2`,
		`terminal name="interaction.completed" outcome=completed`,
	})
}

// TestOutcomes: finishReason, blockReason, an error object and the
// interaction's status decide the turn's outcome, without an alarm.
func TestOutcomes(t *testing.T) {
	chunk := func(reason string) string {
		return `data: {"candidates":[{"content":{"parts":[{"text":"x"}],"role":"model"},"finishReason":"` + reason + `","index":0}],"usageMetadata":{"totalTokenCount":3}}` + "\n\n"
	}
	for reason, want := range map[string]string{"STOP": "completed", "MAX_TOKENS": "incomplete", "SAFETY": "refused",
		"RECITATION": "refused", "PROHIBITED_CONTENT": "refused", "MALFORMED_FUNCTION_CALL": "failed", "OTHER": "failed"} {
		res := dialecttest.Run(Dialect, chunk(reason))
		if len(res.Turns) != 1 || res.Turns[0].Outcome != want || len(res.Alarms) != 0 {
			t.Errorf("%s: turns %+v alarms %v, want one %s turn", reason, res.Turns, dialecttest.Lines(res.Alarms), want)
		}
	}
	for name, want := range map[string]string{"valid-blocked.sse": "refused", "valid-safety.sse": "refused", "valid-error-chunk.sse": "failed"} {
		res := dialecttest.Run(Dialect, capture(t, name))
		if len(res.Turns) != 1 || res.Turns[0].Outcome != want || len(res.Alarms) != 0 {
			t.Errorf("%s: turns %+v alarms %v, want one %s turn", name, res.Turns, dialecttest.Lines(res.Alarms), want)
		}
	}
	ia := `data: {"event_type":"interaction.created","interaction":{"id":"i1","status":"in_progress"}}` + "\n\n"
	for status, want := range map[string]string{"completed": "completed", "requires_action": "completed", "failed": "failed",
		"cancelled": "cancelled", "incomplete": "incomplete", "budget_exceeded": "incomplete"} {
		body := ia + `data: {"event_type":"interaction.completed","interaction":{"id":"i1","status":"` + status + `"}}` + "\n\n"
		res := dialecttest.Run(Dialect, body)
		if len(res.Turns) != 1 || res.Turns[0].Outcome != want || len(res.Alarms) != 0 {
			t.Errorf("%s: turns %+v alarms %v, want one %s turn", status, res.Turns, dialecttest.Lines(res.Alarms), want)
		}
	}
}

// TestCandidates: with two candidates the turn ends when both finished,
// not at the first finishReason (no after-terminal on the second's text).
func TestCandidates(t *testing.T) {
	body := `data: {"candidates":[{"content":{"parts":[{"text":"a"}]},"index":0},{"content":{"parts":[{"text":"b"}]},"index":1}]}` + "\n\n" +
		`data: {"candidates":[{"content":{"parts":[{"text":"."}]},"finishReason":"STOP","index":0}]}` + "\n\n" +
		`data: {"candidates":[{"content":{"parts":[{"text":"c"}]},"index":1}]}` + "\n\n" +
		`data: {"candidates":[{"content":{"parts":[{"text":"."}]},"finishReason":"STOP","index":1}],"usageMetadata":{"totalTokenCount":9}}` + "\n\n"
	res := dialecttest.Run(Dialect, body)
	if len(res.Alarms) != 0 || len(res.Turns) != 1 || res.Turns[0].Outcome != invariants.TurnCompleted {
		t.Errorf("alarms %v turns %+v, want a clean completed turn", dialecttest.Lines(res.Alarms), res.Turns)
	}
}

// TestSniff: the signature of each shape, and the frames that are not
// Gemini's: PC3's (event_type with version), other wires' keys.
func TestSniff(t *testing.T) {
	// A made-up neighbour declares the other wires' keys, as the registry
	// would: their frames are foreign to gemini.
	other := &invariants.Spec{ID: "other", Keys: []string{"object", "type"},
		SniffFrame: func(*decode.Frame, invariants.Keys) invariants.Verdict { return invariants.No }}
	for body, want := range map[string]invariants.Dialect{
		`data: {"candidates":[{"content":{"parts":[{"text":"x"}]}}]}` + "\n\n":                         Dialect,
		`data: {"promptFeedback":{"blockReason":"SAFETY"}}` + "\n\n":                                   Dialect,
		`data: {"event_type":"step.start","index":0,"step":{"type":"model_output"}}` + "\n\n":          Dialect,
		`data: {"event_type":"content.delta","index":0,"delta":{"type":"text","text":"x"}}` + "\n\n":   Dialect,
		`data: {"event_type":"text","version":"0.5","response_id":"r1","data":{"chunk":"x"}}` + "\n\n": nil,
		`data: {"event_type":"step.start","version":"0.5","index":0}` + "\n\n":                         nil,
		`data: {"object":"chat.completion.chunk","candidates":[]}` + "\n\n":                            nil,
	} {
		d := invariants.NewDetector([]invariants.Dialect{Dialect, other})
		got := dialecttest.Detect(d, body)
		if got == nil {
			got = d.Finish()
		}
		if want == nil {
			want = invariants.SSE
		}
		if got != want {
			t.Errorf("%s: detected as %s, want %s", strings.TrimSpace(body), got.Name(), want.Name())
		}
	}
}

// TestHotPath: a text chunk and a step.delta allocate nothing once warm.
func TestHotPath(t *testing.T) {
	text := `data: {"candidates":[{"content":{"parts":[{"text":"more"}],"role":"model"},"index":0}],"usageMetadata":{"totalTokenCount":3},"modelVersion":"m","responseId":"r"}` + "\n\n"
	dialecttest.HotPathAllocs(t, Dialect, text, text)
	ia := "data: {\"event_type\":\"interaction.created\",\"interaction\":{\"id\":\"i1\",\"status\":\"in_progress\"}}\n\n" +
		"data: {\"event_type\":\"step.start\",\"index\":0,\"step\":{\"type\":\"model_output\"}}\n\n"
	dialecttest.HotPathAllocs(t, Dialect, ia, "data: {\"event_type\":\"step.delta\",\"index\":0,\"delta\":{\"type\":\"text\",\"text\":\"x\"}}\n\n")
}

// TestDemos: the happy demo is clean, the broken one raises alarms.
func TestDemos(t *testing.T) {
	demos := Dialect.Demos()
	if len(demos) != 2 {
		t.Fatalf("%d demos", len(demos))
	}
	if res := dialecttest.Run(Dialect, demos[0].Body); len(res.Alarms) != 0 {
		t.Errorf("happy demo raises %v", dialecttest.Lines(res.Alarms))
	}
	if res := dialecttest.Run(Dialect, demos[1].Body); dialecttest.Serious(res.Alarms) < 3 {
		t.Errorf("broken demo raises only %v", dialecttest.Lines(res.Alarms))
	}
}

func FuzzMap(f *testing.F) {
	dialecttest.Fuzz(f, Dialect,
		"data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"x\",\"thought\":true},{\"functionCall\":{\"name\":\"f\",\"willContinue\":true}}]},\"index\":99}]}\n\n"+
			"data: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"partialArgs\":[]}},{\"codeExecutionResult\":{}}]},\"finishReason\":7}]}\n\n",
		"data: {\"event_type\":\"step.start\",\"index\":-1,\"step\":{\"type\":\"function_call\",\"name\":\"f\"}}\n\ndata: {\"event_type\":\"step.delta\",\"index\":0,\"delta\":{\"type\":\"arguments_delta\"}}\n\n",
		"data: {\"event_type\":\"error\",\"error\":[]}\n\ndata: {\"error\":{\"status\":1}}\n\ndata: {\"promptFeedback\":{\"blockReason\":2}}\n\n",
		capture(f, "valid-interactions.sse"), capture(f, "valid-vertex-stream-args.sse"), capture(f, "legacy-shape.fires.sse"))
}

// TestGenerateFraming: google-genai python (_api_client.py
// _iter_response_stream) takes only lines that start "data: "; any other
// non-blank line is glued into a chunk json.loads rejects
// (UnknownApiResponseError). @google/genai (processStreamResponse) keeps an
// event only when it starts "data:", and parses everything after that
// prefix as one JSON text. So a generateContent chunk with event:, id:,
// retry:, a comment, "data:" without its space or two data lines breaks a
// mainstream client: sse-field-unexpected, once per stream. Interactions
// events carry event: lines and are not concerned.
func TestGenerateFraming(t *testing.T) {
	chunk := `{"candidates":[{"content":{"parts":[{"text":"Hi"}],"role":"model"},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":1}}`
	for _, tc := range []struct{ name, body, want string }{
		{"plain", "data: " + chunk + "\n\n", ""},
		{"crlf", "data: " + chunk + "\r\n\r\n", ""},
		{"event line", "event: message\ndata: " + chunk + "\n\n", "sse-field-unexpected error 0"},
		{"id line", "id: 1\ndata: " + chunk + "\n\n", "sse-field-unexpected error 0"},
		{"comment", ": hi\ndata: " + chunk + "\n\n", "sse-field-unexpected error 0"},
		{"no space", "data:" + chunk + "\n\n", "sse-field-unexpected error 0"},
		{"two data lines", "data: " + chunk[:15] + "\ndata: " + chunk[15:] + "\n\n", "sse-field-unexpected error 0"},
		{"once per stream", "id: 1\ndata: " + strings.Replace(chunk, `,"finishReason":"STOP"`, "", 1) + "\n\nid: 2\ndata: " + chunk + "\n\n", "sse-field-unexpected error 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := dialecttest.Run(Dialect, tc.body)
			if got := strings.Join(dialecttest.Lines(res.Alarms), " | "); got != tc.want {
				t.Errorf("alarms %q, want %q", got, tc.want)
			}
		})
	}
}

// TestAfterFinish: a finishReason is the candidate's state, not the end of
// the stream (server-side tools answer on after STOP; older models put STOP
// on every chunk; python-genai _iter_response_stream and go-genai
// iterateResponseStream read to EOF): chunks after it raise nothing. An
// error chunk there is the turn's terminal (failed). A chunk after a
// blocked prompt is one after-terminal warn.
func TestAfterFinish(t *testing.T) {
	stop := func(text string) string {
		return `data: {"candidates":[{"content":{"parts":[{"text":"` + text + `"}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":1,"totalTokenCount":2}}` + "\n\n"
	}
	for _, tc := range []struct{ name, body, want string }{
		{"every chunk STOP", stop("a") + stop("b") + stop("c") + stop("d"), ""},
		{"empty candidates after", stop("a") + `data: {"candidates":[],"usageMetadata":{"promptTokenCount":1,"totalTokenCount":2}}` + "\n\n", ""},
		{"error after", stop("a") + `data: {"error":{"code":500,"message":"boom","status":"INTERNAL"}}` + "\n\n", ""},
		{"after a blocked prompt", `data: {"promptFeedback":{"blockReason":"SAFETY"}}` + "\n\n" + stop("a"), "after-terminal warn 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := dialecttest.Run(Dialect, tc.body)
			if got := strings.Join(dialecttest.Lines(res.Alarms), " | "); got != tc.want {
				t.Errorf("alarms %q, want %q", got, tc.want)
			}
			if len(res.Turns) != 1 {
				t.Errorf("turns %+v", res.Turns)
			}
		})
	}
}

// TestResumedInteraction: a client resumes an Interactions stream with GET
// /interactions/{id}?stream=true&last_event_id=N (python
// interactions.get(..., stream=True, last_event_id=…), JS
// interactions-get.ts): the server sends the events after N, so the
// stream may start mid-step without interaction.created. With the
// exchange known that is no start-missing and no span-orphan; a raw body
// cannot tell and keeps them.
func TestResumedInteraction(t *testing.T) {
	body := "event: step.stop\ndata: {\"event_id\":\"5b\",\"index\":0,\"event_type\":\"step.stop\"}\n\n" +
		"event: step.delta\ndata: {\"event_id\":\"6\",\"index\":1,\"delta\":{\"type\":\"text\",\"text\":\"lo\"},\"event_type\":\"step.delta\"}\n\n" +
		"event: step.stop\ndata: {\"event_id\":\"7\",\"index\":1,\"event_type\":\"step.stop\"}\n\n" +
		"event: interaction.completed\ndata: {\"event_id\":\"8\",\"interaction\":{\"id\":\"v1_abc\",\"status\":\"completed\"},\"event_type\":\"interaction.completed\"}\n\n"
	get := func(u string) invariants.Options {
		return invariants.Options{Exchange: &invariants.Exchange{Method: "GET", URL: u, RequestHeaders: map[string]string{},
			ResponseHeaders: map[string]string{"Content-Type": "text/event-stream"}}}
	}
	for _, tc := range []struct {
		name string
		opts invariants.Options
		want string
	}{
		{"resumed", get("https://generativelanguage.googleapis.com/v1beta/interactions/v1_abc?stream=true&last_event_id=5"), ""},
		{"raw", invariants.Options{}, "span-orphan error 0 | span-orphan error 1 | span-orphan error 2 | start-missing error 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := dialecttest.RunOpts(Dialect, body, tc.opts)
			if got := strings.Join(dialecttest.Lines(res.Alarms), " | "); got != tc.want {
				t.Errorf("alarms %q, want %q", got, tc.want)
			}
			if len(res.Turns) != 1 || res.Turns[0].Outcome != invariants.TurnCompleted {
				t.Errorf("turns %+v", res.Turns)
			}
		})
	}
}

// TestDoneReading: a [DONE] after a streamGenerateContent stream fails
// both SDKs' JSON parse (frame-json, error); after an Interactions stream
// it is the clients' declared end marker (no alarm).
func TestDoneReading(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"valid-generate.sse", "frame-json error"},
		{"valid-interactions.sse", ""},
	} {
		body := capture(t, tc.file)
		if !strings.HasSuffix(body, "\n\n") {
			body += "\n\n"
		}
		res := dialecttest.Run(Dialect, body+"data: [DONE]\n\n")
		got := ""
		for _, a := range res.Alarms {
			got += a.Rule + " " + string(a.Severity)
		}
		if got != tc.want {
			t.Errorf("%s + [DONE]: %q, want %q", tc.file, got, tc.want)
		}
	}
}
