package pc3

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"framescope/decode"
	"framescope/invariants/machine"
)

// Outcome is how a turn ended, as the user sees it.
type Outcome = machine.Outcome

const (
	OutcomeNone                   = machine.OutcomeNone
	OutcomeCompleted      Outcome = "completed"
	OutcomeFailed         Outcome = "failed"
	OutcomeCancelled      Outcome = "cancelled"
	OutcomeConnectionLost Outcome = "connection_lost"
	OutcomeHTTPFailed     Outcome = "http_failed"
)

// Tool indicator states in the view.
const (
	ToolRunning = "running"
	ToolDone    = "done"
	ToolStopped = "stopped" // still running when the turn ended
)

// Component placeholder states in the view.
const (
	CompLoading     = "loading"
	CompLoaded      = "loaded"
	CompUnavailable = "unavailable" // never filled before the turn ended
)

// ToolView is one tool indicator.
type ToolView struct {
	ID, Name, Type string
	State          string
}

// ComponentView is one data.id placeholder or its cards.
type ComponentView struct {
	ID, Type  string
	State     string
	Items     int  // number of cards (data.items) once loaded
	Announced bool // a data_loading came first
}

// CardView is a card from a component frame (the render_* path).
type CardView struct {
	Tool, ToolID string
	Kind         string
}

// maxTelemetry bounds the telemetry records the view keeps (the count
// goes on).
const maxTelemetry = 8

// ClientView is what the user sees (and what the client records) after the
// frames read so far: the assistant bubble of the current turn.
type ClientView struct {
	Profile    Profile
	State      State
	Turn       int // 1-based; 0 before the first request
	ResponseID string
	// Pending: the bubble shows a typing indicator (nothing rendered yet).
	Pending bool

	text []byte

	// The progress line.
	Progress   State // the progress region's sub-state
	Thinking   bool
	StatusLine string
	StatusID   string
	Running    int // tools running

	Tools      []ToolView
	Components []ComponentView
	Cards      []CardView

	Degraded bool
	// Telemetry records what the client logs without showing it (episode,
	// usage, error codes); TelemetryCount counts them all.
	Telemetry      []string
	TelemetryCount int

	Outcome Outcome
	// Cause: the cancellation cause (IDLE_TIMEOUT, REQUEST_CANCELLED,
	// client) or the failed turn's error code (telemetry only), or the
	// transport detail of a lost connection / HTTP failure.
	Cause string
	// EndedBy is the input that ended a lost turn (eof, transport_error,
	// [DONE], idle_timer).
	EndedBy Input
	Closed  bool // the turn's [DONE] arrived

	// Rev changes whenever the view does.
	Rev int
}

// Text returns the bubble's text so far.
func (v *ClientView) Text() string { return string(v.text) }

// TextLen is the text's length in bytes.
func (v *ClientView) TextLen() int { return len(v.text) }

func (v *ClientView) reset(p Profile) {
	rev := v.Rev
	*v = ClientView{Profile: p, Rev: rev + 1, text: v.text[:0]}
}

func (v *ClientView) record(s string) {
	v.TelemetryCount++
	if len(v.Telemetry) >= maxTelemetry {
		copy(v.Telemetry, v.Telemetry[1:])
		v.Telemetry = v.Telemetry[:maxTelemetry-1]
	}
	v.Telemetry = append(v.Telemetry, s)
	v.Rev++
}

// finish ends the turn: the progress line goes, running tools stop,
// unfilled placeholders become unavailable.
func (v *ClientView) finish(o Outcome, cause string) {
	v.Outcome = o
	v.Cause = cause
	v.Pending = false
	v.Thinking, v.StatusLine, v.StatusID = false, "", ""
	v.Progress = SubNone
	v.Running = 0
	for i := range v.Tools {
		if v.Tools[i].State == ToolRunning {
			v.Tools[i].State = ToolStopped
		}
	}
	for i := range v.Components {
		if v.Components[i].State == CompLoading {
			v.Components[i].State = CompUnavailable
		}
	}
	v.Rev++
}

