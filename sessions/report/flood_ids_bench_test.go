package report

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	"framescope/invariants"
	"framescope/sessions/capture"
	"framescope/sessions/internal/sessiontest"
	"framescope/sessions/pipeline"
)

// Id floods against valid streams of the same size and dialect, side by
// side in one run (issue 24, item 3: memory grows with every unique id in
// a turn). A flood opens a new id (tool call, block, item, message,
// stream) in every frame and never closes one; the checker must track a
// bounded number of them, so the flood's peak heap stays within 2× the
// valid stream's and its time within 3×:
//
//	FRAMESCOPE_BENCH_MB=100 go test ./sessions/report/ -run '^$' -bench 'CheckIDFlood' -benchtime 1x
//
// Each case checks and writes the JSON report to io.Discard, as
// `framescope check --format json` does; peak-heap-MB is the highest heap
// (objects, live and not yet swept) sampled while the case ran.

// idFloodGens writes, per dialect, a stream of about size bytes in which
// every frame opens an id that is never closed, inside one turn.
var idFloodGens = []struct {
	name string
	gen  dialectGen
}{
	{"pc3", floodPC3},
	{"typed-lines", floodTypedLines},
	{"go-bus", floodGoBus},
	{"chunk-framed", floodChunkFramed},
	{"public-sse-v1", floodPublicSSE},
	{"openai-responses", floodOpenAIResponses},
	{"openai-chat", floodOpenAIChat},
	{"anthropic-messages", floodAnthropic},
	{"ag-ui", floodAGUI},
	{"ai-sdk-ui", floodAISDKUI},
}

// floodPC3: one v0.5 turn of tool_call frames, each a new id, no
// tool_completed; and data_loading components, each a new id.
func floodPC3(b *bytes.Buffer, size int) {
	env := func(typ string) string {
		return fmt.Sprintf(`{"event_type":%q,"version":"0.5","timestamp":"2026-05-15T18:00:00.000Z","response_id":"resp_flood"`, typ)
	}
	fmt.Fprintf(b, "event: response_id\ndata: %s}\n\n", env("response_id"))
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(b, "event: tool_call\ndata: %s,\"tool_call\":{\"id\":\"call_%d\",\"name\":\"search\",\"type\":\"function\"}}\n\n", env("tool_call"), i)
	}
	fmt.Fprintf(b, "event: completed\ndata: %s}\n\ndata: [DONE]\n\n", env("completed"))
}

// floodTypedLines: the dialect has no ids; its flood is text deltas (the
// valid shape), so the pair shows the bound costs nothing there.
func floodTypedLines(b *bytes.Buffer, size int) { genTypedLines(b, size) }

// floodGoBus: one turn of model_started frames, each a new model call.
func floodGoBus(b *bytes.Buffer, size int) {
	seq := 0
	ev := func(rest string) {
		seq++
		fmt.Fprintf(b, `data:{"streamId":"c-91b2","conversationId":"c-91b2","turnId":"t-1","eventSeq":%d,%s,"createdAt":"2025-06-02T09:14:03.137Z"}`+"\n\n", seq, rest)
	}
	ev(`"id":"t-1","messageId":"u-1","type":"turn_started","status":"running","userMessageId":"u-1"`)
	for i := 0; b.Len() < size; i++ {
		ev(fmt.Sprintf(`"messageId":"a-%d","assistantMessageId":"a-%d","type":"model_started","status":"running","iteration":1,"modelCallId":"a-%d","provider":"openai","modelName":"gpt-4.1"`, i, i, i))
	}
	ev(`"id":"t-1","messageId":"u-1","type":"turn_completed","status":"completed","userMessageId":"u-1"`)
}

// floodChunkFramed: stream.begin frames, each a new message_id.
func floodChunkFramed(b *bytes.Buffer, size int) {
	for i := 1; b.Len() < size; i++ {
		fmt.Fprintf(b, "id: %d\nevent: stream.begin\ndata: {\"message_id\":\"msg-%d\",\"trace_id\":\"4bf92f3577b34da6a3ce929d0e0e4736\",\"agent_id\":\"shopping-assistant\",\"modality\":\"text\",\"expected_chunks\":2,\"correlation_group\":\"4bf92f3577b34da6a3ce929d0e0e4736:1\"}\n\n", i, i)
	}
}

