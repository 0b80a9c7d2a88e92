package a2a

import (
	"framescope/decode"
	"framescope/invariants"
)

// kind is a stream event's place in the vocabulary (A2A §3.2.3
// StreamResponse; v0.3 §7.2.1 SendStreamingMessageResponse).
type kind uint8

const (
	evNone     kind = iota
	evTask          // a Task (§4.1.1)
	evStatus        // a TaskStatusUpdateEvent (§4.2.1)
	evArtifact      // a TaskArtifactUpdateEvent (§4.2.2)
	evMessage       // a Message (§4.1.4)
	evError         // a JSON-RPC error response (JSON-RPC 2.0 §5.1)
	evUnknown       // a result A2A does not define
)

// names are each kind's label: v0.3's kind values.
var names = [...]string{"", "task", "status-update", "artifact-update", "message", "error", "result"}

// form is how a frame carries its event.
type form uint8

const (
	formNone    form = iota
	formKind         // v0.3: JSON-RPC result with kind
	formWrapped      // v1.0 JSON-RPC binding: result is a StreamResponse (§9.4.2)
	formBare         // HTTP+JSON binding: the frame is a StreamResponse (§11.7)
)

// wrappers are the StreamResponse members (§3.2.3) and the kind each is;
// msg is the v0.3 proto's name for the message member (v0.3 §7.2 REST).
var wrappers = [...]struct {
	name string
	kind kind
}{{"statusUpdate", evStatus}, {"artifactUpdate", evArtifact}, {"task", evTask}, {"message", evMessage}, {"msg", evMessage}}

// Fields of an event body the mapper reads (bodyNames' slots), fetched in
// one pass over the body: the hot path scans each object once.
const (
	fKind = iota
	fTaskID
	fCtxID
	fStatus
	fArtifact
	fAppend
	fLast
	fFinal
	fID
	fMessageID
	fParts
	fArtifacts
	fStatusUpdate // the StreamResponse members, in wrappers' order
	fArtifactUpdate
	fTask
	fMessage
	fMsg
	nFields
)

// bodyNames are the event body's members, slot by slot (the
// StreamResponse members from wrappers). content is the v0.3 proto's
// name for a Message's parts (its HTTP+JSON binding, a2a_v0_3.proto
// Message.content).
var bodyNames = decode.Names(append([]string{"kind", "taskId", "contextId", "status", "artifact", "append", "lastChunk",
	"final", "id", "messageId", "parts", "artifacts"}, wrapperNames()...)...).Alias("content", fParts)

func wrapperNames() []string {
	var names []string
	for _, w := range wrappers {
		names = append(names, w.name)
	}
	return names
}

// event is one frame read: its kind, its form, the object holding the
// event's fields, and those fields.
type event struct {
	kind kind
	form form
	body decode.Raw
	// wrapper names the StreamResponse member ("" for v0.3 and errors).
	wrapper string
	v       [nFields]decode.Raw
	// The members of v[fStatus] and v[fArtifact] the mapper reads, read
	// in the pass over the body (nil when that value is not an object).
	status   [2]decode.Raw // state, message
	artifact [3]decode.Raw // artifactId, name, parts
}

// top is what the mapper reads of a frame's top-level members (the
// decoder scanned them on the reading core): the JSON-RPC envelope
// (JSON-RPC 2.0 §5) and the StreamResponse members, in wrappers' order.
type top struct {
	jsonrpc, id, result, err, method decode.Raw
	wrapped                          [len(wrappers)]decode.Raw
}

// topNames are the members top reads, in its order.
var topNames = decode.Names(append([]string{"jsonrpc", "id", "result", "error", "method"}, wrapperNames()...)...)

// read takes the frame's members in one pass (the last of a repeated key
// wins, as Frame.Get; a key written with escapes is read decoded).
func (t *top) read(f *decode.Frame) {
	var v [5 + len(wrappers)]decode.Raw
	topNames.PickMembers(f.Members, v[:])
	t.jsonrpc, t.id, t.result, t.err, t.method = v[0], v[1], v[2], v[3], v[4]
	t.wrapped = [len(wrappers)]decode.Raw(v[5:])
}

// fill reads the body's fields in one pass over its members
// (decode.Raw.Members); the status and the artifact, which the mapper
// reads too, are read in the same pass.
func (ev *event) fill() {
	ev.v = [nFields]decode.Raw{}
	ev.status, ev.artifact = [2]decode.Raw{}, [3]decode.Raw{}
	it := ev.body.Members()
	for k, _, v, open, ok := it.NextOpen(); ok; k, _, v, open, ok = it.NextOpen() {
		// Looked up as written: no A2A member name needs an escape, and
		// a key written with one (its bytes hold a backslash) is none.
		i := bodyNames.Slot(k, false)
		if open {
			var end int
			switch {
			case i == fStatus && v[0] == '{':
				end = readMembers(v, ev.status[:], statusNames)
			case i == fArtifact && v[0] == '{':
				end = readMembers(v, ev.artifact[:], artifactNames)
			default:
				end = decode.ValueEnd(v, 0)
			}
			it.Resume(end)
			v = v[:max(end, 0)]
		}
		if i >= 0 {
			ev.v[i] = v // the last one wins, as in encoding/json
			switch i {
			case fStatus:
				if v.Kind() != decode.KindObject {
					ev.status = [2]decode.Raw{}
				}
			case fArtifact:
				if v.Kind() != decode.KindObject {
					ev.artifact = [3]decode.Raw{}
				}
			}
		}
	}
}

// The members of a status and of an artifact the mapper reads.
var (
	statusNames   = decode.Names("state", "message")
	artifactNames = decode.Names("artifactId", "name", "parts")
)

