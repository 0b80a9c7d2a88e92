package report

import (
	"bufio"
	"encoding/json"
	"io"
	"strconv"
	"strings"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects"
	"framescope/sessions"
)

// SARIF writes check's reports as one SARIF 2.1.0 log (OASIS SARIF
// v2.1.0, the format code-scanning UIs read): one run of the tool
// framescope whose driver has one reportingDescriptor per framescope rule
// (every dialect's catalog, each name once: its summary, its clause and,
// where the clause is a public document, the link to it), and one result
// per listed alarm with the physical location of its frame: the file and,
// where known, the line. Results are written as the reports come; the
// rules, whose order is known before, after them.
type SARIF struct {
	w       *bufio.Writer
	rules   []sarifRule
	index   map[string]int
	results int
	notes   []sarifNote
}

type sarifRule struct {
	rule     invariants.Rule
	dialects []string
	uses     []string // "go-bus (warn): bus WithFilter", per dialect
	helpURI  string   // the first public document a dialect's clause cites
}

type sarifNote struct {
	file, text string
	level      string
}

// NewSARIF starts a log on w.
func NewSARIF(w io.Writer) *SARIF {
	s := &SARIF{w: bufio.NewWriterSize(w, 64<<10), index: map[string]int{}}
	for _, d := range dialects.All {
		for _, r := range d.Rules() {
			if i, ok := s.index[r.Name]; ok {
				sr := &s.rules[i]
				sr.dialects = append(sr.dialects, d.Name())
				sr.uses = append(sr.uses, ruleUse(d.Name(), r))
				if sr.helpURI == "" {
					sr.helpURI = sourceURL(r.Clause)
				}
				continue
			}
			s.index[r.Name] = len(s.rules)
			s.rules = append(s.rules, sarifRule{r, []string{d.Name()}, []string{ruleUse(d.Name(), r)}, sourceURL(r.Clause)})
		}
	}
	s.w.WriteString(`{"$schema":"https://json.schemastore.org/sarif-2.1.0.json","version":"2.1.0","runs":[{"results":[`)
	return s
}

// ruleUse is how one dialect raises a rule: "go-bus (warn): bus WithFilter".
func ruleUse(dialect string, r invariants.Rule) string {
	return dialect + " (" + string(r.Severity) + "): " + r.Clause
}

// sarifLevel is a severity as SARIF's result.level says it.
func sarifLevel(s invariants.Severity) string {
	switch s {
	case invariants.SevError:
		return "error"
	case invariants.SevWarn:
		return "warning"
	}
	return "note"
}

// Add writes a report's results: its listed alarms at file (the line of
// each alarm's frame where lines knows it), and its notes.
func (s *SARIF) Add(r *Report, file string, lines map[int64]int) error {
	for _, n := range r.Notes {
		level := "note"
		if r.BudgetsFail() {
			level = "error"
		}
		s.notes = append(s.notes, sarifNote{file, r.labelled(decode.Sanitize(n)), level})
	}
	err := r.eachAlarm(func(_ int, a *ReportAlarm) error {
		line := 0
		if a.Offset >= 0 {
			line = lines[a.Offset]
		}
		s.result(a, file, line, r)
		return nil
	})
	if err != nil {
		return err
	}
	return s.w.Flush()
}

// AddUnreadable records an input that could not be read (a notification
// of the run's invocation).
func (s *SARIF) AddUnreadable(file string, err error) {
	s.notes = append(s.notes, sarifNote{file, "cannot read the capture: " + decode.Sanitize(err.Error()), "error"})
}

func (s *SARIF) result(a *ReportAlarm, file string, line int, r *Report) {
	if s.results > 0 {
		s.w.WriteByte(',')
	}
	s.results++
	b := make([]byte, 0, 256)
	b = append(b, `{"ruleId":`...)
	b = decode.AppendJSONString(b, a.Rule)
	if i, ok := s.index[a.Rule]; ok {
		b = append(b, `,"ruleIndex":`...)
		b = strconv.AppendInt(b, int64(i), 10)
	}
	b = append(b, `,"level":"`...)
	b = append(b, sarifLevel(a.Severity)...)
	b = append(b, `","message":{"text":`...)
	msg := decode.Sanitize(a.Message)
	if a.Frame != invariants.NoFrame {
		msg = "frame " + strconv.Itoa(a.Frame) + ": " + msg
	}
	b = decode.AppendJSONString(b, r.labelled(msg))
	b = append(b, `},"locations":[{"physicalLocation":{"artifactLocation":{"uri":`...)
	b = decode.AppendJSONString(b, sarifURI(file))
	b = append(b, '}')
	if line > 0 {
		b = append(b, `,"region":{"startLine":`...)
		b = strconv.AppendInt(b, int64(line), 10)
		b = append(b, '}')
	}
	b = append(b, `}}],"properties":{"frame":`...)
	if a.Frame == invariants.NoFrame {
		b = append(b, "null"...)
	} else {
		b = strconv.AppendInt(b, int64(a.Frame), 10)
	}
	b = append(b, `,"response_id":`...)
	b = appendNullableString(b, a.ResponseID)
	if r.Request != nil {
		b = r.Request.appendJSON(b) // har_entry, method, url
	}
	b = append(b, "}}"...)
	s.w.Write(b)
}

