package replay

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects"
	"framescope/sessions/report"
)

// Scenario is one built-in turn the reference relay (NewRelay) can play.
type Scenario struct {
	Name    string
	Summary string
	// Version is the turn's envelope version ("0.5", or "0.4" for v04).
	Version string
	// Expect is what `check` reports on a full, undisturbed run of the
	// scenario (read as raw SSE, no timing): one entry per rule and
	// severity, in TallyAlarms order. Empty means no alarm at all.
	Expect []AlarmTally

	// Dialect is the dialect the scenario speaks ("" = pc3).
	Dialect string

	// play is the simulated upstream (consumer-agent) of the turn.
	play func(u *scnUpstream)
	// script, for the demos dialects ship: SSE blocks the relay sends as
	// they are, pace apart (no envelope, no synthesized [DONE]).
	script []string
	pace   time.Duration
	// ndjson: the demo's dialect is served as application/x-ndjson, each
	// block's data one line (scenarios_ndjson.go).
	ndjson bool
	// hold: the relay keeps every frame back until the turn's [DONE] and
	// then sends them in one write, as a buffering proxy (nginx without
	// X-Accel-Buffering: no, a CDN) does (docs/timing.md).
	hold bool
}

// AlarmTally counts the alarms of one rule at one severity.
type AlarmTally struct {
	Rule     string
	Severity invariants.Severity
	Count    int
}

// Clean reports whether a full run raises no error or warn alarm.
func (s Scenario) Clean() bool {
	for _, a := range s.Expect {
		if a.Severity.Rank() >= invariants.SevWarn.Rank() {
			return false
		}
	}
	return true
}

// TallyAlarms counts a report's alarms by rule and severity, most severe
// first, then by rule name (the order of Scenario.Expect).
func TallyAlarms(alarms []report.ReportAlarm) []AlarmTally {
	idx := map[AlarmTally]int{}
	var out []AlarmTally
	for _, a := range alarms {
		k := AlarmTally{Rule: a.Rule, Severity: a.Severity}
		if i, ok := idx[k]; ok {
			out[i].Count++
			continue
		}
		idx[k] = len(out)
		k.Count = 1
		out = append(out, k)
	}
	sortTallies(out)
	return out
}

func sortTallies(ts []AlarmTally) {
	sort.SliceStable(ts, func(i, j int) bool {
		if ri, rj := ts[i].Severity.Rank(), ts[j].Severity.Rank(); ri != rj {
			return ri > rj
		}
		return ts[i].Rule < ts[j].Rule
	})
}

// Scenarios returns the built-in scenarios in a stable order: PC3's, then
// each dialect's demos.
func Scenarios() []Scenario {
	all := allScenarios()
	out := make([]Scenario, len(all))
	for i, s := range all {
		s.Expect = append([]AlarmTally(nil), s.Expect...)
		out[i] = s
	}
	return out
}

// LookupScenario finds a built-in scenario by name.
func LookupScenario(name string) (Scenario, bool) {
	for _, s := range allScenarios() {
		if s.Name == name {
			s.Expect = append([]AlarmTally(nil), s.Expect...)
			return s, true
		}
	}
	return Scenario{}, false
}

// ScenarioNames lists the built-in scenario names in order.
//
// It checks nothing: a scenario's Expect (its demo checked) is worked out
// on first use of Scenarios or LookupScenario, not for the command line's
// help and completion, which every start of framescope builds.
func ScenarioNames() []string {
	names := make([]string, 0, len(scenarioList)+2*len(dialects.All))
	for _, s := range scenarioList {
		names = append(names, s.Name)
	}
	for _, d := range dialects.All {
		if dm, ok := d.(invariants.Demoer); ok {
			for _, demo := range dm.Demos() {
				names = append(names, demoScenarioName(d.Name(), demo))
			}
		}
	}
	return names
}

func scnExpect(ts ...AlarmTally) []AlarmTally {
	sortTallies(ts)
	return ts
}

func scnTally(rule string, sev invariants.Severity, n int) AlarmTally {
	return AlarmTally{Rule: rule, Severity: sev, Count: n}
}

const scnMs = time.Millisecond

