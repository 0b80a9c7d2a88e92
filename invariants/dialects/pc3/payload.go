package pc3

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"

	"framescope/decode"
	"framescope/invariants"
)

// errorCodes is the §5.7 taxonomy: codes on error frames plus the v0.4
// cancellation codes.
var errorCodes = []string{
	"INTERNAL_ERROR", "RATE_LIMIT_ERROR", "SUB_AGENT_FAILED", "CCS_ENVELOPE_ERROR",
	"PARTIAL_FAN_OUT", "IDLE_TIMEOUT", "REQUEST_CANCELLED",
}

// errorCodeBytes is errorCodes as bytes, searched for in text chunks.
var errorCodeBytes = func() [][]byte {
	b := make([][]byte, len(errorCodes))
	for i, c := range errorCodes {
		b[i] = []byte(c)
	}
	return b
}()

// ccsReasons is the PS6 reason enum an Axis-2 error composes from.
var ccsReasons = map[string]bool{
	"upstream_unavailable": true, "upstream_timeout": true, "upstream_partial": true,
	"unauthorized": true, "invalid_request": true,
}

func knownErrorCode(code string) bool {
	for _, c := range errorCodes {
		if c == code {
			return true
		}
	}
	return false
}

func (c *Checker) checkPayload(f *decode.Frame, t *turnState, open bool) {
	idx := f.Index
	switch Type(f) {
	case TypeResponseID:
		if open {
			turn := c.turn(t)
			switch {
			case t.sawRIDFrame:
				c.raise("response-id-frame", invariants.SevWarn, idx, "repeated response_id frame")
			case turn.FirstFrame != idx:
				c.raise("response-id-frame", invariants.SevWarn, idx, "the response_id frame is not the turn's first frame (the turn began at frame %d)", turn.FirstFrame)
			}
			t.sawRIDFrame = true
		}

	case TypeText, TypeReasoning:
		chunk := Chunk(f)
		ok := chunk.Kind() == decode.KindString
		// The chunk is searched as it is on the wire unless a \u escape
		// could spell a code's letter or underscore: other escapes never
		// make or break one.
		var s []byte
		escaped := false
		if ok {
			s = chunk[1 : len(chunk)-1]
			escaped = bytes.IndexByte(s, '\\') >= 0
			if escaped && bytes.Contains(s, []byte(`\u`)) {
				c.scratch, _ = chunk.AppendStr(c.scratch[:0])
				s = c.scratch
			}
		}
		if ok && c.timedNow { // timeFrame recorded the frame without them
			n := len(chunk) - 2 // ASCII without escapes: a byte is a character
			if escaped || !f.ASCII {
				n = invariants.ContentChars(chunk)
			}
			t.timing.AddChars(n)
			c.counted.Chars += n
		}
		if !ok {
			what := "missing"
			if chunk != nil {
				what = "not a string"
			}
			c.raise("text-malformed", invariants.SevError, idx, "%s frame's chunk is %s", Type(f), what)
		}
		if Type(f) == TypeText {
			if ok && bytes.IndexByte(s, '_') >= 0 { // every code has one
				for i, code := range errorCodes {
					if len(s) >= len(code) && bytes.Contains(s, errorCodeBytes[i]) {
						c.raise("error-code-in-text", invariants.SevWarn, idx, "text chunk shows the error code %s to the user", code)
						break
					}
				}
			}
			if open {
				t.sawText = true
			}
		}

	case TypeEpisode:
		if _, ok := f.Get("episode_id").NonEmptyStr(); !ok {
			c.raise("episode-malformed", invariants.SevWarn, idx, "episode frame without a non-empty episode_id")
		}

	case TypeUsage:
		c.checkUsage(f)

	case TypeStatus:
		c.checkStatus(f)

	case TypeToolCall, TypeToolCompleted:
		c.checkTool(f, t, open)

	case TypeDataLoading, TypeDataLoaded:
		c.checkData(f, t, open)

	case TypeComponent:
		var missing []string
		if Chunk(f) == nil {
			missing = append(missing, "chunk")
		}
		if f.Get("tool_call") == nil {
			missing = append(missing, "tool_call")
		}
		if len(missing) > 0 {
			c.raise("component-malformed", invariants.SevError, idx, "component frame without %s", strings.Join(missing, " and "))
		}
		if where := findEnvelope(Chunk(f)); where != "" {
			c.raise("envelope-leak", invariants.SevError, idx, "component chunk carries PS6 envelope metadata: %s", where)
		}

	case TypeError:
		c.checkError(f, t, open)

	case TypeCancelled:
		e := ErrorInfoOf(f)
		switch {
		case !e.HasCode:
			c.raise("cancel-code", invariants.SevError, idx, "cancelled frame without an error.code string")
		case e.Code != "IDLE_TIMEOUT" && e.Code != "REQUEST_CANCELLED":
			c.raise("cancel-code", invariants.SevError, idx, "cancelled frame's error.code %q is not IDLE_TIMEOUT or REQUEST_CANCELLED", decode.Clip(e.Code, 40))
		}
	}
}

