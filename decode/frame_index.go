package decode

import "bytes"

// The frame index: decodeMembers resolves, once per frame, where the keys
// the PC3 checker and the inspector read sit among the top-level members,
// and which event type and version the envelope names. The accessors then
// read a slot instead of comparing every member's key once per lookup, and
// Type, IsV04 and StrEq against the event type cost a byte compare.

// Slots of the top-level keys read by the payload accessors.
const (
	slotChunk = iota
	slotToolCall
	slotData
	slotError
	slotIsFinal
	slotEpisodeID
	slotInputTokens
	slotOutputTokens
	slotTotalTokens
	slotReasoningTokens
	slotCachedTokens
	numSlots
)

// Versions the index tells apart.
const (
	verOther uint8 = iota // absent, not a string, or another label
	verV04
	verV05
)

// frameIndex is the per-frame index. The zero value means "not indexed":
// lookups then scan the members (a Frame built by hand).
type frameIndex struct {
	ok bool
	// slot[k] is where the value of the last member with slot k's key
	// lies in Data (end 0: absent). Offsets, not members: reading a slot
	// touches the frame and its data, never the Members array (a cache
	// miss per frame on the checking core).
	slot [numSlots]valSpan
	// typ is 1 + the position in typeNames of the decoded event_type
	// string (0: absent, not a string, or outside the vocabulary).
	typ uint8
	ver uint8
	// escKeys: a member key has escapes, so the index is built after the
	// scan from the decoded keys (indexMembers).
	escKeys bool
}

// valSpan is a value's position in the frame's Data.
type valSpan struct{ off, end uint32 }

// typeNames is the vocabulary the index interns, in slot order.
var typeNames = [...]string{
	TypeResponseID, TypeEpisode, TypeThinking, TypeReasoning, TypeText,
	TypeToolCall, TypeToolCompleted, TypeDataLoading, TypeDataLoaded,
	TypeComponent, TypeUsage, TypeStatus, TypeError, TypeCompleted,
	TypeCancelled, TypeMCPListToolsStart, TypeMCPListToolsDone,
	TypeMCPSessionStart, TypeMCPSessionProg, TypeSupportContent,
}

// keySlot maps a decoded top-level key to its slot (-1: none), comparing
// the length first.
func keySlot(k []byte) int {
	switch len(k) {
	case 4:
		if string(k) == "data" {
			return slotData
		}
	case 5:
		switch string(k) {
		case "chunk":
			return slotChunk
		case "error":
			return slotError
		}
	case 8:
		if string(k) == "is_final" {
			return slotIsFinal
		}
	case 9:
		if string(k) == "tool_call" {
			return slotToolCall
		}
	case 10:
		if string(k) == "episode_id" {
			return slotEpisodeID
		}
	case 12:
		switch string(k) {
		case "input_tokens":
			return slotInputTokens
		case "total_tokens":
			return slotTotalTokens
		}
	case 13:
		switch string(k) {
		case "output_tokens":
			return slotOutputTokens
		case "cached_tokens":
			return slotCachedTokens
		}
	case 16:
		if string(k) == "reasoning_tokens" {
			return slotReasoningTokens
		}
	}
	return -1
}

// keySlotString is keySlot for a key given as a string.
func keySlotString(key string) int {
	switch key {
	case "data":
		return slotData
	case "chunk":
		return slotChunk
	case "error":
		return slotError
	case "is_final":
		return slotIsFinal
	case "tool_call":
		return slotToolCall
	case "episode_id":
		return slotEpisodeID
	case "input_tokens":
		return slotInputTokens
	case "total_tokens":
		return slotTotalTokens
	case "output_tokens":
		return slotOutputTokens
	case "cached_tokens":
		return slotCachedTokens
	case "reasoning_tokens":
		return slotReasoningTokens
	}
	return -1
}

// internType returns 1 + the position of the decoded string value r in
// typeNames (0 when r is not a string of the vocabulary).
func internType(r Raw) uint8 {
	if len(r) < 2 || r[0] != '"' {
		return 0
	}
	in := r[1 : len(r)-1]
	if bytes.IndexByte(in, '\\') >= 0 {
		in = []byte(unquote(r))
	}
	for i, name := range typeNames {
		if len(name) == len(in) && name == string(in) {
			return uint8(i + 1)
		}
	}
	return 0
}

func internVersion(r Raw) uint8 {
	switch {
	case r.StrEq("0.5"):
		return verV05
	case r.StrEq("0.4"):
		return verV04
	}
	return verOther
}

