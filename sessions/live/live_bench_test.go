package live

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"framescope/invariants"
	"framescope/sessions/capture"
	"framescope/sessions/pipeline"
	"framescope/sessions/record"
)

// BenchmarkLiveFlood: a loopback server streams one valid v0.5 turn of
// FRAMESCOPE_FLOOD_FRAMES (default 200,000) small frames as fast as it can;
// each round Connects, Records to a file and Runs the pipeline — what
// `framescope connect --record` does, minus the UI. It reports frames/s
// and fails on any loss: frames served == frames decoded live == frames
// decoded from the recording (re-read outside the timed part).
//
//	go test ./sessions/ -run '^$' -bench LiveFlood -benchtime 5x
func BenchmarkLiveFlood(b *testing.B) {
	n := 200_000
	if s := os.Getenv("FRAMESCOPE_FLOOD_FRAMES"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 3 {
			b.Fatalf("FRAMESCOPE_FLOOD_FRAMES=%q: want a whole number ≥ 3", s)
		}
		n = v
	}
	// The turn: response_id, text…, completed, [DONE].
	var body []byte
	body = append(body, lvFrame("response_id", "")...)
	for i := 0; i < n-3; i++ {
		body = fmt.Appendf(body, "event: text\ndata: {\"event_type\":\"text\",%s,\"chunk\":\"w%d \"}\n\n", lvEnv, i)
	}
	body = append(body, lvFrame("completed", "")...)
	body = append(body, "data: [DONE]\n\n"...)

	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		const piece = 32 << 10 // as a streaming server flushes
		for i := 0; i < len(body); i += piece {
			if _, err := w.Write(body[i:min(i+piece, len(body))]); err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
	}))
	defer srv.Close()

	dir := b.TempDir()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	round := 0
	for b.Loop() {
		round++
		path := filepath.Join(dir, fmt.Sprintf("flood-%d.jsonl", round))
		f, err := record.File(path)
		if err != nil {
			b.Fatal(err)
		}
		l, err := Connect(context.Background(), ConnectOptions{URL: srv.URL})
		if err != nil {
			b.Fatal(err)
		}
		rec := record.New(l, f, record.Options{})
		res, err := pipeline.Run(rec, invariants.Options{}, pipeline.Handler{})
		rec.Close()
		f.Close()
		if err != nil {
			b.Fatal(err)
		}

		b.StopTimer()
		if res.Frames != n || res.Bytes != int64(len(body)) || res.End.Kind != invariants.EndEOF || res.Counts.Error != 0 || res.Counts.Warn != 0 {
			b.Fatalf("live: %d frames of %d served, %d bytes of %d, end %+v, counts %+v", res.Frames, n, res.Bytes, len(body), res.End, res.Counts)
		}
		c, err := capture.Open(path, capture.OpenOptions{Entry: -1})
		if err != nil {
			b.Fatal(err)
		}
		back, err := pipeline.Run(c, invariants.Options{}, pipeline.Handler{})
		c.Close()
		if err != nil {
			b.Fatal(err)
		}
		if back.Frames != n || back.Bytes != int64(len(body)) || back.End.Kind != invariants.EndEOF {
			b.Fatalf("recording: %d frames of %d served, %d bytes of %d, end %+v", back.Frames, n, back.Bytes, len(body), back.End)
		}
		os.Remove(path)
		b.StartTimer()
	}
	if s := b.Elapsed().Seconds(); s > 0 {
		b.ReportMetric(float64(n)*float64(b.N)/s, "frames/s")
	}
}
