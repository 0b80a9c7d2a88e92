package proxy

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"framescope/sessions/faults"
	"framescope/sessions/library"
)

// faultProxy starts a reverse proxy to up with the --fault specs given.
func faultProxy(t *testing.T, up string, lib *library.Library, specs ...string) (*Proxy, *httptest.Server) {
	t.Helper()
	u, _ := url.Parse(up)
	opts := Options{Upstream: u, Library: lib}
	for _, s := range specs {
		f, err := faults.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		opts.Faults = append(opts.Faults, f)
	}
	return startProxy(t, opts)
}

func get(t *testing.T, u string) (*http.Response, []byte, error) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, b, err
}

func hasAlarm(f Flow, rule string) bool {
	for _, a := range f.Alarms {
		if a.Rule == rule {
			return true
		}
	}
	return false
}

// TestFaultFramesReachTheApp: drop, garble and dup change the frames the
// app receives (whole SSE events, found by the framer however the reads
// fall), only on the matching path; the check and the recording are of
// what the app received, named by X-Framescope-Fault.
func TestFaultFramesReachTheApp(t *testing.T) {
	body := realStream(t)
	bs := blocks(body)
	up := sseUpstream(t, body, nil)
	lib := &library.Library{Dir: t.TempDir()}
	p, px := faultProxy(t, up.URL, lib, "drop=1,2 garble=3 path=/v1/*", "dup=4@/v1/chat")

	resp, got, err := get(t, px.URL+"/v1/chat")
	if err != nil {
		t.Fatal(err)
	}
	var want []byte
	for i, b := range bs {
		switch i {
		case 1, 2:
		case 3:
			want = append(want, faults.Garble(b)...)
		case 4:
			want = append(append(want, b...), b...)
		default:
			want = append(want, b...)
		}
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("the app got %d bytes, want %d (frames 1, 2 dropped, 3 garbled, 4 twice)", len(got), len(want))
	}
	if h := resp.Header.Get(FaultHeader); h != "drop=1,2 garble=3 path=/v1/*; dup=4@/v1/chat" {
		t.Fatalf("%s: %q", FaultHeader, h)
	}
	f := waitDone(t, p, 1)[0]
	if !hasAlarm(f, "frame-json") || f.Bytes != int64(len(body)) {
		t.Fatalf("the check of the faulted stream: %+v", f)
	}
	capture, _ := os.ReadFile(filepath.Join(lib.Dir, f.SessionID+".jsonl"))
	if !bytes.Contains(capture, []byte(`"X-Framescope-Fault":"drop=1,2 garble=3`)) {
		t.Fatalf("the recording does not name the fault:\n%.600s", capture)
	}

	// Another path: no fault, the stream unchanged and clean.
	resp, got, err = get(t, px.URL+"/other")
	if err != nil || !bytes.Equal(got, body) || resp.Header.Get(FaultHeader) != "" {
		t.Fatalf("an unmatched stream was changed (%v)", err)
	}
	if f := waitDone(t, p, 2)[1]; f.Counts.Error+f.Counts.Warn != 0 {
		t.Fatalf("alarms on the unfaulted stream: %+v", f.Alarms)
	}
}

// TestFaultCutAfter: the app gets frames 0..N whole, then a broken body.
func TestFaultCutAfter(t *testing.T) {
	body := realStream(t)
	bs := blocks(body)
	up := sseUpstream(t, body, nil)
	p, px := faultProxy(t, up.URL, nil, "cut-after=5")
	_, got, err := get(t, px.URL+"/v1/chat")
	if err == nil {
		t.Fatal("the app's body ended cleanly after a cut")
	}
	if want := bytes.Join(bs[:6], nil); !bytes.Equal(got, want) {
		t.Fatalf("the app got %d bytes, want frames 0..5 (%d bytes)", len(got), len(want))
	}
	f := waitDone(t, p, 1)[0]
	if f.Frames != 6 || !strings.Contains(f.Err, "cut by the proxy after frame 5") {
		t.Fatalf("flow: frames %d, err %q", f.Frames, f.Err)
	}
}