func (c *Checker) checkUsage(f *decode.Frame) {
	u := UsageOf(f)
	var bad []string
	count := func(name string, v decode.Raw, required bool) (int64, bool) {
		if v == nil {
			if required {
				bad = append(bad, name+" missing")
			}
			return 0, false
		}
		n, ok := v.Int()
		if !ok || n < 0 {
			bad = append(bad, name+" is "+decode.Clip(string(v), 30)+", not a non-negative integer")
			return 0, false
		}
		return n, true
	}
	in, okIn := count("input_tokens", u.Input, true)
	out, okOut := count("output_tokens", u.Output, true)
	total, okTotal := count("total_tokens", u.Total, true)
	count("reasoning_tokens", u.Reasoning, false)
	count("cached_tokens", u.Cached, false)
	if okIn && okOut && okTotal && total != in+out {
		bad = append(bad, "total_tokens "+itoa(total)+" ≠ input_tokens + output_tokens = "+itoa(in+out))
	}
	if len(bad) > 0 {
		c.raise("usage-malformed", invariants.SevWarn, f.Index, "usage: %s", strings.Join(bad, "; "))
	}
}

func (c *Checker) checkStatus(f *decode.Frame) {
	idRaw, msgRaw := StatusViewOf(f)
	hasEventID, hasMessage := idRaw.IsNonEmptyStr(), msgRaw.IsNonEmptyStr()
	if !hasEventID || !hasMessage {
		var missing []string
		if !hasEventID {
			missing = append(missing, "data.event_id")
		}
		if !hasMessage {
			missing = append(missing, "data.message")
		}
		c.raise("status-malformed", invariants.SevError, f.Index, "status frame without a non-empty %s", strings.Join(missing, " or "))
	}
	if !hasEventID {
		return
	}
	id, _ := idRaw.StrBytes() // the frame's bytes: copied only for a message
	if !isStatusID(id) {
		c.raise("status-prose", invariants.SevError, f.Index, "data.event_id %q is prose, not a registry identifier", decode.Clip(string(id), 60))
	}
	if reg, _ := c.opts.Registry.(*Registry); reg != nil {
		eventID := string(id)
		e, ok := reg.Lookup(eventID)
		switch {
		case !ok:
			c.raise("status-unregistered", invariants.SevError, f.Index, "data.event_id %q is not in the registry", decode.Clip(eventID, 60))
		default:
			if e.Lifecycle == "deprecated" {
				c.raise("status-deprecated", invariants.SevWarn, f.Index, "the registry marks %q deprecated (%s)", eventID, e.File)
			}
			if e.Policy == "suppress" {
				c.raise("status-suppressed", invariants.SevWarn, f.Index, "the registry's policy for %q is suppress, yet it reached the wire (%s)", eventID, e.File)
			}
		}
	}
}

// isStatusID matches StatusIDPattern — dot-separated segments of a
// lowercase letter then lowercase letters, digits and underscores —
// without the regexp engine (one status frame in a few of every turn).
func isStatusID(b []byte) bool {
	segStart := true
	for _, ch := range b {
		switch {
		case ch >= 'a' && ch <= 'z':
			segStart = false
		case segStart:
			return false
		case ch >= '0' && ch <= '9' || ch == '_':
		case ch == '.':
			segStart = true
		default:
			return false
		}
	}
	return len(b) > 0 && !segStart
}

