package pc3

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"framescope/decode"
	"framescope/invariants"
)

// mkFrame builds a decoded frame with a valid envelope.
func mkFrame(typ, version, rid, extra string) *decode.Frame {
	data := fmt.Sprintf(`{"event_type":%q,"version":%q,"timestamp":"2026-05-15T18:00:00.000Z","response_id":%q`, typ, version, rid)
	if extra != "" {
		data += "," + extra
	}
	data += "}"
	e := decode.Event{Type: typ, HasType: true, Data: []byte(data), HasData: true}
	return indexedFrame(&e, 0)
}

// withRID is f decoded again with its response_id r1 replaced by rid.
func withRID(f *decode.Frame, rid string) *decode.Frame {
	e := f.Event.Clone()
	e.Data = []byte(strings.Replace(string(e.Data), `"response_id":"r1"`, `"response_id":`+strconv.Quote(rid), 1))
	return indexedFrame(&e, f.Index)
}

func rawFrame(data string) *decode.Frame {
	e := decode.Event{Data: []byte(data), HasData: true}
	return indexedFrame(&e, 0)
}

const (
	toolExtra = `"tool_call":{"id":"call_1","name":"search","type":"function"}`
	dataExtra = `"data":{"id":"list-1","type":"offer_list","key":{"ids":[]}}`
)

// sampleFrame returns a frame for input in that satisfies guard g (and, for
// the rows that follow guarded ones, fails the guards before it).
func sampleFrame(in Input, g Guard) *decode.Frame {
	v, rid := "0.5", "r1"
	if g == GuardV04Frame || g == GuardV04CancelCode {
		v = "0.4"
	}
	if g == GuardNoRID {
		rid = "" // an empty response_id names no turn
	}
	switch in {
	case InDone:
		return rawFrame("[DONE]")
	case InUndecodable:
		return rawFrame("{not json")
	case InEpisode:
		return mkFrame("episode", v, rid, `"episode_id":"ep_1"`)
	case InReasoning:
		return mkFrame("reasoning", v, rid, `"chunk":"hmm"`)
	case InText:
		return mkFrame("text", v, rid, `"chunk":"Hello"`)
	case InToolCall, InToolCompleted:
		return mkFrame(string(in), v, rid, toolExtra)
	case InDataLoading:
		return mkFrame("data_loading", v, rid, dataExtra)
	case InDataLoaded:
		return mkFrame("data_loaded", v, rid, `"data":{"id":"list-1","type":"offer_list","key":{"ids":[]},"items":[{"id":"A"}]}`)
	case InComponent:
		if g == GuardChunkNull {
			return mkFrame("component", v, rid, `"chunk":null,"tool_call":{"id":"cmp_1","name":"render_offer_card","type":"function"}`)
		}
		return mkFrame("component", v, rid, `"chunk":{"type":"offer_card"},"tool_call":{"id":"cmp_1","name":"render_offer_card","type":"function"}`)
	case InUsage:
		return mkFrame("usage", v, rid, `"input_tokens":1,"output_tokens":2,"total_tokens":3`)
	case InStatus:
		return mkFrame("status", v, rid, `"data":{"event_id":"searching_offers","message":"Searching..."}`)
	case InMCP:
		return mkFrame("mcp_session_start", v, rid, "")
	case InUnknown:
		return mkFrame("heartbeat", v, rid, "")
	case InError:
		switch g {
		case GuardV04CancelCode, GuardCancelCode:
			return mkFrame("error", v, rid, `"error":{"code":"REQUEST_CANCELLED"},"is_final":true`)
		case GuardV04Frame:
			return mkFrame("error", v, rid, `"error":{"code":"INTERNAL_ERROR"}`)
		case GuardIsFinalFalse:
			return mkFrame("error", v, rid, `"error":{"code":"CCS_ENVELOPE_ERROR","enricher_id":"e","reason":"upstream_timeout"},"is_final":false`)
		case GuardIsFinalTrue:
			return mkFrame("error", v, rid, `"error":{"code":"SUB_AGENT_FAILED","sub_agent_id":"shop"},"is_final":true`)
		default: // is_final missing (and, for v0.4, any error)
			return mkFrame("error", v, rid, `"error":{"code":"INTERNAL_ERROR"}`)
		}
	case InCancelled:
		switch g {
		case GuardCodeIdleTimeout:
			return mkFrame("cancelled", v, rid, `"error":{"code":"IDLE_TIMEOUT"}`)
		case GuardCodeReqCancelled:
			return mkFrame("cancelled", v, rid, `"error":{"code":"REQUEST_CANCELLED"}`)
		}
		return mkFrame("cancelled", v, rid, `"error":{"code":"USER_ABORT"}`)
	}
	return mkFrame(string(in), v, rid, "")
}

// placeRun puts a fresh run of m in a row's from-state with the memory
// its guard (or the guards before it) needs.
func placeRun(m *Machine, t Transition) *ClientRun {
	r := NewClientRun(m.Profile)
	r.state = t.From
	r.rid, r.haveRID = "r1", true
	switch t.From {
	case StClosed:
		r.doneSeen, r.lastWasDone = true, true
	case StEndedWithoutTerminal:
		r.doneSeen = false
	}
	switch t.Guard {
	case GuardClientGone:
		r.disconnected = true
	case GuardForeignRID:
		r.rid = "an-earlier-turn"
	case GuardNoRID:
		r.doneSeen = true
	case GuardNewTurn:
		r.doneSeen, r.rid = true, "an-earlier-turn"
	case GuardAfterDone:
		r.doneSeen, r.lastWasDone = true, true
	case GuardDoneRepeat:
		r.doneSeen, r.lastWasDone = true, false
	}
	if t.Input == InToolCompleted {
		r.tools = map[string]*toolMem{"call_1": {sub: SubRunning, view: -1}}
		r.running = 1
	}
	return r
}

