package report

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"strings"
	"testing"

	"framescope/invariants"
	"framescope/sessions/capture"
	"framescope/sessions/internal/sessiontest"
	"framescope/sessions/pipeline"
)

// Check throughput per dialect, side by side in one run:
//
//	go test ./sessions/ -run '^$' -bench 'CheckDialects' -benchtime 3x
//
// Each dialect gets a generated valid stream of FRAMESCOPE_BENCH_MB MB
// (default 100) shaped like what its servers send: mostly text deltas,
// with tool calls, spans and heartbeats where the dialect has them. The
// stream is held in memory, so the numbers are framing + decoding + the
// dialect's checker, the same pipeline `check` runs.

// dialectGen writes one valid stream of about size bytes.
type dialectGen func(b *bytes.Buffer, size int)

var dialectGens = []struct {
	name string
	gen  dialectGen
}{
	{"pc3", genPC3},
	{"typed-lines", genTypedLines},
	{"go-bus", genGoBus},
	{"chunk-framed", genChunkFramed},
	{"public-sse-v1", genPublicSSE},
	{"openai-responses", genOpenAIResponses},
	{"openai-chat", genOpenAIChat},
	{"anthropic-messages", genAnthropic},
	{"ag-ui", genAGUI},
	{"ai-sdk-ui", genAISDKUI},
}

func BenchmarkCheckDialects(b *testing.B) {
	size := int(benchMB(b) << 20)
	for _, dg := range dialectGens {
		b.Run(dg.name, func(b *testing.B) {
			var buf bytes.Buffer
			buf.Grow(size + 1<<20)
			dg.gen(&buf, size)
			body := buf.Bytes()
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			var frames int
			for b.Loop() {
				c, err := capture.OpenReader(dg.name, bytes.NewReader(body), capture.OpenOptions{Entry: -1})
				if err != nil {
					b.Fatal(err)
				}
				res, err := pipeline.Run(c, invariants.Options{}, pipeline.Handler{})
				if err != nil {
					b.Fatal(err)
				}
				if res.Dialect != dg.name || res.Counts.Error+res.Counts.Warn != 0 {
					b.Fatalf("dialect %s, counts %+v", res.Dialect, res.Counts)
				}
				frames = res.Frames
			}
			reportFrames(b, frames)
		})
	}
}

