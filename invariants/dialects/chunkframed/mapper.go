package chunkframed

import (
	"bytes"
	"strconv"

	"framescope/decode"
	"framescope/invariants"
)

// mapper maps one stream's frames. Chunks and ends name only their
// message_id, so the mapper remembers each stream's correlation_group (its
// turn), its seq_no bookkeeping and its running checksum.
type mapper struct {
	streams   map[string]*stream // by message_id JSON literal
	free      []*live            // live parts of ended streams, for reuse
	lastGroup []byte             // the latest correlation_group a stream.begin named
	scratch   []byte             // a payload with JSON escapes, decoded
	sumBuf    []byte             // the hex checksum computed at stream.end
	// liveN counts the streams holding a live part (begun, not ended): at
	// invariants.MaxOpenIDs a new stream is not tracked (issue 24, item 3).
	liveN int
}

func newMapper() *mapper { return &mapper{streams: map[string]*stream{}} }

// noGroup is the turn of streams begun without a correlation_group before
// any group was named.
var noGroup = invariants.Lit("")

// seqGap: the seq_no of a stream must not skip (docs/dialects/chunk-framed.md: seq-gap is an
// error here; a lost chunk is a lost piece of the answer).
var seqGap = string(invariants.SevError)

func (p *mapper) Map(f *decode.Frame, m *invariants.Mapping) {
	// A JSON event key is compared with the SSE event: field by the Engine
	// (sse-event-mismatch) when both are sent.
	m.Type = f.Get("event")
	switch eventOf(f) {
	case evBegin:
		p.begin(f, m)
	case evChunk:
		p.chunk(f, m)
	case evEnd:
		p.end(f, m)
	default:
		m.Unknown = true
		m.Turn = groupOf(f)
	}
}

// groupOf returns a frame's correlation_group when it is a non-empty string.
func groupOf(f *decode.Frame) decode.Raw {
	if g := f.Get("correlation_group"); g.IsNonEmptyStr() {
		return g
	}
	return nil
}

// begin opens a stream in its correlation_group's turn. A begin without a
// group joins the latest group named (payload-malformed says it lacks one).
func (p *mapper) begin(f *decode.Frame, m *invariants.Mapping) {
	checkBegin(f, m)
	mid := f.Get("message_id")
	group := groupOf(f)
	switch {
	case group != nil:
		p.lastGroup = append(p.lastGroup[:0], group...)
	case len(p.lastGroup) > 0:
		group = p.lastGroup
	default:
		group = noGroup
	}
	m.Turn = group
	if !mid.IsNonEmptyStr() {
		return // nothing to key the stream by
	}
	st := p.streams[string(mid)]
	switch {
	case st == nil:
		if p.liveN >= invariants.MaxOpenIDs {
			m.IDLimit("stream.begin " + decode.Clip(string(mid), 60))
		} else if len(p.streams) < maxStreams {
			st = &stream{}
			p.streams[string(mid)] = st
			p.open(st, f, mid, group, 0)
		}
	case !st.ended() && bytes.Equal(st.group, group):
		// Still open in its group: the Engine raises span-duplicate on
		// the open move and the first stream goes on.
	case st.ended() && bytes.Equal(st.group, group):
		// Keys are unique in a group, even once their stream ended
		// (docs/dialects/chunk-framed.md); the Engine only knows open spans, so this one is
		// raised here. The begin then starts the stream again, so a whole
		// resent stream costs one alarm.
		m.Raise("span-duplicate", invariants.SevError, "stream.begin for message_id %s, already begun in correlation_group %s at frame %d and ended at frame %d: a message_id is unique in its group",
			quote(mid), quote(group), st.begin, st.endFrame)
		p.open(st, f, mid, group, st.gen+1)
	default:
		// The id was used in another group: a new stream under the same
		// id. Later chunks and ends belong to it (they carry no group).
		p.open(st, f, mid, group, st.gen+1)
	}
	mv := invariants.Move{Kind: invariants.MoveSpanOpen, Span: invariants.SpanStream, Key: mid}
	if mod := f.Get("modality"); mod.Kind() == decode.KindString {
		mv.Name = mod // the rendering slot: text, product_carousel, image…
	}
	m.Add(mv)
}

