package library

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"framescope/decode"
	"framescope/invariants"
	"framescope/sessions/internal/sessiontest"
)

// NewTestLibrary returns a library whose directory does not exist yet.
func NewTestLibrary(t *testing.T) *Library {
	t.Helper()
	return &Library{Dir: filepath.Join(t.TempDir(), "data", "sessions")}
}

// CreateSession records a session: a capture with body, then (if finish)
// its metadata.
func CreateSession(t *testing.T, l *Library, start time.Time, body string, meta *SessionMeta) string {
	t.Helper()
	id, f, err := l.Create(start)
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	if _, err := f.WriteString(body); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if meta != nil {
		meta.ID = id
		if meta.StartedAt.IsZero() {
			meta.StartedAt = start
		}
		if err := l.Finish(*meta); err != nil {
			t.Fatalf("Finish: %v", err)
		}
	}
	return id
}

// putSession writes a session with a chosen ID directly (for prefix tests).
func putSession(t *testing.T, l *Library, id string, start time.Time, finish bool) {
	t.Helper()
	if err := os.MkdirAll(l.Dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(l.Dir, id+".jsonl"), []byte("{\"framescope_capture\":1}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if finish {
		if err := l.Finish(SessionMeta{ID: id, StartedAt: start, URL: "http://example.test/" + id, End: "eof"}); err != nil {
			t.Fatal(err)
		}
	}
}

func strp(s string) *string { return &s }

var idPattern = regexp.MustCompile(`^\d{8}-\d{6}-[0-9a-f]{4}$`)

func TestLibraryCreateFinishList(t *testing.T) {
	l := NewTestLibrary(t)
	if list, err := l.List(); err != nil || len(list) != 0 {
		t.Fatalf("List of an absent library = %v, %v; want empty, nil", list, err)
	}
	if _, err := os.Stat(l.Dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("List created the directory (stat: %v)", err)
	}

	base := time.Date(2026, 11, 22, 2, 15, 30, 0, time.UTC)
	starts := []time.Time{base.Add(time.Hour), base, base.Add(2 * time.Hour), base.Add(2*time.Hour + 300*time.Millisecond)}
	ids := make([]string, len(starts))
	for i, s := range starts {
		ids[i] = CreateSession(t, l, s, "{\"framescope_capture\":1}\n", &SessionMeta{
			URL:      "http://127.0.0.1:8080/api/chat",
			Method:   "POST",
			Source:   "connect",
			Duration: time.Duration(i+1) * time.Second,
			Bytes:    int64(100 * i),
			Frames:   10 + i,
			Turns:    []TurnSummary{{ResponseID: "r1", Terminal: strp("completed"), Done: true}, {ResponseID: "r2"}},
			Counts:   invariants.Counts{Error: i, Warn: 1, Info: 2},
			End:      "eof",
			Status:   200,
		})
	}
	for i, id := range ids {
		if !idPattern.MatchString(id) {
			t.Errorf("ID %q does not look like 20261122-021530-3f9a", id)
		}
		if want := starts[i].Format("20060102-150405"); !strings.HasPrefix(id, want) {
			t.Errorf("ID %q does not start with its UTC start time %s", id, want)
		}
	}

	list, err := l.List()
	if err != nil {
		t.Fatal(err)
	}
	// Newest first: starts[3] (same second as starts[2], 300ms later), 2, 0, 1.
	wantOrder := []string{ids[3], ids[2], ids[0], ids[1]}
	var got []string
	for _, m := range list {
		got = append(got, m.ID)
	}
	if !reflect.DeepEqual(got, wantOrder) {
		t.Fatalf("List order = %v, want %v", got, wantOrder)
	}
	m := list[2] // ids[0]
	if m.URL != "http://127.0.0.1:8080/api/chat" || m.Method != "POST" || m.Source != "connect" ||
		!m.StartedAt.Equal(starts[0]) || m.Duration != time.Second || m.Frames != 10 ||
		m.Status != 200 || m.End != "eof" || m.Capture != ids[0]+".jsonl" || m.Counts.Info != 2 {
		t.Errorf("metadata did not round-trip: %+v", m)
	}
	if len(m.Turns) != 2 || m.Turns[0].Terminal == nil || *m.Turns[0].Terminal != "completed" || !m.Turns[0].Done || m.Turns[1].Terminal != nil {
		t.Errorf("turns did not round-trip: %+v", m.Turns)
	}

	// Finish again replaces the metadata and leaves no temporary file.
	m.End = "cancelled"
	if err := l.Finish(m); err != nil {
		t.Fatal(err)
	}
	names, _ := os.ReadDir(l.Dir)
	if len(names) != 2*len(ids) {
		var ns []string
		for _, n := range names {
			ns = append(ns, n.Name())
		}
		t.Errorf("library holds %v; want exactly one .jsonl and one .json per session", ns)
	}
	if got, _ := l.Find("@" + ids[0]); got.End != "cancelled" {
		t.Errorf("after a second Finish End = %q, want cancelled", got.End)
	}

	if err := l.Finish(SessionMeta{ID: "../evil"}); err == nil {
		t.Error("Finish accepted an ID with a path in it")
	}
}

func TestLibraryUnfinishedCapture(t *testing.T) {
	l := NewTestLibrary(t)
	start := time.Date(2026, 11, 22, 2, 0, 0, 0, time.UTC)
	header := `{"framescope_capture":1,"url":"http://127.0.0.1:8080/api/chat","method":"POST","status":200,"started_at":"2026-11-22T02:00:00.250Z"}` + "\n"
	body := header + `{"t":0.01,"data":"event: x\n"}` + "\n"
	killed := CreateSession(t, l, start, body, nil)
	noHeader := CreateSession(t, l, start.Add(-time.Hour), "", nil)
	finished := CreateSession(t, l, start.Add(-2*time.Hour), header, &SessionMeta{End: "eof", Frames: 3})

	list, err := l.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 3 || list[0].ID != killed || list[1].ID != noHeader || list[2].ID != finished {
		t.Fatalf("List = %+v", list)
	}
	k := list[0]
	if k.End != EndUnfinished || k.Bytes != int64(len(body)) || k.URL != "http://127.0.0.1:8080/api/chat" ||
		k.Method != "POST" || k.Status != 200 || !k.StartedAt.Equal(start.Add(250*time.Millisecond)) || k.Capture != killed+".jsonl" {
		t.Errorf("unfinished session from its header: %+v", k)
	}
	n := list[1]
	if n.End != EndUnfinished || n.Bytes != 0 || !n.StartedAt.Equal(start.Add(-time.Hour)) {
		t.Errorf("unfinished session without a header should take its start from the ID: %+v", n)
	}
	if list[2].End != "eof" || list[2].Frames != 3 {
		t.Errorf("finished session: %+v", list[2])
	}

	// Unreadable metadata: still listed, and says so.
	if err := os.WriteFile(filepath.Join(l.Dir, finished+".json"), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	list, err = l.List()
	if err != nil || len(list) != 3 {
		t.Fatalf("List = %v, %v", list, err)
	}
	for _, m := range list {
		if m.ID == finished && (!strings.HasPrefix(m.End, "metadata unreadable") || m.URL != "http://127.0.0.1:8080/api/chat") {
			t.Errorf("corrupt metadata should be listed like an unfinished capture, saying why: %+v", m)
		}
	}
	var b bytes.Buffer
	WriteSessionTable(&b, list)
	if !strings.Contains(b.String(), "(metadata unreadable") {
		t.Errorf("table does not show the unreadable metadata:\n%s", b.String())
	}

	// Files that are no sessions are ignored.
	for _, name := range []string{"notes.txt", ".hidden.jsonl", ".x.json.tmp-123"} {
		if err := os.WriteFile(filepath.Join(l.Dir, name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(l.Dir, "dir.jsonl"), 0o700); err != nil {
		t.Fatal(err)
	}
	if list, _ := l.List(); len(list) != 3 {
		t.Errorf("stray files were listed: %+v", list)
	}
}

func TestLibraryResolve(t *testing.T) {
	l := NewTestLibrary(t)
	if _, err := l.Resolve("@last"); err == nil || !strings.Contains(err.Error(), "no sessions") {
		t.Errorf("@last in an empty library: %v", err)
	}
	base := time.Date(2026, 11, 22, 2, 15, 30, 0, time.UTC)
	putSession(t, l, "20261122-021530-3f9a", base.Add(time.Millisecond), true)
	putSession(t, l, "20261122-021530-3fb0", base.Add(2*time.Millisecond), true)
	putSession(t, l, "20261121-100000-0000", base.Add(-16*time.Hour), false)
	putSession(t, l, "20261123-000000-abcd", base.Add(22*time.Hour), true)
	// Metadata whose capture is gone.
	if err := os.Remove(filepath.Join(l.Dir, "20261123-000000-abcd.jsonl")); err != nil {
		t.Fatal(err)
	}
	path := func(id string) string { return filepath.Join(l.Dir, id+".jsonl") }

	for _, tc := range []struct{ ref, want string }{
		{"@20261122-021530-3f9a", path("20261122-021530-3f9a")},
		{"@20261122-021530-3f9", path("20261122-021530-3f9a")},
		{"@20261122-021530-3FB", path("20261122-021530-3fb0")},
		{"@20261121", path("20261121-100000-0000")}, // unfinished sessions resolve too
	} {
		got, err := l.Resolve(tc.ref)
		if err != nil || got != tc.want {
			t.Errorf("Resolve(%q) = %q, %v; want %q", tc.ref, got, err, tc.want)
		}
	}

	// @last is the newest session; here its capture is missing.
	if _, err := l.Resolve("@last"); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("@last with a missing capture: %v", err)
	}
	if err := l.Remove("20261123-000000-abcd"); err != nil {
		t.Fatal(err)
	}
	if got, err := l.Resolve("@last"); err != nil || got != path("20261122-021530-3fb0") {
		t.Errorf("Resolve(@last) = %q, %v", got, err)
	}

	_, err := l.Resolve("@20261122-021530-3f")
	if err == nil {
		t.Fatal("an ambiguous prefix resolved")
	}
	msg := err.Error()
	if !strings.Contains(msg, "ambiguous") || !strings.Contains(msg, "@20261122-021530-3f9a") ||
		!strings.Contains(msg, "@20261122-021530-3fb0") || strings.Contains(msg, "20261121-100000-0000") {
		t.Errorf("ambiguous error should list exactly the candidates:\n%s", msg)
	}

	_, err = l.Resolve("@2027")
	if err == nil || !strings.Contains(err.Error(), "no session") || !strings.Contains(err.Error(), "@20261122-021530-3fb0") {
		t.Errorf("unknown reference should say so and list recent sessions: %v", err)
	}
	if _, err := l.Resolve("@"); err == nil {
		t.Error(`"@" resolved`)
	}
	_, err = l.Resolve("@\x1b[2Jx")
	if err == nil || strings.ContainsRune(err.Error(), 0x1b) {
		t.Errorf("an escape sequence in the reference must not reach the message: %q", err)
	}
}

func TestResolveRef(t *testing.T) {
	t.Setenv(DataDirEnv, t.TempDir())
	for _, name := range []string{"capture.jsonl", "-", "./@odd", ""} {
		if got, err := ResolveRef(name); err != nil || got != name {
			t.Errorf("ResolveRef(%q) = %q, %v; want it unchanged", name, got, err)
		}
	}
	l, err := DefaultLibrary()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(os.Getenv(DataDirEnv), "sessions"); l.Dir != want {
		t.Errorf("DefaultLibrary().Dir = %q, want %q", l.Dir, want)
	}
	id := CreateSession(t, l, time.Now(), "{\"framescope_capture\":1}\n", nil)
	if got, err := ResolveRef("@last"); err != nil || got != filepath.Join(l.Dir, id+".jsonl") {
		t.Errorf("ResolveRef(@last) = %q, %v", got, err)
	}
	if _, err := ResolveRef("@nope"); err == nil {
		t.Error("ResolveRef(@nope) resolved")
	}
}

func TestLibraryRemove(t *testing.T) {
	l := NewTestLibrary(t)
	start := time.Date(2026, 11, 22, 2, 15, 30, 0, time.UTC)
	done := CreateSession(t, l, start, "x\n", &SessionMeta{End: "eof"})
	unfinished := CreateSession(t, l, start.Add(time.Second), "x\n", nil)
	if err := l.Remove(done); err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".json", ".jsonl"} {
		if _, err := os.Stat(filepath.Join(l.Dir, done+ext)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s%s still there after Remove (%v)", done, ext, err)
		}
	}
	if err := l.Remove("@" + unfinished); err != nil {
		t.Errorf("removing an unfinished session: %v", err)
	}
	if list, _ := l.List(); len(list) != 0 {
		t.Errorf("after Remove: %+v", list)
	}
	if err := l.Remove(done); err == nil {
		t.Error("removing an unknown session succeeded")
	}
	for _, bad := range []string{"", "../x", "a/b", ".hidden"} {
		if err := l.Remove(bad); err == nil {
			t.Errorf("Remove(%q) succeeded", bad)
		}
	}
}

// assertTerminalSafe fails when s holds a control character (other than
// LF) or anything else a terminal could act on.
func assertTerminalSafe(t *testing.T, what, s string) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Errorf("%s is not valid UTF-8: %q", what, s)
	}
	for _, r := range s {
		if r != '\n' && decode.UnsafeRune(r) {
			t.Errorf("%s carries %U: %q", what, r, s)
			return
		}
	}
}