// TestFaultDropTerminal: the last frame ([DONE]) never reaches the app,
// and the check says what that does to a client.
func TestFaultDropTerminal(t *testing.T) {
	body := realStream(t)
	bs := blocks(body)
	up := sseUpstream(t, body, nil)
	p, px := faultProxy(t, up.URL, nil, "drop-terminal")
	_, got, err := get(t, px.URL+"/v1/chat")
	if err != nil {
		t.Fatal(err)
	}
	if want := bytes.Join(bs[:len(bs)-1], nil); !bytes.Equal(got, want) {
		t.Fatalf("the app got %d bytes, want all but the last frame (%d)", len(got), len(want))
	}
	if f := waitDone(t, p, 1)[0]; !hasAlarm(f, "done-missing") {
		t.Fatalf("no done-missing: %+v", f.Alarms)
	}
}

// TestFaultStallOrder: a stall before frame 2 lets frames 0 and 1 reach
// the app, and frame 2 only after it (seen by order: the pause is a hook
// the test releases).
func TestFaultStallOrder(t *testing.T) {
	stalled, release := make(chan time.Duration, 1), make(chan struct{})
	old := faultSleep
	faultSleep = func(ctx context.Context, d time.Duration) error {
		stalled <- d
		<-release
		return nil
	}
	var once sync.Once
	unstall := func() { once.Do(func() { close(release) }) }
	defer func() { unstall(); faultSleep = old }() // a failed test must not leave the proxy stalled

	body := realStream(t)
	bs := blocks(body)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(body) // all at once: only the stall can hold frame 2
	}))
	defer up.Close()
	_, px := faultProxy(t, up.URL, nil, "stall=1h@2")
	resp, err := http.Get(px.URL + "/v1/chat")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	frames := make(chan int, len(bs))
	go func() {
		br := bufio.NewReader(resp.Body)
		for i := 0; ; i++ {
			b := make([]byte, len(bs[min(i, len(bs)-1)]))
			if _, err := io.ReadFull(br, b); err != nil || i >= len(bs) || !bytes.Equal(b, bs[i]) {
				close(frames)
				return
			}
			frames <- i
		}
	}()
	wait := func(what string) {
		t.Helper()
		select {
		case d := <-stalled:
			if d != time.Hour {
				t.Fatalf("stall of %s", d)
			}
		case i, ok := <-frames:
			if !ok || strconv.Itoa(i) != what {
				t.Fatalf("want %s, got frame %d (ok %v)", what, i, ok)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("nothing came (waiting for %s)", what)
		}
	}
	// Frames 0 and 1 (in order) and the stall before frame 2, in any
	// order between them: the stall may begin before or after the app
	// has read what came before it.
	got := map[string]bool{}
	next := 0
	for len(got) < 3 {
		select {
		case d := <-stalled:
			if d != time.Hour || got["stall"] {
				t.Fatalf("stall of %s (twice: %v)", d, got["stall"])
			}
			got["stall"] = true
		case i, ok := <-frames:
			if !ok || i != next || i > 1 {
				t.Fatalf("want frame %d, got frame %d (ok %v)", next, i, ok)
			}
			got[strconv.Itoa(i)] = true
			next++
		case <-time.After(20 * time.Second):
			t.Fatalf("nothing came (have %v)", got)
		}
	}
	select {
	case i := <-frames:
		t.Fatalf("frame %d reached the app during the stall", i)
	default:
	}
	unstall()
	for i := 2; i < len(bs); i++ {
		wait(strconv.Itoa(i))
	}
}

// TestFaultGzip: the app gets Content-Encoding: gzip and a body that
// inflates to the upstream's; the check reads it decoded and says it is
// compressed.
func TestFaultGzip(t *testing.T) {
	body := realStream(t)
	up := sseUpstream(t, body, nil)
	p, px := faultProxy(t, up.URL, nil, "gzip")
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	resp, err := client.Get(px.URL + "/v1/chat")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("Content-Encoding %q", resp.Header.Get("Content-Encoding"))
	}
	zr, err := gzip.NewReader(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(zr)
	if err != nil || !bytes.Equal(got, body) {
		t.Fatalf("inflated %d bytes, want the upstream's %d (%v)", len(got), len(body), err)
	}
	f := waitDone(t, p, 1)[0]
	if !hasAlarm(f, "delivery-compressed") || f.Counts.Error != 0 || f.Frames < 100 {
		t.Fatalf("the check of the gzip stream: frames %d %+v", f.Frames, f.Alarms)
	}
}