func (c *Checker) checkTool(f *decode.Frame, t *turnState, open bool) {
	tc := ToolCallViewOf(f)
	if !tc.Valid {
		what := "missing"
		if tc.Present {
			what = "lacks a non-empty string id, name or type"
		}
		c.raise("tool-malformed", invariants.SevError, f.Index, "%s frame's tool_call %s", Type(f), what)
	}
	id, _ := tc.ID.StrBytes() // views of the frame: copied only when kept
	if !open || len(id) == 0 || !tc.ID.IsNonEmptyStr() {
		return
	}
	name, _ := tc.Name.StrBytes()
	typ, _ := tc.Type.StrBytes()
	if !tc.Name.IsNonEmptyStr() {
		name = nil
	}
	if !tc.Type.IsNonEmptyStr() {
		typ = nil
	}
	if t.tools == nil {
		t.tools = make(map[string]int32)
	}
	at, seen := t.tools[string(id)]
	if TypeIs(f, TypeToolCall) {
		if seen {
			c.raise("tool-duplicate", invariants.SevError, f.Index, "tool_call id %q already used at frame %d", decode.Clip(string(id), 60), t.toolList[at].frame)
			return
		}
		if !c.admitID(f, t, "tool_call", id) {
			return
		}
		t.forgetFinishedTools()
		ids := string(id)
		t.tools[ids] = int32(len(t.toolList))
		t.toolList = append(t.toolList, toolState{id: ids, name: c.intern(name), typ: c.intern(typ), frame: f.Index})
		return
	}
	if !seen && t.idLimited {
		return // perhaps one of the untracked
	}
	if !seen {
		c.raise("tool-orphan", invariants.SevError, f.Index, "tool_completed %q has no earlier tool_call in the turn", decode.Clip(string(id), 60))
		return
	}
	prev := &t.toolList[at]
	var diff []string
	if len(name) > 0 && prev.name != "" && string(name) != prev.name {
		diff = append(diff, "name "+quote(string(name))+" ≠ "+quote(prev.name))
	}
	if len(typ) > 0 && prev.typ != "" && string(typ) != prev.typ {
		diff = append(diff, "type "+quote(string(typ))+" ≠ "+quote(prev.typ))
	}
	if len(diff) > 0 {
		c.raise("tool-mismatch", invariants.SevError, f.Index, "tool_completed %q differs from its tool_call at frame %d: %s",
			decode.Clip(string(id), 60), prev.frame, strings.Join(diff, ", "))
	}
	if !prev.done {
		t.openIDs--
	}
	prev.done = true
}

func (c *Checker) checkData(f *decode.Frame, t *turnState, open bool) {
	d := DataViewOf(f)
	loaded := TypeIs(f, TypeDataLoaded)
	hasID, hasType := d.ID.IsNonEmptyStr(), d.Type.IsNonEmptyStr()
	var bad []string
	if d.Raw.Kind() != decode.KindObject {
		bad = append(bad, "no data object")
	} else {
		if !hasID {
			bad = append(bad, "no data.id")
		}
		if !hasType {
			bad = append(bad, "no data.type")
		}
		if loaded && d.ItemCount < 0 {
			bad = append(bad, "data.items is not an array")
		}
	}
	if len(bad) > 0 {
		c.raise("component-malformed", invariants.SevError, f.Index, "%s: %s", Type(f), strings.Join(bad, ", "))
	}
	if where := findEnvelope(d.Raw); where != "" {
		c.raise("envelope-leak", invariants.SevError, f.Index, "%s carries PS6 envelope metadata: %s", Type(f), where)
	}
	if !open || !hasID {
		return
	}
	id, _ := d.ID.StrBytes()
	var typ []byte
	if hasType {
		typ, _ = d.Type.StrBytes()
	}
	if t.comps == nil {
		t.comps = make(map[string]int32)
	}
	at, seen := t.comps[string(id)]
	if !loaded {
		if !seen && c.admitID(f, t, "data_loading", id) {
			t.forgetLoadedComps()
			ids := string(id)
			t.comps[ids] = int32(len(t.compList))
			t.compList = append(t.compList, compState{id: ids, typ: c.intern(typ), key: cloneRaw(d.Key), frame: f.Index})
		}
		return
	}
	if !seen && t.idLimited {
		return // perhaps one of the untracked
	}
	if !seen {
		c.raise("component-unannounced", invariants.SevWarn, f.Index, "data_loaded %q has no earlier data_loading", decode.Clip(string(id), 60))
		return
	}
	prev := &t.compList[at]
	var diff []string
	if hasType && prev.typ != "" && string(typ) != prev.typ {
		diff = append(diff, "type "+quote(string(typ))+" ≠ "+quote(prev.typ))
	}
	if d.Key != nil && prev.key != nil && !jsonEqual(d.Key, prev.key) {
		diff = append(diff, "key differs")
	}
	if len(diff) > 0 {
		c.raise("component-mismatch", invariants.SevWarn, f.Index, "data_loaded %q differs from its data_loading at frame %d: %s",
			decode.Clip(string(id), 60), prev.frame, strings.Join(diff, ", "))
	}
	if !prev.loaded {
		t.openIDs--
	}
	prev.loaded = true
}