func TestWriteSessionTable(t *testing.T) {
	evilURL := "http://x.test/\x1b]0;pwned\x07\x1b[2J\u009b31m\u202eabc\xff"
	start := time.Date(2026, 11, 22, 2, 15, 30, 0, time.UTC)
	list := []SessionMeta{
		{ID: "20261122-021530-3f9a", URL: evilURL, StartedAt: start, Duration: 2500 * time.Millisecond, Frames: 42,
			Turns:  []TurnSummary{{Terminal: strp("completed")}, {Terminal: strp("completed")}, {Terminal: strp("error\x1b[31m")}, {}},
			Counts: invariants.Counts{Error: 1, Warn: 2, Info: 3}, End: "error: read \x1b[5mfailed"},
		{ID: "20261122-021500-0000", URL: "http://127.0.0.1:8080/api/chat", StartedAt: start.Add(-30 * time.Second), End: EndUnfinished, Bytes: 10},
		{ID: "20261122-011500-0001", StartedAt: start.Add(-time.Hour), Duration: 90 * time.Minute, End: "eof"},
	}
	var b bytes.Buffer
	if err := WriteSessionTable(&b, list); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	assertTerminalSafe(t, "table", out)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 1+len(list) {
		t.Fatalf("table has %d lines, want %d:\n%s", len(lines), 1+len(list), out)
	}
	for _, col := range []string{"ID", "STARTED", "DURATION", "FRAMES", "TURNS", "TERMINAL", "ALARMS", "URL"} {
		if !strings.Contains(lines[0], col) {
			t.Errorf("header lacks %s: %q", col, lines[0])
		}
	}
	// Aligned: the URL column starts at the same rune offset on every line.
	urlCol := utf8.RuneCountInString(lines[0][:strings.Index(lines[0], "URL")])
	wantURLs := []string{decode.Sanitize(evilURL), "http://127.0.0.1:8080/api/chat", "-"}
	for i, line := range lines[1:] {
		r := []rune(line)
		if len(r) < urlCol || string(r[urlCol:]) != wantURLs[i] || r[urlCol-1] != ' ' {
			t.Errorf("row %d misaligned or URL wrong:\n%s\n%s", i, lines[0], line)
		}
	}
	row := lines[1]
	for _, want := range []string{"20261122-021530-3f9a", start.Local().Format("2006-01-02 15:04:05"), "2.5s", "42", "completed×2", `error\x1b[31m`, "none", "1/2/3"} {
		if !strings.Contains(row, want) {
			t.Errorf("row lacks %q: %s", want, row)
		}
	}
	if !strings.Contains(lines[2], "(unfinished)") {
		t.Errorf("unfinished row: %s", lines[2])
	}
	if !strings.Contains(lines[3], "1h30m") {
		t.Errorf("long duration: %s", lines[3])
	}

	b.Reset()
	if err := WriteSessionTable(&b, nil); err != nil || strings.Count(b.String(), "\n") != 1 {
		t.Errorf("empty table = %q, %v; want the header only", b.String(), err)
	}
}