var scenarioList = []Scenario{
	{
		Name:    "happy",
		Summary: "the §5.5 example turn: status, a tool call, a component, streamed text, usage, completed (~2.6 s)",
		Version: "0.5",
		Expect:  scnExpect(scnTally("client-divergence", invariants.SevInfo, 1)),
		play:    playHappy,
	},
	{
		Name:    "buffered",
		Summary: "the happy turn held back on the way (a buffering proxy): the first frame passes, the rest arrive at once after ~2.6 s; live, delivery-buffered names it (docs/timing.md)",
		Version: "0.5",
		Expect:  scnExpect(scnTally("client-divergence", invariants.SevInfo, 1)),
		play:    playHappy,
		hold:    true,
	},
	{
		Name:    "fanout",
		Summary: "two sub-agents in parallel: interleaved tool calls, ONE batched status frame (AC-2), two components, text, completed (~2.5 s)",
		Version: "0.5",
		Expect:  scnExpect(scnTally("client-divergence", invariants.SevInfo, 1)),
		play:    playFanout,
	},
	{
		Name:    "axis1",
		Summary: "Axis 1: the only sub-agent fails; terminal error SUB_AGENT_FAILED {sub_agent_id}, is_final true, no completed (AC-11) (~1.6 s)",
		Version: "0.5",
		Expect:  scnExpect(scnTally("client-divergence", invariants.SevInfo, 1)),
		play:    playAxis1,
	},
	{
		Name:    "axis2",
		Summary: "Axis 2: non-terminal CCS_ENVELOPE_ERROR {enricher_id, reason} is_final false, apology text, completed (AC-3, AC-12) (~1.9 s)",
		Version: "0.5",
		Expect:  scnExpect(scnTally("client-divergence", invariants.SevInfo, 2)),
		play:    playAxis2,
	},
	{
		Name:    "axis3",
		Summary: "Axis 3: three sub-agents, two fail; PARTIAL_FAN_OUT with an Axis-1 and an Axis-2 record, is_final false, degraded text, completed (~2.4 s)",
		Version: "0.5",
		Expect:  scnExpect(scnTally("client-divergence", invariants.SevInfo, 1)),
		play:    playAxis3,
	},
	{
		Name:    "cancel",
		Summary: "a long answer (~10 s); disconnect mid-turn and the relay cancels upstream, then forwards cancelled REQUEST_CANCELLED + [DONE] to whatever is still open (§5.6)",
		Version: "0.5",
		Expect:  scnExpect(scnTally("client-divergence", invariants.SevInfo, 1)),
		play:    playCancel,
	},
	{
		Name:    "idle",
		Summary: "upstream goes silent after a few frames; after the relay's idle timeout it synthesizes cancelled IDLE_TIMEOUT + [DONE] (NFR-6)",
		Version: "0.5",
		Expect:  scnExpect(scnTally("client-divergence", invariants.SevInfo, 2)),
		play:    playIdle,
	},
	{
		Name:    "v04",
		Summary: "the happy turn in v0.4 framing (version 0.4, text with type:\"chunk\", no status), cancelled the v0.4 way: error REQUEST_CANCELLED (~2.2 s)",
		Version: "0.4",
		Expect:  nil,
		play:    playV04,
	},
	{
		Name:    "broken",
		Summary: "the alarm demo: one turn that trips 18 different rules (16 of them error or warn) (~2 s)",
		Version: "0.5",
		Expect: scnExpect(
			scnTally("after-terminal", invariants.SevError, 2),
			scnTally("envelope-leak", invariants.SevError, 1),
			scnTally("error-is-final", invariants.SevError, 1),
			scnTally("error-leak", invariants.SevError, 1),
			scnTally("frame-json", invariants.SevError, 1),
			scnTally("internal-leak", invariants.SevError, 1),
			scnTally("sse-event-mismatch", invariants.SevError, 1),
			scnTally("status-prose", invariants.SevError, 1),
			scnTally("terminal-duplicate", invariants.SevError, 1),
			scnTally("tool-mismatch", invariants.SevError, 1),
			scnTally("tool-orphan", invariants.SevError, 1),
			scnTally("episode-malformed", invariants.SevWarn, 1),
			scnTally("error-code-in-text", invariants.SevWarn, 1),
			scnTally("response-id-frame", invariants.SevWarn, 1),
			scnTally("timestamp-order", invariants.SevWarn, 1),
			scnTally("usage-malformed", invariants.SevWarn, 1),
			scnTally("client-divergence", invariants.SevInfo, 1),
			scnTally("event-unknown", invariants.SevInfo, 2),
		),
		play: playBroken,
	},
	{
		Name:    "flood",
		Summary: "a long answer streamed as fast as possible: response_id, many small text frames (--flood-frames, default 50,000), completed — no pauses at any speed",
		Version: "0.5",
		Expect:  nil,
		play:    playFlood,
	},
}

