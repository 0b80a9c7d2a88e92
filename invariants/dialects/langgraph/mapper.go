package langgraph

import (
	"bytes"
	"strconv"

	"framescope/decode"
	"framescope/invariants"
)

// mapper keeps one run's state beyond the Engine's: the run_id to hold
// fixed, the last event id, the message and tool call ids seen (tracked),
// and the tool calls still waiting for their message to finish (pending).
type mapper struct {
	begun, ended bool
	runID        []byte
	lastID       []byte
	haveID       bool
	baseline     bool // the root graph's first values (the run's input state) was read
	track        tracker
	pending      []pendingCall
	lastNode     []byte // the graph node of the latest progress line
	lastMeta     lastMeta
}

// pendingCall is a tool call opened from a streamed message whose input is
// complete once that message ends.
type pendingCall struct {
	msg, call string
}

func newMapper() invariants.Mapper { return &mapper{} }

// Constants the mapper puts in moves.
var (
	litEnd   = invariants.Lit("end")
	litError = invariants.Lit("error")
	litClose = invariants.Lit("stream closed")
)

func (p *mapper) Map(f *decode.Frame, m *invariants.Mapping) {
	name := label(f)
	ev, ns := split(name)
	p.eventID(f, m)
	data := decode.Raw(bytes.TrimSpace(f.Data))
	first := !p.begun
	p.begun = true
	if first && ev != evMetadata && f.HasID && f.Event.ID != "" {
		// A resumed run: the client joined it again with Last-Event-ID
		// (GET /threads/{id}/runs/{run_id}/stream; langgraph-sdk
		// HttpClient.stream follows the Location header by itself) and
		// the server replays what came after that id — metadata went
		// out on the first connection. The client knows the run_id from
		// the URL: the run opens here, no start-missing.
		m.Add(invariants.Move{Kind: invariants.MoveTurnStart})
	}
	switch ev {
	case evMetadata:
		p.metadata(f, m, first)
	case evEnd:
		p.terminal(m, invariants.Move{Kind: invariants.MoveTerminal, Outcome: invariants.TurnCompleted, Name: litEnd})
	case evError:
		p.errorEvent(data, m)
	case evMessages:
		p.tuple(data, m)
	case evPartial, evComplete:
		if data.Kind() != decode.KindArray {
			m.Malformed(name, "data is "+invariants.KindName(data)+", want a list of messages")
			return
		}
		msgIt := data.Elements()
		for msg, ok := msgIt.Next(); ok; msg, ok = msgIt.Next() {
			if ev == evPartial {
				p.partial(msg, m)
			} else {
				p.full(msg, m)
			}
		}
	case evValues:
		p.values(data, ns, m)
	case evUpdates:
		p.updates(data, m)
	case evMsgMeta, evQuiet:
	default:
		m.Unknown = true
	}
}

// metadata opens the run; a second one repeats the start (start-duplicate)
// or names another run (run-id-changed).
func (p *mapper) metadata(f *decode.Frame, m *invariants.Mapping, first bool) {
	rid := f.Get("run_id")
	b, ok := rid.StrBytes()
	if !ok {
		m.Malformed("metadata", "run_id is "+invariants.KindName(rid)+", want a string")
		rid = nil
	}
	if first || p.runID == nil {
		p.runID = append([]byte(nil), b...)
		m.Add(invariants.Move{Kind: invariants.MoveTurnStart, Key: rid})
		return
	}
	if ok && !bytes.Equal(b, p.runID) {
		m.Raise("run-id-changed", invariants.SevError, "metadata names run %q, but the stream is run %q: the client would join, cancel or resume the wrong run",
			decode.Clip(string(b), 40), decode.Clip(string(p.runID), 40))
		return
	}
	// The same run again: the client's onMetadataEvent runs twice and
	// nothing breaks (warn, not the shared catalog's error).
	m.Raise("start-duplicate", invariants.SevWarn, "a second metadata event for run %q", decode.Clip(string(p.runID), 40))
}

