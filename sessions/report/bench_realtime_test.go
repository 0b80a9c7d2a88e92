package report

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// openai-realtime beside the SSE dialects in BenchmarkCheckDialects: a
// version 2 JSONL WebSocket capture, both directions, per byte of the
// capture as `check` reads it (docs/performance.md).
func init() {
	dialectGens = append(dialectGens, struct {
		name string
		gen  dialectGen
	}{"openai-realtime", genOpenAIRealtime})
}

// genOpenAIRealtime writes a session of responses, each asked for by the
// client: response.create, response.created, an item and its part, 200
// transcript deltas, their done events, response.done.
func genOpenAIRealtime(b *bytes.Buffer, size int) {
	b.WriteString(`{"framescope_capture":2,"transport":"websocket","url":"wss://api.openai.com/v1/realtime?model=gpt-realtime","method":"GET","status":101,"started_at":"2026-12-01T10:00:00.000Z"}` + "\n")
	n, us := 0, 0
	line := func(client bool, ev string) {
		us += 700
		q, _ := json.Marshal(ev)
		from := ""
		if client {
			from = `,"from":"client"`
		}
		fmt.Fprintf(b, `{"t":%d.%06d%s,"data":%s}`+"\n", us/1e6, us%1e6, from, q)
	}
	id := func() string { n++; return fmt.Sprintf("event_%08d", n) }
	line(false, `{"type":"session.created","event_id":"`+id()+`","session":{"id":"sess_0b7c41d2","type":"realtime","model":"gpt-realtime","output_modalities":["audio"],"instructions":"Be brief."}}`)
	for r := 0; b.Len() < size; r++ {
		rid := fmt.Sprintf("resp_%08d", r)
		item := fmt.Sprintf("item_%08d", r)
		line(true, `{"type":"response.create","event_id":"c`+id()+`"}`)
		line(false, `{"type":"response.created","event_id":"`+id()+`","response":{"id":"`+rid+`","object":"realtime.response","status":"in_progress","output":[]}}`)
		at := `"response_id":"` + rid + `","item_id":"` + item + `","output_index":0,"content_index":0`
		line(false, `{"type":"response.output_item.added","event_id":"`+id()+`","response_id":"`+rid+`","output_index":0,"item":{"id":"`+item+`","type":"message","role":"assistant","status":"in_progress","content":[]}}`)
		line(false, `{"type":"response.content_part.added","event_id":"`+id()+`",`+at+`,"part":{"type":"audio","transcript":""}}`)
		for i := 0; i < 200; i++ {
			d, _ := json.Marshal(delta(i))
			line(false, `{"type":"response.output_audio_transcript.delta","event_id":"`+id()+`",`+at+`,"delta":`+string(d)+`}`)
		}
		line(false, `{"type":"response.output_audio_transcript.done","event_id":"`+id()+`",`+at+`,"transcript":"…"}`)
		line(false, `{"type":"response.content_part.done","event_id":"`+id()+`",`+at+`,"part":{"type":"audio","transcript":"…"}}`)
		line(false, `{"type":"response.output_item.done","event_id":"`+id()+`","response_id":"`+rid+`","output_index":0,"item":{"id":"`+item+`","type":"message","status":"completed"}}`)
		line(false, `{"type":"response.done","event_id":"`+id()+`","response":{"id":"`+rid+`","object":"realtime.response","status":"completed","usage":{"input_tokens":212,"output_tokens":181}}}`)
	}
	us += 1000
	fmt.Fprintf(b, `{"t":%d.%06d,"op":"close","code":1000}`+"\n"+`{"t":%d.%06d,"end":"eof"}`+"\n", us/1e6, us%1e6, us/1e6, us%1e6+1)
}
