package live

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/capture"
	"framescope/sessions/internal/sessiontest"
	"framescope/sessions/record"
	"framescope/sessions/report"
)

// TestRecordChunkEncoding: every chunk reads back byte for byte and at its
// time, whatever its bytes: JSON escapes, invalid UTF-8 (b64), a rune cut
// by a chunk boundary, control and separator characters.
func TestRecordChunkEncoding(t *testing.T) {
	chunks := [][]byte{
		[]byte("event: text\ndata: {\"chunk\":\"hi \\\"there\\\"\"}\n\n"),
		[]byte("data: <script>&amp;</script>\r\n\r\n"),
		[]byte("\x00\x01\x1b[31m\x7f\t"),
		[]byte("é—✓😀 \u2028\u2029 \u0085\u009f \ufeff \ufffd"),
		[]byte("data: caf\xc3"), // a rune cut by the chunk boundary…
		[]byte("\xa9\n\n"),      // …and its end
		{0xff, 0xfe, 0x00, 'a', 0x80},
		[]byte("\xed\xa0\x80"), // a UTF-16 surrogate in UTF-8: invalid
		[]byte(`\u0041 \\ / \/`),
		bytes.Repeat([]byte("x"), 200<<10),
	}
	f := &sessiontest.FakeCapture{Info: sessions.Meta{Name: "fake", Kind: sessions.KindSSE, Timed: true, StartedAt: time.Date(2026, 5, 15, 18, 0, 0, 0, time.UTC)}, Ending: invariants.End{Kind: invariants.EndEOF, At: 3 * time.Second, HasTime: true}}
	for i, c := range chunks {
		f.Chunks = append(f.Chunks, sessions.Chunk{Data: c, T: time.Duration(i)*123457*time.Microsecond + 1500, HasTime: true})
	}
	var buf bytes.Buffer
	rec := record.New(f, &buf, record.Options{})
	live := lvDrain(t, rec)
	for i, c := range live.chunks {
		if !bytes.Equal(c.Data, chunks[i]) {
			t.Errorf("chunk %d changed on the way through", i)
		}
	}

	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != len(chunks)+2 {
		t.Fatalf("%d lines, want header + %d chunks + end", len(lines), len(chunks))
	}
	for i, line := range lines[1 : len(lines)-1] {
		if strings.Contains(line, `"b64"`) == isUTF8(chunks[i]) {
			t.Errorf("chunk %d (valid UTF-8 %v) written as %s", i, isUTF8(chunks[i]), line[:min(len(line), 60)])
		}
		if !capture.JSONLFastPath([]byte(line)) {
			t.Errorf("line %d misses the reader's fast path: %.80s", i+2, line)
		}
		// Nothing a terminal would act on reaches the file.
		for _, bad := range []string{"\x1b", "\x00", "\u2028", "\u0085", "\x7f"} {
			if strings.Contains(line, bad) {
				t.Errorf("line %d holds %q raw", i+2, bad)
			}
		}
	}
	if !json.Valid([]byte(lines[0])) {
		t.Errorf("header is not JSON: %s", lines[0])
	}

	c, err := capture.OpenReader("rec.jsonl", bytes.NewReader(buf.Bytes()), capture.OpenOptions{Entry: -1})
	if err != nil {
		t.Fatal(err)
	}
	back := lvDrain(t, c)
	if len(back.probs) != 0 {
		t.Errorf("problems reading the recording: %v", back.probs)
	}
	if len(back.chunks) != len(chunks) {
		t.Fatalf("%d chunks read back, want %d", len(back.chunks), len(chunks))
	}
	for i, ch := range back.chunks {
		if !bytes.Equal(ch.Data, chunks[i]) {
			t.Errorf("chunk %d: read back %q, want %q", i, trimFor(ch.Data), trimFor(chunks[i]))
		}
		if d := ch.T - f.Chunks[i].T; !ch.HasTime || d < -time.Microsecond || d > time.Microsecond {
			t.Errorf("chunk %d at %s, want %s", i, ch.T, f.Chunks[i].T)
		}
	}
	if back.end.Kind != invariants.EndEOF || back.end.At != 3*time.Second {
		t.Errorf("end %+v", back.end)
	}
}

func isUTF8(b []byte) bool { return utf8.Valid(b) }

func trimFor(b []byte) []byte {
	if len(b) > 40 {
		return b[:40]
	}
	return b
}