// --- payload building --------------------------------------------------------

// scnField is one member of an ordered JSON object.
type scnField struct {
	k string
	v any
}

// scnObj is a JSON object whose members keep their order on the wire.
type scnObj []scnField

// scnArr is a JSON array.
type scnArr []any

// scnAppendJSON encodes the values the scenarios use: scnObj, scnArr, string, bool,
// int and nil. Strings keep their UTF-8 (no HTML escaping).
func scnAppendJSON(b []byte, v any) []byte {
	switch x := v.(type) {
	case scnObj:
		b = append(b, '{')
		b = scnAppendMembers(b, x)
		return append(b, '}')
	case scnArr:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = scnAppendJSON(b, e)
		}
		return append(b, ']')
	case string:
		return decode.AppendJSONString(b, x)
	case bool:
		return strconv.AppendBool(b, x)
	case int:
		return strconv.AppendInt(b, int64(x), 10)
	case nil:
		return append(b, "null"...)
	}
	panic(fmt.Sprintf("scenarios: cannot encode %T", v))
}

func scnAppendMembers(b []byte, o scnObj) []byte {
	for i, m := range o {
		if i > 0 {
			b = append(b, ',')
		}
		b = decode.AppendJSONString(b, m.k)
		b = append(b, ':')
		b = scnAppendJSON(b, m.v)
	}
	return b
}

func scnTool(id, name, typ string) scnField {
	return scnField{"tool_call", scnObj{{"id", id}, {"name", name}, {"type", typ}}}
}

func scnStatus(id, message string) scnField {
	return scnField{"data", scnObj{{"event_id", id}, {"message", message}}}
}

func scnIDs(list ...string) scnObj {
	arr := make(scnArr, len(list))
	for i, id := range list {
		arr[i] = scnObj{{"id", id}}
	}
	return scnObj{{"ids", arr}}
}

func scnUsage(in, out, reasoning, cached int) []scnField {
	return []scnField{
		{"input_tokens", in}, {"output_tokens", out}, {"total_tokens", in + out},
		{"reasoning_tokens", reasoning}, {"cached_tokens", cached},
	}
}

// --- the scenarios -------------------------------------------------------------

var scnHappyOffers = scnArr{
	scnObj{{"id", "OFF_1"}, {"title", "10% off"}, {"merchant", "Café Rover"}},
	scnObj{{"id", "OFF_2"}, {"title", "2x points"}, {"merchant", "Harbor Hotel"}},
}

func playHappy(u *scnUpstream) {
	u.frame(0, "response_id")
	u.frame(100*scnMs, "episode", scnField{"episode_id", "ep_5f1c9a"})
	u.frame(100*scnMs, "thinking")
	u.frame(200*scnMs, "status", scnStatus("searching_offers", "Searching for offers..."))
	u.frame(100*scnMs, "tool_call", scnTool("call_1", "search_offers", "mcp"))
	u.frame(800*scnMs, "tool_completed", scnTool("call_1", "search_offers", "mcp"))
	key := scnIDs("OFF_1", "OFF_2")
	u.frame(100*scnMs, "data_loading", scnField{"data", scnObj{{"id", "offer-list-1"}, {"type", "offer_list"}, {"key", key}}})
	u.frame(500*scnMs, "data_loaded", scnField{"data", scnObj{{"id", "offer-list-1"}, {"type", "offer_list"}, {"key", key}, {"items", scnHappyOffers}}})
	for i, c := range []string{
		"Here are some offers near you: ",
		"10% off at Café Rover, ",
		"and 2x points for a night at Harbor Hotel. ",
		"Want me to save one to your wallet?",
	} {
		wait := 150 * scnMs
		if i == 0 {
			wait = 200 * scnMs
		}
		u.frame(wait, "text", scnField{"chunk", c})
	}
	u.frame(100*scnMs, "usage", scnUsage(812, 164, 0, 256)...)
	u.frame(100*scnMs, "completed")
}

