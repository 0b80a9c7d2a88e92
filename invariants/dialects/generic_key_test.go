package dialects

import "testing"

// TestNoDialectOnOneGenericKey: PC3 is not chosen on event_type alone.
// Gemini's Interactions API streams name their events in event_type too
// ("interaction.created", "step.delta"), without PC3's version key: they
// are gemini's. A PC3 frame that lost its version but names a PC3 event is
// still PC3's, and an event_type frame with PC3's version is never
// gemini's, whatever event it names.
func TestNoDialectOnOneGenericKey(t *testing.T) {
	gemini := "event: interaction.created\ndata: {\"event_type\":\"interaction.created\",\"interaction\":{\"id\":\"int_1\",\"status\":\"in_progress\"}}\n\n" +
		"event: step.delta\ndata: {\"event_type\":\"step.delta\",\"index\":0,\"delta\":{\"type\":\"text\",\"text\":\"Hi\"}}\n\n" +
		"event: interaction.complete\ndata: {\"event_type\":\"interaction.complete\",\"interaction\":{\"id\":\"int_1\",\"status\":\"completed\"}}\n\n"
	if got := detect([]byte(gemini)); got.Name() != "gemini" {
		t.Errorf("a Gemini Interactions stream was detected as %s, want gemini", got.Name())
	}
	noVersion := "data: {\"event_type\":\"text\",\"response_id\":\"r1\",\"timestamp\":\"2026-01-01T00:00:00Z\",\"data\":{\"chunk\":\"hi\"}}\n\n" +
		"data: {\"event_type\":\"completed\",\"response_id\":\"r1\",\"timestamp\":\"2026-01-01T00:00:01Z\",\"data\":{}}\n\ndata: [DONE]\n\n"
	if got := detect([]byte(noVersion)); got.Name() != "pc3" {
		t.Errorf("PC3 frames without their version were detected as %s, want pc3", got.Name())
	}
}

// TestEventTypeBoundary: the event names both wires could send. An error
// event alone is ambiguous (both judge Maybe; PC3, first in priority, wins
// the tie) unless an Interactions event came first; a frame with PC3's
// version key is PC3's even when it names a Gemini event.
func TestEventTypeBoundary(t *testing.T) {
	for body, want := range map[string]string{
		"data: {\"event_type\":\"interaction.created\",\"interaction\":{\"id\":\"i\"}}\n\ndata: {\"event_type\":\"error\",\"error\":{\"code\":\"x\",\"message\":\"y\"}}\n\n": "gemini",
		"data: {\"event_type\":\"step.delta\",\"version\":\"0.5\",\"response_id\":\"r1\",\"index\":0}\n\n":                                                                   "pc3",
		"data: {\"event_type\":\"interaction.completed\",\"version\":\"0.5\",\"interaction\":{\"id\":\"i\"}}\n\n":                                                            "pc3",
		"data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"hi\"}]},\"finishReason\":\"STOP\"}]}\n\n":                                                               "gemini",
	} {
		if got := detect([]byte(body)); got.Name() != want {
			t.Errorf("%q detected as %s, want %s", body, got.Name(), want)
		}
	}
}
