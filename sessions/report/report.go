package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects"
	"framescope/invariants/dialects/pc3"
	"framescope/sessions"
	"framescope/sessions/pipeline"
)

// Report is the result of checking one input: the `check --format json`
// object of docs/rules.md (a stable interface) plus what the text and JUnit
// formats need.
type Report struct {
	Source  string
	Format  sessions.Kind
	Dialect string
	Flavor  string // the dialect's provider flavor, "" when none
	Frames  int
	Turns   []invariants.Turn
	Alarms  []ReportAlarm
	Counts  invariants.Counts
	End     invariants.End
	Notes   []string // remarks about the capture that are not alarms
	Bytes   int64    // stream bytes read
	// Request is the HTTP request of a HAR entry (nil for any other
	// capture): report_request.go.
	Request *Request
	// Suppressed counts, by rule, the alarms not listed: past the first
	// MaxListed of one rule in one turn, an alarm is counted (in Counts
	// too) but not kept, so a stream of a million broken frames costs
	// a hundred alarms of memory, not a million.
	Suppressed map[string]int
	// UntimedFrames counts the frames of turns that came without an
	// arrival time; Budgets what was asked of the latency budgets
	// (SetBudgets; nil when none was given).
	UntimedFrames int
	Budgets       *Budgets

	// turnLog and alarmLog hold the turns and alarms instead of Turns and
	// Alarms (CheckToWrite).
	turnLog  *turnLog
	alarmLog *alarmLog
}

// MaxListed is how many alarms of one rule in one turn a report lists.
const MaxListed = 100

// Listed is opts with the checker listing what a report lists: past
// MaxListed alarms of one rule in one turn, an alarm is counted, Unlisted,
// and (unless opts.EveryMessage) gets no message. Every run through a
// report takes it (checkInto), and so does the inspector, whose Alarms
// pane lists what check's report lists: the limit is set here only.
func Listed(opts invariants.Options) invariants.Options {
	opts.ListLimit = MaxListed
	return opts
}

// ReportAlarm is an alarm with a one-line excerpt of its frame.
type ReportAlarm struct {
	invariants.Alarm
	Excerpt string // sanitized; "" for alarms without a frame
	// Offset is the stream offset of the frame's first byte (-1 unknown,
	// or no frame): CaptureLines finds its line in the capture.
	Offset int64
}

// Check runs the pipeline over a capture and collects the report.
func Check(c sessions.Capture, opts invariants.Options) (*Report, error) {
	return CheckWith(c, opts, pipeline.Handler{})
}

// CheckOneStage is Check on the caller's goroutine alone, for callers that
// check several captures at once.
func CheckOneStage(c sessions.Capture, opts invariants.Options) (*Report, error) {
	return CheckWith(c, opts, pipeline.Handler{OneStage: true})
}

// CheckWith is Check that also hands every item, alarm and note to h as it
// happens (live views print frames while the report is collected; with
// opts.EveryMessage every alarm they see has its message).
func CheckWith(c sessions.Capture, opts invariants.Options, h pipeline.Handler) (*Report, error) {
	return checkInto(&Report{}, c, opts, h)
}

