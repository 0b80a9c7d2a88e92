package pc3

import (
	"fmt"
	"strconv"

	"framescope/decode"
	"framescope/invariants"
)

// Wording: the inspector shows PC3's frames in PC3's words
// (invariants.Worded) — each row by its event_type and a summary of its
// payload, placed by its envelope timestamp — while its rows, turns,
// tools, placeholders, statuses and text come from its moves (moves.go)
// like every dialect's.
func (pc3) Wording() *invariants.Wording { return &wording }

var wording = invariants.Wording{
	RowType:      rowType,
	Summary:      rowSummary,
	TypeWidth:    14, // tool_completed
	StampedRows:  true,
	TurnText:     true,
	ErrorsApart:  true,
	NoSpans:      "no placeholder or component yet",
	BareTerminal: true,
}

// rowType is the type a frame is listed under (sanitized).
func rowType(fr *decode.Frame) string {
	switch {
	case fr.Done:
		return "[DONE]"
	case !fr.Decoded():
		if fr.HasType {
			return decode.Sanitize(fr.Event.Type)
		}
		return ""
	}
	t := Type(fr) // a constant for the known types: no copy
	switch {
	case KnownType(t):
		return t
	case t != "":
		return decode.Sanitize(t)
	case EventType(fr) == nil:
		return "(no event_type)"
	}
	return decode.Sanitize(string(EventType(fr)))
}

// rowSummary is the one-line description of a frame (sanitized).
func rowSummary(fr *decode.Frame) string {
	switch {
	case fr == nil:
		return ""
	case fr.Done:
		return "end-of-stream sentinel"
	case fr.Oversized:
		return fmt.Sprintf("oversized event: %d bytes not kept", fr.Size)
	case !fr.Decoded():
		return fr.Problem.String() + ": " + decode.SafePrefix(fr.Data, 200)
	}
	return summarize(fr)
}

// summarize returns a decoded frame's one-line summary (sanitized).
func summarize(fr *decode.Frame) string {
	str := func(r decode.Raw) string {
		s, ok := r.Str()
		if !ok {
			return decode.SafePrefix(r, 80)
		}
		return decode.Sanitize(decode.Cut(s, 400))
	}
	switch Type(fr) {
	case TypeText, TypeReasoning:
		c := Chunk(fr)
		if c == nil {
			return "(no chunk)"
		}
		return str(c)
	case TypeToolCall, TypeToolCompleted:
		tc := ToolCallOf(fr)
		if !tc.Present {
			return "(no tool_call)"
		}
		return decode.Sanitize(tc.Name) + "  " + decode.Sanitize(tc.ID)
	case TypeComponent:
		tc := ToolCallOf(fr)
		s := decode.Sanitize(tc.Name) + "  " + decode.Sanitize(tc.ID)
		if c := Chunk(fr); c != nil {
			s += "  " + decode.SafePrefix(c, 120)
		}
		return s
	case TypeDataLoading, TypeDataLoaded:
		d := DataRefOf(fr)
		if d.Raw == nil {
			return "(no data)"
		}
		s := decode.Sanitize(d.ID) + "  " + decode.Sanitize(d.Type)
		if Type(fr) == TypeDataLoaded {
			if d.ItemCount >= 0 {
				s += fmt.Sprintf("  %d items", d.ItemCount)
			}
		} else if n := d.Key.Get("ids").Len(); n >= 0 {
			s += fmt.Sprintf("  %d ids", n)
		}
		return s
	case TypeStatus:
		st := StatusOf(fr)
		return decode.Sanitize(st.EventID) + "  " + decode.Sanitize(st.Message)
	case TypeError, TypeCancelled:
		e := ErrorInfoOf(fr)
		s := "(no error.code)"
		if e.HasCode {
			s = decode.Sanitize(e.Code)
		}
		if e.HasIsFinal {
			s += "  is_final=" + strconv.FormatBool(e.IsFinal)
		}
		if r, ok := e.Error.Get("reason").Str(); ok {
			s += "  reason=" + decode.Sanitize(r)
		}
		return s
	case TypeEpisode:
		return str(fr.Get("episode_id"))
	case TypeResponseID:
		return decode.Sanitize(RID(fr))
	case TypeUsage:
		u := UsageOf(fr)
		return "in " + decode.SafePrefix(u.Input, 20) + "  out " + decode.SafePrefix(u.Output, 20) + "  total " + decode.SafePrefix(u.Total, 20)
	case TypeThinking:
		if c := fr.Get("content"); c != nil {
			return str(c)
		}
		return ""
	case TypeCompleted:
		return "terminal"
	}
	return decode.SafePrefix([]byte(fr.PayloadExcerpt(400, &Excerpt)), 200)
}
