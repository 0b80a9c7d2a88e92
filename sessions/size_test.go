package sessions

import "testing"

// TestParseSize: sizes for --max-decoded.
func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"0": 0, "1048576": 1 << 20, "64MiB": 64 << 20, "1G": 1 << 30, "2GiB": 2 << 30, "500MB": 500e6, "1.5k": 1536, "10 kb": 10000, "0.0": 0, "1.9": 1, "0.001KB": 1} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "x", "-1", "5q", "1e30GB", "MiB", "0.9", "0.5B", "0.0001KB", "1e-9"} {
		if _, err := ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q) accepted", in)
		}
	}
}