// TestEveryTransition exercises every row of both profiles (top level and
// regions): placed in its from-state with a frame meeting its guard, the
// run takes exactly that row.
func TestEveryTransition(t *testing.T) {
	for _, m := range []*Machine{ClientV05(), ClientV04()} {
		for i := range m.Transitions {
			tr := &m.Transitions[i]
			inputs := []Input{tr.Input}
			if tr.Input == InAnyFrame {
				inputs = nil
				for _, in := range allFrameInputs {
					// An undecodable frame names no response_id, and after
					// [DONE] it has its own row before the wildcards.
					afterDone := tr.From == StClosed || tr.From == StEndedWithoutTerminal
					ridGuard := tr.Guard == GuardForeignRID || tr.Guard == GuardNewTurn
					if in != InDone && !(in == InUndecodable && (afterDone || ridGuard)) {
						inputs = append(inputs, in)
					}
				}
			}
			for _, in := range inputs {
				name := fmt.Sprintf("%s/%s--%s[%s]", m.Profile, tr.From, in, tr.Guard)
				r := placeRun(m, *tr)
				var s Step
				if in.IsFrameInput() {
					s = r.Step(sampleFrame(in, tr.Guard))
				} else {
					s = r.Transport(TransportEvent{Input: in})
				}
				taken := s.Transition
				if s.Via != nil {
					taken = s.Via
				}
				if s.Via != nil && s.Via == tr {
					// The next turn started; its first frame may itself be a
					// violation (an orphan tool_completed).
					if r.State() == tr.From {
						t.Errorf("%s: the next turn did not start", name)
					}
					continue
				}
				if s.Violation || taken != tr {
					t.Errorf("%s: took %+v (violation %v: %s), want row → %s %s", name, taken, s.Violation, s.Note, tr.To, tr.Action)
					continue
				}
				if s.Via == nil && r.State() != tr.To {
					t.Errorf("%s: state %s, want %s", name, r.State(), tr.To)
				}
			}
		}
		for ri := range m.Regions {
			reg := &m.Regions[ri]
			for i := range reg.Transitions {
				tr := &reg.Transitions[i]
				if m.Profile == ProfileV04 && (tr.Input == InStatus || tr.Input == InError) {
					continue // shared region data a v0.4 client never reaches (TestV04NeverDispatches)
				}
				name := fmt.Sprintf("%s/%s: %s--%s[%s]", m.Profile, reg.Name, tr.From, tr.Input, tr.Guard)
				r, f := placeRegion(m, reg, *tr)
				s := r.Step(f)
				if s.Violation {
					t.Errorf("%s: violation: %s", name, s.Note)
					continue
				}
				found := false
				for _, rs := range s.Regions {
					found = found || (rs.Region == reg.Name && rs.Transition == tr)
				}
				if !found {
					t.Errorf("%s: not taken; steps %s", name, s.Summary())
				}
				if got := regionState(r, reg, f); got != tr.To {
					t.Errorf("%s: sub-state %s, want %s", name, got, tr.To)
				}
			}
		}
	}
}

func regionState(r *ClientRun, reg *Region, f *decode.Frame) State {
	_, sub, _ := r.regionPosition(reg, f)
	return sub
}

// placeRegion puts a run in streaming with a region in a row's from
// sub-state and returns the frame that takes the row.
func placeRegion(m *Machine, reg *Region, tr Transition) (*ClientRun, *decode.Frame) {
	r := NewClientRun(m.Profile)
	r.state = StStreaming
	r.rid, r.haveRID = "r1", true
	f := sampleFrame(tr.Input, tr.Guard)
	if tr.Input == InError {
		f = sampleFrame(InError, GuardIsFinalFalse)
	}
	if tr.Input == InStatus && m.Profile == ProfileV04 {
		return r, f // a v0.4 client never dispatches status; the row is still data
	}
	running := func(ids ...string) {
		r.tools = map[string]*toolMem{}
		for _, id := range ids {
			r.tools[id] = &toolMem{sub: SubRunning, view: -1}
		}
		r.running = len(ids)
	}
	switch reg.Name {
	case "progress":
		r.progress = tr.From
		switch tr.Guard {
		case GuardToolOthers:
			running("call_1", "call_2")
		case GuardToolLast:
			running("call_1")
		case GuardToolNotRunning:
			running("call_2")
			r.tools["call_1"] = &toolMem{sub: SubDone, view: -1}
		default:
			if tr.From == SubToolsRunning {
				running("call_2")
			}
			if tr.Input == InToolCompleted {
				if r.tools == nil {
					r.tools = map[string]*toolMem{}
				}
				r.tools["call_1"] = &toolMem{sub: SubDone, view: -1}
			}
		}
	case "content":
		r.content = tr.From
	case "degraded":
		r.degraded = tr.From
	case "tools":
		if tr.From != SubUnseen {
			r.tools = map[string]*toolMem{"call_1": {sub: tr.From, view: -1}}
			if tr.From == SubRunning {
				r.running = 1
				r.progress = SubToolsRunning
			}
		}
	case "components":
		if tr.From != SubUnseen {
			r.comps = map[string]*compMem{"list-1": {sub: tr.From, view: -1}}
		}
	}
	return r, f
}

// TestV04NeverDispatches: a v0.4 client never hands a status frame or an
// error to the regions, from any state.
func TestV04NeverDispatches(t *testing.T) {
	for _, tr := range ClientV04().Transitions {
		if (tr.Input == InStatus || tr.Input == InError) && tr.Action == ActDispatch {
			t.Errorf("v0.4 dispatches %s from %s", tr.Input, tr.From)
		}
	}
	r := NewClientRun(ProfileV04)
	r.Transport(TransportEvent{Input: InConnect})
	r.Transport(TransportEvent{Input: InFirstByte})
	r.Step(sampleFrame(InResponseID, GuardNone))
	s := r.Step(sampleFrame(InStatus, GuardNone))
	if s.Transition == nil || s.Transition.Action != ActIgnore || len(s.Regions) != 0 {
		t.Fatalf("v0.4 status: %s", s.Summary())
	}
}

// TestForbidden: every documented missing row is a violation naming its
// rule, and nothing changes.
func TestForbidden(t *testing.T) {
	m := ClientV05()
	for ri := range m.Regions {
		reg := &m.Regions[ri]
		for _, fb := range reg.Forbidden {
			r := NewClientRun(ProfileV05)
			r.state = StStreaming
			r.rid, r.haveRID = "r1", true
			var f *decode.Frame
			switch {
			case fb.NoKey && (fb.Input == InToolCall || fb.Input == InToolCompleted):
				f = mkFrame(string(fb.Input), "0.5", "r1", `"tool_call":{"name":"x","type":"function"}`)
			case fb.NoKey:
				f = mkFrame(string(fb.Input), "0.5", "r1", `"data":{"type":"offer_list","items":[]}`)
			case fb.Input == InText:
				f = mkFrame("text", "0.5", "r1", `"chunk":42`)
			case fb.Input == InComponent:
				f = mkFrame("component", "0.5", "r1", `"tool_call":{"id":"c","name":"render_x","type":"function"}`)
			case fb.Input == InDataLoaded:
				f = mkFrame("data_loaded", "0.5", "r1", `"data":{"id":"list-1","type":"offer_list","items":{}}`)
			default:
				f = sampleFrame(fb.Input, GuardNone)
				if fb.From != SubUnseen {
					r.tools = map[string]*toolMem{"call_1": {sub: fb.From, view: -1}}
				}
			}
			r.settleTyping() // the view a run placed in streaming would show
			rev := r.view.Rev
			s := r.Step(f)
			name := reg.Name + "/" + string(fb.Input) + "/" + string(fb.From)
			if !s.Violation || len(s.Rules) != 1 || s.Rules[0] != fb.Rule {
				t.Errorf("%s: violation %v rules %v (%s), want %s", name, s.Violation, s.Rules, s.Note, fb.Rule)
			}
			if r.State() != StStreaming || r.view.Rev != rev {
				t.Errorf("%s: a violation changed the run", name)
			}
		}
	}
	// The top level has no row for frames before the response began.
	r := NewClientRun(ProfileV05)
	if s := r.Step(sampleFrame(InText, GuardNone)); !s.Violation || r.State() != StIdle {
		t.Errorf("a frame in idle: %s", s.Summary())
	}
}

// legacyDivergence is checkClientDivergence as it was before the checker
// consulted the machine: the oracle the new rule must match exactly.
func legacyDivergence(f *decode.Frame) bool {
	if IsV04(f) {
		return false
	}
	switch Type(f) {
	case TypeStatus, TypeCancelled:
		return true
	case TypeError:
		e := ErrorInfoOf(f)
		return e.HasIsFinal && !e.IsFinal
	}
	return false
}