// TestRecordHeader: the header line carries the response and the request,
// with credentials redacted (request and response), listed in "redacted".
func TestRecordHeader(t *testing.T) {
	meta := sessions.Meta{
		Name: "http://h/x", Kind: sessions.KindSSE, URL: "http://h/x", Method: "POST", HTTP: true, Status: 201,
		ContentType: "text/event-stream; charset=utf-8",
		RequestHeaders: map[string]string{
			"Authorization": "Bearer sk-1", "Proxy-Authorization": "Basic p-2", "cookie": "c-3",
			"X-Api-Key": "k-4", "X-Tenant-Id": "s-5", "Accept": "text/event-stream",
		},
		ResponseHeaders: map[string]string{"Set-Cookie": "sc-6", "Content-Type": "text/event-stream; charset=utf-8"},
		StartedAt:       time.Date(2026, 5, 15, 18, 0, 0, 123456789, time.FixedZone("x", 3600)),
		Timed:           true,
	}
	secrets := map[string]string{"sk-1": "Authorization", "p-2": "Proxy-Authorization", "c-3": "cookie", "k-4": "X-Api-Key", "s-5": "X-Tenant-Id", "sc-6": "Set-Cookie"}
	tests := []struct {
		name     string
		opts     record.Options
		redacted []string
	}{
		{"default", record.Options{}, []string{"Authorization", "Proxy-Authorization", "Set-Cookie", "X-Api-Key", "cookie"}},
		{"extra name", record.Options{Redact: []string{"x-tenant-ID"}}, []string{"Authorization", "Proxy-Authorization", "Set-Cookie", "X-Api-Key", "X-Tenant-Id", "cookie"}},
		{"keep secrets", record.Options{KeepSecrets: true, Redact: []string{"X-Tenant-Id"}}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			rec := record.New(&sessiontest.FakeCapture{Info: meta, Ending: invariants.End{Kind: invariants.EndEOF}}, &buf, tc.opts)
			lvDrain(t, rec)
			header, _, _ := strings.Cut(buf.String(), "\n")
			var h struct {
				Version   int               `json:"framescope_capture"`
				URL       string            `json:"url"`
				Method    string            `json:"method"`
				Status    int               `json:"status"`
				Req       map[string]string `json:"request_headers"`
				Resp      map[string]string `json:"response_headers"`
				StartedAt string            `json:"started_at"`
				Redacted  []string          `json:"redacted"`
			}
			if err := json.Unmarshal([]byte(header), &h); err != nil {
				t.Fatalf("%v: %s", err, header)
			}
			if !strings.HasPrefix(header, `{"framescope_capture":1,"url":`) || h.Version != 1 || h.URL != meta.URL || h.Method != "POST" || h.Status != 201 ||
				h.StartedAt != "2026-05-15T17:00:00.123Z" || h.Req["Accept"] != "text/event-stream" {
				t.Errorf("header %s", header)
			}
			if !reflect.DeepEqual(h.Redacted, tc.redacted) {
				t.Errorf("redacted %q, want %q", h.Redacted, tc.redacted)
			}
			for secret, name := range secrets {
				redacted := false
				for _, n := range tc.redacted {
					redacted = redacted || strings.EqualFold(n, name)
				}
				if strings.Contains(header, secret) == redacted {
					t.Errorf("%s's value in the file: %v, want %v", name, !redacted, !redacted)
				}
			}
			for _, n := range tc.redacted {
				v, ok := h.Req[n]
				if !ok {
					v = h.Resp[n]
				}
				if v != sessions.RedactedValue {
					t.Errorf("%s = %q", n, v)
				}
			}
			// It reads back as the same response.
			c, err := capture.OpenReader("r", &buf, capture.OpenOptions{})
			if err != nil {
				t.Fatal(err)
			}
			m := c.Meta()
			if m.Status != 201 || !m.HTTP || m.ContentType != meta.ContentType || m.URL != meta.URL || !m.StartedAt.Equal(meta.StartedAt.Truncate(time.Millisecond)) {
				t.Errorf("meta read back %+v", m)
			}
		})
	}
}

