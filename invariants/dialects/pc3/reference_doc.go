package pc3

// The prose of docs/client-state-machine.md that is not printed from the
// tables: the wire format, transport and resumption, what the bubble
// shows, the conformance kit and the open questions. Each worked example
// is a real frame; TestWireExamples reads it back through the decoder and
// the machine.

// WireExample is one worked example frame of the wire-format section.
type WireExample struct {
	Input Input  `json:"input"`
	SSE   string `json:"sse"`
	Does  string `json:"does"`
}

// wireExamples: one frame per input, in vocabulary order, with what the
// v0.5 client does with it in an open turn.
var wireExamples = []WireExample{
	{InResponseID, `event: response_id
data: {"event_type":"response_id","version":"0.5","timestamp":"2026-05-15T18:00:00.000Z","response_id":"resp_abc"}
`, "Opens the turn and binds the bubble to `resp_abc` (`bound_response_id`). No payload: the envelope's `response_id` is the data. Exactly once per turn, first (§5.5)."},
	{InEpisode, `event: episode
data: {"event_type":"episode","version":"0.5","timestamp":"2026-05-15T18:00:00.050Z","response_id":"resp_abc","episode_id":"ep_123"}
`, "Recorded for analytics; nothing on screen."},
	{InThinking, `event: thinking
data: {"event_type":"thinking","version":"0.5","timestamp":"2026-05-15T18:00:00.100Z","response_id":"resp_abc"}
`, "The progress line shows a thinking indicator (unless it shows a status message or running tools). The optional `{content, role}` payload is not shown."},
	{InReasoning, `event: reasoning
data: {"event_type":"reasoning","version":"0.5","timestamp":"2026-05-15T18:00:00.150Z","response_id":"resp_abc","chunk":"The user wants offers near them."}
`, "Drives the thinking indicator like `thinking`; the chunk is model reasoning, never answer text."},
	{InText, `event: text
data: {"event_type":"text","version":"0.5","timestamp":"2026-05-15T18:00:02.000Z","response_id":"resp_abc","chunk":"Here are some offers near you..."}
`, "Appends `chunk` to the bubble's text and hides the progress line. A v0.4 frame may also carry `\"type\":\"chunk\"`; it changes nothing."},
	{InToolCall, `event: tool_call
data: {"event_type":"tool_call","version":"0.5","timestamp":"2026-05-15T18:00:00.400Z","response_id":"resp_abc","tool_call":{"id":"call_1","name":"search_offers","type":"mcp"}}
`, "Opens a running indicator keyed by `tool_call.id`; the progress line shows \"1 tool running\" unless it shows a status message."},
	{InToolCompleted, `event: tool_completed
data: {"event_type":"tool_completed","version":"0.5","timestamp":"2026-05-15T18:00:01.200Z","response_id":"resp_abc","tool_call":{"id":"call_1","name":"search_offers","type":"mcp"}}
`, "Marks the indicator of `call_1` done (the id decides; a name or type mismatch is only the checker's concern)."},
	{InDataLoading, `event: data_loading
data: {"event_type":"data_loading","version":"0.5","timestamp":"2026-05-15T18:00:01.300Z","response_id":"resp_abc","data":{"id":"offer-list-1","type":"offer_list","key":{"ids":[{"id":"OFF_1"},{"id":"OFF_2"}]}}}
`, "Renders a skeleton placeholder keyed by `data.id`."},
	{InDataLoaded, `event: data_loaded
data: {"event_type":"data_loaded","version":"0.5","timestamp":"2026-05-15T18:00:01.800Z","response_id":"resp_abc","data":{"id":"offer-list-1","type":"offer_list","key":{"ids":[{"id":"OFF_1"},{"id":"OFF_2"}]},"items":[{"id":"OFF_1","title":"10% off"},{"id":"OFF_2","title":"2x points"}]}}
`, "Replaces the skeleton of `offer-list-1` with one card per element of `data.items` (each an unwrapped PS6 payload)."},
	{InComponent, `event: component
data: {"event_type":"component","version":"0.5","timestamp":"2026-05-15T18:00:01.900Z","response_id":"resp_abc","chunk":{"type":"offer_card","id":"OFF_1"},"tool_call":{"id":"call_2","name":"render_offer_card","type":"function"}}
`, "Renders `chunk` as a card in the bubble's body (the `render_*` path)."},
	{InUsage, `event: usage
data: {"event_type":"usage","version":"0.5","timestamp":"2026-05-15T18:00:02.400Z","response_id":"resp_abc","input_tokens":812,"output_tokens":64,"total_tokens":876,"reasoning_tokens":0,"cached_tokens":512}
`, "Recorded; nothing on screen."},
	{InStatus, `event: status
data: {"event_type":"status","version":"0.5","timestamp":"2026-05-15T18:00:00.300Z","response_id":"resp_abc","data":{"event_id":"searching_offers","message":"Searching for offers..."}}
`, "The progress line shows `data.message` verbatim (rendered and localised server-side); `data.event_id` may pick an icon. A v0.4 client ignores the frame."},
	{InError, `event: error
data: {"event_type":"error","version":"0.5","timestamp":"2026-05-15T18:00:01.500Z","response_id":"resp_abc","error":{"code":"CCS_ENVELOPE_ERROR","enricher_id":"offers","reason":"upstream_timeout"},"is_final":false}
`, "`error.code` is one of §5.7's failure codes. `is_final` sits in the payload, not the envelope (FR-17). `false`: recorded for telemetry, the turn goes on (degraded); the apology arrives as `text`. `true` (or absent, or any v0.4 error): the turn ends as failed; the code is never shown."},
	{InCompleted, `event: completed
data: {"event_type":"completed","version":"0.5","timestamp":"2026-05-15T18:00:02.500Z","response_id":"resp_abc"}
`, "Ends the turn successfully: the authoritative end (FR-9)."},
	{InCancelled, `event: cancelled
data: {"event_type":"cancelled","version":"0.5","timestamp":"2026-05-15T18:00:30.000Z","response_id":"resp_abc","error":{"code":"IDLE_TIMEOUT"}}
`, "Ends the turn as cancelled, not failed: IDLE_TIMEOUT says it took too long (offer retry), REQUEST_CANCELLED that it was stopped. A v0.4 client ignores it."},
	{InMCP, `event: mcp_session_start
data: {"event_type":"mcp_session_start","version":"0.4","timestamp":"2026-05-15T18:00:00.200Z","response_id":"resp_abc"}
`, "A legacy lifecycle frame (deprecating, Phase 6): ignored."},
	{InUnknown, `event: heartbeat
data: {"event_type":"heartbeat","version":"0.5","timestamp":"2026-05-15T18:00:00.250Z","response_id":"resp_abc"}
`, "An unknown type: ignored, never a protocol error (FR-12)."},
	{InUndecodable, `data: {"event_type":"text","chunk":"cut off
`, "Not a JSON object: ignored; the turn goes on (after `[DONE]` it is a violation of the closed stream, never a new turn)."},
	{InDone, `data: [DONE]
`, "The sentinel: the data is exactly the six bytes `[DONE]` (after SSE strips one space after the colon), with or without an `event:` line; `[DONE] ` or `\"[DONE]\"` is not it. After the terminal it closes the turn's transport; before any terminal the turn is lost (never success)."},
}