func playFanout(u *scnUpstream) {
	u.frame(0, "response_id")
	u.frame(100*scnMs, "episode", scnField{"episode_id", "ep_9b20d4"})
	u.frame(100*scnMs, "thinking")
	// Both sub-agents start at once; their two status events (searching_offers,
	// looking_up_points_balance) are batched into one frame (AC-2).
	u.frame(150*scnMs, "tool_call", scnTool("call_offers", "search_offers", "mcp"))
	u.frame(30*scnMs, "tool_call", scnTool("call_points", "lookup_points_balance", "mcp"))
	u.frame(70*scnMs, "status", scnStatus("searching_offers_and_points", "Searching offers and looking up your points…"))
	u.frame(500*scnMs, "tool_completed", scnTool("call_points", "lookup_points_balance", "mcp"))
	u.frame(400*scnMs, "tool_completed", scnTool("call_offers", "search_offers", "mcp"))
	u.frame(150*scnMs, "component",
		scnField{"chunk", scnObj{{"component", "offer_carousel"}, {"offers", scnArr{
			scnObj{{"id", "OFF_1"}, {"title", "10% off"}},
			scnObj{{"id", "OFF_3"}, {"title", "Free upgrade"}},
		}}}},
		scnTool("call_render_1", "render_offer_carousel", "function"))
	u.frame(100*scnMs, "component",
		scnField{"chunk", scnObj{{"component", "points_balance"}, {"points", 12450}, {"tier", "gold"}}},
		scnTool("call_render_2", "render_points_balance", "function"))
	u.frame(200*scnMs, "text", scnField{"chunk", "You have 12,450 points. "})
	u.frame(150*scnMs, "text", scnField{"chunk", "Two offers fit your trip: 10% off, or a free room upgrade "})
	u.frame(150*scnMs, "text", scnField{"chunk", "you can pay for with points."})
	u.frame(100*scnMs, "usage", scnUsage(1290, 201, 0, 512)...)
	u.frame(100*scnMs, "completed")
}

func playAxis1(u *scnUpstream) {
	u.frame(0, "response_id")
	u.frame(100*scnMs, "thinking")
	u.frame(200*scnMs, "status", scnStatus("searching_offers", "Searching for offers..."))
	u.frame(100*scnMs, "tool_call", scnTool("call_1", "search_offers", "mcp"))
	// The shop sub-agent times out: no envelope ever came back.
	u.frame(1000*scnMs, "tool_completed", scnTool("call_1", "search_offers", "mcp"))
	u.frame(200*scnMs, "error", scnField{"error", scnObj{{"code", "SUB_AGENT_FAILED"}, {"sub_agent_id", "shop"}}}, scnField{"is_final", true})
}

func playAxis2(u *scnUpstream) {
	u.frame(0, "response_id")
	u.frame(100*scnMs, "thinking")
	u.frame(200*scnMs, "status", scnStatus("looking_up_points_balance", "Looking up your points balance…"))
	u.frame(100*scnMs, "tool_call", scnTool("call_1", "lookup_points_balance", "mcp"))
	u.frame(700*scnMs, "tool_completed", scnTool("call_1", "lookup_points_balance", "mcp"))
	// The loyalty CCS call returned envelope.status="error": telemetry frame
	// (is_final false), then the orchestrator's apology and completed.
	u.frame(100*scnMs, "error", scnField{"error", scnObj{{"code", "CCS_ENVELOPE_ERROR"}, {"enricher_id", "loyalty_points"}, {"reason", "upstream_unavailable"}}}, scnField{"is_final", false})
	u.frame(200*scnMs, "text", scnField{"chunk", "I wasn't able to look up your points balance right now. "})
	u.frame(150*scnMs, "text", scnField{"chunk", "Please try again in a few minutes."})
	u.frame(100*scnMs, "usage", scnUsage(640, 38, 0, 0)...)
	u.frame(100*scnMs, "completed")
}