// TestRecordEnds: every end reads back as the same End; a capture closed
// before its end was cut by the client ("cancelled").
func TestRecordEnds(t *testing.T) {
	tests := []struct {
		name  string
		end   invariants.End
		close bool // Close after one chunk
		want  invariants.End
		line  string
	}{
		{"eof", invariants.End{Kind: invariants.EndEOF, At: 2 * time.Second, HasTime: true}, false, invariants.End{Kind: invariants.EndEOF, At: 2 * time.Second, HasTime: true}, `{"t":2.000000,"end":"eof"}`},
		{"error", invariants.End{Kind: invariants.EndError, Detail: "read tcp: connection reset by peer\nand \"more\"", At: time.Second, HasTime: true}, false,
			invariants.End{Kind: invariants.EndError, Detail: "read tcp: connection reset by peer\nand \"more\"", At: time.Second, HasTime: true}, `"end":"error: read tcp: connection reset by peer\nand \"more\""`},
		{"cancelled", invariants.End{Kind: invariants.EndCancelled, At: 1500 * time.Millisecond, HasTime: true}, false, invariants.End{Kind: invariants.EndCancelled, At: 1500 * time.Millisecond, HasTime: true}, `{"t":1.500000,"end":"cancelled"}`},
		{"end before the last chunk's time", invariants.End{Kind: invariants.EndEOF, At: 0, HasTime: true}, false, invariants.End{Kind: invariants.EndEOF, At: 700 * time.Millisecond, HasTime: true}, `{"t":0.700000,"end":"eof"}`},
		{"closed mid-stream", invariants.End{Kind: invariants.EndEOF}, true, invariants.End{Kind: invariants.EndCancelled}, `"end":"cancelled"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := &sessiontest.FakeCapture{Info: sessions.Meta{Kind: sessions.KindSSE, Timed: true, StartedAt: time.Now()}, Ending: tc.end,
				Chunks: []sessions.Chunk{{Data: []byte("data: 1\n\n"), T: 500 * time.Millisecond, HasTime: true}, {Data: []byte("data: 2\n\n"), T: 700 * time.Millisecond, HasTime: true}}}
			var buf bytes.Buffer
			rec := record.New(f, &buf, record.Options{})
			if tc.close {
				rec.Next()
				rec.Close()
			} else {
				lvDrain(t, rec)
			}
			if !strings.Contains(buf.String(), tc.line) {
				t.Errorf("no %s in\n%s", tc.line, buf.String())
			}
			c, err := capture.OpenReader("r", &buf, capture.OpenOptions{})
			if err != nil {
				t.Fatal(err)
			}
			d := lvDrain(t, c)
			got := d.end
			if tc.close {
				got.At, got.HasTime = 0, false
			}
			if got != tc.want || len(d.probs) != 0 {
				t.Errorf("end %+v (problems %v), want %+v", d.end, d.probs, tc.want)
			}
		})
	}
}

// TestRecordUntimedSource: chunks of a source without arrival times are
// timed by the recorder, never going back in time.
func TestRecordUntimedSource(t *testing.T) {
	src, err := capture.OpenReader("in.sse", strings.NewReader(strings.Join(lvTurn(5), "")), capture.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	lvDrain(t, record.New(src, &buf, record.Options{}))
	c, err := capture.OpenReader("r", &buf, capture.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d := lvDrain(t, c)
	if string(d.data) != strings.Join(lvTurn(5), "") || len(d.probs) != 0 || d.end.Kind != invariants.EndEOF {
		t.Errorf("data %q, problems %v, end %+v", d.data, d.probs, d.end)
	}
	if m := c.Meta(); m.HTTP || m.StartedAt.IsZero() {
		t.Errorf("meta %+v", m)
	}
}

// TestRecordFile: a recording file is private (0600), even when it
// replaces a readable one.
func TestRecordFile(t *testing.T) {
	dir := t.TempDir()
	for _, pre := range []bool{false, true} {
		path := filepath.Join(dir, "new.jsonl")
		if pre {
			path = filepath.Join(dir, "old.jsonl")
			if err := os.WriteFile(path, []byte("old contents that are longer"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		w, err := record.File(path)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, "x")
		w.Close()
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 || fi.Size() != 1 {
			t.Errorf("existing %v: mode %v, size %d", pre, fi.Mode().Perm(), fi.Size())
		}
	}
	if _, err := record.File(filepath.Join(dir, "no", "such", "dir.jsonl")); err == nil || !strings.Contains(err.Error(), "dir.jsonl") {
		t.Errorf("error %v", err)
	}
}

// TestRecordRoundTrip: a live stream recorded to a file reads back byte
// for byte — invalid UTF-8 and runes cut between reads included — and the
// recording checks exactly like the bytes the server sent.
func TestRecordRoundTrip(t *testing.T) {
	lvNoLeak(t)
	frames := lvTurn(40)
	// Damage: a frame with invalid UTF-8 in its JSON, a comment with a raw
	// byte, a frame of the wrong shape.
	frames = append(frames[:5:5], append([]string{
		"event: text\ndata: {\"event_type\":\"text\"," + lvEnv + ",\"chunk\":\"bad \xff\xfe byte\"}\n\n",
		": keepalive \x80\n\n",
		lvFrame("text", `,"chunk":"naïve café — ✓ 😀"`),
		lvFrame("text", `,"chunk":42`),
	}, frames[5:]...)...)
	sent := strings.Join(frames, "")
	// Written in odd pieces, so that reads cut lines and runes.
	var pieces []lvPiece
	for i := 0; i < len(sent); i += 37 {
		pieces = append(pieces, lvPiece{data: sent[i:min(i+37, len(sent))]})
		if i%(37*8) == 0 {
			pieces[len(pieces)-1].wait = 2 * time.Millisecond
		}
	}
	srv := lvServer(t, lvScript(pieces...))
	l := lvConnect(t, ConnectOptions{URL: srv.URL, Headers: []string{"Authorization: Bearer secret-token"}})
	rec, path := lvRecordPath(t, l, record.Options{})
	noTiming := invariants.Options{Idle: -1, TTFE: -1, NoTiming: true} // PC3 turns are timed too (docs/timing.md)
	liveRep, err := report.Check(rec, noTiming)
	if err != nil {
		t.Fatal(err)
	}
	rec.Close()

	meta, back := lvReadBack(t, path)
	if string(back.data) != sent {
		t.Fatalf("recording differs from what was sent (%d vs %d bytes)", len(back.data), len(sent))
	}
	if len(back.chunks) < 5 || len(back.probs) != 0 {
		t.Errorf("%d chunks, problems %v", len(back.chunks), back.probs)
	}
	if strings.Contains(string(sessiontest.ReadFile(t, path)), "secret-token") || meta.RequestHeaders["Authorization"] != sessions.RedactedValue {
		t.Error("the Authorization header reached the recording")
	}

	c, err := capture.Open(path, capture.OpenOptions{Entry: -1})
	if err != nil {
		t.Fatal(err)
	}
	recRep, err := report.Check(c, noTiming)
	c.Close()
	if err != nil {
		t.Fatal(err)
	}
	rawRep := checkBytes(t, sent, noTiming)
	if rawRep.Frames != len(frames)-1 { // the comment is no frame
		t.Errorf("%d frames, want %d", rawRep.Frames, len(frames)-1)
	}
	if rawRep.Counts.Error+rawRep.Counts.Warn == 0 {
		t.Error("the damaged frames raised nothing: the test proves little")
	}
	for name, rep := range map[string]*report.Report{"live": liveRep, "recording": recRep} {
		if !reflect.DeepEqual(lvComparable(rep), lvComparable(rawRep)) {
			t.Errorf("%s check differs from the check of the bytes sent:\n%+v\nwant\n%+v", name, lvComparable(rep), lvComparable(rawRep))
		}
	}
}

func checkBytes(t *testing.T, s string, opts invariants.Options) *report.Report {
	t.Helper()
	c, err := capture.OpenReader("sent.sse", strings.NewReader(s), capture.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := report.Check(c, opts)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// lvComparable is a report without what depends on the source's name and
// format.
func lvComparable(r *report.Report) any {
	return struct {
		Frames int
		Turns  []invariants.Turn
		Alarms []report.ReportAlarm
		Counts invariants.Counts
		End    invariants.EndKind
	}{r.Frames, r.Turns, r.Alarms, r.Counts, r.End.Kind}
}

// TestRecordKilled: a recorder stopped mid-stream (its file closed under
// it, as when the process is killed) leaves a capture that Open reads up to
// the last chunk written; the stream itself goes on.
func TestRecordKilled(t *testing.T) {
	lvNoLeak(t)
	frames := lvTurn(10)
	var pieces []lvPiece
	for _, f := range frames {
		pieces = append(pieces, lvPiece{wait: 5 * time.Millisecond, data: f})
	}
	srv := lvServer(t, lvScript(pieces...))
	l := lvConnect(t, ConnectOptions{URL: srv.URL})
	path := filepath.Join(t.TempDir(), "killed.jsonl")
	f, err := record.File(path)
	if err != nil {
		t.Fatal(err)
	}
	rec := record.New(l, f, record.Options{})
	var written []byte
	for len(written) < len(frames[0])+len(frames[1]) {
		ch, err := rec.Next()
		if err != nil {
			t.Fatal("stream ended early")
		}
		written = append(written, ch.Data...)
	}
	f.Close() // the recorder is "killed": nothing more reaches the file

	rest := lvDrain(t, rec) // the stream goes on
	if string(written)+string(rest.data) != strings.Join(frames, "") || rest.end.Kind != invariants.EndEOF {
		t.Errorf("the stream suffered from the recording failure: %d bytes, end %+v", len(written)+len(rest.data), rest.end)
	}
	if len(rest.probs) != 1 || !rest.probs[0].Note || !strings.Contains(rest.probs[0].Message, "recording stopped") {
		t.Errorf("problems %+v, want one note that the recording stopped", rest.probs)
	}
	if rec.(*record.Recorder).Err() == nil {
		t.Error("Err is nil")
	}

	_, d := lvReadBack(t, path)
	if string(d.data) != string(written) {
		t.Errorf("recording holds %q, want the %d bytes written before the kill", d.data, len(written))
	}
	if d.end.Kind != invariants.EndError || d.end.Detail != capture.JSONLTruncated || len(d.probs) != 1 || !strings.Contains(d.probs[0].Message, "without an end line") {
		t.Errorf("end %+v, problems %v", d.end, d.probs)
	}
}