// checkInto is CheckWith filling rep (CheckToWrite's keeps its alarms out
// of the heap). Which alarms are listed is the checker's decision
// (Listed): its Unlisted is final.
func checkInto(rep *Report, c sessions.Capture, opts invariants.Options, h pipeline.Handler) (*Report, error) {
	rep.Source, rep.Format = c.Meta().Name, c.Meta().Kind
	rep.Request = requestOf(c.Meta())
	// Suppressed alarms are counted here and added to rep.Suppressed at
	// the end; the counters of the last two rules are at hand (a flood is
	// one or two rules a million times: no map update per alarm).
	suppressed := map[string]*int{}
	var supLast [2]struct {
		rule string
		n    *int
	}
	suppress := func(rule string) {
		for i := range supLast {
			if supLast[i].n != nil && supLast[i].rule == rule {
				*supLast[i].n++
				return
			}
		}
		p := suppressed[rule]
		if p == nil {
			p = new(int)
			suppressed[rule] = p
		}
		*p++
		supLast[1] = supLast[0]
		supLast[0].rule, supLast[0].n = rule, p
	}
	flushSuppressed := func() {
		for rule, n := range suppressed {
			if rep.Suppressed == nil {
				rep.Suppressed = map[string]int{}
			}
			rep.Suppressed[rule] += *n
		}
	}
	// keep reports whether an alarm is listed, or only counted.
	keep := func(a *invariants.Alarm) bool {
		if a.Unlisted {
			suppress(a.Rule)
			return false
		}
		return true
	}
	// An alarm gets the excerpt of the frame it names: the frame being
	// read (at), or an earlier one the memo kept (excerpt_memo.go).
	memo := newExcerptMemo(opts)
	var atOffset int64 // the offset of the frame being read
	add := func(as []invariants.Alarm, at int, excerpt func() string) {
		for i := range as {
			a := &as[i]
			if !keep(a) {
				continue
			}
			ra := ReportAlarm{Alarm: *a, Offset: -1}
			switch {
			case a.Frame == invariants.NoFrame:
			case a.Frame == at && excerpt != nil:
				ra.Excerpt, ra.Offset = excerpt(), atOffset
			default:
				ra.Excerpt, ra.Offset = memo.of(a.Frame)
			}
			rep.keepAlarm(ra)
		}
	}
	var exBuf []byte // each listed alarm's payload excerpt, in turn
	res, err := pipeline.Run(c, Listed(opts), pipeline.Handler{
		OnDialect:   h.OnDialect,
		WantMoves:   h.WantMoves,
		WantContent: h.WantContent || memo != nil,
		OneStage:    h.OneStage,
		OnErrorBody: h.OnErrorBody,
		OnItem: func(it *pipeline.Item) {
			if h.OnItem != nil {
				h.OnItem(it)
			}
			if it.Frame != nil && !it.HasArrival && it.Turn >= 0 {
				rep.UntimedFrames++
			}
			if len(it.Alarms) == 0 && memo == nil {
				return
			}
			if len(it.Alarms) > 0 && allUnlisted(it.Alarms) { // a flood's frame: counted, nothing to list
				for i := range it.Alarms {
					keep(&it.Alarms[i])
				}
				return
			}
			// The excerpt is made once per frame, and only when one of
			// its alarms is listed (or the memo keeps it).
			ex, made := "", false
			excerpt := func() string {
				if !made && it.Frame != nil {
					exBuf = it.Frame.AppendPayloadExcerpt(exBuf[:0], 400, &pc3.Excerpt)
					ex, made = sessions.Excerpt(exBuf, 100), true
				}
				return ex
			}
			memo.observe(it, excerpt)
			at := invariants.NoFrame
			if it.Frame != nil {
				at, atOffset = it.Frame.Index, it.Event.Offset
			}
			add(it.Alarms, at, excerpt)
		},
		OnAlarms: func(as []invariants.Alarm) {
			if h.OnAlarms != nil {
				h.OnAlarms(as)
			}
			add(as, invariants.NoFrame, nil)
		},
		OnNote: func(n string) {
			if h.OnNote != nil {
				h.OnNote(n)
			}
			rep.Notes = append(rep.Notes, n)
		},
	})
	flushSuppressed()
	if res != nil {
		rep.Frames = res.Frames
		rep.Dialect = res.Dialect
		rep.Flavor = res.Flavor
		rep.Turns = append([]invariants.Turn(nil), res.Turns...)
		rep.Counts = res.Counts
		rep.End = res.End
		rep.Bytes = res.Bytes
	}
	return rep, err
}

func allUnlisted(as []invariants.Alarm) bool {
	for i := range as {
		if !as[i].Unlisted {
			return false
		}
	}
	return true
}

// DialectLabel is the dialect as the text report and the panes name it:
// "openai-chat (groq)" when a flavor is known.
func (r *Report) DialectLabel() string {
	if r.Flavor == "" {
		return r.Dialect
	}
	return r.Dialect + " (" + decode.Sanitize(r.Flavor) + ")"
}

