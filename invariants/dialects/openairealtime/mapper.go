package openairealtime

import (
	"encoding/json"
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
	clientIDs, serverIDs   map[string]bool
	openParts              map[string]bool // item_id/content_index of the open parts
	orphaned               map[string]bool // parts a delta went into unopened (said once)
	done                   map[string]bool // responses past their response.done (after-terminal says the rest)
	legacy                 bool
}

func newMapper() invariants.Mapper {
	return &mapper{clientIDs: map[string]bool{}, serverIDs: map[string]bool{}, openParts: map[string]bool{}, orphaned: map[string]bool{}, done: map[string]bool{}}
}

// eventID checks an event_id's uniqueness within its direction.
func eventID(f *decode.Frame, m *invariants.Mapping, seen map[string]bool, who string) {
	id, ok := f.Get("event_id").Str()
	if !ok || id == "" {
		return
	}
	if seen[id] {
		m.Raise("event-id-duplicate", invariants.SevWarn, "%s event_id %s was already used by an earlier %s event", who, strconv.Quote(decode.Clip(id, 60)), who)
		return
	}
	if len(seen) < maxIDs {
		seen[id] = true
	}
}

// MapClient reads a client event: what it asks for.
func (p *mapper) MapClient(f *decode.Frame, m *invariants.Mapping) {
	typ, _ := f.Get("type").Str()
	eventID(f, m, p.clientIDs, "client")
	switch {
	case typ == "response.create":
		p.asked++
	case !clientEvents[typ]:
		m.Unknown = true
	}
}

func partKey(f *decode.Frame) string {
	item, _ := f.Get("item_id").Str()
	ci, _ := f.Get("content_index").Int()
	return item + "/" + strconv.FormatInt(ci, 10)
}

func (p *mapper) Map(f *decode.Frame, m *invariants.Mapping) {
	typ, ok := f.Get("type").Str()
	if !ok {
		m.Malformed("type", "is not a string")
		m.Stream = true
		return
	}
	eventID(f, m, p.serverIDs, "server")
	if ga, old := legacyNames[typ]; old {
		if !p.legacy {
			p.legacy = true
			m.Legacy("the Realtime beta event names (" + typ + " for " + ga + "); the GA SDKs do not read them")
		}
		typ = ga
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
		k := partKey(f)
		kind := invariants.MoveSpanOpen
		if typ == "response.content_part.done" {
			kind = invariants.MoveSpanClose
			delete(p.openParts, k)
		} else {
			p.openParts[k] = true
		}
		m.Add(invariants.Move{Kind: kind, Span: invariants.SpanPart, Key: invariants.Lit(k)})
	case "response.output_text.delta", "response.output_audio_transcript.delta":
		m.Turn = rid
		p.orphan(f, m)
		m.Add(invariants.Move{Kind: invariants.MoveText, Key: invariants.Lit(partKey(f)), Text: f.Get("delta")})
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
		if ref, ok := e.Get("event_id").Str(); ok && ref != "" && !p.clientIDs[ref] && len(p.clientIDs) < maxIDs {
			m.Raise("error-ref-unknown", invariants.SevWarn, "error names client event %s, which the client never sent", strconv.Quote(decode.Clip(ref, 60)))
		}
	default:
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
func (p *mapper) orphan(f *decode.Frame, m *invariants.Mapping) {
	k := partKey(f)
	if rid, _ := f.Get("response_id").Str(); p.openParts[k] || p.orphaned[k] || p.done[rid] {
		return
	}
	if len(p.orphaned) < maxIDs {
		p.orphaned[k] = true
	}
	m.Raise("span-orphan", invariants.SevError, "delta into content part %s, which is not open (no response.content_part.added): the SDK has no part to put it in", strconv.Quote(decode.Clip(k, 80)))
}

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
