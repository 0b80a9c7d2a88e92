package publicsse

import (
	"framescope/decode"
	"framescope/invariants"
)

// Constant move fields, made once (mapping a frame allocates nothing).
var (
	litEventID = invariants.Lit("event_id") // the scope of the stream's event_id counter
	litRefusal = invariants.Lit("refusal")
)

// mapper holds what one stream's rules remember from frame to frame.
type mapper struct {
	env    envelope
	tools  toolSet
	faults faults
	// bytes counts the stream's event data (stream-size); sizeRaised keeps
	// the alarm to one per stream.
	bytes      int64
	sizeRaised bool
	named      bool // the turn got its key (the stream_id)
	// key is the buffer a scoped summary part's key is built in (valid
	// while the frame is mapped: the engine copies the keys it keeps).
	key []byte
	// parts are the summary parts opened so far (parts.go).
	parts []part
}

func newMapper() invariants.Mapper {
	return &mapper{env: newEnvelope(), tools: newToolSet()}
}

// Map reads one event: the envelope every kind shares, then the kind's
// own fields and moves. payload-malformed is raised once per frame, naming
// every faulty field.
func (p *mapper) Map(f *decode.Frame, m *invariants.Mapping) {
	p.faults.reset()
	p.countBytes(f, m)
	p.env.check(f, m, &p.faults)
	readStamp(f, m)
	if !p.named {
		if id := f.Get("stream_id"); id.IsNonEmptyStr() {
			m.Add(invariants.Move{Kind: invariants.MoveTurnKey, Key: id})
			p.named = true
		}
	}
	if id, ok := invariants.Int(f.Get("event_id")); ok {
		// No Name: Engine.seq formats a named counter's name on every frame
		// (an allocation); its messages say "sequence number" instead.
		m.Add(invariants.Move{Kind: invariants.MoveSeq, Key: litEventID, Seq: id, SeqFrom: -1})
	}
	leak(f, m)
	kind := f.Get("kind")
	if kind.Kind() == decode.KindString {
		p.mapKind(f, m, kind)
	}
	if p.faults.n > 0 {
		m.Malformed(labelOf(kind), p.faults.String())
	}
}

// countBytes raises stream-size once, on the frame whose data takes the
// stream over 128 MiB (the milestone's per-stream circuit breaker counts
// serialized event bytes: the data, as frame-size does).
func (p *mapper) countBytes(f *decode.Frame, m *invariants.Mapping) {
	p.bytes += int64(len(f.Data))
	if p.bytes > streamMax && !p.sizeRaised {
		p.sizeRaised = true
		m.Raise("stream-size", invariants.SevError, "the stream's event data reaches %d bytes, over the 128 MiB per-stream cap", p.bytes)
	}
}

