package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"framescope/invariants"
)

// TestGitHubAnnotations: one workflow command per alarm at its level,
// on the file and the frame's line; properties and message escaped as
// the runner reads them (a comma or colon in the file name does not end
// the property, a newline does not end the command).
func TestGitHubAnnotations(t *testing.T) {
	rep, err := Check(chatTurn(), invariants.Options{MaxFirstContent: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	rep.Alarms = append(rep.Alarms, ReportAlarm{Alarm: invariants.Alarm{Rule: "x-warn", Severity: invariants.SevWarn, Frame: invariants.NoFrame, Message: "two\nlines 100%"}, Offset: -1})
	lines := map[int64]int{}
	for _, o := range rep.Offsets() {
		lines[o] = 4
	}
	var b bytes.Buffer
	if err := rep.WriteGitHub(&b, "dir/a,b:c.jsonl", lines); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"::error file=dir/a%2Cb%3Ac.jsonl,line=4,title=framescope budget-first-content::frame 1: the first content arrived",
		"::warning file=dir/a%2Cb%3Ac.jsonl,title=framescope x-warn::two\\nlines 100%25\n", // sanitized: no newline reaches the runner
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if !strings.HasPrefix(l, "::error ") && !strings.HasPrefix(l, "::warning ") && !strings.HasPrefix(l, "::notice ") {
			t.Errorf("not a workflow command: %q", l)
		}
	}
}

// TestTallyTotalAndSummary: the total line counts clean, failing and
// unreadable inputs; the job summary is a Markdown table of them.
func TestTallyTotalAndSummary(t *testing.T) {
	var tl Tally
	tl.Add(&Report{Source: "a.sse", Dialect: "pc3"}, 0)
	tl.Add(&Report{Source: "b|c.sse", Dialect: "pc3", Counts: invariants.Counts{Error: 2}}, 1)
	tl.AddUnreadable("gone.sse", errString("no such file"))
	if got, want := tl.TotalLine(), "total: 3 inputs: 1 clean, 1 failing, 1 unreadable"; got != want {
		t.Errorf("total %q, want %q", got, want)
	}
	md := tl.Markdown()
	for _, want := range []string{"| `a.sse` | clean | pc3 | 0 | 0 | 0 | 0 | 0 |", "| `b\\|c.sse` | failing | pc3 | 0 | 0 | 2 | 0 | 0 |", "| `gone.sse` | unreadable: no such file |"} {
		if !strings.Contains(md, want) {
			t.Errorf("summary lacks %q:\n%s", want, md)
		}
	}
}

type errString string

func (e errString) Error() string { return string(e) }

// TestJUnitTimeAndClass: testcases and suites have a time attribute (the
// turn's duration as the capture timed it), and the classname has no dot
// or slash for a CI UI to split on.
func TestJUnitTimeAndClass(t *testing.T) {
	rep, err := Check(chatTurn(), invariants.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep.Source = "captures/v1.2/turn.jsonl"
	var b bytes.Buffer
	if err := rep.WriteJUnit(&b, invariants.SevError); err != nil {
		t.Fatal(err)
	}
	x := b.String()
	for _, want := range []string{`failures="0" time="3.100"`, `classname="framescope_captures_v1_2_turn_jsonl" time="3.100"`} {
		if !strings.Contains(x, want) {
			t.Errorf("missing %q:\n%s", want, x)
		}
	}
}