// open (re)starts the bookkeeping of stream st.
func (p *mapper) open(st *stream, f *decode.Frame, mid, group decode.Raw, gen int) {
	p.release(st)
	st.group = append(st.group[:0], group...)
	st.gen = gen
	st.seqKey = append(st.seqKey[:0], mid...)
	if gen > 0 {
		// A reused id gets a fresh seq_no scope: its chunks count from 1.
		st.seqKey = append(strconv.AppendInt(append(st.seqKey[:len(st.seqKey)-1], '#'), int64(gen), 10), '"')
	}
	st.seqName = append(append(append(st.seqName[:0], `"seq_no (`...), mid[1:len(mid)-1]...), `)"`...)
	st.begin, st.endFrame = f.Index, -1
	st.count, st.maxSeq = 0, 0
	st.expected = -1
	if n, ok := invariants.Int(f.Get("expected_chunks")); ok && n >= 0 {
		st.expected = n
	}
	st.live = p.newLive()
}

// chunk carries one piece of a stream's content.
func (p *mapper) chunk(f *decode.Frame, m *invariants.Mapping) {
	checkChunk(f, m)
	mid := f.Get("message_id")
	if !mid.IsNonEmptyStr() {
		m.Turn = groupOf(f)
		return
	}
	payload := f.Get("payload")
	text := textOf(payload)
	st := p.streams[string(mid)]
	if st == nil {
		// Never begun (or beyond the mapper's bound): the Engine raises
		// span-orphan on the text move when no such span is open.
		m.Turn = groupOf(f)
		m.Add(invariants.Move{Kind: invariants.MoveText, Span: invariants.SpanStream, Key: mid, Text: text})
		return
	}
	m.Turn = st.group
	if st.ended() {
		// No span move: the stream is closed, and span-orphan would say
		// it never opened.
		m.Raise("after-terminal", invariants.SevError, "stream.chunk for message_id %s after its stream.end at frame %d", quote(mid), st.endFrame)
		return
	}
	seqMove := invariants.Move{Kind: invariants.MoveSeq, Key: st.seqKey, Name: st.seqName, SeqFrom: 1, SeqGap: seqGap}
	seq, ok := invariants.Int(f.Get("seq_no"))
	if !ok {
		// payload-malformed already. The chunk was received (it counts)
		// but cannot be placed in seq_no order, so the checksum cannot be
		// verified.
		st.count++
		st.live.broken = true
		m.Add(invariants.Move{Kind: invariants.MoveText, Span: invariants.SpanStream, Key: mid, Text: text})
		return
	}
	seqMove.Seq = seq
	var b []byte
	b, p.scratch = strBytes(payload, p.scratch)
	fp := fingerprint(b)
	if payload.Kind() != decode.KindString {
		fp ^= 2 // never equal to a string's payload of the same bytes
	}
	if old, seen := st.live.seen(seq); seen {
		if old == fp {
			// A bus redelivery: counted once, not a sequence fault, and a
			// client that de-duplicates by seq_no shows nothing new.
			m.Raise(ruleRedelivered, invariants.SevInfo, "stream.chunk seq_no %d of message_id %s again with the same payload: a redelivery, counted once", seq, quote(mid))
			return
		}
		m.Add(seqMove) // the Engine: seq-order (a repeated value)
		return
	}
	if seq > maxTracked && seq <= st.maxSeq {
		// Beyond the fingerprint table a repeat cannot be told from a
		// redelivery: it is a sequence fault as the Engine sees it.
		m.Add(seqMove)
		return
	}
	m.Add(seqMove)
	if seq >= 1 {
		st.live.record(seq, fp)
		st.count++
		st.maxSeq = max(st.maxSeq, seq)
		if payload.Kind() == decode.KindString {
			st.live.add(seq, b)
		} else {
			st.live.broken = true // no payload string to hash
		}
	}
	m.Add(invariants.Move{Kind: invariants.MoveText, Span: invariants.SpanStream, Key: mid, Text: text})
}