// docWireFormat is the wire-format section before the worked examples.
const docWireFormat = `## The wire format

A PC3 response is a ` + "`text/event-stream`" + ` body: Server-Sent Events, parsed as the WHATWG HTML standard's "event stream interpretation" says. What a client needs:

- **Decoding.** Decode the body as UTF-8, replacing each maximal ill-formed byte sequence with one U+FFFD (the WHATWG UTF-8 decoder); skip one leading byte-order mark (EF BB BF) at the very start.
- **Lines.** A line ends at CRLF, LF or CR (all three, mixed). A line starting with ` + "`:`" + ` is a comment (` + "`: keepalive`" + `): ignore it. Otherwise the field name runs to the first ` + "`:`" + `; one space after it is dropped; a line without ` + "`:`" + ` is a field with an empty value. Fields other than ` + "`event`" + `, ` + "`data`" + `, ` + "`id`" + `, ` + "`retry`" + ` are ignored.
- **Events.** A blank line ends an event. Its ` + "`data`" + ` lines are joined with LF (multi-line data is legal); an event with no ` + "`data`" + ` line is not a frame. **A frame is an event with data.** An event the stream ends in the middle of (no blank line before EOF) is discarded, never a frame.
- **The type lives in the JSON.** Read ` + "`event_type`" + ` from the data; the SSE ` + "`event:`" + ` field normally repeats it (§5.5) but may be missing (data-only framing) or disagree (framescope check's ` + "`sse-event-mismatch`" + `): dispatch on ` + "`event_type`" + `, never on ` + "`event:`" + `.
- **The envelope** (FR-2) sits at the top level of the data object, beside the payload: ` + "`event_type`, `version`, `timestamp`, `response_id`" + `, each a string. ` + "`version`" + ` is ` + "`\"0.4\"`" + ` or ` + "`\"0.5\"`" + ` and decides, per frame, whether v0.4 rules apply (an ` + "`error`" + ` labelled 0.4 is always terminal); any other value reads as v0.5, the additive superset. ` + "`is_final`" + ` is a payload field of ` + "`error`" + ` frames only (FR-17), a JSON boolean; a string ` + "`\"false\"`" + ` is not false.
- **The JSON.** The data is one RFC 8259 JSON value; anything else (` + "`NaN`" + `, a trailing comma, a second value) is undecodable. Member names and strings are compared after unescaping (` + "`\"t\\u0065xt\"`" + ` is ` + "`text`" + `); an escaped lone surrogate (` + "`\\ud800`" + `) reads as U+FFFD. When a member name repeats, the last one counts, at every level. A frame is read whole, whatever its size, up to the client's own limit (see Leniency).
- **Identifiers are non-empty strings.** ` + "`response_id`, `tool_call.id`, `data.id`" + ` are identifiers only when they are non-empty JSON strings, compared byte for byte after unescaping; a number, null or ` + "`\"\"`" + ` is not an id (see Leniency): a tool or component frame without one has no key and is a violation. ` + "`rid(f)`" + ` below is a frame's ` + "`response_id`" + ` when it is a non-empty string, else none. Display fields (` + "`tool_call.name`, `tool_call.type`, `data.type`, `data.message`, `data.event_id`" + `) read as the empty string when they are not strings.
- **` + "`[DONE]`" + `** is not JSON: a frame whose data is exactly ` + "`[DONE]`" + `. Test it before parsing JSON.
- **Ignore unknown fields and unknown event types** (FR-12); payload fields the table below does not read change nothing.

### One frame of each type

Each example is the frame as it travels (the blank line that ends it omitted), then what a v0.5 client does with it in an open turn. The §5.5 example turn strings them together in this order: ` + "`response_id`, `thinking`, `status`, `tool_call`, `tool_completed`, `data_loading`, `data_loaded`, `text`, `completed`, `[DONE]`" + `.

`

