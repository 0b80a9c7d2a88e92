package live

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/codings"
	"framescope/sessions/library"
	"framescope/sessions/pipeline"
	"framescope/sessions/record"
)

// bombBody is 24 MiB of "data: x\n\n" frames, gzipped once for all the
// tests (~1000:1).
var bombBody = sync.OnceValue(func() []byte {
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	frame := bytes.Repeat([]byte("data: x\n\n"), 1<<12)
	for n := 0; n < 24<<20; n += len(frame) {
		zw.Write(frame)
	}
	zw.Close()
	return b.Bytes()
})

func bombServer(t *testing.T) string {
	body := bombBody()
	srv := lvServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(body)
	})
	return srv.URL
}

// countDrain reads a capture to its end, counting (not keeping) its bytes.
func countDrain(t *testing.T, c sessions.Capture) (int64, invariants.End) {
	t.Helper()
	var n int64
	for {
		ch, err := c.Next()
		if err == io.EOF {
			return n, c.End()
		}
		if err != nil {
			t.Fatal(err)
		}
		n += int64(len(ch.Data))
	}
}

// TestInflateSizeBound: a gzip body decoded past --max-decoded stops there,
// exactly, with an error end that says so; what came before is kept.
func TestInflateSizeBound(t *testing.T) {
	lvNoLeak(t)
	l := lvConnect(t, ConnectOptions{URL: bombServer(t), MaxDecoded: 2 << 20, MaxRatio: -1})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	n, end := countDrain(t, l)
	runtime.ReadMemStats(&after)
	// Decoding streams through fixed buffers: what it allocates does not
	// grow with what it decodes.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
		t.Errorf("decoding 2 MiB allocated %d bytes", alloc)
	} else {
		t.Logf("decoding 2 MiB allocated %d bytes", alloc)
	}
	if n != 2<<20 {
		t.Errorf("decoded %d bytes, want exactly the bound %d", n, 2<<20)
	}
	if end.Kind != invariants.EndError || !strings.Contains(end.Detail, "decoded size passed 2 MiB") || !strings.Contains(end.Detail, "--max-decoded") {
		t.Errorf("end %+v", end)
	}
	t.Logf("%d compressed bytes → stopped at %d: %s", len(bombBody()), n, end.Detail)
}

// TestInflateRatioBound: by default a body inflating past 100× its
// compressed size is stopped soon after codings.RatioFloor, far below what it
// would become (24 MiB here; gigabytes in the wild).
func TestInflateRatioBound(t *testing.T) {
	lvNoLeak(t)
	l := lvConnect(t, ConnectOptions{URL: bombServer(t)})
	n, end := countDrain(t, l)
	if n < codings.RatioFloor || n > codings.RatioFloor+liveReadSize {
		t.Errorf("decoded %d bytes, want the ratio to stop it right past %d", n, codings.RatioFloor)
	}
	if end.Kind != invariants.EndError || !strings.Contains(end.Detail, "ratio passed 100×") || !strings.Contains(end.Detail, "--max-ratio") {
		t.Errorf("end %+v", end)
	}
	t.Logf("stopped at %d: %s", n, end.Detail)
}

// TestInflateBoundsRecordings: neither the -o capture nor the library's
// copy of a bomb grows past the bound; the capture ends in the error.
func TestInflateBoundsRecordings(t *testing.T) {
	lvNoLeak(t)
	dir := t.TempDir()
	lib := &library.Library{Dir: filepath.Join(dir, "lib")}
	opts := LiveOptions{
		Connect:    ConnectOptions{URL: bombServer(t), MaxDecoded: 2 << 20, MaxRatio: -1},
		RecordPath: filepath.Join(dir, "bomb.jsonl"), Library: lib, Source: "record",
	}
	res, err := RunLive(context.Background(), opts, pipeline.Handler{})
	if err != nil {
		t.Fatal(err)
	}
	list, _ := lib.List()
	if len(list) != 1 {
		t.Fatalf("library: %v", list)
	}
	for _, path := range []string{opts.RecordPath, filepath.Join(lib.Dir, list[0].Capture)} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		// JSON escapes "\n" as two bytes: 9 bytes of frame → 11.
		if max := int64(2<<20) * 3 / 2; fi.Size() > max {
			t.Errorf("%s: %d bytes, want ≤ %d", path, fi.Size(), max)
		}
		raw, _ := os.ReadFile(path)
		if !bytes.Contains(raw, []byte(`"end":"error: gzip body: decoded size passed 2 MiB`)) {
			t.Errorf("%s does not end in the bound's error", path)
		}
		t.Logf("%s: %d bytes", filepath.Base(path), fi.Size())
	}
	if res.Report.End.Kind != invariants.EndError || !strings.Contains(res.Report.End.Detail, "--max-decoded") {
		t.Errorf("report end %+v", res.Report.End)
	}
}

