package replay

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http/httptest"
	"testing"

	"framescope/sessions/faults"
)

// rpDeliver replays a 20-frame stream (one chunk per frame) with faults
// into a recorder of flushed writes.
func rpDeliver(t *testing.T, f faults.Set) (*rpRecorder, []byte) {
	t.Helper()
	stream := rpStream(20, 1)
	var chunks [][]byte
	at := int64(0)
	for _, sp := range rpSpans(stream) { // a chunk per frame, comments before it included
		chunks = append(chunks, stream[at:sp.end])
		at = sp.end
	}
	r := rpReplayOf(chunks)
	rec := &rpRecorder{}
	opts := rpFast()
	opts.Faults = f
	r.Handler(opts).ServeHTTP(rec, httptest.NewRequest("GET", "http://127.0.0.1/api/chat", nil))
	if len(rec.cur) > 0 {
		t.Errorf("%d bytes written but not flushed", len(rec.cur))
	}
	return rec, rpConcat(r)
}

func TestDeliveryFaults(t *testing.T) {
	clean, stream := rpDeliver(t, faults.None())
	if len(clean.flushed) != 21 {
		t.Fatalf("clean: %d flushed writes, want one per frame (21)", len(clean.flushed))
	}

	// --buffer larger than the stream: one write at the end, every byte.
	f := faults.None()
	f.Buffer = 1 << 20
	rec, _ := rpDeliver(t, f)
	if len(rec.flushed) != 1 || !bytes.Equal(rec.flushed[0], stream) {
		t.Errorf("buffer: %d writes", len(rec.flushed))
	}
	// --buffer of a third of the stream: a few writes, in order.
	f.Buffer = len(stream) / 3
	rec, _ = rpDeliver(t, f)
	if n := len(rec.flushed); n < 2 || n > 4 || !bytes.Equal(bytes.Join(rec.flushed, nil), stream) {
		t.Errorf("buffer/3: %d writes", n)
	}

	// --burst 5: 21 frames in writes of five (the last of one).
	f = faults.None()
	f.Burst = 5
	rec, _ = rpDeliver(t, f)
	if len(rec.flushed) != 5 || !bytes.Equal(bytes.Join(rec.flushed, nil), stream) {
		t.Errorf("burst: %d writes, want 5", len(rec.flushed))
	}

	// --gzip: Content-Encoding set, flushed per write, decodes to the stream.
	f = faults.None()
	f.Gzip = true
	rec, _ = rpDeliver(t, f)
	if rec.hdr.Get("Content-Encoding") != "gzip" || len(rec.flushed) < 21 {
		t.Errorf("gzip: Content-Encoding %q, %d writes", rec.hdr.Get("Content-Encoding"), len(rec.flushed))
	}
	zr, err := gzip.NewReader(bytes.NewReader(bytes.Join(rec.flushed, nil)))
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(zr)
	if err != nil || !bytes.Equal(body, stream) {
		t.Errorf("gzip body: %v, %d bytes of %d", err, len(body), len(stream))
	}
}

func TestDeliveryFaultsChecked(t *testing.T) {
	r := rpReplayOf([][]byte{rpStream(3, 1)})
	f := faults.None()
	f.Buffer, f.Burst = -1, -2
	if err := r.CheckFaults(f); err == nil {
		t.Error("negative --buffer and --burst accepted")
	}
	if !(faults.Set{CutAfter: -1, Gzip: true}).Active() {
		t.Error("--gzip is not an active fault")
	}
}
