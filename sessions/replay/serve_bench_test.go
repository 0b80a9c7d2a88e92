package replay

import (
	"bytes"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"
)

// BenchmarkReplayConcurrent50 replays a ~1 MB capture (PC3-like frames in
// ~16 KB chunks) to 50 concurrent loopback clients at speed max:
//
//	go test ./sessions/ -run '^$' -bench ReplayConcurrent50 -benchtime 20x
//
// MB/s is the total across the 50 clients; client-MB/s is the mean
// throughput one client sees (its bytes over its own request time).
func BenchmarkReplayConcurrent50(b *testing.B) {
	const clients = 50
	stream := rpStream(2200, 40) // ~1 MB
	r := rpReplayOf(rpSplit(stream, 16<<10))
	size := int64(len(stream))
	srv, _ := rpServe(b, r, rpFast())
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients, DisableCompression: true}}
	defer client.CloseIdleConnections()

	// Check the replay once, outside the timing.
	resp, err := client.Get(srv.URL + "/api/chat")
	if err != nil {
		b.Fatal(err)
	}
	got, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || !bytes.Equal(got, rpConcat(r)) {
		b.Fatalf("replay not byte-exact (%d bytes, err %v)", len(got), err)
	}

	var (
		mu      sync.Mutex
		perSum  float64 // sum of per-client MB/s
		perN    int
		firstEr error
	)
	b.SetBytes(size * clients)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var wg sync.WaitGroup
		for c := 0; c < clients; c++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				start := time.Now()
				resp, err := client.Get(srv.URL + "/api/chat")
				if err != nil {
					mu.Lock()
					firstEr = err
					mu.Unlock()
					return
				}
				n, err := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				d := time.Since(start)
				mu.Lock()
				defer mu.Unlock()
				if err != nil || n != size {
					if firstEr == nil {
						firstEr = err
						if err == nil {
							firstEr = io.ErrShortWrite
						}
					}
					return
				}
				perSum += float64(size) / 1e6 / d.Seconds()
				perN++
			}()
		}
		wg.Wait()
	}
	b.StopTimer()
	if firstEr != nil {
		b.Fatal(firstEr)
	}
	if perN > 0 {
		b.ReportMetric(perSum/float64(perN), "client-MB/s")
	}
	b.ReportMetric(float64(size)/1e6, "capture-MB")
}