// WriteJSON writes the report as one line of JSON (docs/rules.md shape; extra
// keys: format, end; har_entry, method and url for a HAR entry).
func (r *Report) WriteJSON(w io.Writer) error {
	var b []byte
	b = append(b, `{"source":`...)
	b = decode.AppendJSONString(b, r.Source)
	b = append(b, `,"format":`...)
	b = decode.AppendJSONString(b, string(r.Format))
	if r.Request != nil {
		b = r.Request.appendJSON(b)
	}
	b = append(b, `,"dialect":`...)
	b = appendNullableString(b, r.Dialect)
	if r.Flavor != "" {
		b = append(b, `,"flavor":`...)
		b = decode.AppendJSONString(b, r.Flavor)
	}
	b = append(b, `,"frames":`...)
	b = strconv.AppendInt(b, int64(r.Frames), 10)
	b = append(b, `,"turns":[`...)
	timed := false
	err := r.eachTurn(func(i int, t *invariants.Turn) error {
		if len(b) > 64<<10 {
			if _, err := w.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"response_id":`...)
		b = appendNullableString(b, t.ResponseID)
		b = append(b, `,"first_frame":`...)
		b = strconv.AppendInt(b, int64(t.FirstFrame), 10)
		b = append(b, `,"last_frame":`...)
		b = strconv.AppendInt(b, int64(t.LastFrame), 10)
		b = append(b, `,"terminal":`...)
		b = appendNullableString(b, t.Terminal.String())
		b = append(b, `,"done":`...)
		b = strconv.AppendBool(b, t.Done)
		b = append(b, `,"outcome":`...)
		b = appendNullableString(b, t.Outcome)
		b = append(b, `,"terminal_event":`...)
		b = appendNullableString(b, t.TerminalEvent)
		if t.Timing.Timed {
			timed = true
			b = append(b, `,"timing":`...)
			b = appendTimingJSON(b, &t.Timing)
		}
		b = append(b, '}')
		return nil
	})
	if err != nil {
		return err
	}
	b = append(b, ']')
	if r.NumTurns() > 0 {
		// Whether the turns have timing figures (a stream without turns
		// has nothing to time).
		b = append(b, `,"timed":`...)
		b = strconv.AppendBool(b, timed)
	}
	b = append(b, `,"alarms":[`...)
	err = r.eachAlarm(func(i int, a *ReportAlarm) error {
		if len(b) > 64<<10 {
			// Written as it grows: a long report is never held twice.
			if _, err := w.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"rule":`...)
		b = decode.AppendJSONString(b, a.Rule)
		b = append(b, `,"severity":`...)
		b = decode.AppendJSONString(b, string(a.Severity))
		b = append(b, `,"frame":`...)
		if a.Frame == invariants.NoFrame {
			b = append(b, "null"...)
		} else {
			b = strconv.AppendInt(b, int64(a.Frame), 10)
		}
		b = append(b, `,"response_id":`...)
		b = appendNullableString(b, a.ResponseID)
		b = append(b, `,"message":`...)
		b = decode.AppendJSONString(b, a.Message)
		b = append(b, '}')
		return nil
	})
	if err != nil {
		return err
	}
	b = append(b, `],"counts":`...)
	counts, _ := json.Marshal(r.Counts)
	b = append(b, counts...)
	b = append(b, `,"end":`...)
	b = decode.AppendJSONString(b, sessions.EndText(r.End))
	if len(r.Suppressed) > 0 {
		b = append(b, `,"suppressed":{`...)
		for i, rule := range sortedKeys(r.Suppressed) {
			if i > 0 {
				b = append(b, ',')
			}
			b = decode.AppendJSONString(b, rule)
			b = append(b, ':')
			b = strconv.AppendInt(b, int64(r.Suppressed[rule]), 10)
		}
		b = append(b, '}')
	}
	b = r.appendBudgetsJSON(b)
	if len(r.Notes) > 0 {
		b = append(b, `,"notes":[`...)
		for i, n := range r.Notes {
			if i > 0 {
				b = append(b, ',')
			}
			b = decode.AppendJSONString(b, n)
		}
		b = append(b, ']')
	}
	b = append(b, `,"version":`...)
	b = decode.AppendJSONString(b, sessions.Version)
	b = append(b, "}\n"...)
	_, err = w.Write(b)
	return err
}

func appendNullableString(b []byte, s string) []byte {
	if s == "" {
		return append(b, "null"...)
	}
	return decode.AppendJSONString(b, s)
}

// TextOptions shape the human report.
type TextOptions struct {
	// MinSeverity hides listed alarms below it (counts still count them).
	MinSeverity invariants.Severity
	// Width fits lines to a terminal: messages wrap under their column
	// at word boundaries (0: no fitting, one line per alarm).
	Width int
	// Color marks severities with ANSI colours (a terminal only).
	Color bool
}

// WriteText writes a human report: a summary line, then the alarms grouped
// by turn. Every string from the input is sanitized.
func (r *Report) WriteText(w io.Writer) error { return r.WriteTextWith(w, TextOptions{}) }

// WriteTextWith is WriteText shaped by o.
func (r *Report) WriteTextWith(w io.Writer, o TextOptions) error {
	// Written as it is made, through a buffer: a long report is never
	// held whole.
	b := bufio.NewWriterSize(w, 64<<10)
	s := decode.Sanitize
	fmt.Fprintf(b, "%s: %s, dialect %s, %s, %s, ended %s — %d error, %d warn, %d info\n",
		s(r.Source), r.Format, r.DialectLabel(), plural(r.Frames, "frame"), plural(r.NumTurns(), "turn"), s(sessions.EndText(r.End)),
		r.Counts.Error, r.Counts.Warn, r.Counts.Info)
	if r.Request != nil {
		b.WriteString(r.Request.textLine())
	}
	for _, n := range r.Notes {
		fmt.Fprintf(b, "note: %s\n", s(n))
	}
	groups := r.alarmsByTurn()
	group := groups.of // turns asked in order, the stream first
	shown := func(as []ReportAlarm) []ReportAlarm {
		if o.MinSeverity == "" || o.MinSeverity == invariants.SevInfo {
			return as
		}
		var out []ReportAlarm
		for _, a := range as {
			if a.Severity.Rank() >= o.MinSeverity.Rank() {
				out = append(out, a)
			}
		}
		return out
	}
	// A long explanation that repeats (client-divergence says the same
	// thing on every status frame) is said once, then pointed back to.
	said := map[string]int{}
	const indent = 2 + 5 + 2 + 5 + 2 + 22 + 1
	writeAlarms := func(as []ReportAlarm) {
		for i, a := range as {
			frame := "    -"
			if a.Frame != invariants.NoFrame {
				frame = fmt.Sprintf("%5d", a.Frame)
			}
			msg := s(a.Message)
			if len(msg) > 80 {
				if at, ok := said[a.Rule+"\x00"+msg]; ok {
					msg = fmt.Sprintf("(as at frame %s above)", frameText(at))
				} else {
					said[a.Rule+"\x00"+msg] = a.Frame
				}
			}
			sev := fmt.Sprintf("%-5s", a.Severity)
			if o.Color {
				sev = sevColor[a.Severity] + sev + "\x1b[0m"
			}
			lines := []string{msg}
			if o.Width > indent+20 {
				lines = wrapWords(msg, o.Width-indent)
			}
			fmt.Fprintf(b, "  %s  %s  %-22s %s\n", frame, sev, a.Rule, lines[0])
			for _, l := range lines[1:] {
				fmt.Fprintf(b, "%*s%s\n", indent, "", l)
			}
			// One excerpt per frame, after its last alarm.
			if a.Excerpt != "" && (i+1 == len(as) || as[i+1].Frame != a.Frame) {
				ex := a.Excerpt
				if o.Width > indent+20 {
					ex = clipText(ex, o.Width-indent-2)
				}
				fmt.Fprintf(b, "  %5s  %5s  %-22s │ %s\n", "", "", "", ex)
			}
		}
	}
	if len(r.Suppressed) > 0 {
		var parts []string
		for _, rule := range sortedKeys(r.Suppressed) {
			parts = append(parts, fmt.Sprintf("%s ×%d", rule, r.Suppressed[rule]))
		}
		fmt.Fprintf(b, "suppressed (counted, not listed: past %d of one rule in one turn): %s\n", MaxListed, strings.Join(parts, ", "))
	}
	if as := shown(group(-1)); len(as) > 0 {
		b.WriteString("stream\n")
		writeAlarms(as)
	}
	err := r.eachTurn(func(i int, t *invariants.Turn) error {
		rid := t.ResponseID
		if rid == "" {
			rid = "(no response_id)"
			if !dialects.Native(r.Dialect) {
				rid = "(no id)"
			}
		}
		term := t.Terminal.String()
		if term == "" {
			term = "no terminal"
		} else if t.TerminalEvent != "" && t.TerminalEvent != term {
			if r.Dialect != "" && !dialects.Native(r.Dialect) && t.Outcome != "" {
				term = t.Outcome // the detail: interrupted, refused, incomplete…
			}
			term += " (" + s(clipText(t.TerminalEvent, 40)) + ")"
		}
		done := ""
		if t.Done {
			done = " + [DONE]"
		}
		all := group(i)
		as := shown(all)
		count := plural(len(all), "alarm")
		if len(as) < len(all) {
			count += fmt.Sprintf(", %d shown", len(as))
		}
		fmt.Fprintf(b, "turn %d  %s  frames %d–%d  %s%s  (%s)\n", i+1, s(rid), t.FirstFrame, t.LastFrame, term, done, count)
		if t.Timing.Timed {
			fmt.Fprintln(b, timingLine(&t.Timing))
		}
		writeAlarms(as)
		return nil
	})
	if err != nil {
		return err
	}
	if groups.err != nil {
		return groups.err
	}
	return b.Flush()
}

var sevColor = map[invariants.Severity]string{
	invariants.SevError: "\x1b[1;31m", invariants.SevWarn: "\x1b[33m", invariants.SevInfo: "\x1b[36m",
}

// plural says "1 turn", "2 turns", "0 turns".
func plural(n int, what string) string { return invariants.Plural(n, what) }

// wrapWords cuts text into lines of at most w runes at spaces (a word
// longer than w is cut).
func wrapWords(text string, w int) []string {
	var lines []string
	var cur []rune
	for _, word := range strings.Fields(text) {
		r := []rune(word)
		for len(r) > w {
			if len(cur) > 0 {
				lines = append(lines, string(cur))
				cur = cur[:0]
			}
			lines = append(lines, string(r[:w]))
			r = r[w:]
		}
		switch {
		case len(cur) == 0:
			cur = append(cur, r...)
		case len(cur)+1+len(r) <= w:
			cur = append(append(cur, ' '), r...)
		default:
			lines = append(lines, string(cur))
			cur = append(cur[:0], r...)
		}
	}
	if len(cur) > 0 || len(lines) == 0 {
		lines = append(lines, string(cur))
	}
	return lines
}

// WriteJUnit writes JUnit XML: one testsuite per input, one testcase per
// turn; a turn fails when an alarm reaches failOn. The XML is written by
// hand (junit_xml.go), byte for byte what encoding/xml's encoder with a
// two-space indent made, at a fifth of its cost per testcase: a capture of
// a million turns is a million testcases.
func (r *Report) WriteJUnit(w io.Writer, failOn invariants.Severity) error {
	class := JUnitClass(r.Source)
	groups := r.alarmsByTurn()
	var fails, notes, line []byte
	appendCase := func(b []byte, name string, secs string, as []ReportAlarm) []byte {
		fails, notes = fails[:0], notes[:0]
		nFail := 0
		first := ""
		for _, a := range as {
			line = append(line[:0], "frame "...)
			line = append(line, frameText(a.Frame)...)
			line = append(line, ": "...)
			line = append(line, a.Severity...)
			line = append(line, ' ')
			line = append(line, a.Rule...)
			line = append(line, ": "...)
			line = decode.AppendSanitized(line, a.Message)
			line = append(line, '\n')
			if a.Severity.Rank() >= failOn.Rank() {
				nFail++
				if first == "" {
					first = a.Rule
				}
				fails = append(fails, line...)
			} else {
				notes = append(notes, line...)
			}
		}
		b = append(b, "\n  <testcase name=\""...)
		b = appendXMLText(b, decode.Sanitize(name))
		b = append(b, "\" classname=\""...)
		b = appendXMLText(b, class)
		b = append(b, "\" time=\""...)
		b = append(b, secs...)
		b = append(b, "\">"...)
		if nFail == 0 && len(notes) == 0 {
			return append(b, "</testcase>"...)
		}
		if nFail > 0 {
			b = append(b, "\n    <failure message=\""...)
			b = strconv.AppendInt(b, int64(nFail), 10)
			b = append(b, " alarm(s), first "...)
			b = appendXMLText(b, first)
			b = append(b, "\" type=\""...)
			b = appendXMLText(b, first)
			b = append(b, "\">"...)
			b = appendXMLText(b, string(fails))
			b = append(b, "</failure>"...)
		}
		if len(notes) > 0 {
			b = append(b, "\n    <system-out>"...)
			b = appendXMLText(b, string(notes))
			b = append(b, "</system-out>"...)
		}
		return append(b, "\n  </testcase>"...)
	}
	// The suite's counts come first (a cheap pass), then each testcase is
	// written as it is made: a report of many turns is never held twice.
	// Alarms come grouped by turn: a failing group is counted at its
	// first failing alarm.
	count := r.alarmsByTurn()
	failures, stream := count.failing(failOn)
	tests := r.NumTurns()
	if count.err != nil {
		return count.err
	}
	if stream {
		tests++
	}
	if r.budgetsUnchecked() {
		tests++
		if r.BudgetsFail() {
			failures++
		}
	}
	b := append([]byte(nil), `<testsuite name="`...)
	b = appendXMLText(b, decode.Sanitize(r.Source))
	b = append(b, `" tests="`...)
	b = strconv.AppendInt(b, int64(tests), 10)
	b = append(b, `" failures="`...)
	b = strconv.AppendInt(b, int64(failures), 10)
	b = append(b, `" time="`...)
	b = append(b, junitSeconds(r.streamTime())...)
	b = append(b, '"')
	if r.Dialect != "" {
		b = append(b, ` dialect="`...)
		b = appendXMLText(b, r.Dialect)
		b = append(b, '"')
	}
	if r.Flavor != "" {
		b = append(b, ` flavor="`...)
		b = appendXMLText(b, decode.Sanitize(r.Flavor))
		b = append(b, '"')
	}
	if r.budgetsUnchecked() && !r.BudgetsFail() {
		b = append(b, ` skipped="1"`...)
	}
	if r.Request != nil {
		b = r.Request.appendJUnitAttrs(b)
	}
	b = append(b, '>')
	if stream {
		b = appendCase(b, "stream", "0", groups.of(-1))
	}
	if r.budgetsUnchecked() {
		b = r.appendBudgetsCase(b, class)
	}
	var name []byte
	err := r.eachTurn(func(i int, t *invariants.Turn) error {
		if len(b) > 64<<10 {
			if _, err := w.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
		rid := t.ResponseID
		if rid == "" {
			rid = "(no response_id)"
		}
		name = append(name[:0], "turn "...)
		name = strconv.AppendInt(name, int64(i+1), 10)
		name = append(name, ' ')
		name = append(name, rid...)
		b = appendCase(b, string(name), junitSeconds(turnTime(t)), groups.of(i))
		return nil
	})
	if err != nil {
		return err
	}
	if groups.err != nil {
		return groups.err
	}
	if tests == 0 { // encoding/xml closed an empty element on its line
		b = append(b, "</testsuite>\n"...)
	} else {
		b = append(b, "\n</testsuite>\n"...)
	}
	_, err = w.Write(b)
	return err
}

func clipText(s string, n int) string { return decode.Clip(s, n) }

func frameText(i int) string {
	if i == invariants.NoFrame {
		return "-"
	}
	return strconv.Itoa(i)
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
