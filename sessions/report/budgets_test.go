package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/internal/sessiontest"
)

// untimed is chatTurn's capture without arrival times (raw SSE), or with
// only its first frame timed (the others' "t" out of range).
func untimed(firstTimed bool) *sessiontest.FakeCapture {
	c := chatTurn()
	c.Info.Timed = firstTimed
	for i := range c.Chunks {
		c.Chunks[i].HasTime = firstTimed && i == 0
	}
	return c
}

// TestBudgetsUncheckedInEveryFormat: budgets over a capture without
// arrival times are said not checked in text (a note), JSON ("budgets")
// and JUnit (a skipped testcase), and fail the input under
// --require-timing (a JUnit failure); a capture whose later frames came
// without times (out of range) gets the same note.
func TestBudgetsUncheckedInEveryFormat(t *testing.T) {
	opts := invariants.Options{MaxFirstContent: 2 * time.Second}
	for _, c := range []struct {
		name       string
		firstTimed bool
		required   bool
		why        string
	}{
		{"raw", false, false, "no turn has timing"},
		{"out-of-range", true, false, "5 of the turns' frames came without an arrival time"},
		{"required", false, true, "no turn has timing"},
	} {
		rep, err := Check(untimed(c.firstTimed), opts)
		if err != nil {
			t.Fatal(err)
		}
		rep.SetBudgets([]string{"--max-first-content 2s"}, c.required)
		var text, js, ju bytes.Buffer
		if err := rep.WriteText(&text); err != nil {
			t.Fatal(err)
		}
		if err := rep.WriteJSON(&js); err != nil {
			t.Fatal(err)
		}
		if err := rep.WriteJUnit(&ju, invariants.SevError); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text.String(), "note: the latency budgets were not checked: "+c.why) {
			t.Errorf("%s: text report:\n%s", c.name, text.String())
		}
		var got struct {
			Budgets struct {
				Given     []string `json:"given"`
				Checked   *bool    `json:"checked"`
				Required  bool     `json:"required"`
				Unchecked string   `json:"unchecked"`
			} `json:"budgets"`
		}
		if err := json.Unmarshal(js.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if b := got.Budgets; b.Checked == nil || *b.Checked || b.Required != c.required || !strings.HasPrefix(b.Unchecked, c.why) || len(b.Given) != 1 {
			t.Errorf("%s: JSON budgets %+v", c.name, b)
		}
		x := ju.String()
		if c.required {
			if !strings.Contains(x, `type="budgets-unchecked"`) || !strings.Contains(x, `failures="1"`) || !rep.BudgetsFail() {
				t.Errorf("%s: JUnit:\n%s", c.name, x)
			}
		} else if !strings.Contains(x, `<skipped message="not checked: `) || !strings.Contains(x, `skipped="1"`) || rep.BudgetsFail() {
			t.Errorf("%s: JUnit:\n%s", c.name, x)
		}
	}
}

// TestBudgetsCheckedSayNothing: a timed capture's budgets are judged:
// no note, no JUnit testcase, JSON says checked; no budget given, no key.
func TestBudgetsCheckedSayNothing(t *testing.T) {
	rep, err := Check(chatTurn(), invariants.Options{MaxFirstContent: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	rep.SetBudgets([]string{"--max-first-content 1m"}, true)
	var js, ju bytes.Buffer
	_ = rep.WriteJSON(&js)
	_ = rep.WriteJUnit(&ju, invariants.SevError)
	if len(rep.Notes) != 0 || rep.BudgetsFail() || !strings.Contains(js.String(), `"checked":true`) || strings.Contains(ju.String(), "latency budgets") {
		t.Errorf("notes %v, JSON %s, JUnit %s", rep.Notes, js.String(), ju.String())
	}
	rep2, _ := Check(&sessiontest.FakeCapture{Info: sessions.Meta{Name: "x", Kind: sessions.KindSSE}, Chunks: untimed(false).Chunks}, invariants.Options{})
	rep2.SetBudgets(nil, true)
	js.Reset()
	_ = rep2.WriteJSON(&js)
	if strings.Contains(js.String(), `"budgets"`) || rep2.BudgetsFail() {
		t.Errorf("no budget given: %s", js.String())
	}
}
