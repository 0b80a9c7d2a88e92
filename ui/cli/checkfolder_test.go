package cli

import "testing"

// TestIsCaptureName: inside a folder, the extensions check reads (.json
// too, plain or .gz, any case); notes and screenshots are left alone.
func TestIsCaptureName(t *testing.T) {
	for name, want := range map[string]bool{
		"a.sse": true, "a.jsonl": true, "a.har": true, "a.ndjson": true, "a.jsonlines": true, "a.events": true,
		"a.json": true, "A.JSON": true, "a.json.gz": true, "a.har.gz": true,
		"notes.txt": false, "shot.png": false, "a.json.bak": false, "json": false,
	} {
		if got := isCaptureName(name); got != want {
			t.Errorf("isCaptureName(%q) = %v, want %v", name, got, want)
		}
	}
}