func machineDivergence(f *decode.Frame) bool {
	if !f.Decoded() || IsV04(f) {
		return false
	}
	_, ok := ClientDivergence(f)
	return ok
}

// TestDivergenceMatchesLegacy: the machine-driven client-divergence fires on
// exactly the frames the hand-written rule did.
func TestDivergenceMatchesLegacy(t *testing.T) {
	var frames []*decode.Frame
	for _, v := range []string{"0.5", "0.4", "0.6", ""} {
		for _, typ := range []string{"status", "cancelled", "error", "text", "completed", "heartbeat", "mcp_session_start", "support_content"} {
			for _, extra := range []string{
				"", `"is_final":false`, `"is_final":true`, `"is_final":"false"`, `"is_final":null`,
				`"error":{"code":"REQUEST_CANCELLED"},"is_final":false`, `"error":{"code":"REQUEST_CANCELLED"},"is_final":true`,
				`"error":{"code":"IDLE_TIMEOUT"}`, `"error":{"code":"CCS_ENVELOPE_ERROR"},"is_final":false`,
				`"error":{"code":"INTERNAL_ERROR"},"is_final":true`, `"error":"x","is_final":false`,
				`"error":{"code":"SUB_AGENT_FAILED"}`, `"data":{"event_id":"x","message":"y"}`,
			} {
				frames = append(frames, mkFrame(typ, v, "r", extra))
			}
		}
	}
	frames = append(frames, rawFrame("[DONE]"), rawFrame("{"), rawFrame(`{"event_type":"status"}`), rawFrame(`{"event_type":"error","is_final":false}`))
	// Every frame of the rule captures.
	files, _ := filepath.Glob("../../../testdata/rules/*.sse")
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		fm := decode.NewFramer()
		emit := func(ev *decode.Event) {
			if ev.Dispatched() {
				e := ev.Clone()
				frames = append(frames, indexedFrame(&e, 0))
			}
		}
		fm.Feed(b, emit)
		fm.Close(emit)
	}
	if len(frames) < 500 {
		t.Fatalf("only %d frames", len(frames))
	}
	for _, f := range frames {
		if got, want := machineDivergence(f), legacyDivergence(f); got != want {
			t.Errorf("divergence %v, legacy %v: %s", got, want, decode.Sanitize(string(f.Data)))
		}
	}
}

// ---------------------------------------------------------------------------
// Property test: random valid turns generated from the machine itself.

// walker generates frames, asking the machine (Peek) which are valid.
type walker struct {
	rng     *rand.Rand
	rid     string
	version string
	ms      int
	n       int // ids
	turns   int
	sse     []string // the stream so far, one SSE event per element
	types   []string // each element's input (for mutations)
	// open work the server owes before the terminal (the checker's
	// tool-unfinished, component-unfilled and error-unacknowledged rules).
	softError, sawText bool
}

func (w *walker) newTurn() {
	w.turns++
	w.rid = fmt.Sprintf("resp_w%d_%d", w.rng.Intn(1e6), w.turns)
	w.version = "0.5"
	if w.rng.Intn(5) == 0 {
		w.version = "0.4"
	}
	w.softError, w.sawText = false, false
}

func (w *walker) frame(typ, extra string) (*decode.Frame, string) {
	w.ms += 10
	ts := fmt.Sprintf("2026-05-15T18:%02d:%02d.%03dZ", w.ms/60000%60, w.ms/1000%60, w.ms%1000)
	data := fmt.Sprintf(`{"event_type":%q,"version":%q,"timestamp":%q,"response_id":%q`, typ, w.version, ts, w.rid)
	if extra != "" {
		data += "," + extra
	}
	data += "}"
	sse := "event: " + typ + "\ndata: " + data + "\n\n"
	e := decode.Event{Type: typ, HasType: true, Data: []byte(data), HasData: true}
	return indexedFrame(&e, len(w.sse)), sse
}

type candidate struct {
	f   *decode.Frame
	sse string
}

// candidates lists plausible next frames for the run's state.
func (w *walker) candidates(r *ClientRun) []candidate {
	var cs []candidate
	add := func(typ, extra string) {
		f, sse := w.frame(typ, extra)
		w.ms -= 10
		cs = append(cs, candidate{f, sse})
	}
	w.n++
	id := fmt.Sprint(w.n)
	add("response_id", "")
	add("episode", `"episode_id":"ep_`+id+`"`)
	add("thinking", "")
	add("reasoning", `"chunk":"considering"`)
	add("text", `"chunk":"Here is part `+id+`. "`)
	add("tool_call", `"tool_call":{"id":"call_`+id+`","name":"search_offers","type":"mcp"}`)
	for tid, tm := range r.tools {
		if tm.sub == SubRunning || w.rng.Intn(4) == 0 {
			add("tool_completed", `"tool_call":{"id":"`+tid+`","name":"search_offers","type":"mcp"}`)
		}
	}
	add("data_loading", `"data":{"id":"list-`+id+`","type":"offer_list","key":{"ids":[{"id":"O1"}]}}`)
	for did := range r.comps {
		add("data_loading", `"data":{"id":"`+did+`","type":"offer_list","key":{"ids":[{"id":"O1"}]}}`)
		add("data_loaded", `"data":{"id":"`+did+`","type":"offer_list","key":{"ids":[{"id":"O1"}]},"items":[{"id":"O1","title":"10% off"}]}`)
	}
	add("component", `"chunk":{"type":"offer_card","id":"O1"},"tool_call":{"id":"cmp_`+id+`","name":"render_offer_card","type":"function"}`)
	add("usage", `"input_tokens":10,"output_tokens":5,"total_tokens":15`)
	add("status", `"data":{"event_id":"searching_offers","message":"Searching for offers..."}`)
	add("mcp_session_start", "")
	add("heartbeat", "")
	add("completed", "")
	if w.version == "0.4" {
		add("error", `"error":{"code":"INTERNAL_ERROR"}`)
		add("error", `"error":{"code":"REQUEST_CANCELLED"}`)
	} else {
		add("error", `"error":{"code":"CCS_ENVELOPE_ERROR","enricher_id":"offers","reason":"upstream_timeout"},"is_final":false`)
		add("error", `"error":{"code":"PARTIAL_FAN_OUT","failed":[{"sub_agent_id":"shop"}]},"is_final":false`)
		add("error", `"error":{"code":"RATE_LIMIT_ERROR"},"is_final":false`)
		add("error", `"error":{"code":"SUB_AGENT_FAILED","sub_agent_id":"shop"},"is_final":true`)
		add("error", `"error":{"code":"INTERNAL_ERROR"},"is_final":true`)
		add("cancelled", `"error":{"code":"IDLE_TIMEOUT"}`)
		add("cancelled", `"error":{"code":"REQUEST_CANCELLED"}`)
	}
	cs = append(cs, candidate{rawFrame("[DONE]"), "data: [DONE]\n\n"})
	return cs
}

// validStep: the machine takes a row for the frame, and every rule the row
// names is an info note.
func validStep(s Step) bool {
	if s.Violation {
		return false
	}
	for _, rule := range s.Rules {
		if r, ok := LookupRule(rule); !ok || r.Severity != invariants.SevInfo {
			return false
		}
	}
	return true
}

func endsTurn(s Step) bool {
	t := s.Transition
	return t != nil && IsTerminal(t.To) && !IsTerminal(s.From)
}

