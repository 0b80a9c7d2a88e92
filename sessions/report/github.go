package report

import (
	"bufio"
	"io"
	"strconv"
	"strings"

	"framescope/decode"
	"framescope/invariants"
)

// WriteGitHub writes the report as GitHub Actions workflow commands: one
// annotation per listed alarm (::error for an error, ::warning for a warn,
// ::notice for an info) on file, at the line of the alarm's frame where
// lines knows it (CaptureLines; else the file alone), and a ::notice (an
// ::error under --require-timing) per note. The job summary is the
// Tally's Markdown.
func (r *Report) WriteGitHub(w io.Writer, file string, lines map[int64]int) error {
	b := bufio.NewWriterSize(w, 64<<10)
	for _, n := range r.Notes {
		level := "notice"
		if r.BudgetsFail() && strings.HasPrefix(n, "the latency budgets") {
			level = "error"
		}
		writeWorkflowCommand(b, level, file, 0, "framescope", r.labelled(n))
	}
	err := r.eachAlarm(func(_ int, a *ReportAlarm) error {
		line := 0
		if a.Offset >= 0 {
			line = lines[a.Offset]
		}
		msg := decode.Sanitize(a.Message)
		if a.Frame != invariants.NoFrame {
			msg = "frame " + strconv.Itoa(a.Frame) + ": " + msg
		}
		if a.ResponseID != "" {
			msg += " (" + decode.Sanitize(a.ResponseID) + ")"
		}
		writeWorkflowCommand(b, githubLevel(a.Severity), file, line, "framescope "+a.Rule, r.labelled(msg))
		return nil
	})
	if err != nil {
		return err
	}
	return b.Flush()
}

// WriteGitHubError annotates an input that could not be read.
func WriteGitHubError(w io.Writer, file string, err error) error {
	b := bufio.NewWriter(w)
	writeWorkflowCommand(b, "error", file, 0, "framescope", "cannot read the capture: "+decode.Sanitize(err.Error()))
	return b.Flush()
}

func githubLevel(s invariants.Severity) string {
	switch s {
	case invariants.SevError:
		return "error"
	case invariants.SevWarn:
		return "warning"
	}
	return "notice"
}

// writeWorkflowCommand writes "::level file=F,line=L,title=T::message",
// escaped as the runner reads it: in the message %, CR and LF; in the
// properties also : and , (actions/toolkit's escapeData and
// escapeProperty).
func writeWorkflowCommand(b *bufio.Writer, level, file string, line int, title, msg string) {
	b.WriteString("::")
	b.WriteString(level)
	b.WriteString(" file=")
	b.WriteString(escapeProperty(decode.Sanitize(file)))
	if line > 0 {
		b.WriteString(",line=")
		b.WriteString(strconv.Itoa(line))
	}
	b.WriteString(",title=")
	b.WriteString(escapeProperty(title))
	b.WriteString("::")
	b.WriteString(escapeData(msg))
	b.WriteByte('\n')
}

var (
	dataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	propertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

func escapeData(s string) string     { return dataEscaper.Replace(s) }
func escapeProperty(s string) string { return propertyEscaper.Replace(s) }