// floodPublicSSE: output_item.added frames, each a new item.
func floodPublicSSE(b *bytes.Buffer, size int) {
	eid := 0
	ev := func(kind, rest string) {
		eid++
		fmt.Fprintf(b, `data: {"schema":"public_sse_v1","event_id":%d,"stream_id":"chat_4b0f8e2c91d7431aa0c3f1b6d2e8a957","server_timestamp":"2025-12-15T14:02:11.040Z","conversation_id":"0d6f7e1a-5b2c-4f3e-9a81-2c7d4e6b1f90","response_id":"resp_68f1c2a9e4b3d0","agent":"triage","kind":%q,%s}`+"\n\n", eid, kind, rest)
	}
	ev("lifecycle", `"status":"in_progress"`)
	for i := 0; b.Len() < size; i++ {
		ev("output_item.added", fmt.Sprintf(`"output_index":%d,"item_id":"msg_%d","item_type":"message","role":"assistant","status":"in_progress"`, i, i))
	}
}

// floodOpenAIResponses: output_item.added frames, each a new message item.
func floodOpenAIResponses(b *bytes.Buffer, size int) {
	seq := 0
	ev := func(typ, body string) {
		fmt.Fprintf(b, "event: %s\ndata: {\"type\":%q,%s,\"sequence_number\":%d}\n\n", typ, typ, body, seq)
		seq++
	}
	resp := `"response":{"id":"resp_0b7c41d2e5f94a0a","object":"response","created_at":1767012345,"status":"in_progress","model":"gpt-5-mini-2025-08-07","output":[]}`
	ev("response.created", resp)
	for oi := 0; b.Len() < size; oi++ {
		ev("response.output_item.added", fmt.Sprintf(`"output_index":%d,"item":{"id":"msg_%d","type":"message","status":"in_progress","content":[],"role":"assistant"}`, oi, oi))
	}
}

// floodOpenAIChat: tool call deltas, each a new index and id.
func floodOpenAIChat(b *bytes.Buffer, size int) {
	for t := 0; b.Len() < size; t++ {
		fmt.Fprintf(b, `data: {"id":"chatcmpl-Bc3n","object":"chat.completion.chunk","created":1735689628,"model":"gpt-4.1-2025-04-14","choices":[{"index":0,"delta":{"tool_calls":[{"index":%d,"id":"call_%d","type":"function","function":{"name":"get_weather","arguments":""}}]},"finish_reason":null}]}`+"\n\n", t, t)
	}
}

// floodAnthropic: content_block_start frames, each a new block index,
// text and tool_use blocks in turn.
func floodAnthropic(b *bytes.Buffer, size int) {
	fmt.Fprintf(b, "event: message_start\ndata: %s\n\n", `{"type":"message_start","message":{"id":"msg_01Pq4Rk8","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":2391,"output_tokens":2}}}`)
	for i := 0; b.Len() < size; i++ {
		if i%2 == 0 {
			fmt.Fprintf(b, "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":%d,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n", i)
		} else {
			fmt.Fprintf(b, "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":%d,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_%d\",\"name\":\"get_order_status\",\"input\":{}}}\n\n", i, i)
		}
	}
}

// floodAGUI: one run of TOOL_CALL_START and TEXT_MESSAGE_START frames,
// each a new id.
func floodAGUI(b *bytes.Buffer, size int) {
	b.WriteString(`data: {"type":"RUN_STARTED","threadId":"thr_3b7e1c90a4d2","runId":"run_1"}` + "\n\n")
	for i := 0; b.Len() < size; i++ {
		if i%2 == 0 {
			fmt.Fprintf(b, "data: {\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"call_%d\",\"toolCallName\":\"get_weather\"}\n\n", i)
		} else {
			fmt.Fprintf(b, "data: {\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"msg_%d\",\"role\":\"assistant\"}\n\n", i)
		}
	}
}

// floodAISDKUI: tool-input-start frames, each a new toolCallId.
func floodAISDKUI(b *bytes.Buffer, size int) {
	b.WriteString(`data: {"type":"start","messageId":"msg_kR2vQ8nT4wLz9sYb"}` + "\n\ndata: {\"type\":\"start-step\"}\n\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(b, "data: {\"type\":\"tool-input-start\",\"toolCallId\":\"call_%d\",\"toolName\":\"getWeatherInformation\"}\n\n", i)
	}
}

// heapPeak samples the heap's object bytes every few milliseconds until
// stopped: a benchmark's peak, not its end state.
type heapPeak struct {
	stop chan struct{}
	done sync.WaitGroup
	peak uint64
}

const heapObjects = "/memory/classes/heap/objects:bytes"

func startHeapPeak() *heapPeak {
	runtime.GC()
	h := &heapPeak{stop: make(chan struct{})}
	h.done.Add(1)
	go func() {
		defer h.done.Done()
		s := []metrics.Sample{{Name: heapObjects}}
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(s)
			h.peak = max(h.peak, s[0].Value.Uint64())
			select {
			case <-h.stop:
				return
			case <-tick.C:
			}
		}
	}()
	return h
}