// TestDialectGensAreValid: every generator writes a stream its dialect
// detects and checks clean (a small one, so plain go test runs it).
func TestDialectGensAreValid(t *testing.T) {
	for _, dg := range dialectGens {
		var buf bytes.Buffer
		dg.gen(&buf, 64<<10)
		c, err := capture.OpenReader(dg.name, bytes.NewReader(buf.Bytes()), capture.OpenOptions{Entry: -1})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Check(c, invariants.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Dialect != dg.name || rep.Counts.Error+rep.Counts.Warn != 0 || len(rep.Turns) == 0 {
			var text bytes.Buffer
			sessiontest.WriteReport(t, rep, "text", &text)
			t.Errorf("%s: detected %s, counts %+v, %d turns\n%s", dg.name, rep.Dialect, rep.Counts, len(rep.Turns), text.String())
		}
		if os.Getenv("FRAMESCOPE_DUMP_GEN") != "" {
			fmt.Println(buf.String()[:min(buf.Len(), 2000)])
		}
	}
}

// words is the text the generators stream, a few words per delta.
var words = strings.Fields(`the quick brown fox jumps over the lazy dog while a trail runner
checks the forecast and packs a light shell two gels and a map of the ridge`)

func delta(i int) string {
	return words[i%len(words)] + " " + words[(i*7+3)%len(words)] + " "
}

// genPC3 writes v0.5 turns: response_id, a status, a tool pair, text
// deltas, completed and [DONE], repeated.
func genPC3(b *bytes.Buffer, size int) {
	for turn := 0; b.Len() < size; turn++ {
		rid := fmt.Sprintf("resp_%d", turn)
		env := func(typ string) string {
			return fmt.Sprintf(`{"event_type":%q,"version":"0.5","timestamp":"2026-05-15T18:00:00.000Z","response_id":%q`, typ, rid)
		}
		fmt.Fprintf(b, "event: response_id\ndata: %s}\n\n", env("response_id"))
		fmt.Fprintf(b, "event: status\ndata: %s,\"data\":{\"event_id\":\"searching\",\"message\":\"Searching...\"}}\n\n", env("status"))
		fmt.Fprintf(b, "event: tool_call\ndata: %s,\"tool_call\":{\"id\":\"call_%d\",\"name\":\"search\",\"type\":\"function\"}}\n\n", env("tool_call"), turn)
		fmt.Fprintf(b, "event: tool_completed\ndata: %s,\"tool_call\":{\"id\":\"call_%d\",\"name\":\"search\",\"type\":\"function\"}}\n\n", env("tool_completed"), turn)
		for i := 0; i < 200; i++ {
			fmt.Fprintf(b, "event: text\ndata: %s,\"chunk\":%q}\n\n", env("text"), delta(i))
		}
		fmt.Fprintf(b, "event: completed\ndata: %s}\n\ndata: [DONE]\n\n", env("completed"))
	}
}

// genTypedLines writes one long turn: logs, pings, text deltas, data, done.
func genTypedLines(b *bytes.Buffer, size int) {
	b.WriteString(`data: {"type":"log","content":"Understanding your query..."}` + "\n\n")
	b.WriteString(`data: {"type":"log","content":"Searching GitHub repositories..."}` + "\n\n")
	for i := 0; b.Len() < size; i++ {
		if i%500 == 0 {
			b.WriteString(`data: {"type":"ping"}` + "\n\n")
		}
		fmt.Fprintf(b, "data: {\"type\":\"text\",\"delta\":%q}\n\n", delta(i))
	}
	b.WriteString(`data: {"type":"data","structuredData":{"type":"repo_list","items":[]}}` + "\n\n")
	b.WriteString(`data: {"type":"done","stats":{"executionTime":8450}}` + "\n\n")
}

// genGoBus writes turns on one conversation stream (eventSeq counting over
// the whole stream): turn_started, a model call streaming text that plans a
// tool, the tool call with narration and a keepalive, a second model call
// streaming text, assistant, usage, turn_completed.
func genGoBus(b *bytes.Buffer, size int) {
	seq := 40
	ev := func(tid, rest string) {
		seq++
		fmt.Fprintf(b, `data:{"streamId":"c-91b2","conversationId":"c-91b2","turnId":%q,"eventSeq":%d,%s,"createdAt":"2025-06-02T09:14:03.137Z"}`+"\n\n", tid, seq, rest)
	}
	model := func(tid, mid string, iter, from, n int) {
		ev(tid, fmt.Sprintf(`"messageId":%q,"assistantMessageId":%q,"type":"model_started","status":"running","iteration":%d,"modelCallId":%q,"provider":"openai","modelName":"gpt-4.1"`, mid, mid, iter, mid))
		for i := from; i < from+n; i++ {
			ev(tid, fmt.Sprintf(`"messageId":%q,"type":"text_delta","content":%q`, mid, delta(i)))
		}
	}
	done := func(tid, mid string, iter int) {
		ev(tid, fmt.Sprintf(`"messageId":%q,"assistantMessageId":%q,"type":"model_completed","status":"completed","iteration":%d,"modelCallId":%q`, mid, mid, iter, mid))
	}
	for turn := 0; b.Len() < size; turn++ {
		tid, uid := fmt.Sprintf("t-%d", turn), fmt.Sprintf("u-%d", turn)
		m1, m2, call := fmt.Sprintf("a-%d-1", turn), fmt.Sprintf("a-%d-2", turn), fmt.Sprintf("call_%d", turn)
		ev(tid, fmt.Sprintf(`"id":%q,"messageId":%q,"type":"turn_started","status":"running","userMessageId":%q`, tid, uid, uid))
		model(tid, m1, 1, 0, 100)
		ev(tid, fmt.Sprintf(`"messageId":%q,"type":"tool_calls_planned","toolCallsPlanned":[{"toolCallId":%q,"toolName":"system/exec:execute"}]`, m1, call))
		done(tid, m1, 1)
		ev(tid, fmt.Sprintf(`"messageId":"tm-%d","toolCallId":%q,"toolMessageId":"tm-%d","type":"tool_call_started","toolName":"system/exec:execute","arguments":{"commands":["df -h /"]},"status":"running"`, turn, call, turn))
		ev(tid, fmt.Sprintf(`"messageId":"n-%d","toolCallId":%q,"type":"narration","content":"Running df on the root volume","narrationSource":"narrator"`, turn, call))
		b.WriteString(": keepalive\n\n")
		ev(tid, fmt.Sprintf(`"messageId":"tm-%d","toolCallId":%q,"toolMessageId":"tm-%d","type":"tool_call_completed","toolName":"system/exec:execute","status":"completed","completedAt":"2025-06-02T09:14:05.019Z"`, turn, call, turn))
		model(tid, m2, 2, 100, 100)
		done(tid, m2, 2)
		ev(tid, fmt.Sprintf(`"messageId":%q,"mode":"task","type":"assistant","patch":{"role":"assistant","status":"completed","sequence":3},"content":"The root volume is 71%% full."`, m2))
		ev(tid, `"type":"usage","usageInputTokens":1840,"usageOutputTokens":96,"usageTotalTokens":1936`)
		ev(tid, fmt.Sprintf(`"id":%q,"messageId":%q,"type":"turn_completed","status":"completed","userMessageId":%q`, tid, uid, uid))
	}
}

// genChunkFramed writes correlation groups: a text stream of 200 chunks
// and, interleaved with it, a product-carousel stream of 2 JSON chunks,
// each ended with total_chunks and the SHA-256 of its payloads; SSE ids
// count over the stream, a keepalive comment between groups.
func genChunkFramed(b *bytes.Buffer, size int) {
	id := 0
	frame := func(event, data string) {
		id++
		fmt.Fprintf(b, "id: %d\nevent: %s\ndata: %s\n\n", id, event, data)
	}
	const trace = "4bf92f3577b34da6a3ce929d0e0e4736"
	const product = `{"sku":"TR-204","name":"Ridgeline GTX","price":{"amount":139.0,"currency":"EUR"},"image":"https://cdn.example-shop.eu/p/TR-204/main.webp"}`
	for turn := 0; b.Len() < size; turn++ {
		txt, car := fmt.Sprintf("msg-%d-T", turn), fmt.Sprintf("msg-%d-C", turn)
		group := fmt.Sprintf("%s:%d", trace, turn+1)
		frame("stream.begin", fmt.Sprintf(`{"message_id":%q,"trace_id":%q,"agent_id":"shopping-assistant","modality":"text","expected_chunks":200,"correlation_group":%q}`, txt, trace, group))
		frame("stream.begin", fmt.Sprintf(`{"message_id":%q,"trace_id":%q,"agent_id":"catalog-agent","modality":"product_carousel","expected_chunks":2,"correlation_group":%q}`, car, trace, group))
		ht, hc := sha256.New(), sha256.New()
		nc := 0
		for i := 1; i <= 200; i++ {
			p := delta(i)
			ht.Write([]byte(p))
			frame("stream.chunk", fmt.Sprintf(`{"message_id":%q,"seq_no":%d,"payload":%q,"is_partial":%t,"content_type":"text/plain; charset=utf-8"}`, txt, i, p, i < 200))
			if i == 60 || i == 140 {
				nc++
				hc.Write([]byte(product))
				frame("stream.chunk", fmt.Sprintf(`{"message_id":%q,"seq_no":%d,"payload":%q,"is_partial":false,"content_type":"application/vnd.shop.product+json"}`, car, nc, product))
			}
		}
		frame("stream.end", fmt.Sprintf(`{"message_id":%q,"total_chunks":%d,"checksum":"%x","final":true}`, car, nc, hc.Sum(nil)))
		frame("stream.end", fmt.Sprintf(`{"message_id":%q,"total_chunks":200,"checksum":"%x","final":true}`, txt, ht.Sum(nil)))
		b.WriteString(": keepalive\n\n")
	}
}

// genPublicSSE writes one long turn: lifecycle, a function tool call
// (item, statuses, arguments, output), then assistant message items of 200
// message.delta each with a web search between the first two, heartbeat
// comments every 500 events, and final; event_id counts from 1.
func genPublicSSE(b *bytes.Buffer, size int) {
	eid := 0
	ev := func(kind, rest string) {
		eid++
		rid := `"resp_68f1c2a9e4b3d0"`
		if eid == 1 {
			rid = "null"
		}
		if eid%500 == 0 {
			b.WriteString(": heartbeat 2025-12-15T14:02:26Z\n\n")
		}
		fmt.Fprintf(b, `data: {"schema":"public_sse_v1","event_id":%d,"stream_id":"chat_4b0f8e2c91d7431aa0c3f1b6d2e8a957","server_timestamp":"2025-12-15T14:02:11.040Z","conversation_id":"0d6f7e1a-5b2c-4f3e-9a81-2c7d4e6b1f90","response_id":%s,"agent":"triage","kind":%q,%s}`+"\n\n", eid, rid, kind, rest)
	}
	ev("lifecycle", `"status":"in_progress"`)
	fc := `"output_index":0,"item_id":"fc_68f1c2ab01"`
	ev("output_item.added", fc+`,"item_type":"function_call","status":"in_progress"`)
	ev("tool.status", fc+`,"tool":{"tool_type":"function","tool_call_id":"fc_68f1c2ab01","status":"in_progress","name":"get_order_status"}`)
	ev("tool.arguments.delta", `"delta":"{\"order_id\":\"A-20931\"}",`+fc+`,"tool_call_id":"fc_68f1c2ab01","tool_type":"function","tool_name":"get_order_status"`)
	ev("tool.arguments.done", `"arguments_text":"{\"order_id\":\"A-20931\"}","arguments_json":{"order_id":"A-20931"},`+fc+`,"tool_call_id":"fc_68f1c2ab01","tool_type":"function","tool_name":"get_order_status"`)
	b.WriteString(": heartbeat 2025-12-15T14:02:26Z\n\n")
	ev("tool.output", fc+`,"tool_call_id":"fc_68f1c2ab01","tool_type":"function","output":{"order_id":"A-20931","state":"shipped"}`)
	ev("tool.status", fc+`,"tool":{"tool_type":"function","tool_call_id":"fc_68f1c2ab01","status":"completed","name":"get_order_status"}`)
	ev("output_item.done", fc+`,"item_type":"function_call","status":"completed"`)
	oi := 1
	for item := 0; b.Len() < size; item++ {
		if item == 1 {
			ws := fmt.Sprintf(`"output_index":%d,"item_id":"ws_690a11f3b8"`, oi)
			oi++
			ev("output_item.added", ws+`,"item_type":"web_search_call","status":"in_progress"`)
			for _, st := range []string{"in_progress", "searching", "completed"} {
				ev("tool.status", ws+`,"tool":{"tool_type":"web_search","tool_call_id":"ws_690a11f3b8","status":"`+st+`","query":"UPS delivery times"}`)
			}
			ev("output_item.done", ws+`,"item_type":"web_search_call","status":"completed"`)
		}
		msg := fmt.Sprintf(`"output_index":%d,"item_id":"msg_%d"`, oi, item)
		oi++
		ev("output_item.added", msg+`,"item_type":"message","role":"assistant","status":"in_progress"`)
		for i := 0; i < 200; i++ {
			ev("message.delta", fmt.Sprintf(`%s,"content_index":0,"delta":%q`, msg, delta(i)))
		}
		ev("output_item.done", msg+`,"item_type":"message","role":"assistant","status":"completed"`)
	}
	ev("final", `"final":{"status":"completed","response_text":"Your order A-20931 shipped with UPS.","structured_output":null,"reasoning_summary_text":null,"refusal_text":null,"attachments":[],"usage":{"input_tokens":120,"output_tokens":48,"total_tokens":168}}`)
}

// genOpenAIResponses writes one response: created, in_progress, a
// reasoning item, a function_call item (arguments deltas and done), then
// message items (content part, 200 output_text deltas, the done events
// repeating the item's text), completed; sequence_number from 0.
func genOpenAIResponses(b *bytes.Buffer, size int) {
	seq := 0
	ev := func(typ, body string) {
		fmt.Fprintf(b, "event: %s\ndata: {\"type\":%q,%s,\"sequence_number\":%d}\n\n", typ, typ, body, seq)
		seq++
	}
	resp := func(status string) string {
		return `"response":{"id":"resp_0b7c41d2e5f94a0a","object":"response","created_at":1767012345,"status":"` + status + `","background":false,"error":null,"incomplete_details":null,"model":"gpt-5-mini-2025-08-07","output":[],"parallel_tool_calls":true,"tool_choice":"auto","tools":[{"type":"function","name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"}}},"strict":true}],"usage":null,"metadata":{}}`
	}
	ev("response.created", resp("in_progress"))
	ev("response.in_progress", resp("in_progress"))
	ev("response.output_item.added", `"output_index":0,"item":{"id":"rs_0d3e5f7a","type":"reasoning","summary":[]}`)
	ev("response.output_item.done", `"output_index":0,"item":{"id":"rs_0d3e5f7a","type":"reasoning","summary":[]}`)
	fc := `"id":"fc_0d3e5f7a","type":"function_call","call_id":"call_Q3vX9kLm","name":"get_weather"`
	ev("response.output_item.added", `"output_index":1,"item":{`+fc+`,"status":"in_progress","arguments":""}`)
	for _, d := range []string{`{\"`, `city`, `\":\"`, `Paris`, `\"}`} {
		ev("response.function_call_arguments.delta", `"item_id":"fc_0d3e5f7a","output_index":1,"delta":"`+d+`"`)
	}
	ev("response.function_call_arguments.done", `"item_id":"fc_0d3e5f7a","output_index":1,"name":"get_weather","arguments":"{\"city\":\"Paris\"}"`)
	ev("response.output_item.done", `"output_index":1,"item":{`+fc+`,"status":"completed","arguments":"{\"city\":\"Paris\"}"}`)
	var text strings.Builder
	for oi := 2; b.Len() < size; oi++ {
		it := fmt.Sprintf(`"item_id":"msg_%d","output_index":%d,"content_index":0`, oi, oi)
		ev("response.output_item.added", fmt.Sprintf(`"output_index":%d,"item":{"id":"msg_%d","type":"message","status":"in_progress","content":[],"role":"assistant"}`, oi, oi))
		ev("response.content_part.added", it+`,"part":{"type":"output_text","annotations":[],"logprobs":[],"text":""}`)
		text.Reset()
		for i := 0; i < 200; i++ {
			ev("response.output_text.delta", fmt.Sprintf(`%s,"delta":%q,"logprobs":[]`, it, delta(i)))
			text.WriteString(delta(i))
		}
		ev("response.output_text.done", fmt.Sprintf(`%s,"text":%q,"logprobs":[]`, it, text.String()))
		ev("response.content_part.done", fmt.Sprintf(`%s,"part":{"type":"output_text","annotations":[],"logprobs":[],"text":%q}`, it, text.String()))
		ev("response.output_item.done", fmt.Sprintf(`"output_index":%d,"item":{"id":"msg_%d","type":"message","status":"completed","content":[{"type":"output_text","annotations":[],"logprobs":[],"text":%q}],"role":"assistant"}`, oi, oi, text.String()))
	}
	ev("response.completed", strings.Replace(resp("completed"), `"usage":null`, `"usage":{"input_tokens":212,"output_tokens":181,"total_tokens":393}`, 1))
}

// genOpenAIChat writes one completion: a role chunk, content deltas, then
// two parallel tool calls (id and name on the first delta, arguments in
// pieces), finish_reason tool_calls, a usage-only chunk and [DONE]; an
// OpenRouter-style comment heartbeat every 500 chunks.
func genOpenAIChat(b *bytes.Buffer, size int) {
	n := 0
	chunk := func(delta, finish string) {
		n++
		if n%500 == 0 {
			b.WriteString(": OPENROUTER PROCESSING\n\n")
		}
		fmt.Fprintf(b, `data: {"id":"chatcmpl-Bc3nQ8wLx5TgH2jR9vKm0PzUeYs1","object":"chat.completion.chunk","created":1735689628,"model":"gpt-4.1-2025-04-14","service_tier":"default","system_fingerprint":"fp_b3f1157249","choices":[{"index":0,"delta":%s,"logprobs":null,"finish_reason":%s}]}`+"\n\n", delta, finish)
	}
	chunk(`{"role":"assistant","content":"","refusal":null}`, "null")
	for i := 0; b.Len() < size; i++ {
		chunk(fmt.Sprintf(`{"content":%q}`, delta(i)), "null")
	}
	for t, city := range []string{"Bergen", "Trondheim"} {
		chunk(fmt.Sprintf(`{"tool_calls":[{"index":%d,"id":"call_%d","type":"function","function":{"name":"get_weather","arguments":""}}]}`, t, t), "null")
		for _, a := range []string{`{\"city\": \"`, city, `\"}`} {
			chunk(fmt.Sprintf(`{"tool_calls":[{"index":%d,"function":{"arguments":"%s"}}]}`, t, a), "null")
		}
	}
	chunk(`{}`, `"tool_calls"`)
	b.WriteString(`data: {"id":"chatcmpl-Bc3nQ8wLx5TgH2jR9vKm0PzUeYs1","object":"chat.completion.chunk","created":1735689628,"model":"gpt-4.1-2025-04-14","service_tier":"default","system_fingerprint":"fp_b3f1157249","choices":[],"usage":{"prompt_tokens":88,"completion_tokens":52,"total_tokens":140}}` + "\n\ndata: [DONE]\n\n")
}

// genAnthropic writes one message: message_start, a thinking block
// (thinking and signature deltas), a server web search with its result, one
// long text block with a citation and a ping every 500 deltas, a tool_use
// block (input_json_delta), message_delta with stop_reason, message_stop.
func genAnthropic(b *bytes.Buffer, size int) {
	ev := func(typ, data string) {
		fmt.Fprintf(b, "event: %s\ndata: %s\n\n", typ, data)
	}
	const ping = `{"type": "ping"}`
	ev("message_start", `{"type":"message_start","message":{"id":"msg_01Pq4Rk8Zs2Wn6Ty3Vb7Hc9J","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":2391,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":2,"service_tier":"standard"}}}`)
	ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}`)
	ev("ping", ping)
	ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"The user wants the forecast. I should search."}}`)
	ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqoBCkgIBhABGAIiQL3sZ0m7yQ4dJq8T1cXwFhN0"}}`)
	ev("content_block_stop", `{"type":"content_block_stop","index":0}`)
	ev("content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"server_tool_use","id":"srvtoolu_01Hd7LwQ","name":"web_search","input":{}}}`)
	ev("content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"query\": \"ridge"}}`)
	ev("content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":" forecast\"}"}}`)
	ev("content_block_stop", `{"type":"content_block_stop","index":1}`)
	ev("content_block_start", `{"type":"content_block_start","index":2,"content_block":{"type":"web_search_tool_result","tool_use_id":"srvtoolu_01Hd7LwQ","content":[{"type":"web_search_result","title":"Ridge forecast","url":"https://weather.example.org/ridge","encrypted_content":"EqgfCioIARgBIiQ3YTAwMjY1","page_age":null}]}}`)
	ev("content_block_stop", `{"type":"content_block_stop","index":2}`)
	ev("content_block_start", `{"type":"content_block_start","index":3,"content_block":{"type":"text","text":""}}`)
	for i := 0; b.Len() < size; i++ {
		if i%500 == 499 {
			ev("ping", ping)
		}
		if i == 10 {
			ev("content_block_delta", `{"type":"content_block_delta","index":3,"delta":{"type":"citations_delta","citation":{"type":"web_search_result_location","cited_text":"Light rain after noon","url":"https://weather.example.org/ridge","title":"Ridge forecast","encrypted_index":"Eo8BCioIAhgBIiQ"}}}`)
		}
		fmt.Fprintf(b, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":3,\"delta\":{\"type\":\"text_delta\",\"text\":%q}}\n\n", delta(i))
	}
	ev("content_block_stop", `{"type":"content_block_stop","index":3}`)
	ev("content_block_start", `{"type":"content_block_start","index":4,"content_block":{"type":"tool_use","id":"toolu_01KmZ7rQ","name":"get_order_status","input":{}}}`)
	for _, p := range []string{``, `{\"order_id\"`, `: \"ORD-58213\"}`} {
		ev("content_block_delta", `{"type":"content_block_delta","index":4,"delta":{"type":"input_json_delta","partial_json":"`+p+`"}}`)
	}
	ev("content_block_stop", `{"type":"content_block_stop","index":4}`)
	ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":87}}`)
	ev("message_stop", `{"type":"message_stop"}`)
}