// docLeniency is the leniency table.
const docLeniency = `### Leniency: what the client does with a frame that breaks the contract

The rule: **a frame the tables have no row for is ignored, whole** (no region applies half of it); ` + "`framescope check`" + ` reports it. These are the cases mobile teams asked about, each pinned by a probe in ` + "`testdata/reference/probes/`" + `:

| the frame | the client | checker |
|---|---|---|
| ` + "`text`" + ` with ` + "`chunk: null`" + ` (or a number, or no chunk) | ignores the frame | ` + "`text-malformed`" + ` |
| ` + "`component`" + ` with ` + "`chunk: null`" + ` | renders nothing; the turn goes on | — |
| ` + "`tool_call.id`" + ` a number (` + "`7`" + `) | no indicator opens; its ` + "`tool_completed`" + ` is ignored too | ` + "`tool-malformed`" + ` |
| ` + "`tool_call.id`" + ` or ` + "`data.id`" + ` the empty string | not an id: the frame is ignored | ` + "`tool-malformed`" + ` / ` + "`component-malformed`" + ` |
| escaped names or values (` + "`\"t\\u0065xt\"`" + `), a repeated member name, ` + "`NaN`" + `, a trailing comma, two JSON values | escapes decoded; the last of repeated names counts; the others are undecodable and ignored | ` + "`frame-json`" + ` (the undecodable ones) |
| the same SSE ` + "`id:`" + ` twice | no deduplication: PC3 gives ` + "`id:`" + ` no meaning, so a repeated ` + "`text`" + ` appends twice and a repeated ` + "`tool_call`" + ` is a duplicate (ignored) | ` + "`tool-duplicate`" + ` |
| a huge frame (320 KiB in the probe) | read normally. Accept at least 2 MiB per event (NFR-7 targets 256 KB; framescope check calls data over 1 MiB an error, and the kit's ` + "`rules/frame-size.fires-2`" + ` carries 1 MiB + 1 byte of data that the client must read); framescope itself reads an event block of up to 64 MiB as on the wire, its blank line included. An event over the client's own limit is read as undecodable and ignored, and the turn goes on | ` + "`frame-size`" + ` |
| JSON nested thousands of levels deep | read without recursion; nested payloads (` + "`data.items`" + ` elements, component chunks) are opaque, only counted | — |
| invalid UTF-8 | each maximal ill-formed sequence becomes one U+FFFD, in text, names and ids alike | ` + "`frame-utf8`" + ` |
| an empty 2xx body | connection lost at EOF | ` + "`terminal-missing`" + ` |
| a ` + "`response_id`" + ` that is absent, empty or not a string, inside an open turn | the frame still belongs to the turn (it arrived on the turn's request) | ` + "`envelope-missing`" + ` |
| a frame naming another ` + "`response_id`" + ` inside an open turn | ignored: it neither joins nor ends the turn | ` + "`envelope-drift`" + ` |
| after ` + "`[DONE]`" + `: an undecodable frame, or one whose ` + "`response_id`" + ` is none | ignored: a violation of the closed stream, never a new bubble | ` + "`frame-json`" + ` / ` + "`envelope-missing`" + ` |
| ` + "`error`" + ` with ` + "`is_final`" + ` absent or not a boolean (v0.5) | terminal: the robust (v0.4) reading | ` + "`error-is-final`" + ` |
| ` + "`cancelled`" + ` with a missing or unknown code | ends the turn as cancelled anyway | ` + "`cancel-code`" + ` |

`