func playAxis3(u *scnUpstream) {
	u.frame(0, "response_id")
	u.frame(100*scnMs, "thinking")
	u.frame(150*scnMs, "tool_call", scnTool("call_offers", "search_offers", "mcp"))
	u.frame(20*scnMs, "tool_call", scnTool("call_points", "lookup_points_balance", "mcp"))
	u.frame(20*scnMs, "tool_call", scnTool("call_trips", "search_trips", "mcp"))
	u.frame(500*scnMs, "tool_completed", scnTool("call_trips", "search_trips", "mcp"))
	u.frame(300*scnMs, "tool_completed", scnTool("call_offers", "search_offers", "mcp"))
	u.frame(300*scnMs, "tool_completed", scnTool("call_points", "lookup_points_balance", "mcp"))
	key := scnIDs("TRIP_1", "TRIP_2")
	u.frame(100*scnMs, "data_loading", scnField{"data", scnObj{{"id", "trip-list-1"}, {"type", "trip_list"}, {"key", key}}})
	u.frame(200*scnMs, "data_loaded", scnField{"data", scnObj{{"id", "trip-list-1"}, {"type", "trip_list"}, {"key", key}, {"items", scnArr{
		scnObj{{"id", "TRIP_1"}, {"title", "Lisbon, 3 nights"}},
		scnObj{{"id", "TRIP_2"}, {"title", "Porto, 2 nights"}},
	}}}})
	// points failed entirely (Axis 1); the offers enricher timed out (Axis 2).
	u.frame(100*scnMs, "error", scnField{"error", scnObj{{"code", "PARTIAL_FAN_OUT"}, {"failed", scnArr{
		scnObj{{"sub_agent_id", "points"}},
		scnObj{{"enricher_id", "offers_catalog"}, {"reason", "upstream_timeout"}},
	}}}}, scnField{"is_final", false})
	u.frame(200*scnMs, "text", scnField{"chunk", "Here are two trips that fit your dates. "})
	u.frame(150*scnMs, "text", scnField{"chunk", "I couldn't check offers or your points balance just now, so they aren't included."})
	u.frame(100*scnMs, "usage", scnUsage(1502, 97, 0, 300)...)
	u.frame(100*scnMs, "completed")
}

var scnCancelChunks = []string{
	"Here's a plan ", "for three days ", "in Lisbon. ",
	"Day one: ", "start in Alfama ", "with a walk ", "up to the castle, ", "then lunch ", "near the cathedral. ",
	"In the afternoon, ", "take tram 28 ", "across the old town ", "and stop at ", "a viewpoint ", "for the sunset. ",
	"Day two: ", "head to Belém ", "for the tower, ", "the monastery ", "and the famous ", "custard tarts. ",
	"Spend the evening ", "in Bairro Alto, ", "where the bars ", "spill onto the street. ",
	"Day three: ", "take a train ", "to Sintra ", "for the palaces ", "and the gardens, ", "and be back ", "in time ", "for dinner ",
	"by the river. ", "Your offers ", "apply to two ", "of the restaurants ", "on the way. ", "Enjoy ", "the trip!",
}

func playCancel(u *scnUpstream) {
	u.frame(0, "response_id")
	u.frame(100*scnMs, "episode", scnField{"episode_id", "ep_c4a117"})
	u.frame(100*scnMs, "thinking")
	u.frame(200*scnMs, "status", scnStatus("planning_itinerary", "Planning your trip…"))
	for _, c := range scnCancelChunks {
		u.frame(240*scnMs, "text", scnField{"chunk", c})
	}
	u.frame(100*scnMs, "usage", scnUsage(980, 412, 0, 0)...)
	u.frame(100*scnMs, "completed")
}

func playIdle(u *scnUpstream) {
	u.frame(0, "response_id")
	u.frame(100*scnMs, "thinking")
	u.frame(200*scnMs, "status", scnStatus("searching_offers", "Searching for offers..."))
	u.frame(150*scnMs, "text", scnField{"chunk", "Let me look that up for you."})
	u.stall() // a stuck sub-agent: nothing more until the relay cancels
}

func playV04(u *scnUpstream) {
	u.frame(0, "response_id")
	u.frame(100*scnMs, "episode", scnField{"episode_id", "ep_5f1c9a"})
	u.frame(100*scnMs, "thinking")
	u.frame(300*scnMs, "tool_call", scnTool("call_1", "search_offers", "mcp"))
	u.frame(800*scnMs, "tool_completed", scnTool("call_1", "search_offers", "mcp"))
	key := scnIDs("OFF_1", "OFF_2")
	u.frame(100*scnMs, "data_loading", scnField{"data", scnObj{{"id", "offer-list-1"}, {"type", "offer_list"}, {"key", key}}})
	u.frame(500*scnMs, "data_loaded", scnField{"data", scnObj{{"id", "offer-list-1"}, {"type", "offer_list"}, {"key", key}, {"items", scnHappyOffers}}})
	u.frame(200*scnMs, "text", scnField{"type", "chunk"}, scnField{"chunk", "Here are some offers near you: "})
	u.frame(150*scnMs, "text", scnField{"type", "chunk"}, scnField{"chunk", "10% off at Café Rover, "})
	// The user stops the answer: v0.4 said "cancelled" with an error frame.
	u.frame(100*scnMs, "error", scnField{"error", scnObj{{"code", "REQUEST_CANCELLED"}}})
}

