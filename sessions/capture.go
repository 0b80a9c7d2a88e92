package sessions

import (
	"strings"
	"time"

	"framescope/invariants"
)

// Kind names a capture format, found by sniffing the content.
type Kind string

const (
	KindSSE    Kind = "sse"    // raw text/event-stream bytes
	KindJSONL  Kind = "jsonl"  // framescope JSONL capture
	KindHAR    Kind = "har"    // HAR 1.2 export
	KindNDJSON Kind = "ndjson" // one frame object per line
	// KindRawNDJSON is a response body that is itself NDJSON (Ollama's
	// application/x-ndjson): each line is one frame as the server sent it.
	KindRawNDJSON Kind = "raw-ndjson"
	// KindJSONSeq is a body of JSON values one after another, each over as
	// many lines as it takes: an NDJSON stream saved through `jq .`, or an
	// RFC 7464 JSON text sequence. Each value is one frame.
	KindJSONSeq Kind = "json-seq"
	// KindWebSocket is a live WebSocket connection (its recording is JSONL).
	KindWebSocket Kind = "websocket"
)

// Meta describes where a capture's bytes came from.
type Meta struct {
	Name string // the path as the user gave it ("-" for stdin)
	Kind Kind

	URL    string
	Method string
	// HAREntry is the entry's place in log.entries (0-based) when Kind is
	// KindHAR: the N of FILE#N and of --entry N.
	HAREntry int
	// HTTP is true when the source knows the HTTP response (live, JSONL
	// capture with a status, HAR): Status and ContentType are then meaningful
	// for the http-status / content-type rules.
	HTTP            bool
	Status          int
	ContentType     string
	RequestHeaders  map[string]string
	ResponseHeaders map[string]string
	StartedAt       time.Time

	// RequestBody is the body the request sent (nil: none, or not kept:
	// --no-body, an old capture). Live sources and recordings hold it with
	// its secrets redacted (secrets_body.go) unless --keep-secrets; a HAR
	// holds it as exported.
	RequestBody []byte
	// RequestBodySize is the body's whole size when RequestBody holds only
	// its start (a recording keeps the first 1 MiB); 0 otherwise.
	RequestBodySize int64

	// Synthetic is true when the SSE bytes were rebuilt from decoded frames
	// (NDJSON), so SSE framing facts such as a missing `event:` line are
	// not evidence about the server.
	Synthetic bool
	// Timed is true when chunks carry arrival times.
	Timed bool
	// Live is true for a stream read from the network as it arrives: a
	// block is dispatched as soon as its blank line came, even a lone CR
	// at the end of a read (decode.Framer.Release).
	Live bool
	// DecodedFrom names the Content-Encoding ("gzip", "br", "gzip, br")
	// the body arrived in when the chunks are its decoded bytes ("" when
	// they are the bytes as received).
	DecodedFrom string
	// Transport is how the frames travelled: TransportHTTP ("", a
	// response body) or TransportWebSocket (frames both ways, each chunk
	// one message: frames.go).
	Transport string
}

// Chunk is a run of bytes as read from the source, with its arrival time
// (seconds since the response started) when the source knows it.
type Chunk struct {
	Data    []byte
	T       time.Duration
	HasTime bool
	// Line is the 1-based line of the capture file the chunk came from
	// (0 when the format has no lines worth naming, e.g. raw SSE).
	Line int
	// From says who sent the frame, Op what kind it is, and a close frame's
	// CloseCode (0: none) and CloseReason (frames.go). An HTTP body's
	// chunks are all server data: the zero values.
	From        Direction
	Op          FrameOp
	CloseCode   int
	CloseReason string
	// Payload is a two-way transport's message as it travelled (Data
	// holds it as an SSE block for the framer: MessageBlock); nil for an
	// HTTP body's chunk. Valid as long as Data.
	Payload []byte
}

// Problem is a defect found while reading a capture (a broken JSONL line,
// an undecodable b64 chunk, a truncated file). Reading goes on past it.
type Problem struct {
	Line    int // 1-based line in the capture file, 0 when not line-based
	Message string
	// Note marks a remark that is not damage (e.g. which HAR entry was
	// chosen): it is shown to the user but raises no alarm.
	Note bool
	// Lost marks damage that dropped bytes the server sent (a recorded
	// line skipped whole): the check cannot vouch for the stream, so
	// capture-corrupt is an error, not a warn.
	Lost bool
}

// Capture streams a capture's chunks in order.
type Capture interface {
	Meta() Meta
	// Next returns the next chunk of stream bytes, or io.EOF. Chunk.Data is
	// valid until the next call.
	Next() (Chunk, error)
	// End says how the stream ended; meaningful after Next returned io.EOF.
	End() invariants.End
	// TakeProblems returns (and clears) the defects found since the last
	// call, each naming the line.
	TakeProblems() []Problem
	Close() error
}

// HeaderLookup finds a header case-insensitively.
func HeaderLookup(h map[string]string, name string) (string, bool) {
	if v, ok := h[name]; ok {
		return v, true
	}
	for k, v := range h {
		if strings.EqualFold(k, name) {
			return v, true
		}
	}
	return "", false
}

// EndText is how a stream ended as a report and the library say it:
// "eof", "cancelled", "error: DETAIL".
func EndText(e invariants.End) string {
	if e.Kind == invariants.EndError && e.Detail != "" {
		return "error: " + e.Detail
	}
	if e.Kind == invariants.EndCancelled && e.Detail != "" {
		return "cancelled: " + e.Detail // a deliberate stop (--max-frames…)
	}
	if e.Kind == "" {
		return string(invariants.EndEOF)
	}
	return string(e.Kind)
}
