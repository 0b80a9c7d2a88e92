package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"framescope/invariants"
	"framescope/sessions/capture"
	"framescope/sessions/pipeline"
	"framescope/sessions/report"
)

// twoTurnCapture is a timed JSONL capture of two turns with alarms in both
// (an unfinished tool call; a text frame after the terminal), keepalives
// between and inside blocks, and a long idle gap in the second turn.
func twoTurnCapture() string {
	chunks := []struct {
		ms   int
		data string
	}{
		{40, frame("response_id", "r1", 0, "")},
		{60, ": keepalive\n\n"},
		{90, frame("tool_call", "r1", 50, `,"tool_call":{"id":"c1","name":"search","type":"function"}`)},
		{120, frame("text", "r1", 80, `,"chunk":"Hello"`)},
		{150, frame("completed", "r1", 100, "")},
		{160, "data: [DONE]\n\n"},
		{200, ": between turns\n\n"},
		{2300, ": ping\n" + frame("response_id", "r2", 200, "")},
		{2400, frame("text", "r2", 300, `,"chunk":"Again"`)},
		{2500, frame("completed", "r2", 400, "")},
		{2600, frame("text", "r2", 500, `,"chunk":"late"`)},
		{2700, "data: [DONE]\n\n"},
	}
	var b strings.Builder
	b.WriteString(`{"framescope_capture":1,"status":200,"response_headers":{"Content-Type":"text/event-stream"},"started_at":"2026-05-15T18:00:00.000Z"}` + "\n")
	for _, c := range chunks {
		fmt.Fprintf(&b, `{"t":%s,"data":%s}`+"\n", strconv.FormatFloat(float64(c.ms)/1000, 'f', 3, 64), strconv.Quote(c.data))
	}
	b.WriteString(`{"t":2.800,"end":"eof"}` + "\n")
	return b.String()
}