func TestWriteSessionJSONRoundTrip(t *testing.T) {
	start := time.Date(2026, 11, 22, 2, 15, 30, 123456789, time.UTC)
	list := []SessionMeta{
		{
			ID: "20261122-021530-3f9a", URL: "http://x.test/?a=1&b=<2>\u009b\u202e\x1b", Method: "POST", Source: "demo:happy",
			StartedAt: start, Duration: 1500 * time.Millisecond, Bytes: 1234, Frames: 9,
			Turns:  []TurnSummary{{ResponseID: "r1", Terminal: strp("completed"), Done: true}, {ResponseID: "r2"}},
			Counts: invariants.Counts{Error: 1}, End: "error: boom", Status: 200, Capture: "20261122-021530-3f9a.jsonl",
		},
		{ID: "20261122-021500-0000", StartedAt: start.Add(-time.Minute), End: EndUnfinished, Turns: []TurnSummary{}, Capture: "20261122-021500-0000.jsonl"},
	}
	var b bytes.Buffer
	if err := WriteSessionJSON(&b, list); err != nil {
		t.Fatal(err)
	}
	assertTerminalSafe(t, "JSON", b.String())
	var back []SessionMeta
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, b.String())
	}
	if !reflect.DeepEqual(back, list) {
		t.Errorf("round trip:\n got %+v\nwant %+v", back, list)
	}
	var raw []map[string]any
	json.Unmarshal(b.Bytes(), &raw)
	for _, key := range []string{"id", "url", "method", "source", "started_at", "duration_ns", "bytes", "frames", "turns", "counts", "end", "status", "capture"} {
		if _, ok := raw[0][key]; !ok {
			t.Errorf("JSON lacks %q", key)
		}
	}
	if raw[0]["duration_ns"] != float64(1500*time.Millisecond) {
		t.Errorf("duration_ns = %v", raw[0]["duration_ns"])
	}

	b.Reset()
	if err := WriteSessionJSON(&b, nil); err != nil || strings.TrimSpace(b.String()) != "[]" {
		t.Errorf("empty list = %q, %v", b.String(), err)
	}
}

