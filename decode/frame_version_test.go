package decode

import "testing"

// TestIsV04Label: the version label is read as a JSON string, escapes
// decoded, so an escaped "0.4" follows v0.4 rules as the plain one does;
// anything that is not the string "0.4" does not.
func TestIsV04Label(t *testing.T) {
	for _, tc := range []struct {
		version string
		want    bool
	}{
		{`"0.4"`, true},
		{`"0\u002e4"`, true},
		{`"\u0030.4"`, true},
		{`"0.5"`, false},
		{`"0.40"`, false},
		{`0.4`, false},
		{`null`, false},
		{`""`, false},
	} {
		data := `{"event_type":"error","version":` + tc.version + `,"response_id":"r"}`
		f := DecodeFrame(&Event{Raw: []byte("data: " + data + "\n\n"), Data: []byte(data), HasData: true}, 0)
		if !f.Decoded() {
			t.Fatalf("%s: not decoded (problem %v)", tc.version, f.Problem)
		}
		if got := f.IsV04(); got != tc.want {
			t.Errorf("version %s: IsV04 %v, want %v", tc.version, got, tc.want)
		}
	}
}
