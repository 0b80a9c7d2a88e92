package capture

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"framescope/sessions"
	"framescope/sessions/internal/sessiontest"
)

// Issue 24 item 7: checking every SSE entry of a HAR was quadratic in its
// entries (each open parsed the whole document).

// manyEntriesHAR writes a HAR of n SSE entries (each a tiny body, every
// tenth base64, every hundredth a long body of a few KB, and a non-SSE
// entry every seventh) and returns its path and the body of each SSE entry.
func manyEntriesHAR(tb testing.TB, n int) (string, [][]byte) {
	tb.Helper()
	var b bytes.Buffer
	var bodies [][]byte
	b.WriteString(`{"log":{"version":"1.2","creator":{"name":"test","version":"1"},"entries":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		if i%7 == 3 {
			fmt.Fprintf(&b, `{"startedDateTime":"2026-03-02T09:15:00Z","request":{"method":"GET","url":"https://h.test/page/%d","headers":[]},"response":{"status":200,"headers":[],"content":{"mimeType":"text/html","text":"<p>%d</p>"}}},`, i, i)
		}
		body := fmt.Sprintf("data: {\"n\":%d}\n\n", i)
		if i%100 == 50 {
			body = strings.Repeat(fmt.Sprintf("data: {\"n\":%d,\"pad\":\"xxxxxxxxxxxxxxxxxxxxxxxx\"}\n\n", i), 200)
		}
		bodies = append(bodies, []byte(body))
		text, enc := fmt.Sprintf("%q", body), ""
		if i%10 == 0 {
			text, enc = `"`+base64.StdEncoding.EncodeToString([]byte(body))+`"`, `,"encoding":"base64"`
		}
		fmt.Fprintf(&b, `{"startedDateTime":"2026-03-02T09:15:00Z","request":{"method":"POST","url":"https://h.test/api/turn/%d","headers":[{"name":"Accept","value":"text/event-stream"}]},"response":{"status":200,"headers":[{"name":"Content-Type","value":"text/event-stream"}],"content":{"mimeType":"text/event-stream","text":%s%s}}}`, i, text, enc)
	}
	b.WriteString(`]}}`)
	path := filepath.Join(tb.TempDir(), "many.har")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path, bodies
}

// openAllEntries lists a HAR's entries and opens and drains each, as
// `check` does, and returns how many bytes the entries' bodies held.
func openAllEntries(tb testing.TB, path string, bodies [][]byte) int64 {
	es, err := HAREntries(path, OpenOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	if len(es) != len(bodies) {
		tb.Fatalf("%d SSE entries, want %d", len(es), len(bodies))
	}
	var total int64
	for _, e := range es {
		c, err := Open(path, OpenOptions{Entry: e.Position, EntryGiven: true})
		if err != nil {
			tb.Fatal(err)
		}
		var got []byte
		for {
			ch, err := c.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				tb.Fatal(err)
			}
			got = append(got, ch.Data...)
		}
		c.Close()
		if !bytes.Equal(got, bodies[e.Index]) {
			tb.Fatalf("entry %d: body %.80q, want %.80q", e.Index, got, bodies[e.Index])
		}
		total += int64(len(got))
	}
	return total
}

// TestHARManyEntriesReadOnce: opening each of a HAR's 1,000 SSE entries
// reads the document a bounded number of times (once to index it, then
// each entry's own bytes), not once per entry; every body is the one
// written.
func TestHARManyEntriesReadOnce(t *testing.T) {
	path, bodies := manyEntriesHAR(t, 1000)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	es, err := HAREntries(path, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, 5, 999} {
		c := mustOpen(t, path, OpenOptions{Entry: es[i].Position, EntryGiven: true})
		d := sessiontest.Drain(t, c)
		if !bytes.Equal(d.Data, bodies[i]) {
			t.Fatalf("entry %d: body %q, want %q", i, d.Data, bodies[i])
		}
		if want := fmt.Sprintf("https://h.test/api/turn/%d", i); c.Meta().URL != want || c.Meta().Method != "POST" {
			t.Fatalf("entry %d: meta %+v", i, c.Meta())
		}
	}
	before := harSkeletonBytes.Load()
	openAllEntries(t, path, bodies)
	read := harSkeletonBytes.Load() - before
	if read > 3*fi.Size() {
		t.Fatalf("opening %d entries read %d bytes of a %d-byte HAR (%.0f×): the document is read per entry", len(bodies), read, fi.Size(), float64(read)/float64(fi.Size()))
	}
}

// TestHARIndexFollowsTheFile: a HAR rewritten in place is indexed again.
func TestHARIndexFollowsTheFile(t *testing.T) {
	path, _ := manyEntriesHAR(t, 3)
	if es, err := HAREntries(path, OpenOptions{}); err != nil || len(es) != 3 {
		t.Fatalf("%v %v", es, err)
	}
	doc := harWith(`{"request":{"method":"GET","url":"http://h/a","headers":[]},"response":{"status":201,"headers":[],"content":{"mimeType":"text/event-stream","text":"data: 1\n\n"}}}`)
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	es, err := HAREntries(path, OpenOptions{})
	if err != nil || len(es) != 1 || es[0].Status != 201 {
		t.Fatalf("after the rewrite: %v %v", es, err)
	}
	c := mustOpen(t, path, OpenOptions{Entry: 0, EntryGiven: true})
	if d := sessiontest.Drain(t, c); string(d.Data) != "data: 1\n\n" {
		t.Fatalf("body %q", d.Data)
	}
}

// TestHARUnusualDocumentsStillRead: a document the entry walk leaves to
// encoding/json (a differently cased key, a repeated one) reads as before.
func TestHARUnusualDocumentsStillRead(t *testing.T) {
	entry := `{"request":{"method":"GET","url":"http://h/%s","headers":[]},"response":{"status":200,"headers":[],"content":{"mimeType":"text/event-stream","text":"data: %s\n\n"}}}`
	cases := map[string]struct{ doc, url string }{
		"repeated log":  {`{"log":{"entries":[` + fmt.Sprintf(entry, "a", "a") + `]},"log":{"entries":[` + fmt.Sprintf(entry, "b", "b") + `]}}`, "http://h/b"},
		"pages between": {`{"log":{"pages":[{"id":"p"}],"entries":[` + fmt.Sprintf(entry, "c", "c") + `],"comment":"x"}}`, "http://h/c"},
	}
	for name, tc := range cases {
		harBoth(t, tc.doc, func(how string, c sessions.Capture, err error) {
			if err != nil {
				t.Fatalf("%s, %s: %v", name, how, err)
			}
			defer c.Close()
			if c.Meta().URL != tc.url {
				t.Errorf("%s, %s: URL %q, want %q", name, how, c.Meta().URL, tc.url)
			}
		})
	}
}

// BenchmarkHARManyEntries checks what `check` does to a HAR of many
// entries: list them, then open and drain each.
//
//	go test ./sessions/capture/ -run '^$' -bench HARManyEntries -benchtime 1x
func BenchmarkHARManyEntries(b *testing.B) {
	for _, n := range []int{4000, 100_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			path, bodies := manyEntriesHAR(b, n)
			fi, _ := os.Stat(path)
			b.SetBytes(fi.Size())
			b.ReportAllocs()
			runtime.GC()
			stop, peak := make(chan struct{}), make(chan uint64)
			go func() { // the heap's peak, sampled every 2 ms
				sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
				var p uint64
				tick := time.NewTicker(2 * time.Millisecond)
				defer tick.Stop()
				for {
					metrics.Read(sample)
					p = max(p, sample[0].Value.Uint64())
					select {
					case <-stop:
						peak <- p
						return
					case <-tick.C:
					}
				}
			}()
			for b.Loop() {
				harIndexCache.Lock()
				harIndexCache.idx = nil // each run indexes the file again
				harIndexCache.Unlock()
				openAllEntries(b, path, bodies)
			}
			close(stop)
			b.ReportMetric(float64(<-peak)/(1<<20), "peak-heap-MB")
			if s := b.Elapsed().Seconds(); s > 0 {
				b.ReportMetric(float64(n)*float64(b.N)/s, "entries/s")
			}
		})
	}
}
