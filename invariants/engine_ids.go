package invariants

import "fmt"

// A turn tracks its open ids (spans: messages, blocks, items, steps,
// streams; tool calls) so that a delta, close or result can be matched to
// its open. A stream that opens a new id in every frame and never closes
// one would grow that state, and the alarms its end raises about each, by
// the frame (issue 24, item 3). So a turn tracks at most MaxOpenIDs open
// ids at once: the open that would pass the bound raises id-limit, once
// per turn, and that id and the later new ones are counted, not tracked;
// a delta, close or result for an id the turn does not know is then no
// orphan (it may be one of the uncounted), and its unclosed ids are
// reported for the tracked ones only. Real streams keep a handful open at
// once (parallel tool calls, an item and its content part): a thousand is
// far past any of them.
const MaxOpenIDs = 1024

// maxFinishedTools is how many finished tool calls a turn remembers to
// catch the reuse of an id (tool-duplicate, in dialects whose tool ids are
// unique in a turn); past it, the finished ones are forgotten (a reuse of
// one of them is then not seen) so that a long agent turn of many calls
// stays bounded. Closed spans are forgotten at once: a reopen is allowed,
// and a delta or close for a closed span is an orphan as for an unknown one.
const maxFinishedTools = 16 << 10

// idLimitRule is the generic rule raised when a turn passes MaxOpenIDs.
const idLimitRule = "id-limit"

// idBound is the part of a turn's state that counts its open ids.
type idBound struct {
	liveSpans int // spans open (the others are deleted)
	openTools int // tool calls open
	// saturated: the turn passed MaxOpenIDs (id-limit raised); untracked
	// counts the opens not tracked since.
	saturated bool
	untracked int
}

// admit reports whether turn t may track one more open id; the first
// refusal raises id-limit. what names the id for the message.
func (e *Engine) admit(w where, t int, st *turnState, what string) bool {
	if st.liveSpans+st.openTools < MaxOpenIDs {
		return true
	}
	st.untracked++
	e.saturate(w.idx, t, st, what)
	return false
}

// saturate raises id-limit for turn t once.
func (e *Engine) saturate(frame, t int, st *turnState, what string) {
	if st != nil {
		if st.saturated {
			return
		}
		st.saturated = true
	} else {
		if e.idLimitStream {
			return
		}
		e.idLimitStream = true
	}
	e.raise(idLimitRule, SevWarn, frame, t, "%s opens an id past the %s open at once framescope tracks in a turn; later ids are counted, not checked",
		what, fmt.Sprint(MaxOpenIDs))
}

// unknownOK reports whether a delta, close or result for an id the turn
// does not know passes silently: the turn stopped tracking new ids.
func unknownOK(st *turnState) bool { return st.saturated }

// forgetSpan drops a closed span; its spanOrd entry goes stale and is
// swept when the stale entries outnumber the live ones.
func (st *turnState) forgetSpan(kind SpanKind, key string) {
	delete(st.spans[kind], key)
	if len(st.spanOrd) > 64 && len(st.spanOrd) > 2*st.liveSpans {
		st.sweepSpanOrd()
	}
}

// sweepSpanOrd keeps the spanOrd entries whose span is held and open, each
// once (a key closed and reopened is listed at its latest open).
func (st *turnState) sweepSpanOrd() {
	kept := st.spanOrd[:0]
	for i, k := range st.spanOrd {
		if s := st.spans[k.kind][k.key]; s != nil && s.open && s.ord == i {
			s.ord = len(kept)
			kept = append(kept, k)
		}
	}
	clear(st.spanOrd[len(kept):])
	st.spanOrd = kept
}

// liveSpan is the span a spanOrd entry i names, nil when it went stale.
func (st *turnState) liveSpan(i int) *spanState {
	k := st.spanOrd[i]
	if s := st.spans[k.kind][k.key]; s != nil && s.ord == i {
		return s
	}
	return nil
}

// forgetFinishedTools drops the finished tool calls once there are more
// than maxFinishedTools of them.
func (st *turnState) forgetFinishedTools() {
	if len(st.tools)-st.openTools <= maxFinishedTools {
		return
	}
	kept := st.toolOrd[:0]
	for _, id := range st.toolOrd {
		if ts := st.tools[id]; ts != nil && ts.open {
			kept = append(kept, id)
		} else {
			delete(st.tools, id)
		}
	}
	clear(st.toolOrd[len(kept):])
	st.toolOrd = kept
}

// IDLimit lets a mapper that keeps its own per-id state (a stream's
// checksum, a block's index) say it stopped tracking new ids at
// MaxOpenIDs: the turn's one id-limit alarm (what names the id, e.g.
// "stream.begin msg-2041"). The mapper then counts the ids it does not
// track and raises no orphan for an id it does not know.
func (m *Mapping) IDLimit(what string) {
	m.alarms = append(m.alarms, mappedAlarm{rule: idLimitRule, msg: what})
}
