package ui

import (
	"strings"
	"testing"

	"framescope/ui/store"
)

// TestSearchReadsBackRowBytes: the search reads frames' bytes back from the
// spill and matches on the data buffer, not on the SSE field lines.
func TestSearchReadsBackRowBytes(t *testing.T) {
	var b strings.Builder
	b.WriteString(frame("response_id", "r", 0, ""))
	b.WriteString(frame("text", "r", 1, `,"chunk":"Needle here"`))
	b.WriteString("event: needle\ndata: {\"event_type\":\"text\",\"version\":\"0.5\",\"response_id\":\"r\",\"chunk\":\"x\"}\n\n")
	b.WriteString(frame("text", "r", 3, `,"chunk":"hay"`))
	b.WriteString("id: needle\n\n")
	st := storeOf(t, readerSource(t, "s.sse", b.String()))
	n, row, src := st.Snapshot()
	for _, q := range []string{"needle", "re:ne+dle"} {
		mt, err := newMatcher(q)
		if err != nil {
			t.Fatal(err)
		}
		sc := store.NewRowScanner(src)
		var hits []int
		for i := 0; i < n; i++ {
			if mt.matchRow(sc, row(i)) {
				hits = append(hits, i)
			}
		}
		// Row 1's data holds it; row 2 only in its event: line (not data);
		// row 4 is a block without data (searched as raw bytes).
		if len(hits) != 2 || hits[0] != 1 || hits[1] != 4 {
			t.Errorf("%s: hits %v", q, hits)
		}
	}
}
