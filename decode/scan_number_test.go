package decode

import "testing"

// ScanNumber stops after a JSON number, and does not move at all when
// what starts there is no number or a malformed one.
func TestScanNumber(t *testing.T) {
	for in, want := range map[string]int{
		"0": 1, "-0": 2, "12": 2, "-12.5": 5, "1e9": 3, "1E+2": 4, "2.5e-3": 6,
		"01": 1, "3,": 1, "7}": 1, "1.5 ": 3,
		"-": 0, "1.": 0, ".5": 0, "1e": 0, "1e+": 0, "+1": 0, "x": 0, "": 0, "-a": 0,
	} {
		if end := ScanNumber([]byte(in), 0); end != want {
			t.Errorf("ScanNumber(%q) = %d, want %d", in, end, want)
		}
	}
	if got := ScanNumber([]byte(`{"t":1.5}`), 5); got != 8 {
		t.Errorf("ScanNumber at an offset = %d, want 8", got)
	}
	if got := ScanNumber([]byte(`{"t":`), 5); got != 5 {
		t.Errorf("ScanNumber at the end = %d, want 5", got)
	}
}
