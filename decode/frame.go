package decode

import (
	"encoding/binary"
	"time"
	"unicode/utf8"
)

// DoneSentinel is the data of the transport-level end-of-stream frame.
const DoneSentinel = "[DONE]"

// Problem is why a frame's data could not be decoded as a JSON object.
type Problem uint8

const (
	ProblemNone      Problem = iota
	ProblemNotJSON           // data is not valid JSON
	ProblemNotObject         // valid JSON, but not an object
	ProblemOversized         // the SSE event exceeded the framer's limit; data not kept
)

func (p Problem) String() string {
	switch p {
	case ProblemNotJSON:
		return "not JSON"
	case ProblemNotObject:
		return "not a JSON object"
	case ProblemOversized:
		return "oversized event"
	}
	return ""
}

// Frame is one dispatched SSE event decoded as a JSON object: its
// top-level members, found once, for any dialect to read. What the members
// mean is the dialect's (invariants/dialects); decode knows no dialect.
//
// A Frame handed out by a Decoder aliases the framer's buffers and is reused
// for the next frame; Clone it to keep it.
type Frame struct {
	Event

	// Index is the 0-based position among all dispatched events of the
	// stream ([DONE] included).
	Index int
	// Arrival is when the event's last byte arrived, since the response
	// started; HasArrival is false for sources without timing.
	Arrival    time.Duration
	HasArrival bool

	// Done is true for the `[DONE]` sentinel.
	Done bool
	// InvalidUTF8 is true when the event's bytes are not valid UTF-8. The
	// frame is still decoded when its data is otherwise a JSON object.
	InvalidUTF8 bool
	// ASCII is true when every byte of the event is ASCII: a string of
	// the frame then has as many characters as bytes, less its escapes'
	// (a checker counting characters skips the count).
	ASCII bool
	// Problem says why Object is empty; ProblemDetail() says where.
	Problem Problem
	// The detail is made when asked for (an alarm flood of broken frames
	// must not format a message per frame that no report lists).
	problemErr JSONError

	// Members are the top-level members of the data object, in order.
	Members []Member

	// keys is the key set the frame was decoded with (nil: none); idx
	// locates its keys among the members (frame_index.go).
	keys *Keys
	idx  frameIndex
	// scanned: the JSON scan ran, so Members and idx may be set (DecodeAt
	// resets them only then).
	scanned bool
}

// Get returns the top-level member key of the frame's object (the last one
// when it repeats), or nil.
//
// A key of the frame's key set is read from its slot; any other is looked
// up member by member (Value reads a key of a set by its position).
func (f *Frame) Get(key string) Raw {
	if f.keys != nil {
		if s := f.keys.slotString(key); s >= 0 {
			return f.slotValue(s)
		}
	}
	return f.scanGet(key)
}

// ProblemDetail says where and why the frame's data could not be decoded
// ("" when Problem is ProblemNone). It is made on each call.
func (f *Frame) ProblemDetail() string {
	switch f.Problem {
	case ProblemOversized:
		return "event exceeds the framer's size limit; its bytes were not kept"
	case ProblemNotJSON:
		return f.problemErr.Error()
	case ProblemNotObject:
		return "data is a JSON " + kindName(Raw(trimWS(f.Data)).Kind()) + ", not an object"
	}
	return ""
}

// Decoded reports whether the frame's data is a JSON object.
func (f *Frame) Decoded() bool { return f.Problem == ProblemNone && !f.Done }

// Clone returns a deep copy that does not alias any buffer. The members
// are re-pointed into the copy's data (the index holds offsets, so it
// stays as it is): the frame is not scanned again. Should a view not lie
// in the data (it always does), the copy is decoded afresh.
func (f *Frame) Clone() *Frame {
	c := *f
	c.Event = f.Event.Clone()
	if c.Decoded() && c.repoint(f) {
		return &c
	}
	c.Members = nil
	c.idx = frameIndex{}
	if c.Decoded() {
		c.decodeMembers()
	}
	return &c
}

// repoint makes c's members views of c.Data where f's are views of
// f.Data; false when one is not.
func (c *Frame) repoint(f *Frame) bool {
	ok := true
	at := func(v []byte) []byte {
		if v == nil {
			return nil
		}
		off := cap(f.Data) - cap(v)
		if off < 0 || off > len(f.Data)-len(v) || (len(v) > 0 && &f.Data[off] != &v[0]) {
			ok = false
			return nil
		}
		return c.Data[off : off+len(v) : off+len(v)]
	}
	c.Members = make([]Member, len(f.Members))
	for i, m := range f.Members {
		c.Members[i] = Member{Key: at(m.Key), KeyEsc: m.KeyEsc, Value: at(m.Value)}
	}
	return ok
}

// Decoder turns dispatched SSE events into frames, numbering them.
type Decoder struct {
	// Keys is the key set its frames are indexed with (nil: none; every
	// lookup then scans the members).
	Keys  *Keys
	next  int
	frame Frame
}

// NextIndex is the index the next frame will get.
func (d *Decoder) NextIndex() int { return d.next }