// walk generates one stream of up to maxTurns valid turns.
func (w *walker) walk(r *ClientRun, maxTurns int) {
	r.Transport(TransportEvent{Input: InConnect})
	r.Transport(TransportEvent{Input: InFirstByte})
	w.newTurn()
	steps := 0
	limit := 3 + w.rng.Intn(30)
	for guard := 0; guard < 400; guard++ {
		if r.State() == StClosed {
			if w.turns >= maxTurns || w.rng.Intn(3) != 0 {
				return
			}
			w.newTurn()
			steps = 0
			limit = 3 + w.rng.Intn(30)
		}
		var valid, urgent []candidate
		for _, c := range w.candidates(r) {
			s := r.Peek(c.f)
			if !validStep(s) {
				continue
			}
			if endsTurn(s) && (r.running > 0 || w.loading(r) || (w.softError && !w.sawText)) {
				continue // the server still owes tool_completed / data_loaded / an apology
			}
			valid = append(valid, c)
			if steps >= limit {
				in := ClassifyFrame(c.f)
				if endsTurn(s) || in == InDone || in == InToolCompleted && r.running > 0 || in == InDataLoaded ||
					in == InText && w.softError && !w.sawText {
					urgent = append(urgent, c)
				}
			}
		}
		if len(valid) == 0 {
			panic("no valid frame from " + string(r.State()))
		}
		pick := valid
		if len(urgent) > 0 {
			pick = urgent
		}
		c := pick[w.rng.Intn(len(pick))]
		if steps < limit && w.rng.Intn(4) != 0 {
			// Favour frames that keep the turn going while it is young.
			for tries := 0; tries < 3 && endsTurn(r.Peek(c.f)); tries++ {
				c = pick[w.rng.Intn(len(pick))]
			}
		}
		w.ms += 10
		c.f.Index = len(w.sse)
		s := r.Step(c.f)
		w.sse = append(w.sse, c.sse)
		w.types = append(w.types, string(s.Input))
		if s.Input == InText {
			w.sawText = true
		}
		if s.Transition != nil && s.Transition.Guard == GuardIsFinalFalse {
			w.softError = true
		}
		steps++
	}
	panic("walk did not end")
}

func (w *walker) loading(r *ClientRun) bool {
	for _, c := range r.comps {
		if c.sub == SubLoading {
			return true
		}
	}
	return false
}

// checkStream runs a stream through the checker; alarms as "rule sev frame".
func checkStream(stream string) []string {
	c := New(invariants.Options{})
	dec := decode.Decoder{Keys: Keys}
	var got []string
	add := func(as []invariants.Alarm) {
		for _, a := range as {
			got = append(got, fmt.Sprintf("%s %s %d", a.Rule, a.Severity, a.Frame))
		}
	}
	fm := decode.NewFramer()
	emit := func(ev *decode.Event) {
		if ev.Dispatched() {
			add(c.Observe(dec.Decode(ev, 0, false)))
		}
	}
	fm.Feed([]byte(stream), emit)
	fm.Close(emit)
	add(c.End(invariants.End{Kind: invariants.EndEOF}))
	sort.Strings(got)
	return got
}

func serious(alarms []string) []string {
	var out []string
	for _, a := range alarms {
		if !strings.Contains(a, " info ") {
			out = append(out, a)
		}
	}
	return out
}

// replayStream runs a stream through a fresh v0.5 run.
func replayStream(stream string) (*ClientRun, []Step) {
	r := NewClientRun(ProfileV05)
	r.Transport(TransportEvent{Input: InConnect})
	r.Transport(TransportEvent{Input: InFirstByte})
	var steps []Step
	dec := decode.Decoder{Keys: Keys}
	fm := decode.NewFramer()
	emit := func(ev *decode.Event) {
		if ev.Dispatched() {
			steps = append(steps, r.Step(dec.Decode(ev, 0, false)))
		}
	}
	fm.Feed([]byte(stream), emit)
	fm.Close(emit)
	steps = append(steps, r.Transport(TransportEvent{Input: InEOF}))
	return r, steps
}

func TestPropertyValidTurns(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 60
	}
	outcomes := map[Outcome]int{}
	seen := map[string]int{}
	for seed := int64(1); seed <= int64(n); seed++ {
		w := &walker{rng: rand.New(rand.NewSource(seed))}
		r := NewClientRun(ProfileV05)
		w.walk(r, 3)
		stream := strings.Join(w.sse, "")
		if bad := serious(checkStream(stream)); len(bad) > 0 {
			t.Fatalf("seed %d: a valid walk raised %v\n%s", seed, bad, stream)
		}
		if r.State() != StClosed || (r.Outcome() != OutcomeCompleted && r.Outcome() != OutcomeFailed && r.Outcome() != OutcomeCancelled) {
			t.Fatalf("seed %d: ended in %s (%s)", seed, r.State(), r.Outcome())
		}
		// Reading the rendered stream back takes the same way.
		r2, steps := replayStream(stream)
		if r2.State() != StClosed || r2.Outcome() != r.Outcome() || r2.View().Text() != r.View().Text() {
			t.Fatalf("seed %d: replay ended %s/%s, walk %s/%s", seed, r2.State(), r2.Outcome(), r.State(), r.Outcome())
		}
		for _, s := range steps {
			if !validStep(s) {
				t.Fatalf("seed %d: replay step %s", seed, s.Summary())
			}
		}
		outcomes[r.Outcome()]++
		for _, typ := range w.types {
			seen[typ]++
		}
		if w.turns > 1 {
			seen["several turns"]++
		}
		for _, st := range steps {
			for _, tr := range []*Transition{st.Via, st.Transition} {
				if tr != nil && tr.Guard != GuardNone {
					seen[string(tr.Guard)]++
				}
			}
		}
	}
	// The walks cover the vocabulary and the guards of a valid turn.
	for _, want := range []string{"response_id", "episode", "thinking", "reasoning", "text", "tool_call", "tool_completed",
		"data_loading", "data_loaded", "component", "usage", "status", "error", "completed", "cancelled", "mcp_*", "unknown",
		"[DONE]", "several turns", "is_final_false", "is_final_true", "v04_frame", "v04_cancel_code", "code_idle_timeout",
		"code_request_cancelled", "new_turn"} {
		if seen[want] == 0 {
			t.Errorf("no walk took %s", want)
		}
	}
	t.Logf("outcomes %v; coverage %v", outcomes, seen)
	for _, o := range []Outcome{OutcomeCompleted, OutcomeFailed, OutcomeCancelled} {
		if outcomes[o] == 0 {
			t.Errorf("no walk ended %s: %v", o, outcomes)
		}
	}
}

// ---------------------------------------------------------------------------
// Mutation tests: one dropped, duplicated or moved frame that breaks the
// contract must raise an error or warn.

type mutation struct {
	name string
	// apply returns the mutated stream, or ok=false when the turn has
	// nothing to mutate.
	apply func(sse, types []string) ([]string, bool)
	// machine, when set, says what the v0.5 machine must notice.
	machine func(r *ClientRun, steps []Step) bool
}

func indexOf(types []string, want string, from int) int {
	for i := from; i < len(types); i++ {
		if types[i] == want {
			return i
		}
	}
	return -1
}

