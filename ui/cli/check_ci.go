package cli

import (
	"fmt"
	"io"
	"os"

	"framescope/sessions/capture"
	"framescope/sessions/report"
)

// checkFormats are check's --format values.
var checkFormats = []string{"text", "json", "junit", "github", "sarif"}

// checkOutput is what check keeps across its inputs: the tally (the text
// report's total line, the GitHub job summary) and the SARIF log, whose
// one document spans every input.
type checkOutput struct {
	tally report.Tally
	sarif *report.SARIF
}

// startOutput opens what the format writes before the first input.
func startOutput(o *checkOptions) *checkOutput {
	out := &checkOutput{}
	switch o.format {
	case "junit":
		fmt.Fprintln(o.stdout, `<?xml version="1.0" encoding="UTF-8"?>`)
		fmt.Fprintln(o.stdout, "<testsuites>")
	case "sarif":
		out.sarif = report.NewSARIF(o.stdout)
	}
	return out
}

// unreadable reports an input that could not be read in the CI formats
// (text and json, junit say it in checkWrite).
func (out *checkOutput) unreadable(o *checkOptions, in checkInput, err error) error {
	out.tally.AddUnreadable(in.name, err)
	switch o.format {
	case "github":
		return report.WriteGitHubError(o.stdout, in.path, err)
	case "sarif":
		out.sarif.AddUnreadable(in.path, err)
	}
	return nil
}

// write writes a readable input's report in the CI formats.
func (out *checkOutput) write(o *checkOptions, in checkInput, rep *report.Report) error {
	switch o.format {
	case "github":
		return rep.WriteGitHub(o.stdout, in.path, captureLines(o, in, rep))
	case "sarif":
		return out.sarif.Add(rep, in.path, captureLines(o, in, rep))
	}
	return nil
}

// finish closes what the format writes after the last input: JUnit's
// and SARIF's ends, the text report's total line over several inputs,
// the GitHub job summary (appended to $GITHUB_STEP_SUMMARY when set).
func (out *checkOutput) finish(o *checkOptions, inputs int) error {
	switch o.format {
	case "junit":
		fmt.Fprintln(o.stdout, "</testsuites>")
	case "sarif":
		return out.sarif.Close(out.tally.Unreadable() == 0)
	case "text":
		if inputs > 1 {
			fmt.Fprintln(o.stdout, out.tally.TotalLine())
		}
	case "github":
		if p := os.Getenv("GITHUB_STEP_SUMMARY"); p != "" {
			f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err != nil {
				return fmt.Errorf("GITHUB_STEP_SUMMARY: %w", err)
			}
			_, werr := io.WriteString(f, out.tally.Markdown())
			if err := f.Close(); werr == nil {
				werr = err
			}
			return werr
		}
	}
	return nil
}

// captureLines finds the capture line of each listed alarm's frame,
// reading the capture again (a file or a session: stdin, a pipe or a FIFO
// is read once, and reopening a FIFO would wait for a writer).
func captureLines(o *checkOptions, in checkInput, rep *report.Report) map[int64]int {
	offs := rep.Offsets()
	if len(offs) == 0 || capture.IsStream(in.path) {
		return nil
	}
	c, err := capture.Open(in.path, capture.OpenOptions{Entry: in.entry, EntryGiven: in.entry != -1})
	if err != nil {
		return nil
	}
	defer c.Close()
	return report.CaptureLines(c, offs)
}