// stepUpstream serves the blocks one per read of the proxy: block i+1 is
// written once the proxy has read block i (its flow's byte count says so).
func stepUpstream(t *testing.T, bs [][]byte, p **Proxy) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		var sent int64
		for _, b := range bs {
			w.Write(b)
			w.(http.Flusher).Flush()
			sent += int64(len(b))
			for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
				if fs := (*p).Flows(); len(fs) > 0 && fs[len(fs)-1].Bytes >= sent {
					break
				}
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// appChunks reads a response raw and returns the body's HTTP/1.1 chunks:
// one per write the proxy flushed (RFC 9112 §7.1).
func appChunks(t *testing.T, addr, path string) [][]byte {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", path, addr)
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.TransferEncoding) == 0 {
		t.Fatalf("not chunked: %v", resp.Header)
	}
	var chunks [][]byte
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		n, err := strconv.ParseInt(strings.TrimSpace(line), 16, 64)
		if err != nil {
			t.Fatalf("chunk size %q", line)
		}
		if n == 0 {
			return chunks
		}
		b := make([]byte, n+2)
		if _, err := io.ReadFull(br, b); err != nil {
			t.Fatal(err)
		}
		chunks = append(chunks, b[:n])
	}
}

func countFrames(b []byte) int { return bytes.Count(b, []byte("data: ")) }

// TestFaultBurstAndBuffer: with the upstream sending one frame per read,
// burst=3 makes every write to the app three frames, buffer=1000 every
// write at least 1000 bytes (the last excepted: the stream's end sends
// what is held).
func TestFaultBurstAndBuffer(t *testing.T) {
	bs := blocks(realStream(t))[:12]
	var p *Proxy
	up := stepUpstream(t, bs, &p)
	u, _ := url.Parse(up.URL)
	opts := Options{Upstream: u}
	for _, s := range []string{"burst=3 path=/burst", "buffer=1000 path=/buffer"} {
		f, err := faults.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		opts.Faults = append(opts.Faults, f)
	}
	p, px := startProxy(t, opts)
	addr := strings.TrimPrefix(px.URL, "http://")

	chunks := appChunks(t, addr, "/burst")
	if len(chunks) != 4 {
		t.Fatalf("burst=3 over 12 frames: %d writes, want 4", len(chunks))
	}
	for i, c := range chunks {
		if countFrames(c) != 3 {
			t.Fatalf("write %d holds %d frames", i, countFrames(c))
		}
	}

	chunks = appChunks(t, addr, "/buffer")
	var total int
	for i, c := range chunks {
		total += len(c)
		if len(c) < 1000 && i < len(chunks)-1 {
			t.Fatalf("write %d of %d holds %d bytes, under the 1000 buffered", i, len(chunks), len(c))
		}
	}
	if len(chunks) >= len(bs) || total != len(bytes.Join(bs, nil)) {
		t.Fatalf("buffer=1000: %d writes, %d bytes", len(chunks), total)
	}
}

// TestFaultNDJSONLines: NDJSON streams are faulted by line.
func TestFaultNDJSONLines(t *testing.T) {
	lines := []string{`{"a":1,"b":2}`, `{"a":2,"b":3}`, `{"a":3,"b":4}`}
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-ndjson")
		io.WriteString(w, strings.Join(lines, "\n")+"\n")
	}))
	defer up.Close()
	_, px := faultProxy(t, up.URL, nil, "drop=0 garble=2")
	_, got, err := get(t, px.URL)
	if err != nil {
		t.Fatal(err)
	}
	want := lines[1] + "\n" + `{"a":3#"b":4}` + "\n"
	if string(got) != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// TestFaultBurstHoldIsBounded: burst holds N frames, but never more than
// faults.MaxHold bytes (frames of any size must not grow it without end).
func TestFaultBurstHoldIsBounded(t *testing.T) {
	var writes []int
	out := newFaultOut(io.Discard, func() error { return nil }, func(p []byte) { writes = append(writes, len(p)) }, faults.Plan{Set: faults.Set{Burst: 1000}})
	big := bytes.Repeat([]byte("x"), faults.MaxHold/4+1)
	for range 8 {
		if _, err := out.Send(big, 1); err != nil {
			t.Fatal(err)
		}
	}
	if len(writes) != 2 || writes[0] != 4*len(big) {
		t.Fatalf("writes %v: the hold passed %d bytes", writes, faults.MaxHold)
	}
}