// end closes a stream and settles its count and checksum.
func (p *mapper) end(f *decode.Frame, m *invariants.Mapping) {
	fin, finOK := f.Get("final").Bool()
	final := !finOK || fin // an absent or malformed final reads as a normal end
	checkEnd(f, m, final)
	mid := f.Get("message_id")
	if !mid.IsNonEmptyStr() {
		m.Turn = groupOf(f)
		return
	}
	st := p.streams[string(mid)]
	if st == nil {
		m.Turn = groupOf(f)
		m.Add(invariants.Move{Kind: invariants.MoveSpanClose, Span: invariants.SpanStream, Key: mid}) // the Engine: span-orphan
		return
	}
	m.Turn = st.group
	if st.ended() {
		m.Raise("after-terminal", invariants.SevError, "stream.end for message_id %s after its stream.end at frame %d", quote(mid), st.endFrame)
		return
	}
	m.Add(invariants.Move{Kind: invariants.MoveSpanClose, Span: invariants.SpanStream, Key: mid})
	st.endFrame = f.Index
	defer p.release(st)
	if !final {
		m.Raise(rulePartial, invariants.SevWarn, "stream.end for message_id %s with final: false after %s: the agent stopped and the client shows a partial result", quote(mid), invariants.Plural(int(st.count), "chunk"))
		return
	}
	if total, ok := invariants.Int(f.Get("total_chunks")); ok {
		if total != st.count {
			m.Raise(ruleCount, invariants.SevError, "stream.end for message_id %s says total_chunks %d, but %s received (highest seq_no %d)", quote(mid), total, plural(int(st.count), "chunk was", "chunks were"), st.maxSeq)
		}
		if st.expected >= 0 && total != st.expected {
			m.Raise(ruleExpected, invariants.SevInfo, "stream.end for message_id %s has total_chunks %d; its stream.begin (frame %d) expected %d", quote(mid), total, st.begin, st.expected)
		}
	}
	if sum := f.Get("checksum"); sum.Kind() == decode.KindString && !st.live.broken {
		p.sumBuf = st.live.sum(p.sumBuf)
		if !checksumEq(sum, p.sumBuf) {
			s, _ := sum.Str()
			how := ""
			if bytes.EqualFold([]byte(s), p.sumBuf) {
				how = " (same digest, but not lowercase hex)"
			}
			m.Raise(ruleChecksum, invariants.SevError, "stream.end for message_id %s has checksum %q; the SHA-256 of its %d payloads in seq_no order is %s%s",
				quote(mid), decode.Clip(s, 80), st.count, p.sumBuf, how)
		}
	}
}

// checksumEq compares a JSON string with the computed lowercase hex digest
// without allocating when the string has no escapes.
func checksumEq(sum decode.Raw, hexSum []byte) bool {
	if bytes.IndexByte(sum, '\\') < 0 {
		return bytes.Equal(sum[1:len(sum)-1], hexSum)
	}
	s, _ := sum.Str()
	return s == string(hexSum)
}

// textOf is a chunk's payload as the text of its stream (nil unless a
// JSON string: the move's Text is a string).
func textOf(payload decode.Raw) decode.Raw {
	if payload.Kind() == decode.KindString {
		return payload
	}
	return nil
}

// strBytes returns the UTF-8 bytes a JSON string stands for: the literal's
// inside when it has no escapes (no copy), else decoded into scratch. Any
// other value is returned as written.
func strBytes(r decode.Raw, scratch []byte) ([]byte, []byte) {
	if r.Kind() != decode.KindString {
		return r, scratch
	}
	in := r[1 : len(r)-1]
	if bytes.IndexByte(in, '\\') < 0 {
		return in, scratch
	}
	scratch, _ = r.AppendStr(scratch[:0])
	return scratch, scratch
}

// quote renders a key for a message (only called when raising).
func quote(r decode.Raw) string {
	if s, ok := r.Str(); ok {
		return strconv.Quote(decode.Clip(s, 60))
	}
	return decode.Clip(string(r), 60)
}

// plural picks the singular or plural phrase of a count: "1 chunk was".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
