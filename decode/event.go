// Package decode turns the bytes of an SSE stream into events and frames:
// the WHATWG framer, the JSON scanner that finds a frame's members and
// indexes the keys a dialect declares (Keys), and the sanitizer for
// terminal output. It is framing, JSON and text safety only: no dialect's
// vocabulary is here (PC3's envelope and payload views are in
// invariants/dialects/pc3, every other dialect's in its own room). It is
// pure: bytes in, values out — no terminal, no network.
package decode

// DefaultMaxEventSize is the largest SSE event (in bytes, as on the wire)
// that the framer decodes normally. Larger events are reported as Oversized
// and parsing resumes at the next blank line.
const DefaultMaxEventSize = 64 << 20

// Event is one SSE block: the lines up to and including the blank line that
// dispatches it (or, at EOF, up to the end of the input). Nothing the server
// sent is hidden: comments, id, retry and the exact raw bytes are kept.
//
// The byte slices of an Event handed to an emit callback are only valid for
// the duration of that callback; use Clone to keep one.
type Event struct {
	// Offset is the byte offset of the block's first byte in the stream
	// (a leading BOM counts: offsets are positions in the bytes as received).
	Offset int64
	// Raw is the block exactly as received, including the line endings and
	// the terminating blank line. Nil when Oversized (see Size).
	Raw []byte
	// Size is the block's length in bytes on the wire, even when Oversized.
	Size int64

	// Type is the value of the last `event` field in the block; HasType says
	// whether the block had one at all (WHATWG: an empty value means "message").
	Type    string
	HasType bool
	// Data is the WHATWG data buffer: `data` values joined by LF, the final
	// LF removed. HasData says whether the block had any `data` field; only
	// such blocks are dispatched (and so become frames).
	Data    []byte
	HasData bool
	// ID is the value of this block's `id` field (ignored when it contains
	// NUL, as WHATWG requires); LastEventID is the stream's last-event-ID
	// buffer after this block.
	ID          string
	HasID       bool
	LastEventID string
	// Retry is the reconnection time in milliseconds from an all-digits
	// `retry` field.
	Retry    int64
	HasRetry bool
	// Comments holds each comment line's text after the leading colon.
	Comments [][]byte
	// Unknown counts lines with a field name outside event/data/id/retry
	// (ignored, as WHATWG says).
	Unknown int

	// Truncated is set on a block the input ended in before its blank line.
	// WHATWG discards such a block, so it is not dispatched: it is reported.
	Truncated bool
	// Oversized is set when the block exceeded the framer's maximum event
	// size; its Raw and Data are not kept (HasData and the other flags
	// still say which fields it had).
	Oversized bool
}

// Dispatched reports whether WHATWG dispatches this block as an event — the
// blocks that the rule catalog (docs/rules.md) counts as frames.
func (e *Event) Dispatched() bool {
	return !e.Truncated && e.HasData
}

// CopyFrom makes e a shallow copy of src (the slices shared), field by
// field: a whole-struct copy reads src 16 bytes at a time, which the CPU
// cannot forward from the framer's narrower stores that just wrote it (a
// stall per block). TestCopyFromCopiesEveryField trips on a new field.
func (e *Event) CopyFrom(src *Event) {
	e.Offset, e.Raw, e.Size = src.Offset, src.Raw, src.Size
	e.Type, e.HasType, e.Data, e.HasData = src.Type, src.HasType, src.Data, src.HasData
	e.ID, e.HasID, e.LastEventID = src.ID, src.HasID, src.LastEventID
	e.Retry, e.HasRetry, e.Comments, e.Unknown = src.Retry, src.HasRetry, src.Comments, src.Unknown
	e.Truncated, e.Oversized = src.Truncated, src.Oversized
}

// Clone returns a deep copy whose slices do not alias the framer's buffers.
func (e *Event) Clone() Event {
	c := *e
	c.Raw = cloneBytes(e.Raw)
	c.Data = cloneBytes(e.Data)
	if e.Comments != nil {
		c.Comments = make([][]byte, len(e.Comments))
		for i, cm := range e.Comments {
			c.Comments[i] = cloneBytes(cm)
		}
	}
	return c
}

func cloneBytes(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append(make([]byte, 0, len(b)), b...)
}