// Decode decodes a dispatched event. The returned frame is reused by the next
// call and aliases ev's buffers.
func (d *Decoder) Decode(ev *Event, arrival time.Duration, hasArrival bool) *Frame {
	f := &d.frame
	members := f.Members[:0]
	*f = Frame{Event: *ev, Index: d.next, Arrival: arrival, HasArrival: hasArrival, Members: members, keys: d.Keys}
	d.next++
	f.decode()
	return f
}

// DecodeInto decodes a dispatched event into dst, numbering it like
// Decode, but into a frame the caller owns (a pipeline stage hands frames
// to the next one in batches); dst's Members capacity is reused.
func (d *Decoder) DecodeInto(dst *Frame, ev *Event, arrival time.Duration, hasArrival bool) {
	DecodeAt(dst, ev, d.Keys, d.next, arrival, hasArrival)
	d.next++
}

// Number hands out the next frame index without decoding: a pipeline that
// numbers frames in one stage and decodes them in another.
func (d *Decoder) Number() int {
	d.next++
	return d.next - 1
}

// DecodeAt decodes a dispatched event into dst as frame index, indexed
// with the key set ks (nil: none), reusing dst's Members capacity.
func DecodeAt(dst *Frame, ev *Event, ks *Keys, index int, arrival time.Duration, hasArrival bool) {
	if ev != &dst.Event { // a pipeline batch decodes its frames in place
		dst.Event.CopyFrom(ev)
	}
	// Every field but Event is reset one by one: a whole-struct literal
	// would copy the event onto itself, a tenth of a flood's time.
	// TestDecodeAtResetsEveryField trips when a field is added.
	dst.Index, dst.Arrival, dst.HasArrival, dst.keys = index, arrival, hasArrival, ks
	dst.Done, dst.InvalidUTF8, dst.ASCII, dst.Problem, dst.problemErr = false, false, false, ProblemNone, JSONError{}
	if dst.scanned { // what only the JSON scan sets (a flood of broken frames never gets there)
		dst.Members = dst.Members[:0]
		dst.idx = frameIndex{}
		dst.scanned = false
	}
	dst.decode()
}

// DecodeFrame decodes a single event outside a stream (tests, tools),
// without a key set.
func DecodeFrame(ev *Event, index int) *Frame {
	f := &Frame{Event: *ev, Index: index}
	f.decode()
	return f
}

func (f *Frame) decode() {
	if f.Oversized {
		f.Problem = ProblemOversized
		return
	}
	f.ASCII, f.InvalidUTF8 = asciiOrValid(f.Raw) // Data is made of Raw's bytes split at ASCII
	if string(f.Data) == DoneSentinel {
		f.Done = true
		return
	}
	f.decodeMembers()
}

// asciiOrValid reports whether p is all ASCII, and else whether it is not
// valid UTF-8: utf8.Valid's own ASCII pass, eight bytes at a time, which
// says the first for free.
func asciiOrValid(p []byte) (ascii, invalid bool) {
	i := 0
	for ; i+8 <= len(p); i += 8 {
		if binary.LittleEndian.Uint64(p[i:])&0x8080808080808080 != 0 {
			return false, !utf8.Valid(p[i:]) // no sequence began before i
		}
	}
	for ; i < len(p); i++ {
		if p[i] >= utf8.RuneSelf {
			return false, !utf8.Valid(p[i:])
		}
	}
	return true, false
}

func (f *Frame) decodeMembers() {
	// Data that cannot even begin a JSON value (a flood of `data: x`) is
	// told apart without the scanner, and without allocating its error.
	if i := skipWS(f.Data, 0); i >= len(f.Data) || !valueStart[f.Data[i]] {
		f.Problem = ProblemNotJSON
		f.Members = f.Members[:0]
		// Field by field: a composite literal is built on the stack and
		// copied 16 bytes at a time, a load the CPU cannot forward from
		// the narrower stores that built it (a stall per frame of a flood).
		e := &f.problemErr
		e.Offset, e.After = i, ""
		if i >= len(f.Data) {
			e.Msg, e.Char, e.HasChar = msgEmptyData, 0, false
		} else {
			e.Msg, e.Char, e.HasChar = msgUnexpected, f.Data[i], true
		}
		return
	}
	f.scanned = true
	noter := f // the scan notes the set's keys as it meets them
	if f.keys == nil {
		noter = nil
	}
	members, isObj, err := scanObject(f.Data, f.Members[:0], noter)
	f.Members = members
	if err != nil || !isObj { // what the scan noted goes with the members
		f.idx = frameIndex{}
	}
	switch {
	case err != nil:
		f.Problem = ProblemNotJSON
		if je, ok := err.(*JSONError); ok {
			f.problemErr = *je
		} else {
			f.problemErr = JSONError{Msg: err.Error()}
		}
		f.Members = f.Members[:0]
		return
	case !isObj:
		f.Problem = ProblemNotObject
		return
	}
	if f.keys != nil {
		f.finishIndex()
	}
}

func trimWS(b []byte) []byte {
	i := skipWS(b, 0)
	j := len(b)
	for j > i && wsTable[b[j-1]] {
		j--
	}
	return b[i:j]
}

func kindName(k Kind) string {
	switch k {
	case KindArray:
		return "array"
	case KindString:
		return "string"
	case KindNumber:
		return "number"
	case KindBool:
		return "boolean"
	case KindNull:
		return "null"
	}
	return "value"
}