// errorEvent ends the run failed. The SDKs stop there: useStream throws a
// StreamError(data), whose message is data.message.
func (p *mapper) errorEvent(data decode.Raw, m *invariants.Mapping) {
	msg := data.Get("message")
	if data.Kind() != decode.KindObject || msg.Kind() != decode.KindString {
		m.Raise("error-shape", invariants.SevWarn, "error data is %s without a message string: StreamError shows no reason", invariants.KindName(data))
		msg = nil
		if data.Kind() == decode.KindString {
			msg = data
		}
	}
	code := data.Get("error")
	if code.Kind() != decode.KindString {
		code = nil
	}
	p.terminal(m, invariants.Move{Kind: invariants.MoveTerminal, Outcome: invariants.TurnFailed, Name: litError, Code: code, Text: msg, Final: true})
}

// terminal ends the run: the tool calls still streaming are complete.
func (p *mapper) terminal(m *invariants.Mapping, mv invariants.Move) {
	if !p.ended {
		p.readyAll(m, "")
	}
	p.ended = true
	m.Add(mv)
}

// TruncationNote: the two SDKs differ on an event the stream ends in
// before its blank line. @langchain/langgraph-sdk's SSEDecoder
// (libs/sdk/src/utils/sse.ts) flushes it at the end of the body when it
// has an event: line; langgraph-sdk's Python SSEDecoder
// (libs/sdk-py/langgraph_sdk/sse.py) has no flush: only a blank line
// dispatches, the last event is lost.
func (p *mapper) TruncationNote(ev *decode.Event) string {
	if ev.HasType && ev.Type != "" {
		return "the JS SDK (@langchain/langgraph-sdk, SSEDecoder.flush in src/utils/sse.ts) still delivers it; the Python SDK (langgraph_sdk/sse.py, no flush) drops it"
	}
	return "both SDKs drop it: the JS SDK's SSEDecoder.flush delivers only an event with an event: line, the Python SDK (langgraph_sdk/sse.py) has no flush"
}

// EndStream: the SDKs read the server closing the stream as the end of the
// run (langgraph-sdk HttpClient.stream returns at EOF; `end` is optional),
// so a clean EOF is the completed terminal. A stream cut by an error or
// the user keeps no terminal: terminal-missing says so.
func (p *mapper) EndStream(m *invariants.Mapping) {
	if !p.begun || p.ended || !m.EndedAtEOF() {
		return
	}
	p.terminal(m, invariants.Move{Kind: invariants.MoveTerminal, Outcome: invariants.TurnCompleted, Name: litClose})
}

// eventID: an id: is the Last-Event-ID a client resumes from; it must not
// repeat the previous one, and ids the server numbers (decimal, or Redis
// stream ids "ms-seq") must grow.
func (p *mapper) eventID(f *decode.Frame, m *invariants.Mapping) {
	if !f.HasID {
		return
	}
	id := f.Event.ID
	if p.haveID {
		switch {
		case id == string(p.lastID):
			m.Raise("event-id-order", invariants.SevWarn, "event id %q repeats the previous event's", decode.Clip(id, 40))
		case idLess(id, string(p.lastID)):
			m.Raise("event-id-order", invariants.SevWarn, "event id %q after %q goes backwards", decode.Clip(id, 40), decode.Clip(string(p.lastID), 40))
		}
	}
	p.lastID, p.haveID = append(p.lastID[:0], id...), true
}

// idLess: both ids are numbered the same way ("12" or "1700000000000-3")
// and a comes before b.
func idLess(a, b string) bool {
	am, as, ok1 := idParts(a)
	bm, bs, ok2 := idParts(b)
	return ok1 && ok2 && (am < bm || am == bm && as < bs)
}

func idParts(s string) (ms, seq uint64, ok bool) {
	head, tail, dash := bytes.Cut([]byte(s), []byte{'-'})
	ms, err := strconv.ParseUint(string(head), 10, 63)
	if err != nil {
		return 0, 0, false
	}
	if dash {
		if seq, err = strconv.ParseUint(string(tail), 10, 63); err != nil {
			return 0, 0, false
		}
	}
	return ms, seq, true
}
