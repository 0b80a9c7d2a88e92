package pipeline_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"framescope/invariants"
	"framescope/sessions/capture"
	"framescope/sessions/internal/sessiontest"
	"framescope/sessions/report"
)

func checkString(t *testing.T, name, src string) *report.Report {
	t.Helper()
	c, err := capture.OpenReader(name, strings.NewReader(src), capture.OpenOptions{Entry: -1})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := report.Check(c, invariants.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func rules(rep *report.Report) string {
	var out []string
	for _, a := range rep.Alarms {
		out = append(out, fmt.Sprintf("%s@%d", a.Rule, a.Frame))
	}
	return strings.Join(out, ",")
}

func TestPipelineGiantFrame(t *testing.T) {
	chunk := strings.Repeat("x", 20<<20)
	capture := "event: response_id\ndata: {\"event_type\":\"response_id\"," + sessiontest.PC3Envelope + "}\n\n" +
		"event: text\ndata: {\"event_type\":\"text\"," + sessiontest.PC3Envelope + ",\"chunk\":\"" + chunk + "\"}\n\n" +
		"event: completed\ndata: {\"event_type\":\"completed\"," + sessiontest.PC3Envelope + "}\n\ndata: [DONE]\n\n"
	rep := checkString(t, "giant.sse", capture)
	if rep.Frames != 4 || rules(rep) != "frame-size@1" {
		t.Fatalf("frames %d alarms %s", rep.Frames, rules(rep))
	}
	if len(rep.Alarms[0].Excerpt) > 400 {
		t.Fatalf("excerpt not clipped: %d bytes", len(rep.Alarms[0].Excerpt))
	}
}

func TestPipelineDeepNesting(t *testing.T) {
	const depth = 200000
	deepArr := strings.Repeat("[", depth) + strings.Repeat("]", depth)
	deepObj := strings.Repeat(`{"a":`, depth) + "1" + strings.Repeat("}", depth)
	var b bytes.Buffer
	b.WriteString("event: response_id\ndata: {\"event_type\":\"response_id\"," + sessiontest.PC3Envelope + "}\n\n")
	b.WriteString("event: data_loading\ndata: {\"event_type\":\"data_loading\"," + sessiontest.PC3Envelope + ",\"data\":{\"id\":\"p\",\"type\":\"t\",\"key\":" + deepObj + "}}\n\n")
	b.WriteString("event: data_loaded\ndata: {\"event_type\":\"data_loaded\"," + sessiontest.PC3Envelope + ",\"data\":{\"id\":\"p\",\"type\":\"t\",\"key\":" + deepObj + ",\"items\":[" + deepArr + "]}}\n\n")
	b.WriteString("event: component\ndata: {\"event_type\":\"component\"," + sessiontest.PC3Envelope + ",\"chunk\":" + deepObj + ",\"tool_call\":{\"id\":\"c\",\"name\":\"render\",\"type\":\"function\"}}\n\n")
	b.WriteString("event: error\ndata: {\"event_type\":\"error\"," + sessiontest.PC3Envelope + ",\"error\":{\"code\":\"INTERNAL_ERROR\",\"x\":" + deepObj + "},\"is_final\":false}\n\n")
	b.WriteString("event: text\ndata: {\"event_type\":\"text\"," + sessiontest.PC3Envelope + ",\"chunk\":\"sorry\"}\n\n")
	b.WriteString("event: text\ndata: {\"event_type\":\"text\"," + sessiontest.PC3Envelope + ",\"chunk\":" + deepArr + "}\n\n")
	b.WriteString("event: completed\ndata: {\"event_type\":\"completed\"," + sessiontest.PC3Envelope + "}\n\ndata: [DONE]\n\n")
	rep := checkString(t, "deep.sse", b.String())
	if rep.Frames != 9 {
		t.Fatalf("frames %d", rep.Frames)
	}
	// The deep key compares by meaning; it is the same on both sides (equal
	// bytes), so no component-mismatch. The array chunk is not a string.
	want := "frame-size@1,frame-size@2,frame-size@3,frame-size@4,client-divergence@4,frame-size@6,text-malformed@6"
	if got := rules(rep); got != want {
		t.Fatalf("alarms %s\nwant   %s", got, want)
	}
}

func TestPipelineTruncatedTail(t *testing.T) {
	capture := "event: response_id\ndata: {\"event_type\":\"response_id\"," + sessiontest.PC3Envelope + "}\n\n" +
		"event: completed\ndata: {\"event_type\":\"completed\"," + sessiontest.PC3Envelope + "}\n\ndata: [DONE]"
	rep := checkString(t, "tail.sse", capture)
	if got := rules(rep); got != "sse-truncated@-1,done-missing@-1" {
		t.Fatalf("alarms %s", got)
	}
}