func terminalIndex(types []string) int {
	for i := len(types) - 1; i >= 0; i-- {
		switch types[i] {
		case "completed", "cancelled", "error":
			return i
		}
	}
	return -1
}

func without(sse []string, i int) []string {
	return append(append([]string(nil), sse[:i]...), sse[i+1:]...)
}

func insert(sse []string, i int, s string) []string {
	out := append([]string(nil), sse[:i]...)
	out = append(out, s)
	return append(out, sse[i:]...)
}

func idOf(sse string) string {
	i := strings.Index(sse, `"id":"`)
	if i < 0 {
		return ""
	}
	rest := sse[i+6:]
	return rest[:strings.IndexByte(rest, '"')]
}

func countWithID(sse, types []string, typ, id string) int {
	n := 0
	for i := range sse {
		if types[i] == typ && idOf(sse[i]) == id {
			n++
		}
	}
	return n
}

func hasRule(steps []Step, rule string) bool {
	for _, s := range steps {
		for _, r := range s.Rules {
			if r == rule {
				return true
			}
		}
	}
	return false
}

func hasViolation(steps []Step) bool {
	for _, s := range steps {
		if s.Violation {
			return true
		}
	}
	return false
}

var mutations = []mutation{
	{"drop the terminal", func(sse, types []string) ([]string, bool) {
		i := terminalIndex(types)
		return without(sse, i), i >= 0
	}, func(r *ClientRun, _ []Step) bool { return r.Outcome() == OutcomeConnectionLost }},
	{"duplicate the terminal", func(sse, types []string) ([]string, bool) {
		i := terminalIndex(types)
		if i < 0 {
			return nil, false
		}
		return insert(sse, i+1, sse[i]), true
	}, func(_ *ClientRun, steps []Step) bool { return hasRule(steps, "after-terminal") }},
	{"move text after the terminal", func(sse, types []string) ([]string, bool) {
		ti, xi := terminalIndex(types), indexOf(types, "text", 0)
		if ti < 0 || xi < 0 || xi > ti {
			return nil, false
		}
		moved := without(sse, xi)
		return insert(moved, ti, sse[xi]), true
	}, func(_ *ClientRun, steps []Step) bool { return hasRule(steps, "after-terminal") }},
	{"drop a tool_completed", func(sse, types []string) ([]string, bool) {
		for i := range sse {
			if types[i] == "tool_completed" && countWithID(sse, types, "tool_completed", idOf(sse[i])) == 1 {
				return without(sse, i), true
			}
		}
		return nil, false
	}, nil},
	{"swap a tool_call with its tool_completed", func(sse, types []string) ([]string, bool) {
		for i := range sse {
			if types[i] != "tool_call" {
				continue
			}
			for j := i + 1; j < len(sse); j++ {
				if types[j] == "tool_completed" && idOf(sse[j]) == idOf(sse[i]) {
					out := append([]string(nil), sse...)
					out[i], out[j] = sse[j], sse[i]
					return out, true
				}
			}
		}
		return nil, false
	}, func(_ *ClientRun, steps []Step) bool { return hasViolation(steps) }},
	{"duplicate a tool_call", func(sse, types []string) ([]string, bool) {
		i := indexOf(types, "tool_call", 0)
		if i < 0 {
			return nil, false
		}
		return insert(sse, i+1, sse[i]), true
	}, func(_ *ClientRun, steps []Step) bool { return hasViolation(steps) }},
	{"drop the only data_loading of a filled placeholder", func(sse, types []string) ([]string, bool) {
		for i := range sse {
			id := idOf(sse[i])
			if types[i] == "data_loading" && countWithID(sse, types, "data_loading", id) == 1 && countWithID(sse, types, "data_loaded", id) > 0 {
				return without(sse, i), true
			}
		}
		return nil, false
	}, func(_ *ClientRun, steps []Step) bool { return hasRule(steps, "component-unannounced") }},
	{"drop the response_id frame", func(sse, types []string) ([]string, bool) {
		return without(sse, 0), types[0] == "response_id"
	}, func(_ *ClientRun, steps []Step) bool { return hasRule(steps, "response-id-frame") }},
	{"duplicate the response_id frame", func(sse, types []string) ([]string, bool) {
		return insert(sse, 1, sse[0]), types[0] == "response_id"
	}, func(_ *ClientRun, steps []Step) bool { return hasRule(steps, "response-id-frame") }},
	{"drop [DONE]", func(sse, types []string) ([]string, bool) {
		i := len(types) - 1
		return without(sse, i), types[i] == "[DONE]"
	}, func(_ *ClientRun, steps []Step) bool { return hasRule(steps, "done-missing") }},
	{"move [DONE] before the terminal", func(sse, types []string) ([]string, bool) {
		ti, di := terminalIndex(types), len(types)-1
		if ti < 0 || types[di] != "[DONE]" {
			return nil, false
		}
		return insert(without(sse, di), ti, sse[di]), true
	}, func(_ *ClientRun, steps []Step) bool { return hasRule(steps, "done-early") }},
}

func TestMutationsAreCaught(t *testing.T) {
	applied := map[string]int{}
	seeds := int64(150)
	if testing.Short() {
		seeds = 50
	}
	for seed := int64(1); seed <= seeds; seed++ {
		w := &walker{rng: rand.New(rand.NewSource(seed))}
		w.walk(NewClientRun(ProfileV05), 1)
		for _, mu := range mutations {
			mutated, ok := mu.apply(w.sse, w.types)
			if !ok {
				continue
			}
			applied[mu.name]++
			stream := strings.Join(mutated, "")
			if len(serious(checkStream(stream))) == 0 {
				t.Errorf("seed %d, %s: the checker raised nothing\n%s", seed, mu.name, stream)
				continue
			}
			if mu.machine != nil {
				r, steps := replayStream(stream)
				if !mu.machine(r, steps) {
					t.Errorf("seed %d, %s: the machine did not notice (final %s/%s)\n%s", seed, mu.name, r.State(), r.Outcome(), stream)
				}
			}
		}
	}
	for _, mu := range mutations {
		if applied[mu.name] < 5 {
			t.Errorf("mutation %q applied only %d times", mu.name, applied[mu.name])
		}
	}
}

// ---------------------------------------------------------------------------
// The runner and the view.