// genAGUI writes runs on one thread: RUN_STARTED, an agent step streaming
// a text message that calls a tool (START, ARGS, END), a tools step with
// the result, a second agent step streaming text, a state delta,
// RUN_FINISHED; a ": ping" comment between runs.
func genAGUI(b *bytes.Buffer, size int) {
	ev := func(data string) {
		b.WriteString("data: ")
		b.WriteString(data)
		b.WriteString("\n\n")
	}
	msg := func(mid string, from, n int) {
		ev(`{"type":"TEXT_MESSAGE_START","messageId":"` + mid + `","role":"assistant"}`)
		for i := from; i < from+n; i++ {
			fmt.Fprintf(b, "data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":%q,\"delta\":%q}\n\n", mid, delta(i))
		}
		ev(`{"type":"TEXT_MESSAGE_END","messageId":"` + mid + `"}`)
	}
	for run := 0; b.Len() < size; run++ {
		rid := fmt.Sprintf("run_%d", run)
		m1, m2, call := fmt.Sprintf("msg_%d_1", run), fmt.Sprintf("msg_%d_2", run), fmt.Sprintf("call_%d", run)
		ev(`{"type":"RUN_STARTED","threadId":"thr_3b7e1c90a4d2","runId":"` + rid + `"}`)
		ev(`{"type":"STEP_STARTED","stepName":"agent"}`)
		msg(m1, 0, 100)
		ev(`{"type":"TOOL_CALL_START","toolCallId":"` + call + `","toolCallName":"get_weather","parentMessageId":"` + m1 + `"}`)
		ev(`{"type":"TOOL_CALL_ARGS","toolCallId":"` + call + `","delta":"{\"location\""}`)
		ev(`{"type":"TOOL_CALL_ARGS","toolCallId":"` + call + `","delta":":\"Oslo, NO\"}"}`)
		ev(`{"type":"TOOL_CALL_END","toolCallId":"` + call + `"}`)
		ev(`{"type":"STEP_FINISHED","stepName":"agent"}`)
		ev(`{"type":"STEP_STARTED","stepName":"tools"}`)
		ev(`{"type":"TOOL_CALL_RESULT","messageId":"` + m1 + `_r","toolCallId":"` + call + `","content":"{\"temp\":4}","role":"tool"}`)
		ev(`{"type":"STEP_FINISHED","stepName":"tools"}`)
		ev(`{"type":"STEP_STARTED","stepName":"agent"}`)
		msg(m2, 100, 100)
		ev(`{"type":"STEP_FINISHED","stepName":"agent"}`)
		ev(`{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/lastForecast/temp","value":4}]}`)
		ev(`{"type":"RUN_FINISHED","threadId":"thr_3b7e1c90a4d2","runId":"` + rid + `","result":{"status":"ok"}}`)
		b.WriteString(": ping\n\n")
	}
}