// docTransport is the transport and resumption section.
const docTransport = `## Transport and resumption

- **One request, one turn.** Sending the user's message is one HTTP request whose response carries that message's turn (§9.2 traces a turn from the user request to its terminal). A retry, or the next message, is a new request and a new turn with a new ` + "`response_id`" + ` (` + "`connect`" + ` → ` + "`start_request`" + ` from any ended state).
- **No resumption.** PC3's framing (§5.5) has only ` + "`event:`" + ` and ` + "`data:`" + ` lines: a client never sends ` + "`Last-Event-ID`" + `, ignores ` + "`id:`" + ` (no deduplication either, see Leniency) and ignores ` + "`retry:`" + `. A dropped connection is not resumed: the turn is lost ("connection lost" with retry), and the retry is a new request.
- **When to close.** Keep reading after the terminal frame until ` + "`[DONE]`" + ` or EOF, then close the connection. The turn ended at its terminal frame (FR-9); ` + "`[DONE]`" + ` only says the transport is done with it (AC-4). After ` + "`[DONE]`" + ` only a frame naming a new ` + "`response_id`" + ` can begin another turn — in practice a capture holding the next request; a live client has closed by then.
- **Cancelling.** The user's cancel closes the connection (§5.6, client-initiated path): the turn shows as stopped at once; the relay's ` + "`cancelled`" + ` REQUEST_CANCELLED frame, if it is still written, never reaches this client (AC-6).
- **HTTP.** A non-2xx response carries no turn (PC3 defines no HTTP-level contract): show a failure with retry and do not read the body as frames.

### Why a stock EventSource gets this wrong

A browser-style ` + "`EventSource`" + ` (and libraries that copy it) would:

1. **reconnect by itself** when the response ends — even after a clean ` + "`[DONE]`" + ` and EOF — after the reconnection delay (` + "`retry:`" + ` or a default of a few seconds), re-sending the request with ` + "`Last-Event-ID`" + `. To the relay that is a new request: the user's message would be answered twice. Call ` + "`close()`" + ` at ` + "`[DONE]`" + `, at EOF and at every ended state, or use a plain streaming HTTP client;
2. only send GET requests without a body or custom headers, where a chat turn needs the user's message and credentials;
3. deliver events that have an ` + "`event:`" + ` name only to listeners registered for that name: ` + "`onmessage`" + ` would see no PC3 frame but ` + "`[DONE]`" + ` (which has none). Listen to every type, or parse the stream yourself and dispatch on ` + "`event_type`" + `;
4. give no access to the status or body of a failed response, and fail the connection without telling a network error from an HTTP error.

### The client's idle timer

FR-9 says a client MUST NOT need heuristics such as an idle timeout to detect the end of a turn: the relay's own idle timeout (NFR-6) ends a silent turn with ` + "`cancelled`" + ` IDLE_TIMEOUT. The client keeps a backstop for a relay that fails to:

- **Value**: 60 s by default (` + "`DefaultClientIdle`" + `). NFR-6 leaves the relay's window to operations ("operational tuning, not a hard contract"); the client's must be longer, so that a relay keeping NFR-6 always ends the turn first. framescope assumes a 30 s relay window (` + "`check --idle`" + `) and waits twice that. Make it configurable; ` + "`framescope reference --replay --client-idle DURATION`" + ` replays it on timed captures (0 turns it off). Raw SSE and HAR captures have no arrival times: the replay says so, and rejects an explicit ` + "`--client-idle`" + `.
- **Runs** while a request is out and the turn is not ended: ` + "`connecting`" + `, ` + "`awaiting_first_frame`" + `, ` + "`turn_open`" + `, ` + "`streaming`" + `. It stops at the terminal frame, ` + "`[DONE]`" + `, EOF, a transport error or the user's cancel.
- **Restarts** at the response's first byte and at every frame — any event with data, ` + "`[DONE]`" + `, undecodable and ignored frames included. **SSE comments do not restart it**: a keepalive proves the socket, not the turn, and counting it would let a relay whose idle policy failed but whose keepalives go on hold the user forever — the very case the backstop is for.
- **Fires** the ` + "`idle_timer`" + ` input: the client closes the connection (` + "`give_up_idle`" + `, sets ` + "`client_disconnected`" + `) and the turn ends "connection lost" with retry. A terminal that arrives later is never seen: the connection is gone.

`