// --- the files of a live session: opened first, and their failures -----------

// countingServer serves one short turn and counts the requests.
func countingServer(t *testing.T) (string, *int) {
	var mu sync.Mutex
	n := 0
	srv := lvServer(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		n++
		mu.Unlock()
		lvScript(lvPieces(lvTurn(1))...)(w, r)
	})
	return srv.URL, &n
}

// TestRunLiveChecksFilesFirst: a bad -o path or an unwritable library
// fails before the request is sent (the turn is not consumed); a failed
// connection leaves an existing -o file as it was and no new files.
func TestRunLiveChecksFilesFirst(t *testing.T) {
	url, hits := countingServer(t)
	dir := t.TempDir()
	notDir := filepath.Join(dir, "file")
	os.WriteFile(notDir, []byte("x"), 0o600)
	for name, opts := range map[string]LiveOptions{
		"-o in a missing directory": {RecordPath: filepath.Join(dir, "no", "such", "out.jsonl")},
		"-o a directory":            {RecordPath: dir},
		"library under a file":      {Library: &library.Library{Dir: filepath.Join(notDir, "sessions")}},
	} {
		opts.Connect = ConnectOptions{URL: url}
		res, err := RunLive(context.Background(), opts, pipeline.Handler{})
		if err == nil || res != nil {
			t.Errorf("%s: RunLive succeeded", name)
		}
		t.Logf("%s: %v", name, err)
	}
	if *hits != 0 {
		t.Errorf("%d requests reached the server before the files were checked", *hits)
	}

	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	refused := "http://" + ln.Addr().String() + "/"
	ln.Close()
	old := filepath.Join(dir, "old.jsonl")
	os.WriteFile(old, []byte("yesterday's capture\n"), 0o644)
	fresh := filepath.Join(dir, "fresh.jsonl")
	lib := &library.Library{Dir: filepath.Join(dir, "lib")}
	for _, path := range []string{old, fresh} {
		if _, err := RunLive(context.Background(), LiveOptions{Connect: ConnectOptions{URL: refused}, RecordPath: path, Library: lib}, pipeline.Handler{}); err == nil {
			t.Fatal("connected to a closed port")
		}
	}
	if b, _ := os.ReadFile(old); string(b) != "yesterday's capture\n" {
		t.Errorf("a failed connection truncated the existing -o file: %q", b)
	}
	if _, err := os.Stat(fresh); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed connection left the -o file it created: %v", err)
	}
	if list, _ := lib.List(); len(list) != 0 {
		t.Errorf("a failed connection left sessions: %v", list)
	}
}

// failAfter is a writer that takes n bytes, then fails as a full disk does.
type failAfter struct{ n int }

var errDiskFull = errors.New("no space left on device")

func (w *failAfter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		k := w.n
		w.n = 0
		return k, errDiskFull
	}
	w.n -= len(p)
	return len(p), nil
}

// TestRunLiveRecordingLost: a capture whose writes fail is no success: the
// run's error is a record.Error naming the file and the cause, and the
// result names no recording / no saved session; the stream is still read
// and checked to its end.
func TestRunLiveRecordingLost(t *testing.T) {
	url, _ := countingServer(t)
	lib := &library.Library{Dir: t.TempDir()}
	libraryWriter = func(f *os.File) io.Writer { return &failAfter{n: 300} }
	t.Cleanup(func() { libraryWriter = func(f *os.File) io.Writer { return f } })

	opts := LiveOptions{Connect: ConnectOptions{URL: url}, Library: lib, Check: invariants.Options{}}
	if _, err := os.Stat("/dev/full"); err == nil {
		opts.RecordPath = "/dev/full"
	}
	res, err := RunLive(context.Background(), opts, pipeline.Handler{})
	if res == nil {
		t.Fatal(err)
	}
	var lost *record.Error
	if !errors.As(err, &lost) || !strings.Contains(err.Error(), "no space left on device") || !strings.Contains(err.Error(), "session library") {
		t.Fatalf("error %v", err)
	}
	if opts.RecordPath != "" && (!strings.Contains(err.Error(), "/dev/full") || res.RecordPath != "") {
		t.Errorf("-o /dev/full: error %v, RecordPath %q", err, res.RecordPath)
	}
	if res.SessionID != "" {
		t.Errorf("a session whose capture was lost is reported saved: %s", res.SessionID)
	}
	if res.Report == nil || res.Report.Frames != 4 || res.Report.End.Kind != invariants.EndEOF {
		t.Errorf("the stream was not read to its end: %+v", res.Report)
	}
	list, _ := lib.List()
	if len(list) != 1 || !strings.HasPrefix(list[0].End, "error: session library: writing the capture failed") {
		t.Errorf("library lists %+v", list)
	}
	t.Log(err)
}
