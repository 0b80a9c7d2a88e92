package openairealtime

import (
	"encoding/json"
	"hash/maphash"
	"strconv"

	"framescope/decode"
	"framescope/invariants"
)

// maxIDs bounds the event_ids remembered per direction (a long voice
// session sends an audio append every 20 ms): past it, repeats go unseen.
const maxIDs = 1 << 16

// mapper keeps one session's state: what the client asked, the event_ids
// seen each way, the audio parts open.
type mapper struct {
	asked, started, errors int
	clientIDs, serverIDs   map[uint64]bool // event_ids, by their hash (no string kept)
	openParts              map[string]bool // item_id/content_index of the open parts
	orphaned               map[string]bool // parts a delta went into unopened (said once)
	done                   map[string]bool // responses past their response.done (after-terminal says the rest)
	legacy                 bool
	sawClient              bool // client frames are read (a two-way capture, not a server-only body)
	kbuf, lbuf             []byte
}

func newMapper() invariants.Mapper {
	return &mapper{clientIDs: map[uint64]bool{}, serverIDs: map[uint64]bool{}, openParts: map[string]bool{}, orphaned: map[string]bool{}, done: map[string]bool{}}
}

// idSeed hashes event_ids (a 64-bit hash: a collision, one in 2^64 per
// pair, would read as a repeat).
var idSeed = maphash.MakeSeed()

// eventID checks an event_id's uniqueness within its direction.
func eventID(f *decode.Frame, m *invariants.Mapping, seen map[uint64]bool, who string) {
	id, ok := f.Get("event_id").StrBytes()
	if !ok || len(id) == 0 {
		return
	}
	h := maphash.Bytes(idSeed, id)
	if seen[h] {
		m.Raise("event-id-duplicate", invariants.SevWarn, "%s event_id %s was already used by an earlier %s event", who, strconv.Quote(decode.Clip(string(id), 60)), who)
		return
	}
	if len(seen) < maxIDs {
		seen[h] = true
	}
}

// MapClient reads a client event: what it asks for.
func (p *mapper) MapClient(f *decode.Frame, m *invariants.Mapping) {
	p.sawClient = true
	typ, _ := f.Get("type").StrBytes()
	eventID(f, m, p.clientIDs, "client")
	switch {
	case string(typ) == "response.create":
		p.asked++
	case !clientEvents[string(typ)]:
		m.Unknown = true
	}
}

// partKey is a part's key, item_id/content_index, in the mapper's buffer
// (valid until the next call).
func (p *mapper) partKey(f *decode.Frame) []byte {
	item, _ := f.Get("item_id").StrBytes()
	ci, _ := f.Get("content_index").Int()
	p.kbuf = strconv.AppendInt(append(append(p.kbuf[:0], item...), '/'), ci, 10)
	return p.kbuf
}

// partLit is the part's key as a JSON string for a move (the mapper's
// buffer, valid while the frame is).
func (p *mapper) partLit(k []byte) decode.Raw {
	p.lbuf = decode.AppendJSONString(p.lbuf[:0], string(k))
	return decode.Raw(p.lbuf)
}