// readMembers reads the members of keys of the object that starts obj
// (obj may run on past it) into dst, looked up as written (as fill looks
// them up); it returns the object's length.
func readMembers(obj decode.Raw, dst []decode.Raw, keys *decode.NameSet) int {
	clear(dst)
	it := obj.Members()
	for k, _, v, ok := it.Next(); ok; k, _, v, ok = it.Next() {
		if s := keys.Slot(k, false); s >= 0 {
			dst[s] = v
		}
	}
	return it.End()
}

// classify reads a frame's event into ev. It never allocates.
func (ev *event) classify(f *decode.Frame, t *top) {
	t.read(f)
	if t.jsonrpc != nil {
		if t.err != nil && t.result == nil {
			*ev = event{kind: evError, body: t.err}
			return
		}
		if t.result.Kind() != decode.KindObject {
			*ev = event{kind: evNone, body: t.result}
			return
		}
		*ev = event{body: t.result}
		ev.fill()
		if k := ev.v[fKind]; k != nil {
			ev.kind, ev.form = kindOf(k), formKind
			return
		}
		for i, w := range wrappers {
			if b := ev.v[fStatusUpdate+i]; b.Kind() == decode.KindObject {
				*ev = event{kind: w.kind, body: b, wrapper: w.name, form: formWrapped}
				ev.fill()
				return
			}
		}
		ev.kind = evUnknown
		return
	}
	for i, w := range wrappers {
		if b := t.wrapped[i]; b.Kind() == decode.KindObject {
			*ev = event{kind: w.kind, body: b, wrapper: w.name, form: formBare}
			ev.fill()
			return
		}
	}
	if e := restError(f, t); e != nil {
		*ev = event{kind: evError, body: e, form: formBare}
		return
	}
	*ev = event{}
}

// restError is the error an HTTP+JSON stream ends with (§11.6 error
// format, google.rpc.Status in JSON): a2a-python's REST server
// (server/routes/rest_dispatcher.py _handle_streaming) and a2a-js's
// (server/express/rest_handler.ts) write `event: error` with data
// {"error": {"code", "status", "message", "details"}}; their clients
// (client/transports/rest.py _handle_sse_error; a2a-js fromRestErrorBody)
// raise the error it maps to. Older a2a-js servers wrote the error object
// itself ({"code", "message"}) under `event: error`. nil when the frame is
// no such error.
func restError(f *decode.Frame, t *top) decode.Raw {
	if t.err.Kind() == decode.KindObject && len(f.Members) == 1 {
		return t.err
	}
	if f.HasType && f.Event.Type == "error" && t.err == nil && t.method == nil &&
		f.Get("code").Kind() == decode.KindNumber {
		return decode.Raw(f.Data)
	}
	return nil
}

// kindOf is the event a v0.3 result's kind names (the string decoded
// once, then switched on: this runs on every frame).
func kindOf(k decode.Raw) kind {
	b, ok := k.StrBytes()
	if !ok {
		return evUnknown
	}
	switch string(b) {
	case "status-update":
		return evStatus
	case "artifact-update":
		return evArtifact
	case "task":
		return evTask
	case "message":
		return evMessage
	}
	return evUnknown
}

// shaped reports whether an event's body has the members its type
// requires (the A2A shape detection trusts): a Task's id and status, an
// update's taskId with its status or artifact, a Message's messageId and
// parts.
func (ev *event) shaped() bool {
	v := &ev.v
	switch ev.kind {
	case evTask:
		return v[fID].Kind() == decode.KindString && v[fStatus].Kind() == decode.KindObject
	case evStatus:
		return v[fTaskID].Kind() == decode.KindString && v[fStatus].Get("state").Kind() == decode.KindString
	case evArtifact:
		return v[fTaskID].Kind() == decode.KindString && v[fArtifact].Kind() == decode.KindObject
	case evMessage:
		return v[fMessageID].Kind() == decode.KindString && v[fParts].Kind() == decode.KindArray
	}
	return false
}

// sniff claims a frame only with A2A's own shape: a JSON-RPC result whose
// kind is one of A2A's four with their members, or a StreamResponse member
// (JSON-RPC wrapped or bare) with them. A JSON-RPC error keeps A2A in the
// running; any other JSON-RPC message (a request, a notification, another
// method's result) is not A2A's.
func sniff(f *decode.Frame, foreign invariants.Keys) invariants.Verdict {
	if foreign.In(f) {
		return invariants.No
	}
	var ev event
	var t top
	ev.classify(f, &t)
	switch ev.kind {
	case evNone, evUnknown:
		return invariants.No
	case evError:
		// An HTTP+JSON error ({"error": {…}}) is Gemini's and others'
		// shape too: only a JSON-RPC error keeps A2A in the running.
		if t.jsonrpc == nil || t.method != nil || ev.body.Kind() != decode.KindObject || ev.body.Get("code").Kind() != decode.KindNumber {
			return invariants.No
		}
		return invariants.Maybe
	}
	if t.method != nil || !ev.shaped() {
		return invariants.No
	}
	if ev.form == formBare && len(f.Members) != 1 {
		// A StreamResponse has exactly one member; other wires' frames
		// that happen to hold a "message" object carry more.
		return invariants.No
	}
	return invariants.Yes
}

// label is the event's v0.3 kind ("status-update"…), "error" for a
// JSON-RPC error; "" when the frame is no A2A event.
func label(f *decode.Frame) string {
	var ev event
	var t top
	ev.classify(f, &t)
	if ev.kind == evNone {
		return ""
	}
	if ev.kind == evUnknown {
		if k, ok := ev.v[fKind].Str(); ok {
			return k
		}
	}
	return names[ev.kind]
}
