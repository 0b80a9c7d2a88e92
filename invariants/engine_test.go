package invariants_test

import (
	"strings"
	"testing"
	"time"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects/dialecttest"
)

// toy is a dialect made for the engine's table tests: each frame's "op"
// is one move, so a test writes the moves it wants and reads back exactly
// what the generic rules say about them.
type toy struct{}

func (toy) Map(f *decode.Frame, m *invariants.Mapping) {
	op := f.Get("op")
	m.Type = op
	key, name := f.Get("key"), f.Get("name")
	span := invariants.SpanBlock
	switch string(invariants.StrBytes(op)) {
	case "start":
		m.Add(invariants.Move{Kind: invariants.MoveTurnStart, Key: key})
	case "end":
		outcome, _ := f.Get("outcome").Str()
		if outcome == "" {
			outcome = invariants.TurnCompleted
		}
		m.Add(invariants.Move{Kind: invariants.MoveTerminal, Outcome: outcome, Final: f.Get("final") != nil})
	case "cut":
		m.Add(invariants.Move{Kind: invariants.MoveCut})
	case "text":
		m.Add(invariants.Move{Kind: invariants.MoveText, Span: span, Key: key, Text: f.Get("text")})
	case "open":
		m.Add(invariants.Move{Kind: invariants.MoveSpanOpen, Span: span, Key: key, Name: name})
	case "close":
		m.Add(invariants.Move{Kind: invariants.MoveSpanClose, Span: span, Key: key})
	case "tool":
		m.Add(invariants.Move{Kind: invariants.MoveToolOpen, Key: key, Name: name})
	case "args":
		m.Add(invariants.Move{Kind: invariants.MoveToolArgs, Key: key})
	case "ready":
		m.Add(invariants.Move{Kind: invariants.MoveToolReady, Key: key})
	case "result":
		m.Add(invariants.Move{Kind: invariants.MoveToolClose, Key: key, Name: name})
	case "seq":
		n, _ := invariants.Int(f.Get("n"))
		m.Add(invariants.Move{Kind: invariants.MoveSeq, Key: invariants.Lit("s"), Seq: n, SeqFrom: 0, SeqGap: "warn"})
	case "stream":
		m.Stream = true
	case "ping":
		m.Add(invariants.Move{Kind: invariants.MoveHeartbeat})
	default:
		m.Unknown = true
	}
	if t := f.Get("turn"); t != nil {
		m.Turn = t
	}
	// Timing: a server stamp, reported output tokens, generation time (ms).
	if at, ok := invariants.StampRFC3339(f.Get("ts")); ok {
		m.Stamp(at, 0)
	}
	if n, ok := invariants.Int(f.Get("out")); ok {
		m.Usage(n)
	}
	if n, ok := invariants.Int(f.Get("gen")); ok {
		m.GenerationTime(time.Duration(n) * time.Millisecond)
	}
}

func toySpec(shape invariants.Shape) *invariants.Spec {
	return &invariants.Spec{ID: "toy", Shape: shape, SniffFrame: func(*decode.Frame, invariants.Keys) invariants.Verdict { return invariants.No },
		LabelOf: func(f *decode.Frame) string { s, _ := f.Get("op").Str(); return s }, NewMapper: func() invariants.Mapper { return toy{} }}
}

// frames writes one data-only frame per argument: the members of its JSON
// object, or [DONE].
func frames(objs ...string) string {
	var b strings.Builder
	for _, o := range objs {
		if o == "[DONE]" {
			b.WriteString("data: [DONE]\n\n")
			continue
		}
		b.WriteString("data: {" + o + "}\n\n")
	}
	return b.String()
}

