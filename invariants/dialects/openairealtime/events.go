package openairealtime

import (
	"strconv"
	"strings"

	"framescope/decode"
)

// The GA event set (openai-node src/resources/realtime/realtime.ts).
var serverEvents = map[string]bool{
	"session.created": true, "session.updated": true, "error": true, "rate_limits.updated": true,
	"conversation.item.added": true, "conversation.item.done": true, "conversation.item.retrieved": true,
	"conversation.item.truncated": true, "conversation.item.deleted": true,
	"conversation.item.input_audio_transcription.delta": true, "conversation.item.input_audio_transcription.completed": true,
	"conversation.item.input_audio_transcription.failed": true, "conversation.item.input_audio_transcription.segment": true,
	"input_audio_buffer.committed": true, "input_audio_buffer.cleared": true, "input_audio_buffer.speech_started": true,
	"input_audio_buffer.speech_stopped": true, "input_audio_buffer.timeout_triggered": true,
	"output_audio_buffer.started": true, "output_audio_buffer.stopped": true, "output_audio_buffer.cleared": true,
	"response.created": true, "response.done": true,
	"response.output_item.added": true, "response.output_item.done": true,
	"response.content_part.added": true, "response.content_part.done": true,
	"response.output_text.delta": true, "response.output_text.done": true,
	"response.output_audio.delta": true, "response.output_audio.done": true,
	"response.output_audio_transcript.delta": true, "response.output_audio_transcript.done": true,
	"response.function_call_arguments.delta": true, "response.function_call_arguments.done": true,
	"response.mcp_call_arguments.delta": true, "response.mcp_call_arguments.done": true,
	"response.mcp_call.in_progress": true, "response.mcp_call.completed": true, "response.mcp_call.failed": true,
	"mcp_list_tools.in_progress": true, "mcp_list_tools.completed": true, "mcp_list_tools.failed": true,
}

var clientEvents = map[string]bool{
	"session.update": true, "input_audio_buffer.append": true, "input_audio_buffer.commit": true,
	"input_audio_buffer.clear": true, "output_audio_buffer.clear": true,
	"conversation.item.create": true, "conversation.item.retrieve": true, "conversation.item.truncate": true,
	"conversation.item.delete": true, "response.create": true, "response.cancel": true,
}

// legacyNames are the beta event names and their GA names.
var legacyNames = map[string]string{
	"response.text.delta": "response.output_text.delta", "response.text.done": "response.output_text.done",
	"response.audio.delta": "response.output_audio.delta", "response.audio.done": "response.output_audio.done",
	"response.audio_transcript.delta": "response.output_audio_transcript.delta",
	"response.audio_transcript.done":  "response.output_audio_transcript.done",
	"conversation.item.created":       "conversation.item.added",
	"conversation.created":            "session.created",
}

// family: the type is one of the Realtime API's (GA or beta).
func family(s string) bool {
	return serverEvents[s] || clientEvents[s] || legacyNames[s] != ""
}

// audioBytes is the size of a base64 audio delta's bytes.
func audioBytes(delta decode.Raw) int64 {
	b, ok := delta.StrBytes()
	if !ok {
		return 0
	}
	n := int64(len(b))
	pad := int64(0)
	if n > 0 && b[n-1] == '=' {
		pad++
		if n > 1 && b[n-2] == '=' {
			pad++
		}
	}
	return n/4*3 - pad
}

// AudioSummary says an audio frame's size and its length as 24 kHz mono
// PCM16 (the API's default format), never its bytes.
func AudioSummary(f *decode.Frame) string {
	d := f.Get("delta")
	if d == nil {
		d = f.Get("audio")
	}
	n := audioBytes(d)
	ms := n * 1000 / 48000
	return "(" + strconv.FormatInt(n, 10) + " bytes of audio, " + strconv.FormatInt(ms, 10) + " ms at pcm16 24 kHz)"
}

// summary replaces an audio frame's data in dumps and listings.
func summary(f *decode.Frame) string {
	t, _ := f.Get("type").Str()
	if strings.HasSuffix(t, "audio.delta") || t == "input_audio_buffer.append" {
		return `{"type":"` + t + `", … ` + AudioSummary(f) + `}`
	}
	return ""
}