func TestLibraryPermissions(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix permissions")
	}
	l := NewTestLibrary(t)
	id := CreateSession(t, l, time.Now(), "x\n", &SessionMeta{End: "eof"})
	for _, tc := range []struct {
		path string
		want os.FileMode
	}{
		{l.Dir, 0o700},
		{filepath.Join(l.Dir, id+".jsonl"), 0o600},
		{filepath.Join(l.Dir, id+".json"), 0o600},
	} {
		info, err := os.Stat(tc.path)
		if err != nil {
			t.Fatal(err)
		}
		if got := info.Mode().Perm(); got != tc.want {
			t.Errorf("%s: mode %v, want %v", tc.path, got, tc.want)
		}
	}
}

func TestDefaultLibraryXDG(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		t.Skip("XDG applies to Linux and other Unix systems")
	}
	xdg := t.TempDir()
	t.Setenv(DataDirEnv, "")
	t.Setenv("XDG_DATA_HOME", xdg)
	l, err := DefaultLibrary()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(xdg, "framescope", "sessions"); l.Dir != want {
		t.Errorf("Dir = %q, want %q", l.Dir, want)
	}
	if _, err := os.Stat(l.Dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("DefaultLibrary created its directory (stat: %v)", err)
	}
}

func TestLibraryDirPerPlatform(t *testing.T) {
	home := filepath.FromSlash("/home/u")
	homeFn := func() (string, error) { return home, nil }
	noHome := func() (string, error) { return "", errors.New("$HOME is not defined") }
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	abs := func(p string) string {
		a, err := filepath.Abs(filepath.FromSlash(p))
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	for _, tc := range []struct {
		name  string
		goos  string
		env   func(string) string
		home  func() (string, error)
		want  string
		error bool
	}{
		{"linux default", "linux", env(), homeFn, filepath.Join(home, ".local", "share", "framescope", "sessions"), false},
		{"linux XDG", "linux", env("XDG_DATA_HOME", abs("/xdg")), homeFn, filepath.Join(abs("/xdg"), "framescope", "sessions"), false},
		{"linux relative XDG ignored", "linux", env("XDG_DATA_HOME", "rel"), homeFn, filepath.Join(home, ".local", "share", "framescope", "sessions"), false},
		{"linux no home", "linux", env(), noHome, "", true},
		{"freebsd", "freebsd", env(), homeFn, filepath.Join(home, ".local", "share", "framescope", "sessions"), false},
		{"macOS", "darwin", env("XDG_DATA_HOME", abs("/xdg")), homeFn, filepath.Join(home, "Library", "Application Support", "framescope", "sessions"), false},
		{"windows", "windows", env("LocalAppData", abs("/appdata/local")), homeFn, filepath.Join(abs("/appdata/local"), "framescope", "sessions"), false},
		{"windows unset", "windows", env(), homeFn, "", true},
		{"override", "linux", env(DataDirEnv, abs("/data"), "XDG_DATA_HOME", abs("/xdg")), noHome, filepath.Join(abs("/data"), "sessions"), false},
		{"relative override", "windows", env(DataDirEnv, "rel"), noHome, filepath.Join(abs("rel"), "sessions"), false},
	} {
		got, err := libraryDir(tc.goos, tc.env, tc.home)
		if tc.error {
			if err == nil {
				t.Errorf("%s: got %q, want an error", tc.name, got)
			} else if !strings.Contains(err.Error(), DataDirEnv) {
				t.Errorf("%s: error should suggest %s: %v", tc.name, DataDirEnv, err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
}

func TestLibraryCreateUniqueIDs(t *testing.T) {
	l := NewTestLibrary(t)
	start := time.Date(2026, 11, 22, 2, 15, 30, 0, time.UTC)
	seen := map[string]bool{}
	for range 50 {
		id := CreateSession(t, l, start, "", nil)
		if seen[id] {
			t.Fatalf("ID %s handed out twice", id)
		}
		seen[id] = true
	}
	if _, _, err := (&Library{}).Create(start); err == nil {
		t.Error("Create without a directory succeeded")
	}
}

// TestLibraryMetadataSafeToCat: a session's metadata file escapes what the
// listing escapes.
func TestLibraryMetadataSafeToCat(t *testing.T) {
	l := &Library{Dir: filepath.Join(t.TempDir(), "lib")}
	id, f, err := l.Create(time.Date(2026, 5, 15, 18, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	meta := SessionMeta{ID: id, URL: "http://127.0.0.1/\u202eexe.txt\u009b", Source: "record", End: "error: \u2066x\u200b",
		Turns: []TurnSummary{{ResponseID: "r\u061c\u00ad"}}}
	if err := l.Finish(meta); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(l.metaPath(id))
	if err != nil {
		t.Fatal(err)
	}
	if r := sessiontest.CatUnsafe(b); r != -1 {
		t.Fatalf("the metadata holds a raw %U:\n%s", r, b)
	}
	list, err := l.List()
	if err != nil || len(list) != 1 || list[0].URL != meta.URL || !strings.HasPrefix(list[0].End, "error: \u2066") {
		t.Fatalf("read back %+v (%v)", list, err)
	}
}

// A capture's header line is found whatever its length up to
// maxHeaderPeek, across the reads that grow the buffer.
func TestReadCaptureHeaderLengths(t *testing.T) {
	dir := t.TempDir()
	for _, size := range []int{60, 4<<10 - 1, 4 << 10, 4<<10 + 1, 10000, maxHeaderPeek - 1, maxHeaderPeek, maxHeaderPeek + 5000} {
		head := `{"framescope_capture":1,"url":"https://x.test/v1","method":"POST","status":200,"pad":"`
		tail := `"}`
		line := head + strings.Repeat("a", max(0, size-len(head)-len(tail))) + tail
		path := filepath.Join(dir, fmt.Sprintf("h%d.jsonl", size))
		if err := os.WriteFile(path, []byte(line+"\n"+`{"t":0.1,"d":"data: x\n\n"}`+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		h, ok := readCaptureHeader(path)
		want := len(line)+1 <= maxHeaderPeek // the line and its newline within the peek
		if ok != want || ok && (h.url != "https://x.test/v1" || h.method != "POST" || h.status != 200) {
			t.Errorf("line of %d bytes: got %+v, %v; want ok=%v", len(line), h, ok, want)
		}
	}
}
