package report

import (
	"fmt"

	"framescope/decode"
)

// Budgets is what a check asked of the latency budgets (check
// --max-first-content, --max-gap, --min-rate) and whether they could be
// judged: a gate that cannot measure must not pass in silence. Every
// format says so (text a note, JSON "budgets", JUnit a skipped or failed
// testcase); with Required (--require-timing) an unchecked budget fails
// the input.
type Budgets struct {
	Given    []string // the budgets as given: "--max-first-content 2s"
	Required bool
	// Unchecked says why the budgets were not judged (or not over every
	// frame); "" when they were.
	Unchecked string
}

// noTiming is why budgets over a capture without arrival times (or a
// dialect whose checker does not time turns) were not checked.
const noTiming = "no turn has timing (the capture has no arrival times, or its dialect's checker does not time turns)"

// SetBudgets records the budgets given (none: nothing is said) and
// whether the report could judge them: not when no turn has timing, nor
// over the frames of a turn that came without an arrival time (a "t" out
// of range or missing), whose turns are judged without them. A report
// without turns has nothing to time.
func (r *Report) SetBudgets(given []string, required bool) {
	if len(given) == 0 {
		return
	}
	b := &Budgets{Given: given, Required: required}
	r.Budgets = b
	switch {
	case r.NumTurns() == 0:
		return
	case !r.Timed():
		b.Unchecked = noTiming
	case r.UntimedFrames > 0:
		b.Unchecked = fmt.Sprintf("%d of the turns' frames came without an arrival time (a \"t\" out of range or missing): the budgets were not judged over them",
			r.UntimedFrames)
	default:
		return
	}
	note := "the latency budgets were not checked: " + b.Unchecked
	if required {
		note += "; --require-timing: the input fails"
	}
	r.Notes = append(r.Notes, note)
}

// BudgetsFail reports whether the budgets fail the input: not checked
// under --require-timing.
func (r *Report) BudgetsFail() bool {
	return r.Budgets != nil && r.Budgets.Required && r.Budgets.Unchecked != ""
}

// budgetsUnchecked reports whether budgets were given and not judged.
func (r *Report) budgetsUnchecked() bool { return r.Budgets != nil && r.Budgets.Unchecked != "" }

// appendBudgetsJSON appends the report's "budgets" key (added to the JSON
// shape: present when budgets were given).
func (r *Report) appendBudgetsJSON(b []byte) []byte {
	bd := r.Budgets
	if bd == nil {
		return b
	}
	b = append(b, `,"budgets":{"given":[`...)
	for i, g := range bd.Given {
		if i > 0 {
			b = append(b, ',')
		}
		b = decode.AppendJSONString(b, g)
	}
	b = append(b, `],"checked":`...)
	b = fmt.Appendf(b, "%t", bd.Unchecked == "")
	b = fmt.Appendf(b, `,"required":%t`, bd.Required)
	if bd.Unchecked != "" {
		b = append(b, `,"unchecked":`...)
		b = decode.AppendJSONString(b, bd.Unchecked)
	}
	return append(b, '}')
}

// appendBudgetsCase appends the JUnit testcase of budgets not checked: a
// skipped test, or a failure under --require-timing.
func (r *Report) appendBudgetsCase(b []byte, class string) []byte {
	bd := r.Budgets
	b = append(b, "\n  <testcase name=\"latency budgets\" classname=\""...)
	b = appendXMLText(b, class)
	b = append(b, "\" time=\"0\">"...)
	msg := "not checked: " + bd.Unchecked
	if bd.Required {
		b = append(b, "\n    <failure message=\""...)
		b = appendXMLText(b, msg)
		b = append(b, "\" type=\"budgets-unchecked\">"...)
		for _, g := range bd.Given {
			b = appendXMLText(b, g+" not checked (--require-timing)\n")
		}
		b = append(b, "</failure>"...)
	} else {
		b = append(b, "\n    <skipped message=\""...)
		b = appendXMLText(b, msg)
		b = append(b, "\"></skipped>"...)
	}
	return append(b, "\n  </testcase>"...)
}