// sarifURI is a file as a SARIF artifactLocation.uri: a relative
// reference, its path's separators forward slashes, each segment
// percent-encoded where a URI needs it.
func sarifURI(file string) string {
	var b []byte
	for i := 0; i < len(file); i++ {
		c := file[i]
		switch {
		case c == '\\':
			b = append(b, '/')
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '.', c == '_', c == '~', c == '/':
			b = append(b, c)
		default:
			b = append(b, '%', "0123456789ABCDEF"[c>>4], "0123456789ABCDEF"[c&15])
		}
	}
	return string(b)
}

// Close ends the log: the tool and its rules, and the invocation
// (executionSuccessful false when an input could not be read, with a
// notification per note).
func (s *SARIF) Close(successful bool) error {
	type text struct {
		Text string `json:"text"`
	}
	type config struct {
		Level string `json:"level"`
	}
	type descriptor struct {
		ID                   string         `json:"id"`
		Name                 string         `json:"name"`
		ShortDescription     text           `json:"shortDescription"`
		FullDescription      text           `json:"fullDescription"`
		HelpURI              string         `json:"helpUri,omitempty"`
		Help                 text           `json:"help"`
		DefaultConfiguration config         `json:"defaultConfiguration"`
		Properties           map[string]any `json:"properties"`
	}
	rules := make([]descriptor, len(s.rules))
	for i, sr := range s.rules {
		r := sr.rule
		help := "Raised by (severity): source — " + strings.Join(sr.uses, "; ") + ". framescope's docs/sources.md quotes each source, per dialect."
		rules[i] = descriptor{ID: r.Name, Name: r.Name, ShortDescription: text{r.Summary}, FullDescription: text{r.Summary},
			HelpURI: sr.helpURI, Help: text{help}, DefaultConfiguration: config{sarifLevel(r.Severity)},
			Properties: map[string]any{"clause": r.Clause, "dialects": sr.dialects}}
	}
	type location struct {
		PhysicalLocation struct {
			ArtifactLocation struct {
				URI string `json:"uri"`
			} `json:"artifactLocation"`
		} `json:"physicalLocation"`
	}
	type notification struct {
		Level     string     `json:"level"`
		Message   text       `json:"message"`
		Locations []location `json:"locations"`
	}
	notes := make([]notification, len(s.notes))
	for i, n := range s.notes {
		var l location
		l.PhysicalLocation.ArtifactLocation.URI = sarifURI(n.file)
		notes[i] = notification{n.level, text{n.text}, []location{l}}
	}
	driver := map[string]any{"name": "framescope", "version": sessions.Version, "rules": rules}
	if v := semver(sessions.Version); v != "" {
		driver["semanticVersion"] = v
	}
	tool := map[string]any{"driver": driver}
	inv := []map[string]any{{"executionSuccessful": successful, "toolExecutionNotifications": notes}}
	tb, err := json.Marshal(tool)
	if err != nil {
		return err
	}
	ib, err := json.Marshal(inv)
	if err != nil {
		return err
	}
	s.w.WriteString(`],"tool":`)
	s.w.Write(tb)
	s.w.WriteString(`,"invocations":`)
	s.w.Write(ib)
	s.w.WriteString(`,"columnKind":"unicodeCodePoints"}]}` + "\n")
	return s.w.Flush()
}

// semver is the version when it is one (SARIF's semanticVersion: "1.2.3",
// a leading v dropped), else "".
func semver(v string) string {
	if len(v) > 1 && v[0] == 'v' {
		v = v[1:]
	}
	if len(v) > 0 && v[0] >= '0' && v[0] <= '9' {
		return v
	}
	return ""
}
