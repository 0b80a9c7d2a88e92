package chunkframed

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"testing"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects/dialecttest"
)

// sum is the checksum a stream.end carries: SHA-256 of the payloads.
func sum(payloads ...string) string {
	h := sha256.Sum256([]byte(strings.Join(payloads, "")))
	return hex.EncodeToString(h[:])
}

// ev is one SSE event named by the event: field, as the Channel Gateway
// writes it.
func ev(name, data string) string { return "event: " + name + "\ndata: " + data + "\n\n" }

func begin(mid, group, modality string) string {
	return ev("stream.begin", `{"message_id":"`+mid+`","trace_id":"tr-51c2","agent_id":"catalog-agent","modality":"`+modality+`","correlation_group":"`+group+`"}`)
}

func chunk(mid, seq, payload string) string {
	return ev("stream.chunk", `{"message_id":"`+mid+`","seq_no":`+seq+`,"payload":"`+payload+`","is_partial":true,"content_type":"text/plain"}`)
}

func end(mid, total, checksum string) string {
	return ev("stream.end", `{"message_id":"`+mid+`","total_chunks":`+total+`,"checksum":"`+checksum+`","final":true}`)
}

// valid: one turn with a text stream and a product-carousel stream
// interleaved, as the gateway sends them.
var valid = begin("m-txt", "tr-51c2:3", "text") +
	begin("m-car", "tr-51c2:3", "product_carousel") +
	chunk("m-txt", "1", "Here are three ") +
	chunk("m-car", "1", `{\"sku\":\"TR-204\"}`) +
	chunk("m-txt", "2", "trail shoes.") +
	chunk("m-car", "2", `{\"sku\":\"TR-311\"}`) +
	end("m-txt", "2", sum("Here are three ", "trail shoes.")) +
	end("m-car", "2", sum(`{"sku":"TR-204"}`, `{"sku":"TR-311"}`))

func TestMapping(t *testing.T) {
	res := dialecttest.Run(Dialect, valid)
	if len(res.Alarms) != 0 {
		t.Fatalf("valid stream raises %v", dialecttest.Lines(res.Alarms))
	}
	seq := func(mid, n string) string { return `seq key="` + mid + `" name="seq_no (` + mid + `)" seq=` + n }
	want := []string{
		`span-open span=stream key="m-txt" name="text"`,
		`span-open span=stream key="m-car" name="product_carousel"`,
		seq("m-txt", "1") + `; text span=stream key="m-txt" text="Here are three "`,
		seq("m-car", "1") + `; text span=stream key="m-car" text="{\"sku\":\"TR-204\"}"`,
		seq("m-txt", "2") + `; text span=stream key="m-txt" text="trail shoes."`,
		seq("m-car", "2") + `; text span=stream key="m-car" text="{\"sku\":\"TR-311\"}"`,
		`span-close span=stream key="m-txt"`,
		`span-close span=stream key="m-car"`,
	}
	if len(res.Moves) != len(want) {
		t.Fatalf("%d frames, want %d", len(res.Moves), len(want))
	}
	dialecttest.WantMoves(t, res, want)
	if len(res.Turns) != 1 || res.Turns[0].ResponseID != "tr-51c2:3" || res.Turns[0].Outcome != invariants.TurnCompleted {
		t.Errorf("turns %+v", res.Turns)
	}
}

// TestTurns: each correlation_group is a turn; chunks and ends, which
// carry no group, join their stream's turn.
func TestTurns(t *testing.T) {
	body := begin("a", "g1", "text") + chunk("a", "1", "x") + begin("b", "g2", "text") +
		chunk("a", "2", "y") + chunk("b", "1", "z") + end("a", "2", sum("x", "y")) + end("b", "1", sum("z"))
	res := dialecttest.Run(Dialect, body)
	if len(res.Alarms) != 0 {
		t.Fatalf("alarms %v", dialecttest.Lines(res.Alarms))
	}
	if len(res.Turns) != 2 || res.Turns[0].ResponseID != "g1" || res.Turns[1].ResponseID != "g2" {
		t.Fatalf("turns %+v", res.Turns)
	}
	if res.Turns[0].Frames != 4 || res.Turns[1].Frames != 3 {
		t.Errorf("frames per turn %d, %d; want 4, 3", res.Turns[0].Frames, res.Turns[1].Frames)
	}
	for _, tn := range res.Turns {
		if tn.Outcome != invariants.TurnCompleted {
			t.Errorf("turn %s outcome %q", tn.ResponseID, tn.Outcome)
		}
	}
}