// end stops sampling and returns the peak in MB.
func (h *heapPeak) end() float64 {
	close(h.stop)
	h.done.Wait()
	return float64(h.peak) / (1 << 20)
}

func BenchmarkCheckIDFlood(b *testing.B) {
	size := int(benchMB(b) << 20)
	valid := map[string]dialectGen{}
	for _, dg := range dialectGens {
		valid[dg.name] = dg.gen
	}
	for _, fg := range idFloodGens {
		for _, kind := range []string{"valid", "flood"} {
			b.Run(fg.name+"/"+kind, func(b *testing.B) {
				gen := fg.gen
				if kind == "valid" {
					gen = valid[fg.name]
				}
				var buf bytes.Buffer
				buf.Grow(size + 1<<20)
				gen(&buf, size)
				body := buf.Bytes()
				b.SetBytes(int64(len(body)))
				b.ReportAllocs()
				h := startHeapPeak()
				var frames int
				for b.Loop() {
					rep := checkBody(b, fg.name, body)
					sessiontest.WriteReport(b, rep, "json", io.Discard)
					frames = rep.Frames
				}
				peak := h.end()
				// The body is held through the run; the peak above it is
				// the checker's.
				b.ReportMetric(peak-float64(len(body))/(1<<20), "peak-heap-MB")
				reportFrames(b, frames)
			})
		}
	}
}

// TestCheckIDFloodHeapBounded: checking an id flood of every dialect keeps
// the live heap bounded. The heap is sampled (after a collection) every
// 10,000 frames while the stream is checked; its growth over the heap
// before the check must stay under a fixed cap, far below what tracking
// every one of the flood's 40,000 to 400,000 ids took (tens of MB).
func TestCheckIDFloodHeapBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("checks 16 MB per dialect")
	}
	const size = 16 << 20
	const bound = 8 << 20
	for _, fg := range idFloodGens {
		t.Run(fg.name, func(t *testing.T) {
			var buf bytes.Buffer
			fg.gen(&buf, size)
			c, err := capture.OpenReader(fg.name, bytes.NewReader(buf.Bytes()), capture.OpenOptions{Entry: -1})
			if err != nil {
				t.Fatal(err)
			}
			var ms runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&ms)
			base, peak := ms.HeapAlloc, uint64(0)
			n := 0
			rep, err := CheckWith(c, invariants.Options{Dialect: fg.name, ListLimit: MaxListed}, pipeline.Handler{OnItem: func(*pipeline.Item) {
				if n++; n%10_000 == 0 {
					runtime.GC()
					runtime.ReadMemStats(&ms)
					peak = max(peak, ms.HeapAlloc)
				}
			}})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Frames < 40_000 {
				t.Fatalf("only %d frames: not a flood", rep.Frames)
			}
			if peak > base && peak-base > bound {
				t.Errorf("live heap grew by %.1f MB while checking %d frames (bound %.0f MB)", float64(peak-base)/(1<<20), rep.Frames, float64(bound)/(1<<20))
			}
			t.Logf("%d frames, live heap +%.1f MB", rep.Frames, float64(max(peak, base)-base)/(1<<20))
		})
	}
}

// TestWriteIDFlood writes one dialect's valid stream and id flood for a
// measurement with the binary (peak RSS of `check`, as issue 24 measured):
//
//	FRAMESCOPE_WRITE_FLOOD=DIALECT:DIR FRAMESCOPE_BENCH_MB=100 go test ./sessions/report/ -run TestWriteIDFlood
//	/usr/bin/time -f '%e s %M KB' framescope check --format json --dialect DIALECT DIR/flood.sse
//
// It does nothing without FRAMESCOPE_WRITE_FLOOD.
func TestWriteIDFlood(t *testing.T) {
	spec := os.Getenv("FRAMESCOPE_WRITE_FLOOD")
	if spec == "" {
		t.Skip("FRAMESCOPE_WRITE_FLOOD=DIALECT:DIR not set")
	}
	name, dir, _ := strings.Cut(spec, ":")
	size := int(benchMB(t) << 20)
	for _, dg := range dialectGens {
		if dg.name != name {
			continue
		}
		for _, fg := range idFloodGens {
			if fg.name != name {
				continue
			}
			for file, gen := range map[string]dialectGen{"valid.sse": dg.gen, "flood.sse": fg.gen} {
				var b bytes.Buffer
				gen(&b, size)
				if err := os.WriteFile(filepath.Join(dir, file), b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			return
		}
	}
	t.Fatalf("no generators for %q", name)
}
