package capture

import (
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"

	"framescope/sessions"
)

// A WebSocket capture (version 2, "transport":"websocket" in the header)
// has one line per frame: who sent it ("from": "client"; absent: the
// server), its kind ("op": text, binary, ping, pong, close; absent: text),
// the message in "data" (text) or "b64" (binary, or a text message that is
// not valid UTF-8), a close frame's "code" and "reason". Each frame is
// handed on as one chunk carrying its message as an SSE block
// (sessions.MessageBlock), with its direction and kind.

// parseTransport reads the header's "transport".
func (c *jsonlCapture) parseTransport(ln int, h map[string]json.RawMessage) {
	switch tr := c.headerString(ln, h, "transport"); tr {
	case "", "http":
	case sessions.TransportWebSocket:
		m := &c.meta
		m.Transport = sessions.TransportWebSocket
		m.Synthetic = true // the SSE blocks are rebuilt from the messages
	default:
		c.probs.Add(ln, "capture header: unknown transport %s; read as an HTTP body", sessions.CleanShort(strconv.Quote(tr), 40))
	}
}

// wsChunk turns a WebSocket capture's frame line into its chunk.
func (c *jsonlCapture) wsChunk(ln int, l *jsonlLine, t float64, hasT bool) (sessions.Chunk, bool) {
	ch := sessions.Chunk{Line: ln, HasTime: hasT}
	if hasT {
		ch.T = secondsDuration(t)
	}
	if l.hasFrom {
		d, ok := sessions.ParseDirection(string(l.from))
		if !l.fromOK || !ok {
			c.probs.Add(ln, "\"from\" is not \"client\" or \"server\"; line skipped")
			return ch, false
		}
		ch.From = d
	}
	if l.hasOp {
		op, ok := sessions.ParseFrameOp(string(l.op))
		if !l.opOK || !ok {
			c.probs.Add(ln, "\"op\" is not one of text, binary, ping, pong, close; line skipped")
			return ch, false
		}
		ch.Op = op
	}
	if l.hasData && l.hasB64 {
		c.probs.Add(ln, "line has both \"data\" and \"b64\"; line skipped")
		return ch, false
	}
	var msg []byte
	switch {
	case l.hasData:
		if !l.dataOK {
			c.probs.Add(ln, "\"data\" is not a string; line skipped")
			return ch, false
		}
		msg = l.data
	case l.hasB64:
		if !l.b64OK {
			c.probs.Add(ln, "\"b64\" is not a string; line skipped")
			return ch, false
		}
		b, err := decodeBase64(nil, string(l.b64))
		if err != nil {
			c.probs.Add(ln, "\"b64\" is not valid base64 (%s); line skipped", sessions.Clean(err.Error()))
			return ch, false
		}
		msg = b
	case !l.hasOp:
		return ch, false
	}
	if ch.Op == sessions.OpText && !utf8.Valid(msg) {
		c.probs.Note("line %d: %s text frame is not valid UTF-8 (RFC 6455 §8.1: a client fails the connection); its text is shown with the bad bytes escaped", ln, ch.From)
	}
	if ch.Op == sessions.OpClose {
		if l.code != nil {
			f, err := strconv.ParseFloat(string(l.code), 64)
			if err != nil || f != math.Trunc(f) || f < 0 || f > 4999 {
				c.probs.Add(ln, "\"code\" %s is not a close code", sessions.CleanShort(string(l.code), 20))
			} else {
				ch.CloseCode = int(f)
			}
		}
		if l.hasReason && l.reasonOK {
			ch.CloseReason = string(l.reason)
		}
	}
	c.data = sessions.MessageBlock(c.data[:0], ch.Op, msg, ch.CloseCode, ch.CloseReason)
	ch.Data, ch.Payload = c.data, msg
	return ch, true
}