// docBubble is the section on what the bubble shows.
const docBubble = `## What the bubble shows

PC3 leaves rendering to PC7 (§3.3: "indicator-management semantics" are PC7's); this is the reference reading, and the conformance kit records it frame by frame.

### The typing indicator

The typing indicator shows **exactly while a request is out or the turn is open (` + "`connecting`, `awaiting_first_frame`, `turn_open`, `streaming`" + `) and the bubble shows nothing else: the progress line is off (progress = ` + "`none`" + `) and the body is empty (content = ` + "`empty`" + `)**. Tool indicators and skeletons do not count: they sit beside it.

- It shows when the request is sent (` + "`start_request`" + `), in the new, empty bubble.
- It stays through ` + "`response_id`" + `, ` + "`episode`" + `, ` + "`usage`" + `, unknown and ignored frames.
- It goes when the progress line shows something (thinking, a status message, running tools) or the first text chunk (an empty string included: content becomes ` + "`composing`" + `) or card arrives, and at every end of the turn.
- It comes back if the progress line goes off while the body is still empty (the last running tool finished before any text).
- The next turn's bubble starts with it again (` + "`start_request`" + `, or ` + "`start_next_turn`" + ` on a capture of several requests).

### The progress line is exclusive

One line under the bubble shows one thing, the one its region's sub-state names: nothing, "thinking…", the latest status message, or "N tools running". A status message outranks running tools (§5.10: "Mobile prefers status events for user-facing progress UI"); a tool that starts while a status message shows opens its own indicator but leaves the line. The answer text hides the line. The [progress region](#progress) has the rows.

### Ending a turn

Every end of a turn settles the bubble the same way, whatever the outcome: the regions stop and what they show is frozen as follows.

| in the bubble | completed | failed | cancelled | connection lost | HTTP failure |
|---|---|---|---|---|---|
| text and cards | kept | kept | kept | kept | none came |
| typing indicator | off | off | off | off | off |
| progress line | off | off | off | off | off |
| running tool indicators | stopped (spinner off, not marked done) | stopped | stopped | stopped | none |
| finished tool indicators | done | done | done | done | none |
| loading skeletons | unavailable | unavailable | unavailable | unavailable | none |
| filled placeholders | kept | kept | kept | kept | none |
| the outcome | nothing more | a generic failure with retry, never the code (FR-8) | "stopped"; after IDLE_TIMEOUT "this took too long" with retry | "connection lost" with retry | "request failed" with retry |

`