func TestRunHappyTurnView(t *testing.T) {
	stream := newTurn("resp_abc").open().
		f("thinking", "").
		f("status", `"data":{"event_id":"searching_offers","message":"Searching for offers..."}`).
		f("tool_call", `"tool_call":{"id":"call_1","name":"search_offers","type":"mcp"}`).
		f("tool_completed", `"tool_call":{"id":"call_1","name":"search_offers","type":"mcp"}`).
		f("data_loading", `"data":{"id":"offer-list-1","type":"offer_list","key":{"ids":[]}}`).
		f("data_loaded", `"data":{"id":"offer-list-1","type":"offer_list","key":{"ids":[]},"items":[{"id":"A"},{"id":"B"}]}`).
		f("text", `"chunk":"Here are some offers\u001b[31m near you..."`).
		completed().done().String()
	r, steps := replayStream(stream)
	if r.State() != StClosed || r.Outcome() != OutcomeCompleted {
		t.Fatalf("final %s/%s", r.State(), r.Outcome())
	}
	for _, s := range steps {
		if s.Violation {
			t.Fatalf("violation: %s", s.Summary())
		}
	}
	v := r.View()
	if v.Text() != "Here are some offers\x1b[31m near you..." || len(v.Tools) != 1 || v.Tools[0].State != ToolDone ||
		len(v.Components) != 1 || v.Components[0].Items != 2 || v.StatusLine != "" || !v.Closed || v.ResponseID != "resp_abc" {
		t.Fatalf("view: %+v", v)
	}
	text := v.String()
	if strings.ContainsRune(text, 0x1b) || !strings.Contains(text, `\x1b[31m`) {
		t.Errorf("the view text is not sanitized: %q", text)
	}
	for _, want := range []string{"search_offers (call_1) done", "offer-list-1 (offer_list) 2 cards", "outcome:    completed · [DONE]"} {
		if !strings.Contains(text, want) {
			t.Errorf("view text lacks %q:\n%s", want, text)
		}
	}
	// Mid-turn, after the status frame (step index: connect and first_byte
	// are not in steps; frames 0..2 are response_id, thinking, status).
	if s := steps[2]; s.To != StStreaming || len(s.Regions) != 1 || s.Regions[0].Transition.To != SubStatus {
		t.Errorf("status step: %s", s.Summary())
	}
}

func TestRunEndings(t *testing.T) {
	open := func() *turnBuilder { return newTurn("r1").open().f("text", `"chunk":"Partial "`) }
	tests := []struct {
		name    string
		stream  string
		state   State
		outcome Outcome
		cause   string
	}{
		{"completed", open().completed().done().String(), StClosed, OutcomeCompleted, ""},
		{"final error", open().f("error", `"error":{"code":"SUB_AGENT_FAILED","sub_agent_id":"s"},"is_final":true`).done().String(), StClosed, OutcomeFailed, "SUB_AGENT_FAILED"},
		{"idle timeout", open().f("cancelled", `"error":{"code":"IDLE_TIMEOUT"}`).done().String(), StClosed, OutcomeCancelled, "IDLE_TIMEOUT"},
		{"no terminal", open().String(), StEndedWithoutTerminal, OutcomeConnectionLost, ""},
		{"done early", open().done().String(), StEndedWithoutTerminal, OutcomeConnectionLost, ""},
		{"no done", open().completed().String(), StCompleted, OutcomeCompleted, ""},
		{"soft error then completed", open().f("error", `"error":{"code":"RATE_LIMIT_ERROR"},"is_final":false`).f("text", `"chunk":"sorry"`).completed().done().String(), StClosed, OutcomeCompleted, ""},
	}
	for _, tc := range tests {
		r, _ := replayStream(tc.stream)
		if r.State() != tc.state || r.Outcome() != tc.outcome || r.View().Cause != tc.cause {
			t.Errorf("%s: %s/%s/%q, want %s/%s/%q", tc.name, r.State(), r.Outcome(), r.View().Cause, tc.state, tc.outcome, tc.cause)
		}
		if r.View().Text() != "Partial " && !strings.HasPrefix(r.View().Text(), "Partial ") {
			t.Errorf("%s: text %q lost", tc.name, r.View().Text())
		}
	}
	// The user cancels: cancelled by the client; frames in flight are dropped
	// without an after-terminal note.
	r := NewClientRun(ProfileV05)
	r.Transport(TransportEvent{Input: InConnect})
	r.Transport(TransportEvent{Input: InFirstByte})
	r.Step(sampleFrame(InResponseID, GuardNone))
	r.Transport(TransportEvent{Input: InUserCancel})
	s := r.Step(sampleFrame(InText, GuardNone))
	if r.Outcome() != OutcomeCancelled || r.View().Cause != causeClient || len(s.Rules) != 0 {
		t.Errorf("user cancel: %s %q %v", r.Outcome(), r.View().Cause, s.Rules)
	}
	// An HTTP failure, then a retry.
	r = NewClientRun(ProfileV05)
	r.Transport(TransportEvent{Input: InConnect})
	r.Transport(TransportEvent{Input: InHTTPError, Detail: "HTTP 503"})
	if r.State() != StHTTPFailed || !strings.Contains(r.View().String(), "HTTP 503") {
		t.Errorf("http: %s\n%s", r.State(), r.View())
	}
	r.Transport(TransportEvent{Input: InConnect})
	if r.State() != StConnecting || r.Outcome() != OutcomeNone || r.View().Turn != 2 {
		t.Errorf("retry: %s %s turn %d", r.State(), r.Outcome(), r.View().Turn)
	}
}

func TestRunTwoTurnsOnOneStream(t *testing.T) {
	stream := newTurn("rA").open().f("text", `"chunk":"one"`).completed().done().String() +
		newTurn("rB").open().f("text", `"chunk":"two"`).completed().done().String()
	r, steps := replayStream(stream)
	if r.State() != StClosed || r.View().Text() != "two" || r.View().Turn != 2 || r.View().ResponseID != "rB" {
		t.Fatalf("final %s turn %d %q %q", r.State(), r.View().Turn, r.View().Text(), r.View().ResponseID)
	}
	var via int
	for _, s := range steps {
		if s.Via != nil {
			via++
			if s.Via.Action != ActStartNextTurn || s.To != StTurnOpen {
				t.Errorf("next turn step: %s", s.Summary())
			}
		}
	}
	if via != 1 {
		t.Errorf("%d next-turn steps", via)
	}
}

func TestV04ClientReadings(t *testing.T) {
	stream := newTurn("r1").open().
		f("status", `"data":{"event_id":"searching","message":"Searching..."}`).
		f("error", `"error":{"code":"CCS_ENVELOPE_ERROR","enricher_id":"e","reason":"upstream_timeout"},"is_final":false`).
		f("text", `"chunk":"sorry"`).completed().done().String()
	for _, tc := range []struct {
		p       Profile
		outcome Outcome
		text    string
	}{{ProfileV05, OutcomeCompleted, "sorry"}, {ProfileV04, OutcomeFailed, ""}} {
		r := NewClientRun(tc.p)
		r.Transport(TransportEvent{Input: InConnect})
		r.Transport(TransportEvent{Input: InFirstByte})
		dec := decode.Decoder{Keys: Keys}
		fm := decode.NewFramer()
		emit := func(ev *decode.Event) {
			if ev.Dispatched() {
				r.Step(dec.Decode(ev, 0, false))
			}
		}
		fm.Feed([]byte(stream), emit)
		fm.Close(emit)
		if r.Outcome() != tc.outcome || r.View().Text() != tc.text {
			t.Errorf("%s: %s %q", tc.p, r.Outcome(), r.View().Text())
		}
	}
	// a v0.4 client ignores cancelled and the turn ends without a
	// terminal.
	r := NewClientRun(ProfileV04)
	r.Transport(TransportEvent{Input: InConnect})
	r.Transport(TransportEvent{Input: InFirstByte})
	r.Step(sampleFrame(InResponseID, GuardNone))
	r.Step(sampleFrame(InCancelled, GuardCodeReqCancelled))
	r.Step(sampleFrame(InDone, GuardNone))
	if r.State() != StEndedWithoutTerminal {
		t.Errorf("v0.4 cancelled: %s", r.State())
	}
}

