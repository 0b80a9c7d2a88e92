package capture

import (
	"encoding/base64"
	"io"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"framescope/sessions"
)

// Chrome DevTools exports a WebSocket connection as an entry whose
// `_webSocketMessages` lists every message: `type` "send" (the page's, the
// client) or "receive" (the server's), `time` (seconds since the epoch),
// `opcode` (1 text, 2 binary: `data` is then base64) and `data`. Such an
// entry is read as a two-way capture: each message a frame with its
// direction (Chunk.From), timed from the first one.

// harWSMessage is one of an entry's _webSocketMessages.
type harWSMessage struct {
	Type   string  `json:"type"`
	Time   float64 `json:"time"`
	Opcode float64 `json:"opcode"`
	Data   string  `json:"data"`
}

// harWSMax bounds one message's bytes read back from a long HAR string.
const harWSMax = 16 << 20

// isWebSocket: the entry is a WebSocket connection (its messages kept).
func (e *harEntry) isWebSocket() bool {
	return len(e.WebSocketMessages) > 0 || strings.EqualFold(e.ResourceType, "websocket")
}

// harWS streams an entry's WebSocket messages as frames.
type harWS struct {
	msgs  []harWSMessage
	spans *harSpans
	base  float64 // the time of the first message (or the entry's start)
	next  int
	buf   []byte
	probs *sessions.ProblemList
	what  string
}

// startWebSocket makes c read e's messages.
func (c *harCapture) startWebSocket(e *harEntry, spans *harSpans, what string) {
	m := &c.meta
	m.Transport, m.HTTP, m.Synthetic, m.Timed = sessions.TransportWebSocket, false, true, true
	w := &harWS{msgs: e.WebSocketMessages, spans: spans, probs: &c.probs, what: what}
	if len(w.msgs) > 0 {
		w.base = w.msgs[0].Time
	}
	if !m.StartedAt.IsZero() {
		if s := float64(m.StartedAt.UnixNano()) / 1e9; len(w.msgs) == 0 || s <= w.base {
			w.base = s
		}
	} else if len(w.msgs) > 0 {
		sec, frac := math.Modf(w.base)
		m.StartedAt = time.Unix(int64(sec), int64(frac*1e9)).UTC()
	}
	if len(w.msgs) == 0 {
		c.probs.Add(0, "%s is a WebSocket connection without _webSocketMessages (the browser did not keep them)", what)
	}
	c.ws = w
}

func (w *harWS) nextChunk() (sessions.Chunk, error) {
	for w.next < len(w.msgs) {
		i := w.next
		msg := &w.msgs[i]
		w.next++
		ch := sessions.Chunk{}
		switch msg.Type {
		case "send":
			ch.From = sessions.FromClient
		case "receive":
		default:
			w.probs.Add(0, "%s: message %d has type %s (want send or receive); skipped", w.what, i, sessions.CleanShort(msg.Type, 20))
			continue
		}
		data := w.spans.text(msg.Data, harWSMax)
		var payload []byte
		switch msg.Opcode {
		case 1, 0:
			payload = []byte(data)
			if !utf8.ValidString(data) {
				w.probs.Add(0, "%s: text message %d is not valid UTF-8", w.what, i)
			}
		case 2:
			ch.Op = sessions.OpBinary
			b, err := base64.StdEncoding.DecodeString(data)
			if err != nil {
				w.probs.Add(0, "%s: binary message %d is not base64; shown as text", w.what, i)
				b = []byte(data)
			}
			payload = b
		case 8:
			ch.Op = sessions.OpClose
		case 9:
			ch.Op = sessions.OpPing
		case 10:
			ch.Op = sessions.OpPong
		default:
			w.probs.Add(0, "%s: message %d has opcode %v; skipped", w.what, i, msg.Opcode)
			continue
		}
		if t := msg.Time - w.base; msg.Time > 0 && t >= 0 {
			ch.T, ch.HasTime = time.Duration(t*float64(time.Second)), true
		}
		w.buf = sessions.MessageBlock(w.buf[:0], ch.Op, payload, 0, "")
		ch.Data, ch.Payload = w.buf, payload
		return ch, nil
	}
	return sessions.Chunk{}, io.EOF
}