// genAISDKUI writes one message: start, a step with reasoning and a tool
// call (input deltas, input available, output available), then steps of a
// 200-delta text part each, finish and [DONE].
func genAISDKUI(b *bytes.Buffer, size int) {
	ev := func(data string) {
		b.WriteString("data: ")
		b.WriteString(data)
		b.WriteString("\n\n")
	}
	ev(`{"type":"start","messageId":"msg_kR2vQ8nT4wLz9sYb"}`)
	ev(`{"type":"start-step"}`)
	ev(`{"type":"reasoning-start","id":"rs_1"}`)
	ev(`{"type":"reasoning-delta","id":"rs_1","delta":"The user wants the weather. "}`)
	ev(`{"type":"reasoning-end","id":"rs_1"}`)
	ev(`{"type":"tool-input-start","toolCallId":"call_fJdQ","toolName":"getWeatherInformation"}`)
	ev(`{"type":"tool-input-delta","toolCallId":"call_fJdQ","inputTextDelta":"{\"city\":\""}`)
	ev(`{"type":"tool-input-delta","toolCallId":"call_fJdQ","inputTextDelta":"San Francisco\"}"}`)
	ev(`{"type":"tool-input-available","toolCallId":"call_fJdQ","toolName":"getWeatherInformation","input":{"city":"San Francisco"}}`)
	ev(`{"type":"tool-output-available","toolCallId":"call_fJdQ","output":{"city":"San Francisco","weather":"sunny","temperatureF":64}}`)
	ev(`{"type":"finish-step"}`)
	for step := 0; b.Len() < size; step++ {
		ev(`{"type":"start-step"}`)
		fmt.Fprintf(b, "data: {\"type\":\"text-start\",\"id\":\"txt_%d\"}\n\n", step)
		for i := 0; i < 200; i++ {
			fmt.Fprintf(b, "data: {\"type\":\"text-delta\",\"id\":\"txt_%d\",\"delta\":%q}\n\n", step, delta(i))
		}
		fmt.Fprintf(b, "data: {\"type\":\"text-end\",\"id\":\"txt_%d\"}\n\n", step)
		ev(`{"type":"finish-step"}`)
	}
	ev(`{"type":"finish","finishReason":"stop"}`)
	ev(`[DONE]`)
}
