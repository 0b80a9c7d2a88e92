package report

import (
	"bytes"
	"strings"
	"testing"

	"framescope/invariants"
)

// TestFlavorInEveryFace: a report with a flavor names it after the
// dialect in text, as "flavor" in JSON and as an attribute in JUnit; a
// report without one keeps its old shape.
func TestFlavorInEveryFace(t *testing.T) {
	r := &Report{Source: "s.sse", Format: "sse", Dialect: "openai-chat", Flavor: "groq"}
	var text, js, junit bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteJUnit(&junit, invariants.SevError); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "dialect openai-chat (groq),") {
		t.Errorf("text: %q", text.String())
	}
	if !strings.Contains(js.String(), `"dialect":"openai-chat","flavor":"groq"`) {
		t.Errorf("json: %q", js.String())
	}
	if !strings.Contains(junit.String(), `flavor="groq"`) {
		t.Errorf("junit: %q", junit.String())
	}
	r.Flavor = ""
	js.Reset()
	_ = r.WriteJSON(&js)
	if strings.Contains(js.String(), "flavor") {
		t.Errorf("json without a flavor: %q", js.String())
	}
}