// playBroken trips one or more rules on nearly every frame. Frame by frame
// (index: what fires):
//
//	 0 thinking before any response_id frame
//	 1 response_id, not first              response-id-frame (warn)
//	 2 episode with an empty episode_id    episode-malformed (warn)
//	 3 status with prose event_id          status-prose (error), client-divergence (info)
//	 4 tool_completed call_0, never called tool-orphan (error)
//	 5 tool_call call_1 search_offers
//	 6 tool_completed call_1 find_offers   tool-mismatch (error)
//	 7 data_loading offer-list-1
//	 8 data_loaded with a PS6 envelope     envelope-leak (error)
//	 9 support_content                     internal-leak (error), event-unknown (info)
//	10 ui_hint (unknown type)              event-unknown (info)
//	11 text showing RATE_LIMIT_ERROR       error-code-in-text (warn)
//	12 text stamped 5 s in the past        timestamp-order (warn)
//	13 SSE event "message", JSON text      sse-event-mismatch (error)
//	14 data that is not JSON               frame-json (error)
//	15 usage whose total is wrong          usage-malformed (warn)
//	16 completed
//	17 text after the terminal             after-terminal (error)
//	18 error, stack trace, no is_final     after-terminal, error-is-final, error-leak, terminal-duplicate (error)
//	19 [DONE]
func playBroken(u *scnUpstream) {
	w := 100 * scnMs
	u.frame(0, "thinking")
	u.frame(w, "response_id")
	u.frame(w, "episode", scnField{"episode_id", ""})
	u.frame(w, "status", scnStatus("Searching for offers...", "Searching for offers..."))
	u.frame(w, "tool_completed", scnTool("call_0", "lookup_points_balance", "mcp"))
	u.frame(w, "tool_call", scnTool("call_1", "search_offers", "mcp"))
	u.frame(w, "tool_completed", scnTool("call_1", "find_offers", "mcp"))
	key := scnIDs("OFF_1")
	u.frame(w, "data_loading", scnField{"data", scnObj{{"id", "offer-list-1"}, {"type", "offer_list"}, {"key", key}}})
	u.frame(w, "data_loaded", scnField{"data", scnObj{{"id", "offer-list-1"}, {"type", "offer_list"}, {"key", key}, {"items", scnArr{
		scnObj{{"enricher_id", "offers_catalog"}, {"domain_type", "offer"}, {"cache_meta", scnObj{{"hit", true}, {"age_s", 42}}},
			{"payload", scnObj{{"id", "OFF_1"}, {"title", "10% off"}}}},
	}}}})
	u.frame(w, "support_content", scnField{"content", "Internal runbook: if offers are empty, retry with region=EU."})
	u.frame(w, "ui_hint", scnField{"hint", "scroll_to_bottom"})
	u.frame(w, "text", scnField{"chunk", "Sorry, I hit RATE_LIMIT_ERROR. "})
	u.emit(scnStep{wait: w, typ: "text", fields: []scnField{{"chunk", "Here is what I found anyway: "}}, skew: -5 * time.Second})
	u.emit(scnStep{wait: w, event: "message", typ: "text", fields: []scnField{{"chunk", "10% off at Café Rover."}}})
	u.emit(scnStep{wait: w, event: "text", raw: `{"event_type":"text","version":"0.5","chunk":"this frame was cut off`})
	u.frame(w, "usage", scnField{"input_tokens", 512}, scnField{"output_tokens", 64}, scnField{"total_tokens", 999})
	u.frame(w, "completed")
	u.frame(w, "text", scnField{"chunk", "One more thing: "})
	u.frame(w, "error", scnField{"error", scnObj{{"code", "INTERNAL_ERROR"}, {"message",
		"Traceback (most recent call last):\n  File \"/srv/agent/orchestrator.py\", line 88, in dispatch\nKeyError: 'points'"}}})
}

var scnFloodWords = strings.Fields(`the quick summary of your year in travel covers every trip you
took with points and every offer you used along the way from city breaks to long weekends by
the sea and each stay earned something back`)

func playFlood(u *scnUpstream) {
	u.frame(0, "response_id")
	for i := 0; i < u.floodFrames && !u.stopped(); i++ {
		u.frame(0, "text", scnField{"chunk", scnFloodWords[i%len(scnFloodWords)] + " "})
	}
	u.frame(0, "completed")
}
