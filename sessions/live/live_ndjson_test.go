package live

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/capture"
	"framescope/sessions/record"
	"framescope/sessions/report"
)

const (
	ndChat = `{"model":"qwen3:8b","created_at":"2025-09-18T10:15:03Z","message":{"role":"assistant","content":"Hi"},"done":false}`
	ndDone = `{"model":"qwen3:8b","created_at":"2025-09-18T10:15:04Z","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","eval_count":2}`
)

// ndServer serves pieces as application/x-ndjson, flushing each; before
// the piece at index hold it waits until the test says go, so the test
// can see the earlier lines arrive while the response is still open.
func ndServer(t *testing.T, hold int, goOn <-chan struct{}, pieces ...string) string {
	srv := lvServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-ndjson; charset=utf-8")
		w.WriteHeader(200)
		for i, p := range pieces {
			if i == hold {
				select {
				case <-goOn:
				case <-r.Context().Done():
					return
				}
			}
			io.WriteString(w, p)
			w.(http.Flusher).Flush()
		}
	})
	return srv.URL
}

// TestLiveNDJSONFramedPerLine: an NDJSON response is a stream, each line
// one SSE event as it arrives (a line cut across writes, CR LF, blank
// lines, a last line without LF), and a line is handed on before the
// server has sent the rest.
func TestLiveNDJSONFramedPerLine(t *testing.T) {
	lvNoLeak(t)
	goOn := make(chan struct{})
	url := ndServer(t, 2, goOn, ndChat[:20], ndChat[20:]+"\r\n\n", "  \n"+ndChat+"\n", ndDone)
	l := lvConnect(t, ConnectOptions{URL: url})
	if m := l.Meta(); m.Kind != sessions.KindRawNDJSON || !m.Synthetic || !m.Timed {
		t.Fatalf("meta %+v", m)
	}
	var got []byte
	for !strings.Contains(string(got), "\n\n") {
		ch, err := l.Next()
		if err != nil {
			t.Fatalf("Next before the rest was sent: %v", err)
		}
		if !ch.HasTime {
			t.Errorf("chunk without an arrival time")
		}
		got = append(got, ch.Data...)
	}
	close(goOn)
	d := lvDrain(t, l)
	got = append(got, d.data...)
	want := "data: " + ndChat + "\r\n\n" + "data: " + ndChat + "\n\n" + "data: " + ndDone + "\n\n"
	if string(got) != want {
		t.Errorf("events\n%q\nwant\n%q", got, want)
	}
	if d.end.Kind != invariants.EndEOF || len(d.probs) != 0 {
		t.Errorf("end %+v probs %+v", d.end, d.probs)
	}
}

// TestLiveNDJSONCheckedAndRecorded: a live Ollama stream checks clean as
// ollama (its Content-Type is the dialect's), and its recording reads back
// as the same events and the same check.
func TestLiveNDJSONCheckedAndRecorded(t *testing.T) {
	lvNoLeak(t)
	url := ndServer(t, -1, nil, ndChat+"\n", ndChat+"\n", ndDone+"\n")
	rec, path := lvRecordPath(t, lvConnect(t, ConnectOptions{URL: url, Body: []byte(`{"model":"qwen3:8b"}`)}), record.Options{})
	rep, err := report.Check(rec, invariants.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Dialect != "ollama" || len(rep.Alarms) != 0 {
		t.Fatalf("live: dialect %s alarms %v", rep.Dialect, lvRules(rep))
	}
	meta, back := lvReadBack(t, path)
	want := "data: " + ndChat + "\n\n" + "data: " + ndChat + "\n\n" + "data: " + ndDone + "\n\n"
	if string(back.data) != want || !strings.HasPrefix(meta.ContentType, "application/x-ndjson") {
		t.Fatalf("read back %q (content type %q)", back.data, meta.ContentType)
	}
	c, err := capture.Open(path, capture.OpenOptions{Entry: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	rep2, err := report.Check(c, invariants.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep2.Dialect != "ollama" || len(rep2.Alarms) != 0 || rep2.Frames != rep.Frames {
		t.Errorf("read back: dialect %s alarms %v frames %d, live %d", rep2.Dialect, lvRules(rep2), rep2.Frames, rep.Frames)
	}
}

// TestNDJSONFramerBounded: the framer holds no line: a line of many reads
// streams through, and its buffer stays the size of one read.
func TestNDJSONFramerBounded(t *testing.T) {
	var n ndjsonFramer
	read := []byte(strings.Repeat("x", 32<<10))
	total := 0
	for i := range 100 {
		out := n.feed(read)
		if i == 0 && !strings.HasPrefix(string(out), "data: ") {
			t.Fatalf("first read %q…", out[:10])
		}
		total += len(out)
	}
	if cap(n.out) > 2*len(read) || total != 100*len(read)+len("data: ") {
		t.Errorf("buffer %d bytes, %d out", cap(n.out), total)
	}
	if string(n.close()) != "\n\n" || n.close() != nil {
		t.Errorf("close")
	}
}

// TestNDJSONMediaTypes: the line-framed JSON types, any case and
// parameters; json-seq and plain JSON are not.
func TestNDJSONMediaTypes(t *testing.T) {
	for ct, want := range map[string]bool{
		"application/x-ndjson": true, "Application/X-NDJSON; charset=utf-8": true, "application/jsonl": true,
		"application/ndjson": true, "application/json-seq": false, "application/json": false, "text/event-stream": false,
	} {
		if isNDJSONMediaType(ct) != want {
			t.Errorf("%s: %v", ct, !want)
		}
	}
}