func (c *Checker) checkError(f *decode.Frame, t *turnState, open bool) {
	idx := f.Index
	e := ErrorInfoOf(f)
	v05 := !IsV04(f)
	switch {
	case e.Error.Kind() != decode.KindObject:
		c.raise("error-malformed", invariants.SevError, idx, "error frame without an error object")
	case !e.HasCode || e.Code == "":
		c.raise("error-malformed", invariants.SevError, idx, "error frame without an error.code string")
	}
	if v05 && !e.HasIsFinal {
		what := "lacks"
		if f.Get("is_final") != nil {
			what = "has a non-boolean"
		}
		c.raise("error-is-final", invariants.SevError, idx, "v0.5 error frame %s is_final (FR-17); read as terminal", what)
	}
	if e.HasCode && e.Code != "" {
		code := e.Code
		if !knownErrorCode(code) {
			c.raise("error-code-unknown", invariants.SevWarn, idx, "error.code %q is outside the §5.7 taxonomy", decode.Clip(code, 40))
		}
		if v05 && (code == "IDLE_TIMEOUT" || code == "REQUEST_CANCELLED") {
			c.raise("error-legacy-cancel", invariants.SevWarn, idx, "v0.5 error frame carries %s; v0.5 signals cancellation with a cancelled frame", code)
		}
		c.checkErrorPayload(f, e)
		if (code == "CCS_ENVELOPE_ERROR" || code == "PARTIAL_FAN_OUT") && e.HasIsFinal && e.IsFinal {
			c.raise("error-terminality", invariants.SevWarn, idx, "%s is a non-terminal axis (followed by text + completed), yet is_final is true", code)
		}
	}
	if where := findErrorLeak(f); where != "" {
		c.raise("error-leak", invariants.SevError, idx, "error frame leaks %s", where)
	}
	if open && Terminal(f) == invariants.NotTerminal && t.firstSoftError < 0 {
		t.firstSoftError = idx
	}
}

func (c *Checker) checkErrorPayload(f *decode.Frame, e ErrorInfo) {
	idx := f.Index
	switch e.Code {
	case "SUB_AGENT_FAILED":
		if _, ok := e.Error.Get("sub_agent_id").NonEmptyStr(); !ok {
			c.raise("error-payload", invariants.SevError, idx, "SUB_AGENT_FAILED without error.sub_agent_id")
		}
	case "CCS_ENVELOPE_ERROR":
		_, okE := e.Error.Get("enricher_id").NonEmptyStr()
		reason, okR := e.Error.Get("reason").NonEmptyStr()
		if !okE || !okR {
			var missing []string
			if !okE {
				missing = append(missing, "enricher_id")
			}
			if !okR {
				missing = append(missing, "reason")
			}
			c.raise("error-payload", invariants.SevError, idx, "CCS_ENVELOPE_ERROR without error.%s", strings.Join(missing, " and error."))
		}
		if okR && !ccsReasons[reason] {
			c.raise("error-reason-unknown", invariants.SevWarn, idx, "CCS_ENVELOPE_ERROR reason %q is outside the PS6 enum", decode.Clip(reason, 40))
		}
	case "PARTIAL_FAN_OUT":
		failed := e.Error.Get("failed")
		if failed.Kind() != decode.KindArray || failed.Len() == 0 {
			c.raise("error-payload", invariants.SevError, idx, "PARTIAL_FAN_OUT without a non-empty error.failed array")
			return
		}
		n, bad := 0, -1
		vIt := failed.Elements()
		for v, ok := vIt.Next(); ok; v, ok = vIt.Next() {
			if !axisShaped(v) {
				bad = n
				break
			}
			n++
		}
		if bad >= 0 {
			c.raise("error-payload", invariants.SevError, idx, "PARTIAL_FAN_OUT error.failed[%d] is neither Axis-1 {sub_agent_id} nor Axis-2 {enricher_id, reason} shaped", bad)
		}
		// Axis-2 records inside the fan-out compose from the same PS6 enum.
		i := 0
		vIt2 := failed.Elements()
		for v, more := vIt2.Next(); more; v, more = vIt2.Next() {
			if reason, ok := v.Get("reason").NonEmptyStr(); ok && !ccsReasons[reason] {
				c.raise("error-reason-unknown", invariants.SevWarn, idx, "PARTIAL_FAN_OUT error.failed[%d] reason %q is outside the PS6 enum", i, decode.Clip(reason, 40))
				break
			}
			i++
		}
	}
}

// axisShaped: an Axis-1 record names its sub-agent; an Axis-2 record its
// enricher and reason.
func axisShaped(v decode.Raw) bool {
	if v.Kind() != decode.KindObject {
		return false
	}
	if _, ok := v.Get("sub_agent_id").NonEmptyStr(); ok {
		return true
	}
	_, okE := v.Get("enricher_id").NonEmptyStr()
	_, okR := v.Get("reason").NonEmptyStr()
	return okE && okR
}

// jsonEqual compares two JSON values by meaning (member order and
// whitespace do not matter). Both absent is equal.
func jsonEqual(a, b decode.Raw) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	if bytes.Equal(a, b) {
		return true
	}
	var va, vb any
	if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
		return false
	}
	return reflect.DeepEqual(va, vb)
}

func cloneRaw(r decode.Raw) decode.Raw {
	if r == nil {
		return nil
	}
	return append(decode.Raw(nil), r...)
}

func quote(s string) string { return `"` + decode.Clip(s, 40) + `"` }

func itoa(n int64) string {
	var b [20]byte
	i := len(b)
	neg := n < 0
	if neg {
		n = -n
	}
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			break
		}
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}
