package proxy

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"framescope/sessions/library"
	"framescope/sessions/live"
)

// bulkUpstream serves n events of about 1 KB (SSE, or NDJSON lines), 16
// to a write, each write flushed.
func bulkUpstream(t *testing.T, n int, ndjson bool) (*httptest.Server, int) {
	var body bytes.Buffer
	pad := strings.Repeat("x", 1000)
	for i := range n {
		if ndjson {
			fmt.Fprintf(&body, "{\"n\":%d,\"pad\":\"%s\"}\n", i, pad)
		} else {
			fmt.Fprintf(&body, "data: {\"n\":%d,\"pad\":\"%s\"}\n\n", i, pad)
		}
	}
	b := body.Bytes()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ndjson {
			w.Header().Set("Content-Type", "application/x-ndjson")
		} else {
			w.Header().Set("Content-Type", "text/event-stream")
		}
		for rest := b; len(rest) > 0; {
			k := min(len(rest), 16*1024)
			if _, err := w.Write(rest[:k]); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			rest = rest[k:]
		}
	}))
	t.Cleanup(srv.Close)
	return srv, len(b)
}

// recordedOne returns the one session's capture file.
func recordedOne(t *testing.T, lib *library.Library) []byte {
	t.Helper()
	ms, err := lib.List()
	if err != nil || len(ms) != 1 {
		t.Fatalf("sessions: %d (%v), want 1", len(ms), err)
	}
	b, err := os.ReadFile(filepath.Join(lib.Dir, ms[0].Capture))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func lastLine(b []byte) string {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	return lines[len(lines)-1]
}

// TestRecordingBounded (item 9): a stream's recording ends at the
// library's cap and at --max-bytes / --max-frames, cancelled with the
// limit named; the app gets the whole stream. Before, a 4 MB stream was
// recorded whole against a 256 KiB cap.
func TestRecordingBounded(t *testing.T) {
	cases := []struct {
		name     string
		ndjson   bool
		opts     Options
		maxFile  int
		end      string
		maxLines int // data lines in the recording (0: not checked)
	}{
		{"library cap", false, Options{LibraryMax: 256 << 10}, 256<<10 + 4096, "the session library's size cap", 0},
		{"max-bytes", false, Options{Limits: live.StopLimits{MaxBytes: 100 << 10}}, 120 << 10, "--max-bytes 102400", 0},
		{"max-frames", false, Options{Limits: live.StopLimits{MaxFrames: 10}}, 64 << 10, "--max-frames 10", 0},
		{"ndjson max-bytes", true, Options{Limits: live.StopLimits{MaxBytes: 50 << 10}}, 70 << 10, "--max-bytes 51200", 0},
		{"ndjson library cap", true, Options{LibraryMax: 128 << 10}, 128<<10 + 4096, "the session library's size cap", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			up, size := bulkUpstream(t, 4000, tc.ndjson)
			u, _ := url.Parse(up.URL)
			lib := &library.Library{Dir: t.TempDir()}
			opts := tc.opts
			opts.Upstream, opts.Library = u, lib
			p, px := startProxy(t, opts)
			resp, err := http.Get(px.URL)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if len(got) != size {
				t.Fatalf("the app got %d bytes of %d", len(got), size)
			}
			f := waitDone(t, p, 1)[0]
			rec := recordedOne(t, lib)
			t.Logf("%d-byte stream: recording %d bytes; notes %q", size, len(rec), f.Notes)
			if len(rec) > tc.maxFile {
				t.Errorf("recording %d bytes, want at most %d", len(rec), tc.maxFile)
			}
			if l := lastLine(rec); !strings.Contains(l, `"end":"cancelled: stopped: `+tc.end) {
				t.Errorf("end line %q, want the limit %q", l, tc.end)
			}
			if !strings.Contains(strings.Join(f.Notes, "\n"), "the app's stream went on") {
				t.Errorf("no note says the recording ended: %q", f.Notes)
			}
			if f.RecordErr != "" {
				t.Errorf("a limit is no failed recording: %q", f.RecordErr)
			}
			if tc.name == "max-frames" && f.Frames != 10 {
				t.Errorf("frames checked %d, want 10", f.Frames)
			}
		})
	}
}

// TestRecordCapShared: the recordings in flight share the cap, and a
// finished one gives its share back.
func TestRecordCapShared(t *testing.T) {
	up, _ := bulkUpstream(t, 300, false)
	u, _ := url.Parse(up.URL)
	lib := &library.Library{Dir: t.TempDir()}
	p, px := startProxy(t, Options{Upstream: u, Library: lib, LibraryMax: 1 << 20})
	for i := range 2 {
		resp, err := http.Get(px.URL)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		waitDone(t, p, i+1)
	}
	if used := p.recCap.used.Load(); used != 0 {
		t.Errorf("%d bytes still reserved after both streams ended", used)
	}
	ms, _ := lib.List()
	for _, m := range ms {
		b, _ := os.ReadFile(filepath.Join(lib.Dir, m.Capture))
		if strings.Contains(lastLine(b), "stopped") {
			t.Errorf("a 300 KB stream under a 1 MiB cap was cut: %s", lastLine(b))
		}
	}
}
