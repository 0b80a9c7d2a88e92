package live

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"framescope/invariants"
	"framescope/sessions/capture"
	"framescope/sessions/internal/sessiontest"
	"framescope/sessions/pipeline"
	"framescope/sessions/report"
)

// floodServer streams head, then frame without end (until the client
// goes), in 32 KiB writes as a streaming server flushes.
func floodServer(t *testing.T, head, frame string) *httptest.Server {
	t.Helper()
	piece := []byte(strings.Repeat(frame, (32<<10)/len(frame)))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		if _, err := w.Write([]byte(head)); err != nil {
			return
		}
		for r.Context().Err() == nil {
			if _, err := w.Write(piece); err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestRecordStopLimits: --max-frames and --max-bytes end a live session
// against a server that never stops, as a user's cancel does: the
// recording ends right after the last whole event within the limit, its
// end line says which limit, and check reads it back as "cancelled" with
// that detail — no truncated event, no missing terminal, no error.
func TestRecordStopLimits(t *testing.T) {
	text := lvFrame("text", `,"chunk":"flood "`)
	head := lvFrame("response_id", "")
	cases := []struct {
		name   string
		stop   StopLimits
		frames int
		end    string
	}{
		{"max-frames", StopLimits{MaxFrames: 1000}, 1000, "cancelled: stopped: --max-frames 1000 reached"},
		{"max-frames 1", StopLimits{MaxFrames: 1}, 1, "cancelled: stopped: --max-frames 1 reached"},
		{"max-bytes", StopLimits{MaxBytes: 100_000}, 1 + (100_000-len(head))/len(text), "cancelled: stopped: --max-bytes 100000 reached"},
		{"both, frames first", StopLimits{MaxBytes: 1 << 20, MaxFrames: 50}, 50, "cancelled: stopped: --max-frames 50 reached"},
	}
	srv := floodServer(t, head, text)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "flood.jsonl")
			res, err := RunLive(context.Background(), LiveOptions{
				Connect: ConnectOptions{URL: srv.URL}, RecordPath: path, Stop: tc.stop,
			}, pipeline.Handler{})
			if err != nil {
				t.Fatal(err)
			}
			check := func(what string, rep *report.Report) {
				t.Helper()
				var js bytes.Buffer
				if err := rep.WriteJSON(&js); err != nil {
					t.Fatal(err)
				}
				if rep.Frames != tc.frames || rep.End.Kind != invariants.EndCancelled || !strings.Contains(js.String(), `"end":"`+tc.end+`"`) {
					t.Fatalf("%s: frames %d (want %d), end %+v; json %s", what, rep.Frames, tc.frames, rep.End, sessiontest.Clip(js.String()))
				}
				if rep.Counts.Error+rep.Counts.Warn != 0 {
					t.Fatalf("%s: a deliberate stop raised alarms: %+v", what, rep.Alarms)
				}
			}
			check("live", res.Report)
			c, err := capture.Open(path, capture.OpenOptions{Entry: -1})
			if err != nil {
				t.Fatal(err)
			}
			rep, err := report.Check(c, invariants.Options{})
			c.Close()
			if err != nil {
				t.Fatal(err)
			}
			check("recording", rep)
			if tc.stop.MaxBytes > 0 && rep.Bytes > tc.stop.MaxBytes {
				t.Fatalf("the recording holds %d stream bytes, over --max-bytes %d", rep.Bytes, tc.stop.MaxBytes)
			}
			var text bytes.Buffer
			rep.WriteText(&text)
			if !strings.Contains(text.String(), "ended "+tc.end) {
				t.Fatalf("text report does not say how it ended:\n%s", sessiontest.Clip(text.String()))
			}
		})
	}
}

// TestLiveFloodBoundedMemory: connect/record of a server that floods
// broken frames (every one a frame-json alarm) keeps the heap bounded
// while the recording on disk grows with the stream.
func TestLiveFloodBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 400,000 frames")
	}
	const frames = 400_000
	srv := floodServer(t, "", "data: x\n\n")
	path := filepath.Join(t.TempDir(), "flood.jsonl")
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base, peak, n := ms.HeapInuse, uint64(0), 0
	res, err := RunLive(context.Background(), LiveOptions{
		Connect: ConnectOptions{URL: srv.URL}, RecordPath: path, Stop: StopLimits{MaxFrames: frames},
		Check: invariants.Options{Dialect: "pc3"}, // detected, `data: x` is generic SSE: no alarm
	}, pipeline.Handler{OnItem: func(*pipeline.Item) {
		if n++; n%50_000 == 0 {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	rep := res.Report
	if rep.Frames != frames || rep.Counts.Error < frames || len(rep.Alarms) > 2*report.MaxListed+10 {
		t.Fatalf("frames %d, counts %+v, listed %d", rep.Frames, rep.Counts, len(rep.Alarms))
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() < int64(frames)*9 {
		t.Fatalf("the recording is %d bytes for %d frames of 9 bytes", fi.Size(), frames)
	}
	const bound = 24 << 20
	if peak < base || peak-base > bound {
		t.Fatalf("heap in use grew from %d to %d bytes while recording %d flood frames (recording %d bytes; bound %d)",
			base, peak, frames, fi.Size(), bound)
	}
	t.Logf("heap in use: %.1f MB before, at most %.1f MB while recording %d flood frames to %.1f MB on disk",
		float64(base)/1e6, float64(peak)/1e6, frames, float64(fi.Size())/1e6)
}