// indexMembers sets the envelope fields and the index from the decoded
// members, in one pass: the last member of a key wins.
func (f *Frame) indexMembers() {
	f.idx = frameIndex{}
	slots := len(f.Data) < 1<<32-1
	for i := range f.Members {
		m := &f.Members[i]
		k := m.Key
		if m.KeyEsc {
			k = []byte(unquote(append(append([]byte{'"'}, k...), '"')))
		}
		switch len(k) {
		case 7:
			if string(k) == "version" {
				f.Version = m.Value
				continue
			}
		case 9:
			if string(k) == "timestamp" {
				f.Timestamp = m.Value
				continue
			}
		case 10:
			if string(k) == "event_type" {
				f.EventType = m.Value
				continue
			}
		case 11:
			if string(k) == "response_id" {
				f.ResponseID = m.Value
				continue
			}
		}
		if slots {
			if s := keySlot(k); s >= 0 {
				off := cap(f.Data) - cap(m.Value) // Value is a subslice of Data
				f.idx.slot[s] = valSpan{uint32(off), uint32(off + len(m.Value))}
			}
		}
	}
	if slots {
		f.idx.typ = internType(f.EventType)
		f.idx.ver = internVersion(f.Version)
		f.idx.ok = true
	}
}

// note records a member while the scanner has it at hand: data[off:end]
// is the value of member index m. A key with escapes is left to
// finishIndex.
func (f *Frame) note(k []byte, esc bool, off, end, m int) {
	if esc {
		f.idx.escKeys = true
		return
	}
	v := Raw(f.Data[off:end])
	switch len(k) {
	case 7:
		if string(k) == "version" {
			f.Version = v
			return
		}
	case 9:
		if string(k) == "timestamp" {
			f.Timestamp = v
			return
		}
	case 10:
		if string(k) == "event_type" {
			f.EventType = v
			return
		}
	case 11:
		if string(k) == "response_id" {
			f.ResponseID = v
			return
		}
	}
	if s := keySlot(k); s >= 0 {
		f.idx.slot[s] = valSpan{uint32(off), uint32(end)}
	}
}

// finishIndex completes the index the scan noted (or builds it again
// from the decoded keys when one had escapes).
func (f *Frame) finishIndex() {
	if f.idx.escKeys || len(f.Data) >= 1<<32-1 {
		f.EventType, f.Version, f.Timestamp, f.ResponseID = nil, nil, nil, nil
		f.indexMembers()
		return
	}
	f.idx.typ = internType(f.EventType)
	f.idx.ver = internVersion(f.Version)
	f.idx.ok = true
}

// slotValue is the value of slot s's key (nil when absent).
func (f *Frame) slotValue(s int) Raw {
	if !f.idx.ok {
		return f.scanGet(slotKeys[s])
	}
	if sp := f.idx.slot[s]; sp.end != 0 {
		return Raw(f.Data[sp.off:sp.end:sp.end])
	}
	return nil
}

var slotKeys = [numSlots]string{
	slotChunk: "chunk", slotToolCall: "tool_call", slotData: "data", slotError: "error",
	slotIsFinal: "is_final", slotEpisodeID: "episode_id", slotInputTokens: "input_tokens",
	slotOutputTokens: "output_tokens", slotTotalTokens: "total_tokens",
	slotReasoningTokens: "reasoning_tokens", slotCachedTokens: "cached_tokens",
}

// scanGet looks key up member by member (the last one wins).
func (f *Frame) scanGet(key string) Raw {
	var v Raw
	for i := range f.Members {
		m := &f.Members[i]
		if keyEquals(m.Key, m.KeyEsc, key) {
			v = m.Value
		}
	}
	return v
}

// TypeIs reports whether the frame's event_type is the string name, without
// decoding it again when the index knows it.
func (f *Frame) TypeIs(name string) bool {
	if f.idx.ok {
		if f.idx.typ != 0 {
			return typeNames[f.idx.typ-1] == name
		}
		if internTypeName(name) {
			return false // a vocabulary name would have been interned
		}
	}
	return f.EventType.StrEq(name)
}

func internTypeName(name string) bool {
	for _, n := range typeNames {
		if n == name {
			return true
		}
	}
	return false
}

// IsV05 reports whether the frame is labelled version "0.5" (escapes
// decoded, as IsV04).
func (f *Frame) IsV05() bool {
	if f.idx.ok {
		return f.idx.ver == verV05
	}
	return f.Version.StrEq("0.5")
}