func TestEngineGenericRules(t *testing.T) {
	perStream := invariants.Shape{Turns: invariants.TurnPerStream, StartRequired: true}
	withDone := invariants.Shape{Turns: invariants.TurnPerStream, Done: true}
	perStreamNoStart := invariants.Shape{Turns: invariants.TurnPerStream}
	keyed := invariants.Shape{Turns: invariants.TurnKeyed, StartRequired: true, OneOpenTurn: true}
	noTerm := invariants.Shape{Turns: invariants.TurnKeyed, NoTerminal: true}
	for _, tc := range []struct {
		name  string
		shape invariants.Shape
		body  string
		want  []string
	}{
		{"clean turn", perStream, frames(`"op":"start","key":"t"`, `"op":"open","key":0`, `"op":"text","key":0,"text":"hi"`, `"op":"close","key":0`, `"op":"end"`), nil},
		{"start missing", perStream, frames(`"op":"text"`, `"op":"end"`), []string{"start-missing error 0"}},
		{"start inside the turn", perStream, frames(`"op":"start"`, `"op":"start"`, `"op":"end"`), []string{"start-duplicate error 1"}},
		{"terminal missing at EOF", perStream, frames(`"op":"start"`), []string{"terminal-missing error -"}},
		{"second terminal", perStream, frames(`"op":"start"`, `"op":"end"`, `"op":"end"`), []string{"after-terminal error 2", "terminal-duplicate error 2"}},
		{"after terminal", perStream, frames(`"op":"start"`, `"op":"end"`, `"op":"ping"`), []string{"after-terminal error 2"}},
		{"span orphan and duplicate", perStream, frames(`"op":"start"`, `"op":"text","key":1`, `"op":"open","key":1`, `"op":"open","key":1`, `"op":"close","key":2`, `"op":"close","key":1`, `"op":"end"`),
			[]string{"span-duplicate error 3", "span-orphan error 1", "span-orphan error 4"}},
		{"span unclosed: error at success", perStream, frames(`"op":"start"`, `"op":"open","key":1`, `"op":"end"`), []string{"span-unclosed error 2"}},
		{"span unclosed: warn at failure", perStream, frames(`"op":"start"`, `"op":"open","key":1`, `"op":"end","outcome":"failed"`), []string{"span-unclosed warn 2"}},
		{"span unclosed: warn without terminal", perStream, frames(`"op":"start"`, `"op":"open","key":1`), []string{"span-unclosed warn -", "terminal-missing error -"}},
		{"span unclosed: error at an interrupt", perStream, frames(`"op":"start"`, `"op":"open","key":1`, `"op":"end","outcome":"interrupted"`), []string{"span-unclosed error 2"}},
		{"tools", perStream, frames(`"op":"start"`, `"op":"tool","key":"a","name":"x"`, `"op":"args","key":"b"`, `"op":"tool","key":"a","name":"x"`, `"op":"result","key":"a","name":"y"`, `"op":"result","key":"a"`, `"op":"tool","name":"z"`, `"op":"end"`),
			[]string{"tool-duplicate error 3", "tool-malformed error 6", "tool-mismatch error 4", "tool-orphan error 2", "tool-orphan error 5"}},
		{"tool unfinished, a ready one legal at success", perStream, frames(`"op":"start"`, `"op":"tool","key":"a"`, `"op":"tool","key":"b"`, `"op":"ready","key":"b"`, `"op":"end"`), []string{"tool-unfinished error 4"}},
		{"a ready tool at a failure is unfinished (warn)", perStream, frames(`"op":"start"`, `"op":"tool","key":"b"`, `"op":"ready","key":"b"`, `"op":"end","outcome":"failed"`), []string{"tool-unfinished warn 3"}},
		{"seq", perStream, frames(`"op":"start"`, `"op":"seq","n":0`, `"op":"seq","n":1`, `"op":"seq","n":3`, `"op":"seq","n":3`, `"op":"seq","n":2`, `"op":"end"`),
			[]string{"seq-gap warn 3", "seq-order error 4", "seq-order error 5"}},
		{"done early and missing", withDone, frames(`"op":"text"`, "[DONE]"), []string{"done-early error 1", "terminal-missing error -"}},
		{"done missing", withDone, frames(`"op":"end"`), []string{"done-missing warn -"}},
		{"a final terminal owes no [DONE]", withDone, frames(`"op":"end","outcome":"failed","final":true`), nil},
		{"after [DONE]", withDone, frames(`"op":"end"`, "[DONE]", `"op":"ping"`, "[DONE]"), []string{"after-terminal error 2", "after-terminal error 3"}},
		{"frames after [DONE]: one alarm", withDone, frames(`"op":"end"`, "[DONE]", `"op":"ping"`, `"op":"text"`, `"op":"end"`), []string{"after-terminal error 2"}},
		{"[DONE] where the client parses JSON", invariants.Shape{Turns: invariants.TurnPerStream, DoneBreaks: true}, frames(`"op":"end"`, "[DONE]"), []string{"frame-json error 1"}},
		{"[DONE] where clients skip it", perStreamNoStart, frames(`"op":"end"`, "[DONE]"), []string{"event-unknown info 1"}},
		{"[DONE] outside the wire", perStream, frames(`"op":"start"`, `"op":"end"`, "[DONE]"), []string{"event-unknown info 2"}},
		{"unknown and broken frames", perStream, frames(`"op":"start"`, `"op":"what"`, `"op":`, `"op":"end"`), []string{"event-unknown info 1", "frame-json error 2"}},
		{"keyed turns", keyed, frames(`"op":"start","key":"a"`, `"op":"end"`, `"op":"start","key":"b"`, `"op":"start","key":"c"`, `"op":"end"`), []string{"start-duplicate error 3"}},
		{"keyed: a frame of another turn opens it", invariants.Shape{Turns: invariants.TurnKeyed, StartRequired: true},
			frames(`"op":"start","key":"a"`, `"op":"text","turn":"b"`, `"op":"end","turn":"a"`, `"op":"end","turn":"b"`), []string{"start-missing error 1"}},
		{"keyed: stream frames belong to no turn", keyed, frames(`"op":"stream"`, `"op":"start","key":"a"`, `"op":"end"`, `"op":"stream"`), nil},
		{"cut: open turns are info, later frames after-terminal", keyed, frames(`"op":"start","key":"a"`, `"op":"cut"`, `"op":"ping"`), []string{"after-terminal error 2", "terminal-missing info -"}},
		{"no terminal: complete when spans close", noTerm, frames(`"op":"open","key":1,"turn":"g"`, `"op":"close","key":1,"turn":"g"`), nil},
		{"no terminal: a span left open is an error", noTerm, frames(`"op":"open","key":1,"turn":"g"`), []string{"span-unclosed error -"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := dialecttest.Run(toySpec(tc.shape), tc.body)
			got := dialecttest.Lines(res.Alarms)
			want := append([]string(nil), tc.want...)
			if strings.Join(got, " | ") != strings.Join(sorted(want), " | ") {
				t.Errorf("got  %v\nwant %v", got, sorted(want))
				for _, a := range res.Alarms {
					t.Logf("  %s %s %d: %s", a.Rule, a.Severity, a.Frame, a.Message)
				}
			}
		})
	}
}