// OutcomeText is what the user is shown for the outcome.
func (v *ClientView) OutcomeText() string {
	switch v.Outcome {
	case OutcomeCompleted:
		return "completed"
	case OutcomeFailed:
		s := "failed: a generic apology with retry (the code is telemetry only"
		if v.Cause != "" {
			s += ": " + v.Cause
		}
		return s + ")"
	case OutcomeCancelled:
		switch v.Cause {
		case "IDLE_TIMEOUT":
			return "cancelled (IDLE_TIMEOUT): \"this took too long\" with retry"
		case "REQUEST_CANCELLED":
			return "cancelled (REQUEST_CANCELLED): stopped"
		case causeClient:
			return "cancelled by the user: stopped"
		}
		return "cancelled (" + v.Cause + "): stopped"
	case OutcomeConnectionLost:
		s := "connection lost, with retry (no terminal frame)"
		if v.Cause != "" {
			s += ": " + v.Cause
		}
		return s
	case OutcomeHTTPFailed:
		s := "request failed, with retry"
		if v.Cause != "" {
			s += ": " + v.Cause
		}
		return s
	}
	return ""
}

// ViewTextOptions tune AppendText.
type ViewTextOptions = machine.ViewTextOptions

// AppendText appends the plain-text rendering of the view: one "label:
// value" line per part that has something to show. Every string from the
// stream goes through decode.Sanitize / SanitizeMultiline.
func (v *ClientView) AppendText(b []byte, o ViewTextOptions) []byte {
	line := func(label, value string) {
		b = append(b, o.Indent...)
		b = append(b, label...)
		for n := len(label); n < 12; n++ {
			b = append(b, ' ')
		}
		b = append(b, value...)
		b = append(b, '\n')
	}
	head := "turn " + strconv.Itoa(v.Turn) + " · " + string(v.Profile) + " client · " + string(v.State)
	if v.ResponseID != "" {
		head += " · " + decode.Sanitize(decode.Clip(v.ResponseID, 60))
	}
	line("client:", head)

	// Keep the tail without touching the whole text: the bubble can be
	// megabytes long and the replay renders it after every chunk.
	tail := v.text
	cut := false
	if o.MaxText > 0 {
		i, n := len(tail), 0
		for i > 0 && n < o.MaxText {
			_, size := utf8.DecodeLastRune(tail[:i])
			i -= size
			n++
		}
		cut = i > 0
		tail = tail[i:]
	}
	text := string(tail)
	switch {
	case len(v.text) == 0 && v.Pending:
		line("bubble:", "(typing…)")
	case len(v.text) == 0:
		line("bubble:", "(empty)")
	case o.Multiline:
		b = append(b, o.Indent...)
		b = append(b, "bubble:\n"...)
		body := decode.SanitizeMultiline(text)
		if cut {
			body = "…" + body
		}
		for _, l := range strings.Split(body, "\n") {
			b = append(b, o.Indent...)
			b = append(b, "  │ "...)
			b = append(b, l...)
			b = append(b, '\n')
		}
	default:
		q := "\"" + decode.Sanitize(text) + "\""
		if cut {
			q = "…" + q
		}
		line("bubble:", q)
	}

	// The progress line shows exactly what its region's sub-state says.
	switch v.Progress {
	case SubThinking:
		line("progress:", "thinking…")
	case SubStatus:
		s := decode.Sanitize(decode.Clip(v.StatusLine, 120))
		if v.StatusID != "" {
			s += " [" + decode.Sanitize(decode.Clip(v.StatusID, 60)) + "]"
		}
		line("progress:", s)
	case SubToolsRunning:
		n := strconv.Itoa(v.Running) + " tool"
		if v.Running != 1 {
			n += "s"
		}
		line("progress:", n+" running")
	}
	if len(v.Tools) > 0 {
		var ts []string
		for _, t := range v.Tools {
			ts = append(ts, decode.Sanitize(decode.Clip(t.Name, 60))+" ("+decode.Sanitize(decode.Clip(t.ID, 40))+") "+t.State)
		}
		line("tools:", joinClipped(ts, 6))
	}
	if len(v.Components) > 0 {
		var cs []string
		for _, c := range v.Components {
			s := decode.Sanitize(decode.Clip(c.ID, 60))
			if c.Type != "" {
				s += " (" + decode.Sanitize(decode.Clip(c.Type, 40)) + ")"
			}
			switch c.State {
			case CompLoaded:
				s += " " + strconv.Itoa(c.Items) + " card"
				if c.Items != 1 {
					s += "s"
				}
				if !c.Announced {
					s += ", no placeholder first"
				}
			default:
				s += " " + c.State
			}
			cs = append(cs, s)
		}
		line("components:", joinClipped(cs, 6))
	}
	if len(v.Cards) > 0 {
		var cs []string
		for _, c := range v.Cards {
			cs = append(cs, decode.Sanitize(decode.Clip(c.Kind, 40))+" via "+decode.Sanitize(decode.Clip(c.Tool, 60)))
		}
		line("cards:", joinClipped(cs, 6))
	}
	if v.Degraded {
		line("degraded:", "yes: the answer may be partial (the user sees only the apology text)")
	}
	if v.TelemetryCount > 0 {
		var ts []string
		if v.TelemetryCount > len(v.Telemetry) {
			ts = append(ts, "…")
		}
		for _, t := range v.Telemetry {
			ts = append(ts, decode.Sanitize(t))
		}
		line("telemetry:", strings.Join(ts, "; ")+" (not shown)")
	}
	if v.Outcome != OutcomeNone {
		s := decode.Sanitize(v.OutcomeText())
		if v.Closed {
			s += " · [DONE]"
		}
		line("outcome:", s)
	}
	return b
}

