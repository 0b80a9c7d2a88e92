package dialects

import "testing"

// TestNoDialectOnOneGenericKey: PC3 is not chosen on event_type alone.
// Gemini's Interactions API streams name their events in event_type too
// ("interaction.created", "step.delta"), without PC3's version key; a PC3
// frame that lost its version but names a PC3 event is still PC3's.
func TestNoDialectOnOneGenericKey(t *testing.T) {
	gemini := "event: interaction.created\ndata: {\"event_type\":\"interaction.created\",\"interaction\":{\"id\":\"int_1\",\"status\":\"in_progress\"}}\n\n" +
		"event: step.delta\ndata: {\"event_type\":\"step.delta\",\"index\":0,\"delta\":{\"type\":\"text\",\"text\":\"Hi\"}}\n\n" +
		"event: interaction.complete\ndata: {\"event_type\":\"interaction.complete\",\"interaction\":{\"id\":\"int_1\",\"status\":\"completed\"}}\n\n"
	if got := detect([]byte(gemini)); got.Name() == "pc3" {
		t.Errorf("a Gemini Interactions stream was detected as pc3")
	}
	noVersion := "data: {\"event_type\":\"text\",\"response_id\":\"r1\",\"timestamp\":\"2026-01-01T00:00:00Z\",\"data\":{\"chunk\":\"hi\"}}\n\n" +
		"data: {\"event_type\":\"completed\",\"response_id\":\"r1\",\"timestamp\":\"2026-01-01T00:00:01Z\",\"data\":{}}\n\ndata: [DONE]\n\n"
	if got := detect([]byte(noVersion)); got.Name() != "pc3" {
		t.Errorf("PC3 frames without their version were detected as %s, want pc3", got.Name())
	}
}