// mapKind maps the kinds of v1.md §9 (and the schema's memory.checkpoint)
// onto moves.
func (p *mapper) mapKind(f *decode.Frame, m *invariants.Mapping, kind decode.Raw) {
	fs := &p.faults
	switch string(inner(kind)) {
	case "lifecycle":
		// Progress only: "completed" here is not the terminal (final is).
		st := f.Get("status")
		if !oneOf(st, lifecycleStatus) {
			fs.add("status", st, "queued, in_progress, completed, failed, incomplete or cancelled")
		}
		m.Add(invariants.Move{Kind: invariants.MoveProgress, Name: kind, Text: st})
	case "memory.checkpoint":
		cp := f.Get("checkpoint")
		fs.want(cp, decode.KindObject, "checkpoint")
		m.Add(invariants.Move{Kind: invariants.MoveProgress, Name: kind, Text: cp.Get("strategy")})
	case "agent.updated":
		to := f.Get("to_agent")
		fs.want(to, decode.KindString, "to_agent")
		m.Add(invariants.Move{Kind: invariants.MoveProgress, Name: kind, Text: to})
	case "output_item.added", "output_item.done":
		p.outputItem(f, m, kind)
	case "message.delta":
		p.item(f)
		d := f.Get("delta")
		fs.want(d, decode.KindString, "delta")
		// No span: a message.delta needs no output_item.added (docs/dialects/public-sse-v1.md).
		m.Add(invariants.Move{Kind: invariants.MoveText, Key: f.Get("item_id"), Text: d})
	case "message.citation":
		p.item(f)
		fs.want(f.Get("citation"), decode.KindObject, "citation")
	case "reasoning_summary.part.added", "reasoning_summary.part.done":
		p.summaryPart(f, m, kind)
	case "reasoning_summary.delta":
		p.item(f)
		d := f.Get("delta")
		fs.want(d, decode.KindString, "delta")
		mv := invariants.Move{Kind: invariants.MoveReasoning, Text: d}
		// summary_index is optional on a delta; when given, its part must be open.
		if si := f.Get("summary_index"); si.Kind() == decode.KindNumber {
			mv.Span, mv.Key = invariants.SpanReasoning, p.partKey(f, si)
			p.partDelta(mv.Key)
		} else if si.Kind() != decode.KindNone && si.Kind() != decode.KindNull {
			fs.add("summary_index", si, "an integer or null")
		}
		m.Add(mv)
	case "refusal.delta":
		// A refusal is what the client renders as the answer, not an error.
		p.item(f)
		d := f.Get("delta")
		fs.want(d, decode.KindString, "delta")
		m.Add(invariants.Move{Kind: invariants.MoveText, Key: f.Get("item_id"), Name: litRefusal, Text: d})
	case "refusal.done":
		p.item(f)
		fs.want(f.Get("refusal_text"), decode.KindString, "refusal_text")
	case "tool.status":
		p.item(f)
		p.toolStatus(f, m)
	case "tool.approval":
		p.item(f)
		id, ok := f.Get("tool_call_id"), f.Get("approved")
		fs.want(id, decode.KindString, "tool_call_id")
		fs.want(ok, decode.KindBool, "approved")
		// A denied MCP call gets no status after its approval (the
		// projector's run_items.py emits none), and the web client's tool
		// tracker (publicSseV1/tools.ts applyToolApproval) marks the call
		// output-available on the approval itself: a denial ends the call.
		if v, isBool := ok.Bool(); isBool && !v && id.IsNonEmptyStr() && m.ToolIsOpen(id) {
			m.Add(invariants.Move{Kind: invariants.MoveToolClose, Key: id, Outcome: invariants.TurnFailed})
		}
	case "tool.arguments.delta", "tool.code.delta":
		p.item(f)
		id, d := f.Get("tool_call_id"), f.Get("delta")
		fs.want(id, decode.KindString, "tool_call_id")
		fs.want(d, decode.KindString, "delta")
		p.toolInput(m, id, d)
	case "tool.arguments.done":
		p.item(f)
		fs.want(f.Get("tool_call_id"), decode.KindString, "tool_call_id")
		fs.want(f.Get("arguments_text"), decode.KindString, "arguments_text")
	case "tool.code.done":
		p.item(f)
		fs.want(f.Get("tool_call_id"), decode.KindString, "tool_call_id")
		fs.want(f.Get("code"), decode.KindString, "code")
	case "tool.output":
		p.item(f)
		fs.want(f.Get("tool_call_id"), decode.KindString, "tool_call_id")
	case "chunk.delta", "chunk.done":
		p.chunk(f, m, kind)
	case "error":
		p.errorEvent(f, m, kind)
	case "final":
		p.final(f, m, kind)
	default:
		if leakedKind(kind) {
			m.Raise("internal-leak", invariants.SevError, "kind %s is a raw provider event type; public streams are derived-only", decode.Clip(labelOf(kind), 60))
			return
		}
		m.Unknown = true
	}
}

// item checks the output_index and item_id every item-scoped event carries
// (the schema's PublicSseItemEventBase).
func (p *mapper) item(f *decode.Frame) {
	p.faults.wantInt(f.Get("output_index"), "output_index")
	p.faults.want(f.Get("item_id"), decode.KindString, "item_id")
}