func TestRules(t *testing.T) {
	one := begin("m", "g", "text")
	for _, tc := range []struct {
		name, body string
		want       []string
	}{
		{"valid", valid, nil},
		{"single chunk", one + chunk("m", "1", "ok") + end("m", "1", sum("ok")), nil},
		{"orphan chunk", one + chunk("x", "1", "a") + chunk("m", "1", "b") + end("m", "1", sum("b")), []string{"span-orphan error 1"}},
		{"orphan end", one + chunk("m", "1", "b") + end("m", "1", sum("b")) + end("x", "0", sum()), []string{"span-orphan error 3"}},
		{"begin while open", one + one + chunk("m", "1", "b") + end("m", "1", sum("b")), []string{"span-duplicate error 1"}},
		{"begin after end", one + chunk("m", "1", "b") + end("m", "1", sum("b")) + one + chunk("m", "1", "b") + end("m", "1", sum("b")),
			[]string{"span-duplicate error 3"}},
		{"same id in another group", one + chunk("m", "1", "b") + end("m", "1", sum("b")) + begin("m", "g2", "text") + chunk("m", "1", "c") + end("m", "1", sum("c")), nil},
		{"no end", one + chunk("m", "1", "b"), []string{"span-unclosed error -"}},
		{"chunk after end", one + chunk("m", "1", "b") + end("m", "1", sum("b")) + chunk("m", "2", "c"), []string{"after-terminal error 3"}},
		{"end after end", one + chunk("m", "1", "b") + end("m", "1", sum("b")) + end("m", "1", sum("b")), []string{"after-terminal error 3"}},
		{"gap", one + chunk("m", "1", "a") + chunk("m", "3", "c") + end("m", "2", sum("a", "c")), []string{"seq-gap error 2"}},
		{"starts at 2", one + chunk("m", "2", "a") + end("m", "1", sum("a")), []string{"seq-gap error 1"}},
		{"starts at 0", one + chunk("m", "0", "a") + chunk("m", "1", "b") + end("m", "1", sum("b")), []string{"seq-order error 1"}},
		{"reordered, checksum still in seq_no order", one + chunk("m", "1", "a") + chunk("m", "3", "c") + chunk("m", "2", "b") + end("m", "3", sum("a", "b", "c")),
			[]string{"seq-gap error 2", "seq-order error 3"}},
		{"repeat with another payload", one + chunk("m", "1", "a") + chunk("m", "2", "b") + chunk("m", "2", "B") + end("m", "2", sum("a", "b")),
			[]string{"seq-order error 3"}},
		{"redelivery", one + chunk("m", "1", "a") + chunk("m", "2", "b") + chunk("m", "2", "b") + end("m", "2", sum("a", "b")),
			[]string{"chunk-redelivered info 3"}},
		{"redelivery of an earlier chunk", one + chunk("m", "1", "a") + chunk("m", "2", "b") + chunk("m", "1", "a") + chunk("m", "3", "c") + end("m", "3", sum("a", "b", "c")),
			[]string{"chunk-redelivered info 3"}},
		{"same payload, two seq_no", one + chunk("m", "1", "a") + chunk("m", "2", "a") + end("m", "2", sum("a", "a")), nil},
		{"count", one + chunk("m", "1", "a") + chunk("m", "2", "b") + end("m", "3", sum("a", "b")), []string{"chunk-count error 3"}},
		{"checksum", one + chunk("m", "1", "a") + chunk("m", "2", "b") + end("m", "2", sum("a", "c")), []string{"checksum-mismatch error 3"}},
		{"checksum uppercase", one + chunk("m", "1", "a") + end("m", "1", strings.ToUpper(sum("a"))), []string{"checksum-mismatch error 2"}},
		{"checksum over escapes and UTF-8", one + chunk("m", "1", `caf\u00e9 \"ok\"\n`) + chunk("m", "2", "→ 5 €") + end("m", "2", sum("café \"ok\"\n", "→ 5 €")), nil},
		{"partial", one + chunk("m", "1", "a") + ev("stream.end", `{"message_id":"m","total_chunks":4,"checksum":"00","final":false}`),
			[]string{"stream-partial warn 2"}},
		{"partial without count", one + chunk("m", "1", "a") + ev("stream.end", `{"message_id":"m","final":false}`), []string{"stream-partial warn 2"}},
		{"expected differs", ev("stream.begin", `{"message_id":"m","trace_id":"t","agent_id":"a","modality":"text","correlation_group":"g","expected_chunks":3}`) +
			chunk("m", "1", "a") + end("m", "1", sum("a")), []string{"expected-chunks info 2"}},
		{"expected matches", ev("stream.begin", `{"message_id":"m","trace_id":"t","agent_id":"a","modality":"text","correlation_group":"g","expected_chunks":1}`) +
			chunk("m", "1", "a") + end("m", "1", sum("a")), nil},
		{"seq_no a string", one + ev("stream.chunk", `{"message_id":"m","seq_no":"1","payload":"a","is_partial":false,"content_type":"text/plain"}`) + end("m", "1", sum("a")),
			[]string{"payload-malformed error 1"}},
		{"begin without group", ev("stream.begin", `{"message_id":"m","trace_id":"t","agent_id":"a","modality":"text"}`) + chunk("m", "1", "a") + end("m", "1", sum("a")),
			[]string{"payload-malformed error 0"}},
		{"end without checksum", one + chunk("m", "1", "a") + ev("stream.end", `{"message_id":"m","total_chunks":1,"final":true}`), []string{"payload-malformed error 2"}},
		{"payload an object", one + ev("stream.chunk", `{"message_id":"m","seq_no":1,"payload":{"sku":1},"is_partial":false,"content_type":"application/json"}`) + end("m", "1", sum("x")),
			[]string{"payload-malformed error 1"}},
		{"unknown event", one + ev("stream.progress", `{"message_id":"m"}`) + chunk("m", "1", "a") + end("m", "1", sum("a")), []string{"event-unknown info 1"}},
		{"data-only gateway", strings.ReplaceAll(strings.ReplaceAll(valid, "event: stream.begin\ndata: {", `data: {"event":"stream.begin",`),
			"event: stream.chunk\ndata: {", `data: {"event":"stream.chunk",`), nil},
		{"event field agrees", "event: stream.begin\n" + `data: {"event":"stream.begin","message_id":"m","trace_id":"t","agent_id":"a","modality":"text","correlation_group":"g"}` + "\n\n" +
			chunk("m", "1", "a") + end("m", "1", sum("a")), nil},
		{"event field disagrees", "event: stream.chunk\n" + `data: {"event":"stream.end","message_id":"m","seq_no":1,"payload":"a","is_partial":false,"content_type":"text/plain"}` + "\n\n",
			[]string{"span-orphan error 0", "sse-event-mismatch error 0"}},
		{"not JSON", one + "event: stream.chunk\ndata: {\"message_id\":\n\n" + chunk("m", "1", "a") + end("m", "1", sum("a")), []string{"frame-json error 1"}},
		{"[DONE] is not part of the wire", valid + "data: [DONE]\n\n", []string{"event-unknown info 8"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := dialecttest.Run(Dialect, tc.body)
			got := dialecttest.Lines(res.Alarms)
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("got %v, want %v", got, tc.want)
				for _, a := range res.Alarms {
					t.Logf("  %s %s %d: %s", a.Rule, a.Severity, a.Frame, a.Message)
				}
			}
		})
	}
}

