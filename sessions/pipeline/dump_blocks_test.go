package pipeline

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/capture"
)

// blockTrace lists what the SSE layer saw: every block's id and retry
// fields and every dispatched frame's last event ID.
func blockTrace(t *testing.T, c sessions.Capture) string {
	t.Helper()
	var b strings.Builder
	_, err := Run(c, invariants.Options{}, Handler{OnItem: func(it *Item) {
		ev := it.Event
		switch {
		case it.Frame != nil:
			fmt.Fprintf(&b, "frame %d last-id=%q data=%q", it.Frame.Index, ev.LastEventID, ev.Data)
		case ev.Truncated:
			fmt.Fprintf(&b, "truncated")
		default:
			fmt.Fprintf(&b, "block")
		}
		if ev.HasID {
			fmt.Fprintf(&b, " id=%q", ev.ID)
		}
		if ev.HasRetry {
			fmt.Fprintf(&b, " retry=%d", ev.Retry)
		}
		b.WriteByte('\n')
	}})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// A data-less block's id and retry survive `dump --format ndjson`: the
// NDJSON read back gives the same blocks and the same last event IDs.
func TestNDJSONDumpKeepsDatalessIDAndRetry(t *testing.T) {
	tests := []struct{ name, src string }{
		{"id between frames", "id: 1\ndata: {\"a\":1}\n\nid: 2\n\ndata: {\"b\":2}\n\n"},
		{"block first", "id: 0\nretry: 750\n\ndata: {\"a\":1}\n\n"},
		{"id reset by an empty id", "id: 5\ndata: x\n\nid\n\ndata: y\n\n"},
		{"retry alone, comment kept", ": ping\nretry: 500\n\nid: 9\nevent: status\n\ndata: z\n\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := capture.OpenReader("in", strings.NewReader(tt.src), capture.OpenOptions{})
			if err != nil {
				t.Fatal(err)
			}
			want := blockTrace(t, c)
			c, _ = capture.OpenReader("in", strings.NewReader(tt.src), capture.OpenOptions{})
			var dump bytes.Buffer
			if _, err := Dump(c, &dump, true, ""); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(dump.String(), `{"block":true,`) {
				t.Fatalf("no block record:\n%s", dump.String())
			}
			back, err := capture.OpenReader("in", strings.NewReader(dump.String()), capture.OpenOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if back.Meta().Kind != sessions.KindNDJSON {
				t.Fatalf("dump sniffed as %s:\n%s", back.Meta().Kind, dump.String())
			}
			if got := blockTrace(t, back); got != want {
				t.Errorf("read back:\n%s\nthe stream said:\n%s\ndump:\n%s", got, want, dump.String())
			}
			// A second dump is the first (offsets aside: "id" comes back
			// as "id: ").
			back, _ = capture.OpenReader("in", strings.NewReader(dump.String()), capture.OpenOptions{})
			var again bytes.Buffer
			if _, err := Dump(back, &again, true, ""); err != nil {
				t.Fatal(err)
			}
			strip := regexp.MustCompile(`"offset":\d+,"size":\d+,`)
			if strip.ReplaceAllString(again.String(), "") != strip.ReplaceAllString(dump.String(), "") {
				t.Errorf("second dump differs:\n%s---\n%s", again.String(), dump.String())
			}
		})
	}
}