// docKit describes the conformance kit.
const docKit = `## The conformance kit

` + "`framescope reference --export-tests DIR`" + ` writes a kit a client team runs in its own CI against its own client: the captures, and after every input the client view this machine expects. ` + "`--profile v0.4|v0.5|both`" + ` picks the profiles (default v0.5).

- ` + "`DIR/README.md`" + ` — this section.
- ` + "`DIR/index.json`" + ` — ` + "`{\"format\": \"framescope-client-kit/1\", \"generated_by\": ..., \"cases\": [{\"name\", \"capture\", \"expect\": {\"v0.5\": path}, \"source\", \"about\"}]}`" + `.
- ` + "`DIR/cases/GROUP/NAME.sse`" + ` — the capture's response body, byte for byte as it reached the client. GROUP is ` + "`probes`" + ` (the corner cases of ` + "`testdata/reference/probes`" + `), ` + "`examples`" + ` or ` + "`rules`" + ` (framescope check's rule captures); a capture recorded as JSONL, HAR or NDJSON is written out as its SSE bytes and keeps its name: ` + "`NAME.jsonl.sse`" + `.
- ` + "`DIR/cases/GROUP/NAME.v0.5.json`" + ` (and ` + "`.v0.4.json`" + `) — the expectations: ` + "`{\"format\", \"case\", \"profile\", \"client_idle_ms\", \"steps\": [...]}`" + `.

Each step is one input, in order:

| key | meaning |
|---|---|
| ` + "`input`" + ` | ` + "`connect`, `first_byte`, `http_error`, `frame`, `idle_timer`, `eof`, `transport_error`, `user_cancel`" + ` |
| ` + "`status`" + ` | ` + "`http_error`" + ` only: the HTTP status |
| ` + "`frame`" + `, ` + "`offset`" + `, ` + "`length`" + ` | ` + "`frame`" + ` only: the 0-based frame index and the byte range of its event in the ` + "`.sse`" + ` file (blank line included) |
| ` + "`type`" + ` | ` + "`frame`" + ` only: the input the frame is (` + "`text`, `[DONE]`, `undecodable`" + `, …) |
| ` + "`delivered`" + ` | ` + "`frame`" + ` only: false once the client no longer reads the stream — it disconnected (user cancel, idle timer) or the response failed (HTTP): a real client never receives the frame, and a harness need not feed it |
| ` + "`state`" + ` | the machine's top-level state after the input |
| ` + "`view`" + ` | the client view after the input, present when it changed (the first step always has it) |

The view is what the user sees, one JSON object per step; telemetry is not part of it. Every key is always present, except the two status keys of ` + "`progress`" + `:

| key | value |
|---|---|
| ` + "`turn`" + ` | the bubble's number: ` + "`start_request`" + ` and ` + "`start_next_turn`" + ` add 1 |
| ` + "`response_id`" + ` | ` + "`bound_response_id`" + ` when a frame of the open turn bound it (the terminal frame included; a late frame after the end binds silently), else ` + "`\"\"`" + `; ` + "`drop_empty_turn`" + ` leaves it as it was |
| ` + "`typing`" + ` | derived after every input (see [The typing indicator](#the-typing-indicator)) |
| ` + "`progress`" + ` | ` + "`{\"shows\": none\\|thinking\\|status\\|tools_running, \"message\", \"event_id\", \"running_tools\"}`" + `: ` + "`shows`" + ` is the progress sub-state; ` + "`message`" + ` and ` + "`event_id`" + ` are the status frame's ` + "`data.message`" + ` / ` + "`data.event_id`" + `, present only while ` + "`shows`" + ` is ` + "`status`" + ` and each only when it is a non-empty string; ` + "`running_tools`" + ` is ` + "`running_tools`" + `, 0 once the turn ended |
| ` + "`text`" + ` | the text chunks appended, in order |
| ` + "`cards`" + ` | ` + "`[{\"tool\", \"tool_call_id\"}]`" + `: one per rendered ` + "`component`" + ` frame, its ` + "`tool_call.name`" + ` and ` + "`tool_call.id`" + ` (` + "`\"\"`" + ` when not a non-empty string) |
| ` + "`tools`" + ` | ` + "`[{\"id\", \"name\", \"type\", \"state\": running\\|done\\|stopped}]`" + ` in order of appearance: one per opened id, ` + "`name`" + `/` + "`type`" + ` from the opening ` + "`tool_call`" + ` (` + "`\"\"`" + ` when not a non-empty string); ` + "`stopped`" + ` = running when the turn ended |
| ` + "`components`" + ` | ` + "`[{\"id\", \"type\", \"state\": loading\\|loaded\\|unavailable, \"items\", \"announced\"}]`" + ` in order of appearance: ` + "`type`" + ` is the first frame's ` + "`data.type`" + `, replaced by a ` + "`data_loaded`" + ` whose ` + "`data.type`" + ` is a non-empty string; ` + "`items`" + ` the length of the latest ` + "`data.items`" + ` (0 unless loaded); ` + "`announced`" + ` true when a ` + "`data_loading`" + ` rendered the skeleton; ` + "`unavailable`" + ` = loading when the turn ended |
| ` + "`degraded`" + ` | a recoverable error happened in the turn |
| ` + "`outcome`" + ` | empty while the turn is open, then ` + "`completed`" + `, ` + "`failed`" + `, ` + "`cancelled`" + `, ` + "`connection_lost`" + ` or ` + "`http_failed`" + ` |
| ` + "`cause`" + ` | cancelled: ` + "`cancel_cause`" + ` (` + "`IDLE_TIMEOUT`" + `, ` + "`REQUEST_CANCELLED`" + `, ` + "`client`" + ` for the user's cancel, another code as sent, or ` + "`no code`" + ` when ` + "`error.code`" + ` is missing, empty or not a string); failed: ` + "`error.code`" + ` when it is a non-empty string, else ` + "`\"\"`" + `; connection lost: the input that lost the turn (` + "`eof`" + `, ` + "`transport_error`" + `, ` + "`[DONE]`" + `, ` + "`idle_timer`" + `); otherwise ` + "`\"\"`" + ` |
| ` + "`done`" + ` | ` + "`close_turn`" + ` ran: the ` + "`[DONE]`" + ` after the terminal arrived. Not ` + "`done_seen`" + `: an early ` + "`[DONE]`" + ` leaves it false |

A harness: start the client, then for each step fire the transport input, or feed the capture's bytes up to the end of the frame's event (` + "`offset`" + ` + ` + "`length`" + `; everything before it not fed yet, comments included; in any chunking: the client's SSE parser is under test too); before ` + "`eof`" + ` or ` + "`transport_error`" + `, feed the rest of the file (a trailing comment or a partial event). After each step compare the client's view with the last ` + "`view`" + ` given. The idle timer is an input, not a clock: expose a way to fire it. framescope checks the kit round-trips: replaying each exported capture through this machine gives exactly the exported steps.

`