// TestChecksumHeldBack: chunks held back past the bound make the checksum
// unverifiable (no false checksum-mismatch); sequence rules still report.
func TestChecksumHeldBack(t *testing.T) {
	var b strings.Builder
	b.WriteString(begin("m", "g", "text"))
	for i := maxPending + 2; i >= 1; i-- {
		b.WriteString(chunk("m", itoa(i), "p"))
	}
	b.WriteString(end("m", itoa(maxPending+2), sum("wrong")))
	got := dialecttest.Lines(dialecttest.Run(Dialect, b.String()).Alarms)
	for _, l := range got {
		if strings.HasPrefix(l, "checksum-mismatch") || strings.HasPrefix(l, "chunk-count") {
			t.Errorf("unexpected %s", l)
		}
	}
	if len(got) == 0 || !strings.HasPrefix(got[0], "seq-gap") {
		t.Errorf("got %v, want seq-gap then seq-order", got)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestSniff(t *testing.T) {
	cands := func() *invariants.Detector { return invariants.NewDetector([]invariants.Dialect{Dialect}) }
	for _, body := range []string{
		"event: stream.chunk\ndata: {\"seq_no\":1}\n\n",                                           // no message_id: maybe
		"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{}}\n\n",             // Anthropic
		`data: {"type":"ping"}` + "\n\n",                                                          // shared ping
		`data: {"event_type":"text","version":"0.5","response_id":"r","message_id":"m"}` + "\n\n", // pc3
		`data: {"type":"text-delta","id":"m","delta":"x"}` + "\n\n",                               // ai-sdk
		`data: {"object":"chat.completion.chunk","id":"c","choices":[]}` + "\n\n",                 // openai chat
		`data: {"schema":"public_sse_v1","kind":"message.delta","message_id":"m"}` + "\n\n",       // public-sse-v1
		"event: stream.begin\ndata: {\"type\":\"x\",\"message_id\":\"m\"}\n\n",                    // another envelope
	} {
		if got := dialecttest.Detect(cands(), body); got != nil {
			t.Errorf("%q decided %s", body, got.Name())
		}
	}
	for _, body := range []string{valid, strings.ReplaceAll(valid, "event: stream.begin\ndata: {", `data: {"event":"stream.begin",`)} {
		if got := dialecttest.Detect(cands(), body); got != Dialect {
			t.Errorf("valid stream detected as %v", got)
		}
	}
}

// TestMutations: dropping, duplicating or moving one frame of a valid
// stream is always reported (error or warn).
func TestMutations(t *testing.T) {
	bs := dialecttest.Blocks(valid)
	join := func(parts ...[]string) string {
		var s strings.Builder
		for _, p := range parts {
			s.WriteString(strings.Join(p, ""))
		}
		return s.String()
	}
	muts := dialecttest.TerminalMutations(valid, 6) // the text stream's end
	for i := range bs {
		muts["drop "+itoa(i)] = join(bs[:i], bs[i+1:])
		if i != 2 && i != 4 && i != 3 && i != 5 { // a duplicated chunk is a redelivery (info), by design
			muts["duplicate "+itoa(i)] = join(bs[:i+1], bs[i:])
		}
	}
	muts["chunks swapped"] = join(bs[:2], []string{bs[4], bs[3], bs[2]}, bs[5:])
	muts["end before its last chunk"] = join(bs[:4], []string{bs[6], bs[4], bs[5]}, bs[7:])
	muts["chunk before its begin"] = join(bs[2:3], bs[:2], bs[3:])
	muts["payload altered"] = strings.Replace(valid, "trail shoes.", "trail shoes!", 1)
	for name, body := range muts {
		if dialecttest.Serious(dialecttest.Run(Dialect, body).Alarms) == 0 {
			t.Errorf("%s: no alarm", name)
		}
	}
}

// TestChunkAllocs: once warm, mapping a chunk allocates nothing (the
// Engine's own work is not measured here: see the package report).
func TestChunkAllocs(t *testing.T) {
	p := newMapper()
	var m invariants.Mapping
	var dec decode.Decoder
	fr := decode.NewFramer()
	var evs []decode.Event
	fr.Feed([]byte(begin("m", "g", "text")), func(e *decode.Event) { p.Map(dec.Decode(e, 0, false), &m) })
	for i := 1; i <= 200; i++ {
		fr.Feed([]byte(chunk("m", itoa(i), `a \"quoted\" piece of text`)), func(e *decode.Event) { evs = append(evs, e.Clone()) })
	}
	frames := make([]*decode.Frame, len(evs))
	for i := range evs {
		frames[i] = decode.DecodeFrame(&evs[i], i+1)
	}
	for i := range 10 {
		m.Moves = m.Moves[:0]
		p.Map(frames[i], &m)
	}
	n := 10
	allocs := testing.AllocsPerRun(100, func() {
		m.Moves = m.Moves[:0]
		p.Map(frames[n], &m)
		n++
	})
	if allocs != 0 {
		t.Errorf("a chunk allocates %.1f times", allocs)
	}
	if len(m.Moves) != 2 || m.Moves[0].Kind != invariants.MoveSeq || m.Moves[1].Kind != invariants.MoveText {
		t.Errorf("moves %v", m.Moves)
	}
}

func TestNoPanic(t *testing.T) {
	for _, body := range []string{
		ev("stream.chunk", `{"message_id":5,"seq_no":1e400,"payload":[1],"is_partial":"x","content_type":null}`),
		ev("stream.end", `{"message_id":"m","total_chunks":-1,"checksum":7,"final":"no"}`),
		ev("stream.begin", `{"message_id":"m","correlation_group":{"a":1},"expected_chunks":99999999999999999999}`) + chunk("m", "99999999999999999999", "x") +
			chunk("m", "9223372036854775807", "x") + chunk("m", "-9223372036854775808", "y") + end("m", "1", "x"),
		begin("m", "g", "text") + chunk("m", "100000", "x") + chunk("m", "9000", "x") + chunk("m", "9000", "y") + end("m", "2", ""),
		"event: stream.chunk\ndata: {\"message_id\":\"\xff\",\"payload\":\"\xfe\"}\n\n",
		ev("stream.begin", `{"message_id":""}`) + ev("stream.end", `{}`) + ev("", `{"event":1}`),
	} {
		dialecttest.Run(Dialect, body)
	}
}

func FuzzMap(f *testing.F) {
	dialecttest.Fuzz(f, Dialect, valid,
		begin("m", "g", "text")+chunk("m", "2", "a")+chunk("m", "1", "b")+chunk("m", "1", "b")+end("m", "2", sum("b", "a")),
		"event: stream.end\ndata: {\"message_id\":\"m\",\"final\":false}\n\n",
		`data: {"event":"stream.chunk","message_id":"m","seq_no":1,"payload":{}}`+"\n\n")
}