// ConformanceView is the client view as the conformance kit records it
// (`framescope reference --export-tests`): what the user sees, in a
// client-neutral JSON shape. Telemetry is left out: how a client logs is
// its own business.
type ConformanceView struct {
	Turn       int                    `json:"turn"`
	ResponseID string                 `json:"response_id"`
	Typing     bool                   `json:"typing"`
	Progress   ConformanceProgress    `json:"progress"`
	Text       string                 `json:"text"`
	Cards      []ConformanceCard      `json:"cards"`
	Tools      []ConformanceTool      `json:"tools"`
	Components []ConformanceComponent `json:"components"`
	Degraded   bool                   `json:"degraded"`
	Outcome    Outcome                `json:"outcome"`
	Cause      string                 `json:"cause"`
	Done       bool                   `json:"done"`
}

// ConformanceProgress is the progress line: what it shows, and the status
// message when it shows one.
type ConformanceProgress struct {
	Shows        State  `json:"shows"`
	Message      string `json:"message,omitempty"`
	EventID      string `json:"event_id,omitempty"`
	RunningTools int    `json:"running_tools"`
}

// ConformanceCard is a card a component frame rendered.
type ConformanceCard struct {
	Tool       string `json:"tool"`
	ToolCallID string `json:"tool_call_id"`
}

// ConformanceTool is a tool indicator.
type ConformanceTool struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Type  string `json:"type"`
	State string `json:"state"`
}

// ConformanceComponent is a data.id placeholder.
type ConformanceComponent struct {
	ID        string `json:"id"`
	Type      string `json:"type"`
	State     string `json:"state"`
	Items     int    `json:"items"`
	Announced bool   `json:"announced"`
}

// Conformance returns the view in the conformance kit's shape. Cause is the
// cancellation cause of a cancelled turn, the error code of a failed one
// (telemetry: the user never sees it), the input that ended a lost one,
// and empty otherwise.
func (v *ClientView) Conformance() ConformanceView {
	c := ConformanceView{
		Turn: v.Turn, ResponseID: v.ResponseID, Typing: v.Pending, Text: string(v.text),
		Progress:   ConformanceProgress{Shows: v.Progress, RunningTools: v.Running},
		Cards:      []ConformanceCard{},
		Tools:      []ConformanceTool{},
		Components: []ConformanceComponent{},
		Degraded:   v.Degraded, Outcome: v.Outcome, Done: v.Closed,
	}
	if c.Progress.Shows == "" {
		c.Progress.Shows = SubNone
	}
	if v.Progress == SubStatus {
		c.Progress.Message, c.Progress.EventID = v.StatusLine, v.StatusID
	}
	for _, cd := range v.Cards {
		c.Cards = append(c.Cards, ConformanceCard{Tool: cd.Tool, ToolCallID: cd.ToolID})
	}
	for _, t := range v.Tools {
		c.Tools = append(c.Tools, ConformanceTool{ID: t.ID, Name: t.Name, Type: t.Type, State: t.State})
	}
	for _, cm := range v.Components {
		items := cm.Items
		if cm.State != CompLoaded {
			items = 0
		}
		c.Components = append(c.Components, ConformanceComponent{ID: cm.ID, Type: cm.Type, State: cm.State, Items: items, Announced: cm.Announced})
	}
	switch v.Outcome {
	case OutcomeCancelled, OutcomeFailed:
		c.Cause = v.Cause
	case OutcomeConnectionLost:
		c.Cause = string(v.EndedBy)
	}
	return c
}

// String renders the view with default options.
func (v *ClientView) String() string { return string(v.AppendText(nil, ViewTextOptions{})) }

func joinClipped(parts []string, max int) string {
	if len(parts) <= max {
		return strings.Join(parts, "; ")
	}
	return strings.Join(parts[:max], "; ") + "; … " + strconv.Itoa(len(parts)-max) + " more"
}