// outputItem: output_item.added opens the item span, .done closes it, by
// item_id.
func (p *mapper) outputItem(f *decode.Frame, m *invariants.Mapping, kind decode.Raw) {
	p.item(f)
	typ := f.Get("item_type")
	p.faults.want(typ, decode.KindString, "item_type")
	id := f.Get("item_id")
	if id.Kind() != decode.KindString {
		return
	}
	if kind.StrEq("output_item.added") {
		m.Add(invariants.Move{Kind: invariants.MoveSpanOpen, Span: invariants.SpanItem, Key: id, Name: typ})
		return
	}
	p.closeEmptyParts(m, id)
	m.Add(invariants.Move{Kind: invariants.MoveSpanClose, Span: invariants.SpanItem, Key: id})
}

// summaryPart: reasoning_summary.part.added opens a reasoning span keyed by
// summary_index, .part.done closes it.
func (p *mapper) summaryPart(f *decode.Frame, m *invariants.Mapping, kind decode.Raw) {
	p.item(f)
	si := f.Get("summary_index")
	p.faults.wantInt(si, "summary_index")
	added := kind.StrEq("reasoning_summary.part.added")
	if !added {
		p.faults.want(f.Get("text"), decode.KindString, "text")
	}
	if _, ok := invariants.Int(si); !ok {
		return
	}
	key := p.partKey(f, si)
	p.notePart(f, key, added)
	if added {
		m.Add(invariants.Move{Kind: invariants.MoveSpanOpen, Span: invariants.SpanReasoning, Key: key, Name: f.Get("part_type")})
		return
	}
	m.Add(invariants.Move{Kind: invariants.MoveSpanClose, Span: invariants.SpanReasoning, Key: key})
}

// partKey is a summary part's key: its summary_index, after the run it
// belongs to when the stream carries more than one run at a time. The
// projector keeps one projection state per scope (an agent tool's nested
// run, v1.md §6.2.1; public_stream_projector/projector.py
// _state_for_scope), and the nested runs of parallel agent tools share one
// queue (domain/ai/stream_bus.py); the branches of a parallel workflow
// stage stream at once into one projector (services/workflows/streaming.py
// stream_parallel_stage), told apart by workflow.branch_index. Each run
// numbers its parts from 0.
func (p *mapper) partKey(f *decode.Frame, si decode.Raw) decode.Raw {
	call := inner(f.Get("scope").Get("tool_call_id"))
	wf := f.Get("workflow")
	branch := wf.Get("branch_index")
	if branch.Kind() != decode.KindNumber {
		branch = nil
	}
	if len(call) == 0 && branch == nil {
		return si
	}
	p.key = append(p.key[:0], '"')
	if branch != nil {
		p.key = append(p.key, inner(wf.Get("parallel_group"))...)
		p.key = append(p.key, '/')
		p.key = append(p.key, branch...)
		p.key = append(p.key, '#')
	}
	if len(call) > 0 {
		p.key = append(p.key, call...)
		p.key = append(p.key, '#')
	}
	p.key = append(p.key, si...)
	p.key = append(p.key, '"')
	return decode.Raw(p.key)
}

// chunk: a chunk stream is keyed by its target; its first chunk.delta opens
// it, chunk.done closes it, and chunk_index counts from 0 within it.
func (p *mapper) chunk(f *decode.Frame, m *invariants.Mapping, kind decode.Raw) {
	p.item(f)
	fs := &p.faults
	target := f.Get("target")
	if target.Kind() != decode.KindObject {
		fs.add("target", target, "an object")
		return
	}
	if !kind.StrEq("chunk.delta") {
		m.Add(invariants.Move{Kind: invariants.MoveSpanClose, Span: invariants.SpanStream, Key: target})
		return
	}
	idx := f.Get("chunk_index")
	n, ok := invariants.Int(idx)
	if ok = ok && n >= 0; !ok {
		fs.add("chunk_index", idx, "an integer from 0")
	}
	fs.want(f.Get("data"), decode.KindString, "data")
	if _, open := m.SpanName(invariants.SpanStream, target); !open {
		m.Add(invariants.Move{Kind: invariants.MoveSpanOpen, Span: invariants.SpanStream, Key: target, Name: target.Get("field")})
	}
	if ok {
		m.Add(invariants.Move{Kind: invariants.MoveSeq, Key: target, Seq: n, SeqFrom: 0, SeqGap: string(invariants.SevError)})
	}
}