// docOpenQuestions lists what the spec leaves open.
const docOpenQuestions = `## Open questions

The spec says of itself "None outstanding." (§8.2) — for the wire. For a client most behaviour is PC7's (§3.3), so these remain open; each names what the reference does meanwhile.

| question | why the spec leaves it open | the reference meanwhile |
|---|---|---|
| What exactly does a client render (words, icons, where)? | §3.3 defers client rendering and "indicator-management semantics" to PC7 | the actions and the bubble rules above |
| How long is the client's idle timer? | NFR-6 makes the relay's window "operational tuning, not a hard contract"; FR-9 says clients must not need a timer at all | 60 s, reset by frames only; see Transport |
| May one connection carry several turns? | FR-9 counts terminals "per wire segment" and FR-14 puts cross-turn ordering outside the contract, without defining a segment | a new ` + "`response_id`" + ` after ` + "`[DONE]`" + ` starts the next bubble (captures of several requests show this); nothing else does |
| What does a client do with a frame of another ` + "`response_id`" + `? | FR-2 says the envelope is constant across the turn, not what a client does when it is not | ignore it; it neither joins nor ends the turn (the checker's ` + "`envelope-drift`" + `) |
| A new ` + "`response_id`" + ` after a terminal but before ` + "`[DONE]`" + `? | AC-4 puts ` + "`[DONE]`" + ` after every terminal, and FR-9 binds the turn's end to the terminal; neither says what follows a missing sentinel | no new turn: ignored (` + "`after-terminal`" + `), as the checker reads it; the turn's outcome stands |
| Must a client wait for ` + "`[DONE]`" + ` before closing? | FR-9 keeps the sentinel "for transport compatibility" and binds turn-end to the terminal | read to ` + "`[DONE]`" + ` or EOF, then close; the v0.4 client closes at its terminal (§5.10) |
| An ` + "`error`" + ` without a boolean ` + "`is_final`" + ` in v0.5? | FR-17 requires the field but not a reading of its absence | terminal, as v0.4 read every error |
| A ` + "`cancelled`" + ` with a missing or unknown code? | FR-13 lists IDLE_TIMEOUT and REQUEST_CANCELLED only | cancelled anyway ("stopped") |
| Status message or running tools on the progress line? | §5.10 says mobile prefers status events for progress, and leaves the composition to PC7 | the status message wins; the line shows one thing |
| Resumption: ` + "`id:`" + `, ` + "`retry:`" + `, ` + "`Last-Event-ID`" + `? | §5.5's framing has only ` + "`event:`" + ` and ` + "`data:`" + `; PC3 says nothing about reconnecting | none: a retry is a new request and a new turn |
| How large may a frame be? | NFR-7 is a SHOULD (256 KB), with no hard limit | accept at least 2 MiB (the kit holds a frame of 1 MiB + 1 byte of data); over the client's limit, undecodable |
| Identifiers that are not strings, or empty? | FR-2 types the envelope as strings; payload ids are untyped in §5.5's table ("tool_call: {id, name, type}"), and neither says whether ` + "`\"\"`" + ` is an id | not ids: only a non-empty string is; the frame is malformed and ignored |
| Which JSON, exactly (escapes, repeated member names, ` + "`NaN`" + `)? | §5.5 gives only "The canonical wire shape every frame conforms to" by example, naming no JSON standard | RFC 8259: strings compared after unescaping, a lone surrogate escape is U+FFFD, the last of repeated names counts, anything else is undecodable |
| Which turn does a frame belong to when its turn never named a ` + "`response_id`" + `? | §5.5 has the response_id frame "Emitted exactly once per turn, at turn open." and FR-2 puts the id on every frame; neither says what a turn without one is | the turn binds to the first frame naming one, in any state (after its terminal too), so that id after ` + "`[DONE]`" + ` is no new turn |
| Two ` + "`[DONE]`" + ` in a row? | AC-4 has each terminal "followed by the data: [DONE]" and defines no turn without frames | the second closes an empty turn (` + "`drop_empty_turn`" + `): nothing shows, and the next frame naming any ` + "`response_id`" + ` starts a new bubble |
| HTTP-level behaviour (non-2xx, wrong Content-Type)? | PC3's contract "terminates at the wire" (§3.4: Wire) | non-2xx: failure with retry, body not read |
| What does the deployed v0.4 client really do with ` + "`cancelled`" + `? | R-8 says it ignores the type: "concrete client behavior is PC-7’s domain" | ignore it; the turn then ends without a terminal |

framescope's checker and this machine also read two corner cases differently, both on purpose: after ` + "`[DONE]`" + ` the checker opens a new turn at any frame that does not carry the closed turn's ` + "`response_id`" + ` (the rule catalog's turn segmentation, docs/rules.md, so it can report on it), where the client shows nothing unless the frame names a new ` + "`response_id`" + `; and inside an open turn the checker lets a foreign frame's terminal end the turn it is checking (after ` + "`envelope-drift`" + `), where the client ignores it.

`

// KitReadme is the README.md of an exported conformance kit: the kit
// section of the document.
func KitReadme() []byte {
	return []byte("# framescope client conformance kit\n\nWritten by `framescope reference --export-tests DIR`. The reference client it encodes is framescope's docs/client-state-machine.md; its wire format, context and tables are what a client implements, and this kit checks it did.\n\n" + docKit)
}

// docQuotes are the spec's words the prose above quotes; TestCitationsExact
// finds each in the document and, when it is at hand, in the spec.
var docQuotes = []string{
	"operational tuning, not a hard contract",
	"per wire segment",
	"for transport compatibility",
	"indicator-management semantics",
	"Mobile prefers status events for user-facing progress UI",
	"None outstanding.",
	"terminates at the wire",
	"concrete client behavior is PC-7’s domain",
	"tool_call: {id, name, type}",
	"The canonical wire shape every frame conforms to",
	"Emitted exactly once per turn, at turn open.",
	"followed by the data: [DONE]",
}