func TestMachineShape(t *testing.T) {
	for _, m := range []*Machine{ClientV05(), ClientV04()} {
		states := map[State]bool{}
		for _, s := range m.States {
			states[s.ID] = true
		}
		inputs := map[Input]bool{}
		for _, in := range m.Inputs {
			inputs[in.ID] = true
		}
		guards := map[Guard]bool{GuardNone: true}
		for _, g := range m.Guards {
			guards[g.ID] = true
		}
		actions := map[Action]bool{}
		for _, a := range m.Actions {
			actions[a.ID] = true
		}
		check := func(where string, tr Transition, sub map[State]bool) {
			if !sub[tr.From] || !sub[tr.To] || !inputs[tr.Input] || !guards[tr.Guard] || !actions[tr.Action] {
				t.Errorf("%s %s: undeclared name in %+v", m.Profile, where, tr)
			}
			for _, rule := range tr.Checker {
				if _, ok := LookupRule(rule); !ok {
					t.Errorf("%s %s: unknown rule %q", m.Profile, where, rule)
				}
			}
		}
		for _, tr := range m.Transitions {
			check("top", tr, states)
		}
		for _, r := range m.Regions {
			sub := map[State]bool{}
			for _, s := range r.States {
				sub[s.ID] = true
			}
			for _, tr := range r.Transitions {
				check(r.Name, tr, sub)
			}
			for _, fb := range r.Forbidden {
				if _, ok := LookupRule(fb.Rule); !ok {
					t.Errorf("%s: unknown rule %q", r.Name, fb.Rule)
				}
			}
		}
		// Every state but idle answers every transport input once a
		// request is out; every open state answers every frame input.
		for _, s := range m.States {
			for _, in := range []Input{InEOF, InTransportError, InUserCancel, InIdleTimer} {
				if s.ID != StIdle && len(rowsOf(m, s.ID, in)) == 0 {
					t.Errorf("%s: %s has no row for %s", m.Profile, s.ID, in)
				}
			}
			if s.Kind == KindOpen || s.ID == StAwaitingFirstFrame {
				for _, in := range allFrameInputs {
					if len(rowsOf(m, s.ID, in)) == 0 && len(rowsOf(m, s.ID, InAnyFrame)) == 0 {
						t.Errorf("%s: %s has no row for %s", m.Profile, s.ID, in)
					}
				}
			}
		}
	}
}

// BenchmarkClientDivergence measures what the checker pays per frame for
// consulting the machine (compare: BenchmarkLegacyDivergence).
func BenchmarkClientDivergence(b *testing.B) {
	frames := benchFrames()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, f := range frames {
			machineDivergence(f)
		}
	}
}

func BenchmarkLegacyDivergence(b *testing.B) {
	frames := benchFrames()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, f := range frames {
			legacyDivergence(f)
		}
	}
}

func benchFrames() []*decode.Frame {
	return []*decode.Frame{
		sampleFrame(InText, GuardNone), sampleFrame(InText, GuardNone), sampleFrame(InText, GuardNone),
		sampleFrame(InToolCall, GuardNone), sampleFrame(InToolCompleted, GuardNone), sampleFrame(InStatus, GuardNone),
		sampleFrame(InError, GuardIsFinalFalse), sampleFrame(InCancelled, GuardCodeIdleTimeout), sampleFrame(InCompleted, GuardNone),
		sampleFrame(InDone, GuardNone),
	}
}

// ---------------------------------------------------------------------------
// Issue 14: the behaviours the probes pin, at the machine's level.

// viewInvariants are what the document promises of every view: the typing
// indicator shows exactly while the turn is open and the bubble shows
// nothing else, and the progress line shows only what its sub-state says.
func viewInvariants(r *ClientRun) string {
	v := r.View()
	open := false
	switch r.State() {
	case StConnecting, StAwaitingFirstFrame, StTurnOpen, StStreaming:
		open = true
	}
	if want := open && r.progress == SubNone && r.content == SubEmpty; v.Pending != want {
		return fmt.Sprintf("typing %v in %s (progress %s, content %s)", v.Pending, r.State(), r.progress, r.content)
	}
	if v.Thinking != (v.Progress == SubThinking) || (v.StatusLine != "" && v.Progress != SubStatus) {
		return fmt.Sprintf("progress %s with thinking %v, status %q", v.Progress, v.Thinking, v.StatusLine)
	}
	if IsFinished(r.State()) && (v.Progress != SubNone || v.Running != 0) {
		return fmt.Sprintf("ended turn still shows progress %s / %d running", v.Progress, v.Running)
	}
	return ""
}

func TestViewInvariantsOnWalks(t *testing.T) {
	for seed := int64(1); seed <= 80; seed++ {
		w := &walker{rng: rand.New(rand.NewSource(seed))}
		w.walk(NewClientRun(ProfileV05), 3)
		stream := strings.Join(w.sse, "")
		for _, p := range Profiles() {
			r := NewClientRun(p)
			r.Transport(TransportEvent{Input: InConnect})
			r.Transport(TransportEvent{Input: InFirstByte})
			dec := decode.Decoder{Keys: Keys}
			fm := decode.NewFramer()
			emit := func(ev *decode.Event) {
				if ev.Dispatched() {
					s := r.Step(dec.Decode(ev, 0, false))
					if msg := viewInvariants(r); msg != "" {
						t.Fatalf("seed %d %s, after %s: %s", seed, p, s.Summary(), msg)
					}
				}
			}
			fm.Feed([]byte(stream), emit)
			fm.Close(emit)
		}
	}
}

// TestNoPhantomTurns: after [DONE] only a new response_id opens a bubble.
func TestNoPhantomTurns(t *testing.T) {
	base := newTurn("rA").open().f("text", `"chunk":"hi"`).completed().done().String()
	for name, late := range map[string]string{
		"undecodable":      "data: {oops\n\n",
		"not an object":    "data: [1,2]\n\n",
		"no response_id":   "event: text\ndata: {\"event_type\":\"text\",\"version\":\"0.5\",\"timestamp\":\"2026-05-15T18:00:09.000Z\",\"chunk\":\"x\"}\n\n",
		"empty id":         "event: text\ndata: {\"event_type\":\"text\",\"version\":\"0.5\",\"timestamp\":\"2026-05-15T18:00:09.000Z\",\"response_id\":\"\",\"chunk\":\"x\"}\n\n",
		"numeric id":       "event: completed\ndata: {\"event_type\":\"completed\",\"version\":\"0.5\",\"timestamp\":\"2026-05-15T18:00:09.000Z\",\"response_id\":7}\n\n",
		"same response_id": newTurn("rA").f("text", `"chunk":"late"`).String(),
	} {
		r, steps := replayStream(base + late + "data: [DONE]\n\n")
		if r.View().Turn != 1 || r.State() != StClosed || r.Outcome() != OutcomeCompleted || r.View().Text() != "hi" {
			t.Errorf("%s: turn %d %s/%s %q", name, r.View().Turn, r.State(), r.Outcome(), r.View().Text())
		}
		for _, s := range steps[4:] {
			if s.ViewChanged || s.Via != nil {
				t.Errorf("%s: %s changed the view", name, s.Summary())
			}
		}
	}
	// A new response_id still begins the next request's turn.
	r, _ := replayStream(base + newTurn("rB").open().f("text", `"chunk":"two"`).completed().done().String())
	if r.View().Turn != 2 || r.View().Text() != "two" {
		t.Errorf("next turn: %d %q", r.View().Turn, r.View().Text())
	}
}

