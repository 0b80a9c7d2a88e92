// Package typedlines is the typed-lines dialect (seed: the
// streaming-protocol specification of the spec set): data-only SSE whose
// JSON type is log, text, data, done, error or ping. One stream is one turn;
// done or error ends it and the stream closes after it.
package typedlines

import (
	"embed"
	"time"

	"framescope/decode"
	"framescope/invariants"
)

// demoFiles are the dialect's demos (invariants.DemoFiles).
//
//go:embed demo_happy.sse demo_broken.sse
var demoFiles embed.FS

// Dialect is typed-lines.
var Dialect = &invariants.Spec{
	ID:    "typed-lines",
	About: "data-only JSON lines typed log, text, data, done, error, ping; one stream is one turn ended by done or error",
	Shape: invariants.Shape{Turns: invariants.TurnPerStream, Idle: 10 * time.Second},
	Generic: invariants.Rules("frame-json", "event-unknown", "terminal-missing", "terminal-duplicate", "after-terminal",
		"payload-malformed", "error-code-unknown"),
	Own: []invariants.Rule{
		{Name: "sse-field-unexpected", Severity: invariants.SevWarn, Clause: "Requirement: JSON Lines Format",
			Summary: "an SSE event: or id: field (the protocol sends data: lines only)"},
		{Name: "event-order", Severity: invariants.SevWarn, Clause: "Scenario: Event ordering",
			Summary: "the strict order log → text → data → terminal is broken (a log after text began, text after data)"},
	},
	Sources: map[string]string{
		"idle-gap":           "TL Lifecycle",
		"frame-json":         "TL JSON Lines",
		"event-unknown":      "TL Event Types",
		"terminal-missing":   "TL Lifecycle",
		"terminal-duplicate": "TL Ordering",
		"after-terminal":     "TL Ordering",
		"payload-malformed":  "TL Event Types",
		"error-code-unknown": "TL Event Types",
	},
	Keys:       []string{"type"},
	SniffFrame: sniff,
	LabelOf:    label,
	NewMapper:  func() invariants.Mapper { return &mapper{} },
	DemoFiles: invariants.DemoFiles{
		FS:          demoFiles,
		HappyAbout:  "a repository search: logs, a keepalive ping, streamed text, structured data, done",
		BrokenAbout: "an SSE event: line, events out of order, malformed payloads, an unknown code, a second terminal",
		HappyPace:   250 * time.Millisecond,
		BrokenPace:  300 * time.Millisecond,
	},
}

// The spec's five codes, plus LLM_TIMEOUT, which its own LLM-timeout
// scenario sends.
var knownCodes = []string{"TIMEOUT", "RATE_LIMIT", "LLM_ERROR", "VALIDATION_ERROR", "UNKNOWN", "LLM_TIMEOUT"}

// phases of the strict event order.
const (
	phaseLog = iota + 1
	phaseText
	phaseData
)

type mapper struct {
	phase int // the latest phase reached
}

func label(f *decode.Frame) string { return invariants.TypeLabel(f) }

func sniff(f *decode.Frame, foreign invariants.Keys) invariants.Verdict {
	typ := f.Get("type")
	if typ.Kind() != decode.KindString || foreign.In(f) {
		return invariants.No
	}
	switch {
	case typ.StrEq("log"):
		return invariants.Yes // no other dialect has a log type
	case typ.StrEq("data"):
		if f.Get("structuredData") != nil {
			return invariants.Yes
		}
		return invariants.Maybe
	case typ.StrEq("done"):
		if f.Get("stats") != nil {
			return invariants.Yes
		}
		return invariants.Maybe
	case typ.StrEq("error"):
		if f.Get("error").Get("code").Kind() == decode.KindString && f.Get("errorText") == nil {
			return invariants.Yes
		}
		return invariants.Maybe
	case typ.StrEq("text"):
		return invariants.Maybe
	case typ.StrEq("ping"):
		return invariants.Maybe
	}
	return invariants.No
}

func (p *mapper) Map(f *decode.Frame, m *invariants.Mapping) {
	if f.HasType || f.HasID {
		m.Raise("sse-field-unexpected", invariants.SevWarn, "the frame has an SSE %s field; typed-lines sends data: lines only", sseFields(f))
	}
	typ := f.Get("type")
	m.Type = typ
	readStamp(f, m)
	switch string(invariants.StrBytes(typ)) {
	case "log":
		p.order(m, phaseLog, "log")
		content := f.Get("content")
		if content.Kind() != decode.KindString {
			m.Malformed("log", "content is "+kindOf(content)+", want a string")
		}
		m.Add(invariants.Move{Kind: invariants.MoveProgress, Text: content})
	case "text":
		p.order(m, phaseText, "text")
		delta := f.Get("delta")
		if delta.Kind() != decode.KindString {
			m.Malformed("text", "delta is "+kindOf(delta)+", want a string")
		}
		m.Add(invariants.Move{Kind: invariants.MoveText, Text: delta})
	case "data":
		p.order(m, phaseData, "data")
		if sd := f.Get("structuredData"); sd.Kind() != decode.KindObject {
			m.Malformed("data", "structuredData is "+kindOf(sd)+", want an object")
		}
	case "done":
		if st := f.Get("stats"); st.Kind() != decode.KindObject {
			m.Malformed("done", "stats is "+kindOf(st)+", want an object")
		}
		m.Add(invariants.Move{Kind: invariants.MoveTerminal, Outcome: invariants.TurnCompleted, Name: typ})
	case "error":
		e := f.Get("error")
		code, msg := e.Get("code"), e.Get("message")
		switch {
		case e.Kind() != decode.KindObject:
			m.Malformed("error", "error is "+kindOf(e)+", want an object with code and message")
		case code.Kind() != decode.KindString || msg.Kind() != decode.KindString:
			m.Malformed("error", "error.code is "+kindOf(code)+" and error.message is "+kindOf(msg)+", want two strings")
		}
		if code.Kind() == decode.KindString && !known(code) {
			s, _ := code.Str()
			m.Raise("error-code-unknown", invariants.SevWarn, "error code %q is outside TIMEOUT, RATE_LIMIT, LLM_ERROR, VALIDATION_ERROR, UNKNOWN, LLM_TIMEOUT", decode.Clip(s, 60))
		}
		m.Add(invariants.Move{Kind: invariants.MoveTerminal, Outcome: invariants.TurnFailed, Name: typ, Code: code, Text: msg})
	case "ping":
		m.Add(invariants.Move{Kind: invariants.MoveHeartbeat})
	default:
		m.Unknown = true
	}
}

// order raises event-order when a frame comes back to an earlier phase.
func (p *mapper) order(m *invariants.Mapping, phase int, name string) {
	if phase < p.phase {
		after := map[int]string{phaseText: "text", phaseData: "data"}[p.phase]
		m.Raise("event-order", invariants.SevWarn, "%s after %s began: the order is log → text → data → done/error", name, after)
		return
	}
	p.phase = phase
}

func known(code decode.Raw) bool {
	for _, c := range knownCodes {
		if code.StrEq(c) {
			return true
		}
	}
	return false
}

func sseFields(f *decode.Frame) string {
	switch {
	case f.HasType && f.HasID:
		return "event: and id:"
	case f.HasType:
		return "event:"
	}
	return "id:"
}

func kindOf(r decode.Raw) string { return invariants.KindName(r) }