func (p *mapper) Map(f *decode.Frame, m *invariants.Mapping) {
	tb, ok := f.Get("type").StrBytes()
	if !ok {
		m.Malformed("type", "is not a string")
		m.Stream = true
		return
	}
	eventID(f, m, p.serverIDs, "server")
	typ := event(tb)
	if typ == "" {
		if ga, old := legacyNames[string(tb)]; old {
			if !p.legacy {
				p.legacy = true
				m.Legacy("the Realtime beta event names (" + string(tb) + " for " + ga + "); the GA SDKs do not read them")
			}
			typ = ga
		}
	}
	m.Type = f.Get("type")
	rid := f.Get("response_id")
	switch typ {
	case "response.created":
		id := f.Get("response").Get("id")
		p.started++
		m.Turn = id
		m.Add(invariants.Move{Kind: invariants.MoveTurnStart, Key: id})
	case "response.done":
		r := f.Get("response")
		m.Turn = r.Get("id")
		if id, ok := m.Turn.Str(); ok && len(p.done) < maxIDs {
			p.done[id] = true
		}
		m.Add(invariants.Move{Kind: invariants.MoveTerminal, Key: m.Turn, Outcome: outcome(r.Get("status")), Name: invariants.Lit("response.done")})
	case "response.output_item.added", "response.output_item.done":
		m.Turn = rid
		item := f.Get("item")
		kind := invariants.MoveSpanOpen
		if typ == "response.output_item.done" {
			kind = invariants.MoveSpanClose
		}
		m.Add(invariants.Move{Kind: kind, Span: invariants.SpanItem, Key: item.Get("id")})
		if item.Get("type").StrEq("function_call") && kind == invariants.MoveSpanOpen {
			m.Add(invariants.Move{Kind: invariants.MoveToolOpen, Key: item.Get("call_id"), Name: item.Get("name")})
		}
	case "response.content_part.added", "response.content_part.done":
		m.Turn = rid
		k := p.partKey(f)
		kind := invariants.MoveSpanOpen
		if typ == "response.content_part.done" {
			kind = invariants.MoveSpanClose
			delete(p.openParts, string(k))
		} else if len(p.openParts) < maxIDs {
			p.openParts[string(k)] = true
		}
		m.Add(invariants.Move{Kind: kind, Span: invariants.SpanPart, Key: p.partLit(k)})
	case "response.output_text.delta", "response.output_audio_transcript.delta":
		m.Turn = rid
		k := p.orphan(f, m)
		m.Add(invariants.Move{Kind: invariants.MoveText, Key: p.partLit(k), Text: f.Get("delta")})
	case "response.output_audio.delta":
		m.Turn = rid
		p.orphan(f, m)
	case "response.function_call_arguments.delta":
		m.Turn = rid
		m.Add(invariants.Move{Kind: invariants.MoveToolArgs, Key: f.Get("call_id"), Text: f.Get("delta")})
	case "response.function_call_arguments.done":
		m.Turn = rid
		args, _ := f.Get("arguments").Str()
		if !json.Valid([]byte(args)) {
			m.Raise("tool-malformed", invariants.SevError, "function call %s: arguments at .done are not valid JSON (%s): the SDK's JSON.parse of them throws",
				decode.Clip(string(f.Get("call_id")), 60), decode.Clip(args, 60))
		}
		m.Add(invariants.Move{Kind: invariants.MoveToolReady, Key: f.Get("call_id")})
	case "error":
		m.Stream = true
		p.errors++
		e := f.Get("error")
		m.Add(invariants.Move{Kind: invariants.MoveError, Code: e.Get("code"), Text: e.Get("message")})
		if ref, ok := e.Get("event_id").StrBytes(); ok && len(ref) > 0 && p.sawClient && !p.clientIDs[maphash.Bytes(idSeed, ref)] && len(p.clientIDs) < maxIDs {
			m.Raise("error-ref-unknown", invariants.SevWarn, "error names client event %s, which the client never sent", strconv.Quote(decode.Clip(string(ref), 60)))
		}
	default:
		if typ == "" {
			typ = string(tb) // outside the vocabulary: said below
		}
		if rid != nil && serverEvents[typ] {
			m.Turn = rid // output_text.done, output_audio.done, mcp_call …
			return
		}
		m.Stream = true
		if !serverEvents[typ] {
			m.Unknown = true
		}
	}
}

// orphan raises span-orphan, once a part, for a delta into a part that
// is not open.
func (p *mapper) orphan(f *decode.Frame, m *invariants.Mapping) []byte {
	k := p.partKey(f)
	if rid, _ := f.Get("response_id").StrBytes(); p.openParts[string(k)] || p.orphaned[string(k)] || p.done[string(rid)] {
		return k
	}
	if len(p.orphaned) < maxIDs {
		p.orphaned[string(k)] = true
	}
	m.Raise("span-orphan", invariants.SevError, "delta into content part %s, which is not open (no response.content_part.added): the SDK has no part to put it in", strconv.Quote(decode.Clip(string(k), 80)))
	return k
}

// event interns a GA server event type (no allocation); "" when the type
// is none of them.
func event(t []byte) string {
	if s, ok := internedServer[string(t)]; ok {
		return s
	}
	return ""
}

var internedServer = func() map[string]string {
	m := make(map[string]string, len(serverEvents))
	for k := range serverEvents {
		m[k] = k
	}
	return m
}()

// EndStream: every response the client asked for was answered.
func (p *mapper) EndStream(m *invariants.Mapping) {
	if missing := p.asked - p.started - p.errors; missing > 0 {
		sev := invariants.SevError
		if m.ClientEnded() {
			sev = invariants.SevInfo
		}
		m.RaiseNoFrame("response-unanswered", sev, "the client sent %s but the server answered %d with response.created (and %d with an error)",
			invariants.Plural(p.asked, "response.create"), p.started, p.errors)
	}
}

// outcome reads response.status.
func outcome(s decode.Raw) string {
	switch {
	case s.StrEq("completed"):
		return invariants.TurnCompleted
	case s.StrEq("cancelled"):
		return invariants.TurnCancelled
	case s.StrEq("incomplete"):
		return invariants.TurnIncomplete
	}
	return invariants.TurnFailed
}