// TestForeignResponseID: frames of another turn inside an open one neither
// join it nor end it, whatever their type.
func TestForeignResponseID(t *testing.T) {
	for _, in := range []Input{InText, InToolCall, InDataLoading, InStatus, InCompleted, InCancelled, InError, InResponseID} {
		for _, g := range []Guard{GuardNone, GuardIsFinalTrue, GuardCodeIdleTimeout} {
			f := withRID(sampleFrame(in, g), "someone-else")
			r := NewClientRun(ProfileV05)
			r.Transport(TransportEvent{Input: InConnect})
			r.Transport(TransportEvent{Input: InFirstByte})
			r.Step(sampleFrame(InResponseID, GuardNone))
			r.Step(sampleFrame(InText, GuardNone))
			rev := r.View().Rev
			s := r.Step(f)
			if s.Transition == nil || s.Transition.Guard != GuardForeignRID || r.State() != StStreaming || r.View().Rev != rev ||
				len(s.Rules) != 1 || s.Rules[0] != "envelope-drift" {
				t.Errorf("%s[%s]: %s rules %v", in, g, s.Summary(), s.Rules)
			}
		}
	}
}

// TestIdleTimerDisconnects: the timer ends the turn, the client is gone
// (a late terminal is never seen), and a retry is a fresh connection.
func TestIdleTimerDisconnects(t *testing.T) {
	for _, p := range Profiles() {
		r := NewClientRun(p)
		r.Transport(TransportEvent{Input: InConnect})
		r.Transport(TransportEvent{Input: InFirstByte})
		r.Step(sampleFrame(InResponseID, GuardNone))
		r.Step(sampleFrame(InToolCall, GuardNone))
		s := r.Transport(TransportEvent{Input: InIdleTimer, Detail: "no frame for 1m5s"})
		if s.Transition == nil || s.Transition.Action != ActIdleDisconnect || r.Outcome() != OutcomeConnectionLost ||
			r.View().Conformance().Cause != "idle_timer" || r.View().Tools[0].State != ToolStopped {
			t.Fatalf("%s idle: %s %+v", p, s.Summary(), r.View().Conformance())
		}
		for _, f := range []*decode.Frame{sampleFrame(InToolCompleted, GuardNone), sampleFrame(InCompleted, GuardNone), rawFrame("[DONE]"), mkFrame("text", "0.5", "r2", `"chunk":"x"`)} {
			rev := r.View().Rev
			s := r.Step(f)
			if s.Transition == nil || s.Transition.Guard != GuardClientGone || r.View().Rev != rev || r.State() != StEndedWithoutTerminal {
				t.Errorf("%s: after the timer %s", p, s.Summary())
			}
		}
		r.Transport(TransportEvent{Input: InConnect})
		r.Transport(TransportEvent{Input: InFirstByte})
		if s := r.Step(sampleFrame(InResponseID, GuardNone)); s.To != StTurnOpen || r.disconnected {
			t.Errorf("%s: retry: %s", p, s.Summary())
		}
	}
	// The timer is ignored once the turn has ended.
	r, _ := replayStream(newTurn("r1").open().completed().String())
	if s := r.Transport(TransportEvent{Input: InIdleTimer}); s.Transition == nil || s.Transition.Action != ActIgnore {
		t.Errorf("idle after completed: %s", s.Summary())
	}
}

// TestSecondTurnWithoutDone: another response_id after a terminal but
// before [DONE] is not a turn (AC-4 puts [DONE] between turns).
func TestSecondTurnWithoutDone(t *testing.T) {
	stream := newTurn("rA").open().f("text", `"chunk":"one"`).completed().String() +
		newTurn("rB").open().f("text", `"chunk":"two"`).completed().done().String()
	r, steps := replayStream(stream)
	if r.View().Turn != 1 || r.View().Text() != "one" || r.State() != StClosed || r.View().ResponseID != "rA" {
		t.Fatalf("final turn %d %q %s", r.View().Turn, r.View().Text(), r.State())
	}
	for _, s := range steps[3:6] {
		if s.Transition == nil || s.Transition.Guard != GuardForeignRID || !hasRule([]Step{s}, "after-terminal") {
			t.Errorf("second-turn frame: %s", s.Summary())
		}
	}
}

// TestEndingsSettle: every way a turn ends stops running tools, marks
// loading placeholders unavailable and clears the progress line.
func TestEndingsSettle(t *testing.T) {
	busy := func() *turnBuilder {
		return newTurn("r1").open().f("thinking", "").f("tool_call", toolExtra).f("data_loading", dataExtra)
	}
	for name, stream := range map[string]string{
		"completed":      busy().completed().done().String(),
		"failed":         busy().f("error", `"error":{"code":"INTERNAL_ERROR"},"is_final":true`).done().String(),
		"cancelled":      busy().f("cancelled", `"error":{"code":"REQUEST_CANCELLED"}`).done().String(),
		"lost at eof":    busy().String(),
		"lost at [DONE]": busy().done().String(),
		"v0.4 error":     newTurn("r1").open().f("tool_call", toolExtra).f("data_loading", dataExtra).f("error", `"error":{"code":"INTERNAL_ERROR"},"is_final":false`).String(),
		"user cancelled": busy().String(),
	} {
		r, _ := replayStream(stream)
		if name == "user cancelled" {
			r = NewClientRun(ProfileV05)
			r.Transport(TransportEvent{Input: InConnect})
			r.Transport(TransportEvent{Input: InFirstByte})
			r.Step(sampleFrame(InResponseID, GuardNone))
			r.Step(sampleFrame(InToolCall, GuardNone))
			r.Step(sampleFrame(InDataLoading, GuardNone))
			r.Transport(TransportEvent{Input: InUserCancel})
		}
		v := r.View()
		if !IsFinished(r.State()) || len(v.Tools) != 1 || len(v.Components) != 1 {
			t.Errorf("%s: %s, tools %v, components %v", name, r.State(), v.Tools, v.Components)
			continue
		}
		if v.Tools[0].State != ToolStopped || v.Components[0].State != CompUnavailable || v.Progress != SubNone || v.Pending || v.Running != 0 {
			t.Errorf("%s: not settled: %+v", name, v.Conformance())
		}
		if msg := viewInvariants(r); msg != "" {
			t.Errorf("%s: %s", name, msg)
		}
	}
}

// TestReplaceInvalidUTF8 follows the WHATWG UTF-8 decoder: one U+FFFD per
// maximal ill-formed subsequence.
func TestReplaceInvalidUTF8(t *testing.T) {
	const R = "\uFFFD"
	for in, want := range map[string]string{
		"plain":                 "plain",
		"caf\xc3\xa9":           "café",
		"a\xffb":                "a" + R + "b",
		"\xe2\x82":              R,
		"\xe2\x82c":             R + "c",
		"\xed\xa0\x80":          R + R + R, // a surrogate: ED accepts 80–9F only
		"\xf0\x9f\x98":          R,
		"\xf0\x9f\x98\x80":      "😀",
		"\xc0\xaf":              R + R, // overlong: C0 is never a lead byte
		"\xf4\x90\x80\x80":      R + R + R + R,
		"\xe0\x80\x80":          R + R + R,
		"x\xf0\x9f\x98\x80\xff": "x😀" + R,
	} {
		if got := string(replaceInvalidUTF8([]byte(in))); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}
