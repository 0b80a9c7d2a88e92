package report

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/capture"
	"framescope/sessions/pipeline"
)

// A report whose turns are handed out by the checker and spilled to a
// file (CheckToWrite) writes the same bytes as one that holds them
// (Check), in every format, on every testdata capture and on long
// generated streams of every dialect (many turns, some with alarms).
func TestCheckToWriteSameBytes(t *testing.T) {
	prevT, prevA := memTurns, memAlarms
	memTurns, memAlarms = 3, 2 // spill after a few: every multi-turn capture spills
	defer func() { memTurns, memAlarms = prevT, prevA }()

	var files []string
	for _, pat := range []string{"../../testdata/rules/*.sse", "../../testdata/rules/*.jsonl", "../../testdata/examples/*", "../../testdata/dialects/*/*.sse", "../../testdata/dialects/*/*.jsonl"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	dir := t.TempDir()
	long := map[string]bool{}
	for i, dg := range append(shortTurnGens, dialectGens...) {
		prefix := "short-"
		if i >= len(shortTurnGens) {
			prefix = "long-"
		}
		var b bytes.Buffer
		dg.gen(&b, 128<<10)
		// Alarms in some turns: a frame that is not JSON every so often,
		// and the stream cut in its last event.
		body := bytes.ReplaceAll(b.Bytes(), []byte("\n\n"), []byte("\n\ndata: {\n\n"))
		body = append(bytes.Repeat(body[:len(body)/2], 1), "data: {\"cut"...)
		for _, v := range []struct {
			suffix string
			b      []byte
		}{{"valid", b.Bytes()}, {"broken", body}} {
			name := filepath.Join(dir, prefix+dg.name+"-"+v.suffix+".sse")
			if err := os.WriteFile(name, v.b, 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, name)
			long[name] = true
		}
	}
	if len(files) < 300 {
		t.Fatalf("only %d captures", len(files))
	}
	write := func(rep *Report) string {
		var b bytes.Buffer
		for _, err := range []error{
			rep.WriteJSON(&b),
			rep.WriteText(&b),
			rep.WriteTextWith(&b, TextOptions{MinSeverity: invariants.SevWarn, Width: 100}),
			rep.WriteJUnit(&b, invariants.SevError),
			rep.WriteJUnit(&b, invariants.SevInfo),
		} {
			if err != nil {
				t.Fatal(err)
			}
		}
		return b.String()
	}
	spilled, alarmsSpilled, alarmsOutOfOrder := 0, 0, 0
	for _, f := range files {
		if fi, err := os.Stat(f); err != nil || fi.IsDir() {
			continue
		}
		open := func() sessions.Capture {
			c, err := capture.Open(f, capture.OpenOptions{Entry: -1})
			if err != nil {
				t.Fatal(err)
			}
			return c
		}
		c := open()
		held, _ := Check(c, invariants.Options{})
		c.Close()
		c = open()
		flat, _ := CheckToWrite(c, invariants.Options{}, false)
		c.Close()
		if held == nil || flat == nil {
			t.Fatalf("%s: no report", f)
		}
		if flat.NumTurns() != len(held.Turns) || flat.NumAlarms() != len(held.Alarms) {
			t.Errorf("%s: %d turns, %d alarms, want %d, %d", f, flat.NumTurns(), flat.NumAlarms(), len(held.Turns), len(held.Alarms))
		}
		if l := flat.alarmLog; l != nil && l.f != nil {
			alarmsSpilled++
			if !l.inOrder {
				alarmsOutOfOrder++
			}
		}
		if a, b := write(held), write(flat); a != b {
			t.Errorf("%s: the flat report differs from the held one", f)
		}
		if flat.turnLog != nil && flat.turnLog.f != nil {
			spilled++
		} else if long[f] && len(held.Turns) > 2*keyedWindowForTest {
			t.Errorf("%s: %d turns, none spilled", f, len(held.Turns))
		}
		if err := flat.Close(); err != nil {
			t.Error(err)
		}
	}
	if spilled < 8 || alarmsSpilled < 8 {
		t.Errorf("only %d captures spilled their turns, %d their alarms", spilled, alarmsSpilled)
	}
	t.Logf("%d captures: %d spilled turns, %d alarms (%d of them out of turn order)", len(files), spilled, alarmsSpilled, alarmsOutOfOrder)
}

// keyedWindowForTest is the engine's keyedWindow: a keyed dialect keeps
// the latest 64 turns findable, so only longer streams hand turns out.
const keyedWindowForTest = 64

// The checkers hold only the turns not yet final: on a long stream of
// every dialect with turns, Turns stays within the engine's window while
// the handed-out turns arrive in index order.
func TestCheckersReleaseFinalTurns(t *testing.T) {
	for _, dg := range shortTurnGens {
		var b bytes.Buffer
		dg.gen(&b, 256<<10)
		c, err := capture.OpenReader(dg.name, bytes.NewReader(b.Bytes()), capture.OpenOptions{Entry: -1})
		if err != nil {
			t.Fatal(err)
		}
		handed := 0
		opts := invariants.Options{OnTurnFinal: func(i int, _ invariants.Turn) {
			if i != handed {
				t.Fatalf("%s: turn %d handed out after %d turns", dg.name, i, handed)
			}
			handed++
		}}
		res, err := pipeline.Run(c, opts, pipeline.Handler{})
		if err != nil {
			t.Fatal(err)
		}
		total := handed + len(res.Turns)
		if res.Dialect != dg.name || total < 200 {
			t.Fatalf("%s: detected %s, %d turns", dg.name, res.Dialect, total)
		}
		if len(res.Turns) > keyedWindowForTest+1 {
			t.Errorf("%s: %d of %d turns still held", dg.name, len(res.Turns), total)
		}
	}
}

// shortTurnGens write streams of many short turns (the benchmark
// generators write long ones) in each dialect whose stream holds several
// turns: PC3 and the keyed dialects. Every 50th turn is left open (no
// terminal): the turns after it cannot be handed out before it is final.
var shortTurnGens = []struct {
	name string
	gen  dialectGen
}{
	{"pc3", func(b *bytes.Buffer, size int) {
		for t := 0; b.Len() < size; t++ {
			env := fmt.Sprintf(`"version":"0.5","timestamp":"2026-05-15T18:00:00.000Z","response_id":"resp_%d"`, t)
			fmt.Fprintf(b, "event: response_id\ndata: {\"event_type\":\"response_id\",%s}\n\n", env)
			fmt.Fprintf(b, "event: text\ndata: {\"event_type\":\"text\",%s,\"chunk\":\"hi %d\"}\n\n", env, t)
			if t%50 != 49 {
				fmt.Fprintf(b, "event: completed\ndata: {\"event_type\":\"completed\",%s}\n\n", env)
			}
			b.WriteString("data: [DONE]\n\n")
		}
	}},
	{"ag-ui", func(b *bytes.Buffer, size int) {
		for t := 0; b.Len() < size; t++ {
			fmt.Fprintf(b, "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"th\",\"runId\":\"run_%d\"}\n\n", t)
			fmt.Fprintf(b, "data: {\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m%d\",\"role\":\"assistant\"}\n\n", t)
			fmt.Fprintf(b, "data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m%d\",\"delta\":\"hi\"}\n\n", t)
			fmt.Fprintf(b, "data: {\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m%d\"}\n\n", t)
			if t%50 != 49 {
				fmt.Fprintf(b, "data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"th\",\"runId\":\"run_%d\"}\n\n", t)
			}
		}
	}},
	{"go-bus", func(b *bytes.Buffer, size int) {
		seq := 0
		ev := func(t int, rest string) {
			seq++
			fmt.Fprintf(b, "data:{\"streamId\":\"c\",\"conversationId\":\"c\",\"turnId\":\"t-%d\",\"eventSeq\":%d,%s,\"createdAt\":\"2025-06-02T09:14:03.137Z\"}\n\n", t, seq, rest)
		}
		for t := 0; b.Len() < size; t++ {
			ev(t, fmt.Sprintf(`"id":"t-%d","messageId":"u-%d","type":"turn_started","status":"running","userMessageId":"u-%d"`, t, t, t))
			ev(t, fmt.Sprintf(`"messageId":"a-%d","assistantMessageId":"a-%d","type":"model_started","status":"running","iteration":1,"modelCallId":"a-%d","provider":"openai","modelName":"gpt-4.1"`, t, t, t))
			ev(t, fmt.Sprintf(`"messageId":"a-%d","type":"text_delta","content":"hi"`, t))
			ev(t, fmt.Sprintf(`"messageId":"a-%d","assistantMessageId":"a-%d","type":"model_completed","status":"completed","iteration":1,"modelCallId":"a-%d"`, t, t, t))
			if t%50 != 49 {
				ev(t, fmt.Sprintf(`"id":"t-%d","messageId":"u-%d","type":"turn_completed","status":"completed","userMessageId":"u-%d"`, t, t, t))
			}
		}
	}},
	{"chunk-framed", func(b *bytes.Buffer, size int) {
		id := 0
		for t := 0; b.Len() < size; t++ {
			id++
			fmt.Fprintf(b, "id: %d\nevent: stream.begin\ndata: {\"message_id\":\"msg-%d\",\"trace_id\":\"tr\",\"agent_id\":\"a\",\"modality\":\"text\",\"expected_chunks\":1,\"correlation_group\":\"tr:%d\"}\n\n", id, t, t)
			id++
			fmt.Fprintf(b, "id: %d\nevent: stream.chunk\ndata: {\"message_id\":\"msg-%d\",\"seq_no\":1,\"payload\":\"hi\",\"is_partial\":false,\"content_type\":\"text/plain\"}\n\n", id, t)
			if t%50 != 49 {
				id++
				fmt.Fprintf(b, "id: %d\nevent: stream.end\ndata: {\"message_id\":\"msg-%d\",\"total_chunks\":1,\"final\":true}\n\n", id, t)
			}
		}
	}},
}