func writeTemp(t *testing.T, name, data string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func checkFile(t *testing.T, path string) *report.Report {
	t.Helper()
	c, err := capture.Open(path, capture.OpenOptions{Entry: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	rep, err := report.Check(c, invariants.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// alarmKeys lists the alarms of one turn (all: -2) as "rule sev frame"
// with frames counted from the turn's first frame (first).
func alarmKeys(rep *report.Report, turn, first int) []string {
	var out []string
	for _, a := range rep.Alarms {
		if turn != -2 && a.Turn != turn {
			continue
		}
		f := a.Frame
		if f != invariants.NoFrame {
			f -= first
		}
		out = append(out, fmt.Sprintf("%s %s %d", a.Rule, a.Severity, f))
	}
	return out
}

// writeVia presses the write key, replaces the proposed name with path
// and confirms; it returns the proposed name.
func writeVia(m *Model, k, path string) string {
	press(m, k)
	if m.prompt == nil {
		return ""
	}
	proposed := m.prompt.input
	for range len([]rune(proposed)) {
		press(m, "backspace")
	}
	m.Update(tea.PasteMsg{Content: path})
	pressCmd(m, "enter")
	return proposed
}

func TestWriteTurnChecksLikeTheOriginalTurn(t *testing.T) {
	orig := writeTemp(t, "two-turns.jsonl", twoTurnCapture())
	want := checkFile(t, orig)
	if len(want.Turns) != 2 {
		t.Fatalf("the capture has %d turns", len(want.Turns))
	}
	m := loadModel(t, orig, 160, 48, true)
	st := m.Store()
	dir := t.TempDir()
	for turn := range 2 {
		m.jump(st.Turns[turn].FirstRow + 1)
		path := filepath.Join(dir, fmt.Sprintf("turn%d.jsonl", turn+1))
		proposed := writeVia(m, "w", path)
		if wantName := fmt.Sprintf("framescope-two-turns-turn%d.jsonl", turn+1); proposed != wantName {
			t.Errorf("turn %d: proposed %q, want %q", turn+1, proposed, wantName)
		}
		if !strings.Contains(screen(m), "wrote "+path) {
			t.Fatalf("turn %d: no notice of the write:\n%s", turn+1, screen(m))
		}
		got := checkFile(t, path)
		tr := st.Turns[turn]
		if got.Frames != tr.Frames || len(got.Turns) != 1 {
			t.Errorf("turn %d: %d frames %d turns, want %d frames 1 turn", turn+1, got.Frames, len(got.Turns), tr.Frames)
		}
		if g, w := got.Turns[0], want.Turns[turn]; g.ResponseID != w.ResponseID || g.Terminal != w.Terminal || g.Done != w.Done {
			t.Errorf("turn %d: %+v, want %+v", turn+1, g, w)
		}
		g, w := alarmKeys(got, 0, 0), alarmKeys(want, turn, tr.FirstFrame)
		if strings.Join(g, "\n") != strings.Join(w, "\n") || len(w) == 0 {
			t.Errorf("turn %d alarms:\n%s\nwant:\n%s", turn+1, strings.Join(g, "\n"), strings.Join(w, "\n"))
		}
	}
}

func TestWriteSessionRoundTrip(t *testing.T) {
	// Every rule fixture and example, timed (JSONL) or not (raw SSE),
	// written whole, checks exactly as the original: same frames, stream
	// bytes and alarms.
	var files []string
	for _, pat := range []string{"../testdata/rules/*.sse", "../testdata/rules/*.jsonl", "../testdata/examples/*"} {
		fs, _ := filepath.Glob(pat)
		files = append(files, fs...)
	}
	if len(files) < 50 {
		t.Fatalf("only %d fixtures", len(files))
	}
	dir := t.TempDir()
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			want := checkFile(t, f)
			if want.Bytes == 0 {
				t.Skip("an empty capture: nothing to write")
			}
			if c, err := capture.Open(f, capture.OpenOptions{Entry: -1}); err == nil {
				failed := pipeline.StatusFailed(c.Meta())
				c.Close()
				if failed {
					t.Skip("a non-2xx response: its body is an error page, not a stream to write")
				}
			}
			m := loadModel(t, f, 120, 40, true)
			ext := ".sse"
			if m.Store().HasFirstArrival {
				ext = ".jsonl"
			}
			path := filepath.Join(dir, filepath.Base(f)+".written"+ext)
			proposed := writeVia(m, "W", path)
			if !strings.HasSuffix(proposed, "-session"+ext) {
				t.Errorf("proposed %q", proposed)
			}
			got := checkFile(t, path)
			if got.Frames != want.Frames || got.Bytes != want.Bytes {
				t.Errorf("frames %d bytes %d, want %d %d", got.Frames, got.Bytes, want.Frames, want.Bytes)
			}
			g, w := alarmKeys(got, -2, 0), alarmKeys(want, -2, 0)
			if strings.Join(g, "\n") != strings.Join(w, "\n") {
				t.Errorf("alarms:\n%s\nwant:\n%s", strings.Join(g, "\n"), strings.Join(w, "\n"))
			}
		})
	}
}

func TestWriteRefusesToOverwrite(t *testing.T) {
	m := loadModel(t, filepath.Join(examples, "example-happy.jsonl"), 160, 48, true)
	path := filepath.Join(t.TempDir(), "out.jsonl")
	if err := os.WriteFile(path, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	writeVia(m, "W", path)
	if m.prompt == nil || m.prompt.confirm != path || !strings.Contains(screen(m), "exists: overwrite it?") {
		t.Fatalf("an existing file must be asked about:\n%s", screen(m))
	}
	press(m, "n")
	if b, _ := os.ReadFile(path); string(b) != "keep me" {
		t.Fatalf("n overwrote the file")
	}
	if m.prompt == nil || m.prompt.confirm != "" || !strings.Contains(screen(m), "write the session to: "+path) {
		t.Fatalf("n goes back to the path:\n%s", screen(m))
	}
	pressCmd(m, "enter")
	pressCmd(m, "y")
	if m.prompt != nil || !strings.Contains(screen(m), "wrote "+path) {
		t.Fatalf("y writes:\n%s", screen(m))
	}
	if got := checkFile(t, path); got.Frames != 13 {
		t.Errorf("the overwritten file has %d frames", got.Frames)
	}
	// Esc aborts a write without touching anything.
	press(m, "w", "esc")
	if m.prompt != nil {
		t.Errorf("esc leaves the prompt open")
	}
}

func TestWriteFailureIsANotice(t *testing.T) {
	m := loadModel(t, filepath.Join(examples, "example-happy.jsonl"), 160, 48, true)
	writeVia(m, "w", filepath.Join(t.TempDir(), "no", "such", "dir", "x.jsonl"))
	if m.prompt != nil || !strings.Contains(screen(m), "write failed:") {
		t.Errorf("a failed write is reported:\n%s", screen(m))
	}
}

func TestWriteCommandDoesTheIO(t *testing.T) {
	// Enter only starts the write: the file appears when the command runs.
	m := loadModel(t, filepath.Join(examples, "example-happy.jsonl"), 160, 48, true)
	path := filepath.Join(t.TempDir(), "later.jsonl")
	press(m, "W")
	for range len(m.prompt.input) {
		press(m, "backspace")
	}
	m.Update(tea.PasteMsg{Content: path})
	_, cmd := m.Update(keyMsg("enter"))
	if _, err := os.Stat(path); err == nil || cmd == nil {
		t.Fatalf("the file was written in Update (or no command)")
	}
	if !strings.Contains(screen(m), "writing ") {
		t.Errorf("the footer says the write runs:\n%s", screen(m))
	}
	runCmd(m, cmd)
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("written file: %v %v", fi, err)
	}
}

func TestFileSlug(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"example-happy.jsonl", "example-happy"},
		{"(stdin)", "stdin"},
		{"http://127.0.0.1:8080/api/chat", "chat"},
		{"a b\x1b[31m.sse", "a-b-31m"},
		{"", "capture"},
	} {
		if got := fileSlug(c.in); got != c.want {
			t.Errorf("fileSlug(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// BenchmarkWriteSession_1M: what W runs (in its command) over the shared
// 1M-frame session (bench_test.go): every row's bytes read back and
// written as a JSONL capture.
//
//	go test ./ui -run '^$' -bench 'WriteSession_1M' -benchtime 1x -timeout 30m
func BenchmarkWriteSession_1M(b *testing.B) {
	m := loadedModel(b)
	st := m.Store()
	dir := b.TempDir()
	var written int64
	for b.Loop() {
		job := writeJob{whole: true, timed: st.HasFirstArrival, path: filepath.Join(dir, "session.jsonl")}
		m.fillJob(&job)
		res := writeCapture(&job, true)
		if res.err != nil || res.frames != st.Frames {
			b.Fatalf("wrote %d frames of %d: %v", res.frames, st.Frames, res.err)
		}
		written += res.bytes
	}
	reportMS(b)
	b.ReportMetric(float64(written)/1e6/b.Elapsed().Seconds(), "MB/s")
}