func sorted(s []string) []string {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s
}

// TestEngineTurnsReport: the report's turns carry the key, the outcome,
// the report's terminal value and the terminal event.
func TestEngineTurnsReport(t *testing.T) {
	res := dialecttest.Run(toySpec(invariants.Shape{Turns: invariants.TurnKeyed}),
		frames(`"op":"start","key":"a"`, `"op":"end","outcome":"refused"`, `"op":"start","key":"b"`, `"op":"end"`))
	if len(res.Turns) != 2 {
		t.Fatalf("turns %+v", res.Turns)
	}
	a, b := res.Turns[0], res.Turns[1]
	if a.ResponseID != "a" || a.Outcome != "refused" || a.Terminal.String() != "error" || a.TerminalEvent != "end" || a.TerminalFrame != 1 {
		t.Errorf("turn a %+v", a)
	}
	if b.ResponseID != "b" || b.Outcome != "completed" || b.FirstFrame != 2 || b.LastFrame != 3 {
		t.Errorf("turn b %+v", b)
	}
}

// TestEngineIdle: comment heartbeats keep a turn alive where the dialect
// sends them; the idle window is the dialect's unless the user set one.
// TestEngineSubscriptionHasNoDefaultTTFE: a subscription's first frame
// may come any time after it opened (go-bus): no ttfe unless the user set
// a bound; other dialects keep the default.
func TestEngineSubscriptionHasNoDefaultTTFE(t *testing.T) {
	for _, tc := range []struct {
		name  string
		shape invariants.Shape
		ttfe  time.Duration
		want  string
	}{
		{"default bound", invariants.Shape{Turns: invariants.TurnPerStream}, 0, "ttfe"},
		{"subscription", invariants.Shape{Turns: invariants.TurnPerStream, Subscription: true}, 0, ""},
		{"subscription, bound given", invariants.Shape{Turns: invariants.TurnPerStream, Subscription: true}, 5 * time.Second, "ttfe"},
		{"a GET subscription", invariants.Shape{Turns: invariants.TurnPerStream, SubscriptionGET: true}, 0, ""},
		{"a POST where GETs subscribe", invariants.Shape{Turns: invariants.TurnPerStream, SubscriptionGET: true}, 0, "ttfe"},
	} {
		method := "GET"
		if strings.HasPrefix(tc.name, "a POST") {
			method = "POST"
		}
		chk := toySpec(tc.shape).NewChecker(invariants.Options{TTFE: tc.ttfe, Exchange: &invariants.Exchange{Method: method}})
		var d decode.Decoder
		f := d.Decode(&decode.Event{Data: []byte(`{"op":"start"}`), HasData: true}, 10*time.Second, true)
		got := ""
		for _, a := range chk.Observe(f) {
			got += a.Rule
		}
		if got != tc.want {
			t.Errorf("%s: alarms %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestEngineIdle(t *testing.T) {
	spec := toySpec(invariants.Shape{Turns: invariants.TurnPerStream, CommentHeartbeats: true, Idle: 10e9})
	chk := spec.NewChecker(invariants.Options{})
	var dec decode.Decoder
	obs := func(at float64, data string) []invariants.Alarm {
		ev := &decode.Event{Data: []byte(data), HasData: true, Raw: []byte("data: " + data + "\n\n")}
		return chk.Observe(dec.Decode(ev, dur(at), true))
	}
	obs(0.1, `{"op":"start"}`)
	chk.Block(&decode.Event{Comments: [][]byte{[]byte("keepalive")}}, dur(8), true)
	if a := obs(15, `{"op":"text"}`); len(a) != 0 {
		t.Errorf("a keepalive at 8 s: %v", dialecttest.Lines(a))
	}
	if a := obs(26, `{"op":"text"}`); len(a) != 1 || a[0].Rule != "idle-gap" {
		t.Errorf("11 s of silence: %v", dialecttest.Lines(a))
	}
}

func dur(s float64) time.Duration { return time.Duration(s * 1e9) }
