package capture

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"

	"framescope/sessions/internal/sessiontest"
)

// TestInputHARWhateverItCameThrough: every SSE entry of a HAR is opened,
// whether the HAR is a plain file, gzip-compressed, or on stdin; the
// compressed file is indexed once (its entries are opened from the cached
// index, not decompressed again), and stdin is read once.
func TestInputHARWhateverItCameThrough(t *testing.T) {
	path, bodies := manyEntriesHAR(t, 30)
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(raw)
	zw.Close()
	gzPath := filepath.Join(t.TempDir(), "many.har.gz")
	if err := os.WriteFile(gzPath, gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		in   func() *Input
	}{
		{"file", func() *Input { return OpenInput(path, OpenOptions{}) }},
		{"gzip file", func() *Input { return OpenInput(gzPath, OpenOptions{}) }},
		{"stdin", func() *Input { return OpenInput("-", OpenOptions{Stdin: bytes.NewReader(raw)}) }},
		{"gzip stdin", func() *Input { return OpenInput("-", OpenOptions{Stdin: bytes.NewReader(gz.Bytes())}) }},
	} {
		in := tc.in()
		es := in.Entries()
		if len(es) != len(bodies) {
			t.Errorf("%s: %d entries, want %d", tc.name, len(es), len(bodies))
			continue
		}
		read := harSkeletonBytes.Load()
		for i := len(es) - 1; i >= 0; i-- { // any order, as check's workers take them
			c, err := in.Open(es[i].Position)
			if err != nil {
				t.Fatalf("%s: entry %d: %v", tc.name, es[i].Position, err)
			}
			if d := sessiontest.Drain(t, c); !bytes.Equal(d.Data, bodies[i]) {
				t.Errorf("%s: entry %d: body %.60q, want %.60q", tc.name, i, d.Data, bodies[i])
			}
			c.Close()
		}
		if tc.name != "file" && harSkeletonBytes.Load() != read {
			t.Errorf("%s: opening the entries read the document again (%d bytes)", tc.name, harSkeletonBytes.Load()-read)
		}
		in.Close()
	}
}
