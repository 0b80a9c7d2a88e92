package decode

import "time"

// BareFrame is what decoding added to an event whose data holds no
// members — data that cannot start a JSON value, `{}`, [DONE] — in 16
// bytes and no pointer. A pipeline handing an alarm flood from one core to
// another sends it instead of the 448-byte frame: the bytes crossing
// between the cores, not the work on them, were the cost.
type BareFrame struct {
	index   int
	errAt   uint32 // the error's offset in the data
	errKind bareErr
	errChar byte
	problem Problem
	flags   bareFlags
}

type bareFlags uint8

const (
	bareDone bareFlags = 1 << iota
	bareInvalidUTF8
	bareScanned
	bareASCII
)

// bareErr is the error a BareFrame can hold: none, or one of the two a
// frame gets before any JSON scan (decodeMembers).
type bareErr uint8

const (
	bareErrNone bareErr = iota
	bareErrEmpty
	bareErrUnexpected
)

const (
	msgEmptyData  = "empty data"
	msgUnexpected = "unexpected "
)

// Bare returns f's decoding as a BareFrame, and false when f has members
// or an error a BareFrame cannot hold.
func (f *Frame) Bare() (BareFrame, bool) {
	// Without members the scan found no key: no slot, no tag.
	if len(f.Members) > 0 || f.idx.escKeys {
		return BareFrame{}, false
	}
	e := &f.problemErr
	b := BareFrame{index: f.Index, problem: f.Problem}
	switch {
	case *e == JSONError{}:
	case e.Offset < 0 || e.Offset > 1<<31:
		return BareFrame{}, false
	case *e == JSONError{Offset: e.Offset, Msg: msgEmptyData}:
		b.errKind, b.errAt = bareErrEmpty, uint32(e.Offset)
	case *e == JSONError{Offset: e.Offset, Msg: msgUnexpected, Char: e.Char, HasChar: true}:
		b.errKind, b.errAt, b.errChar = bareErrUnexpected, uint32(e.Offset), e.Char
	default:
		return BareFrame{}, false
	}
	if f.Done {
		b.flags |= bareDone
	}
	if f.InvalidUTF8 {
		b.flags |= bareInvalidUTF8
	}
	if f.ASCII {
		b.flags |= bareASCII
	}
	if f.scanned {
		b.flags |= bareScanned
	}
	return b, true
}

// SetBare makes f the frame b was taken from, over f's Event (which the
// caller has set to the same event), as DecodeAt would have decoded it;
// later > 0: the frame that many after it in a run of identical events
// (the same decoding, the index moved on). f keeps its key set (a
// BareFrame holds no pointer): a frame without members reads alike
// through any.
//
// Every field is stored on its own: a struct built on the stack and then
// copied is read back 16 bytes at a time, which the CPU cannot forward
// from the narrower stores that built it (a stall per frame of a flood).
func (f *Frame) SetBare(b *BareFrame, later int, arrival time.Duration, hasArrival bool) {
	f.Index, f.Arrival, f.HasArrival = b.index+later, arrival, hasArrival
	f.Done, f.InvalidUTF8, f.ASCII = b.flags&bareDone != 0, b.flags&bareInvalidUTF8 != 0, b.flags&bareASCII != 0
	f.Problem = b.problem
	e := &f.problemErr
	e.Offset, e.After, e.Char, e.HasChar = int(b.errAt), "", 0, false
	switch b.errKind {
	case bareErrNone:
		e.Msg = ""
	case bareErrEmpty:
		e.Msg = msgEmptyData
	case bareErrUnexpected:
		e.Msg, e.Char, e.HasChar = msgUnexpected, b.errChar, true
	}
	if f.scanned || len(f.Members) > 0 {
		f.Members = f.Members[:0]
		f.idx = frameIndex{}
	}
	f.scanned = b.flags&bareScanned != 0
}
