package record

import (
	"encoding/base64"
	"strconv"
	"unicode/utf8"

	"framescope/sessions"
)

// A WebSocket session is recorded as a version 2 capture
// (docs/capture-format.md): the header says "transport":"websocket", and
// each line is one frame — who sent it, its kind, its message as it
// travelled (a client message already redacted by the body rules).

func wsHeaderStart(b []byte) []byte {
	return append(b[:0], `{"framescope_capture":2,"transport":"websocket"`...)
}

// appendWSFrame appends a frame line's fields after its "t".
func appendWSFrame(b []byte, ch *sessions.Chunk) []byte {
	if ch.From == sessions.FromClient {
		b = append(b, `,"from":"client"`...)
	}
	if ch.Op != sessions.OpText {
		b = append(b, `,"op":"`...)
		b = append(b, ch.Op.String()...)
		b = append(b, '"')
	}
	if ch.Op == sessions.OpClose {
		if ch.CloseCode != 0 {
			b = append(b, `,"code":`...)
			b = strconv.AppendInt(b, int64(ch.CloseCode), 10)
		}
		if ch.CloseReason != "" {
			b = append(b, `,"reason":`...)
			b = appendJSONText(b, []byte(ch.CloseReason))
		}
		return b
	}
	if ch.Op.Control() && len(ch.Payload) == 0 {
		return b
	}
	if ch.Op != sessions.OpBinary && utf8.Valid(ch.Payload) {
		b = append(b, `,"data":`...)
		return appendJSONString(b, ch.Payload)
	}
	b = append(b, `,"b64":"`...)
	b = base64.StdEncoding.AppendEncode(b, ch.Payload)
	return append(b, '"')
}
