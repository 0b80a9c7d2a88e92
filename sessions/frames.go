package sessions

import (
	"bytes"
	"strconv"
)

// A two-way transport (WebSocket) carries frames both ways. Every Chunk
// says who sent it and what kind of frame it is; the zero values, a server
// frame of data, are what an HTTP response body's chunks always were, so
// SSE and NDJSON captures read unchanged.

// Transport names how a capture's frames travelled (Meta.Transport).
const (
	TransportHTTP      = ""          // an HTTP response body (SSE, NDJSON…)
	TransportWebSocket = "websocket" // WebSocket messages, both ways
)

// Direction says who sent a frame.
type Direction uint8

const (
	FromServer Direction = iota // the zero value: every HTTP body chunk
	FromClient
)

func (d Direction) String() string {
	if d == FromClient {
		return "client"
	}
	return "server"
}

// ParseDirection reads "client" or "server".
func ParseDirection(s string) (Direction, bool) {
	switch s {
	case "server", "":
		return FromServer, true
	case "client":
		return FromClient, true
	}
	return FromServer, false
}

// FrameOp is a frame's kind on a two-way transport.
type FrameOp uint8

const (
	OpText FrameOp = iota // a text message (and every HTTP body chunk)
	OpBinary
	OpPing
	OpPong
	OpClose
)

var opNames = [...]string{"text", "binary", "ping", "pong", "close"}

func (o FrameOp) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return "op" + strconv.Itoa(int(o))
}

// ParseFrameOp reads a FrameOp's name ("" is text).
func ParseFrameOp(s string) (FrameOp, bool) {
	if s == "" {
		return OpText, true
	}
	for i, n := range opNames {
		if n == s {
			return FrameOp(i), true
		}
	}
	return OpText, false
}

// Control reports whether the op is a control frame (ping, pong, close).
func (o FrameOp) Control() bool { return o >= OpPing }

// MessageBlock is the SSE block that carries one WebSocket message through
// the framer, so every dialect reads a message as it reads an SSE event:
// each line of the text becomes a data line (the framer joins them with
// LF again; a lone CR reads as a line break). A control or binary frame
// becomes a comment block naming it, which dialects read as keep-alive.
func MessageBlock(dst []byte, op FrameOp, msg []byte, code int, reason string) []byte {
	switch op {
	case OpText:
		for {
			i := bytes.IndexAny(msg, "\r\n")
			dst = append(dst, "data: "...)
			if i < 0 {
				dst = append(dst, msg...)
				dst = append(dst, '\n')
				break
			}
			dst = append(dst, msg[:i]...)
			dst = append(dst, '\n')
			if msg[i] == '\r' && i+1 < len(msg) && msg[i+1] == '\n' {
				i++
			}
			msg = msg[i+1:]
		}
	case OpClose:
		dst = append(dst, ": websocket close"...)
		if code != 0 {
			dst = append(dst, ' ')
			dst = strconv.AppendInt(dst, int64(code), 10)
		}
		if reason != "" {
			dst = append(dst, ' ')
			dst = append(dst, Clean(reason)...)
		}
		dst = append(dst, '\n')
	case OpBinary:
		dst = append(dst, ": websocket binary "...)
		dst = strconv.AppendInt(dst, int64(len(msg)), 10)
		dst = append(dst, " bytes\n"...)
	default:
		dst = append(dst, ": websocket "...)
		dst = append(dst, op.String()...)
		dst = append(dst, '\n')
	}
	return append(dst, '\n')
}
