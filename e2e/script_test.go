package e2e

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/rogpeppe/go-internal/testscript"

	"framescope/sessions/library"
)

// TestScript runs the end-to-end scripts, e2e/testdata/script/*.txtar, one
// per behaviour: transcripts of framescope runs, what they print, exit
// with and write. Run one with
//
//	go test ./e2e -run TestScript/check_examples
//
// The binary is the one TestMain built, and a script runs it with the
// framescope command: testscript's exec of that binary (stdin, stdout,
// stderr and the log as exec has them) that also keeps its exit status
// for status. testscript's exec tells only zero from non-zero, framescope's
// 1 (alarms) and 2 (usage or input) must be told apart, and a builtin
// cannot be extended, so the run is a command of the harness's own, as
// soft-serve's scripts run `soft`. Such a command cannot be started with &:
// a framescope in the background is `exec framescope ARGS &` (the binary is
// on $PATH as framescope, for the completion scripts' shells too), which
// testscript stops at kill, at wait or at the script's end. TestScript
// fails a script that runs `exec framescope` in the foreground: status
// would read the run before it.
//
// Every script has $TESTDATA (the repository's testdata, to read; scripts
// write in $WORK), $VERSION (what framescope --version prints) and a
// session library of its own ($FRAMESCOPE_DATA_DIR is $WORK/data), and
// beside testscript's commands and conditions:
//
//	framescope ARGS      run the binary (! framescope: it must fail), keeping its exit status
//	status N             the last framescope exited with N (1: alarms, 2: usage or input)
//	server NAME [BODY]   a loopback HTTP stub at $NAME that logs each request to NAME/
//	rawget URL FILE      GET URL as an app that does not decompress, the body to FILE
//	report [FILE]        JSON reports of check, one fact a line, without source and version
//	chunks FILE          the bytes a JSONL capture recorded
//	valid FORMAT [FILE]  stdout (or FILE) parses as json, ndjson or xml
//	envfile NAME=FILE    $NAME is FILE's text (a pasted command of several lines)
//	stdout2env NAME RE   $NAME is RE's first group in stdout (a session ID)
//	freeport NAME        $NAME is a free loopback port, for exec framescope serve … &
//	listening ADDR       wait until something listens on ADDR
//	[file:PATH]          the condition that PATH exists
//
// Each command's doc comment below says more.
func TestScript(t *testing.T) {
	if builtVersion == "" {
		t.Error("framescope --version printed no version: $VERSION is empty")
	}
	checkNoForegroundExec(t, scriptDir)
	testdata := repoPath("testdata")
	testscript.Run(t, testscript.Params{
		Dir:                scriptDir,
		RequireUniqueNames: true,
		Setup: func(env *testscript.Env) error {
			// framescope on $PATH: the binary TestMain built, alone in its folder.
			env.Setenv("PATH", filepath.Dir(builtBinary)+string(filepath.ListSeparator)+env.Getenv("PATH"))
			// The repository's captures (read only: scripts write in $WORK).
			env.Setenv("TESTDATA", testdata)
			// The session library of every run is the script's own.
			env.Setenv(library.DataDirEnv, filepath.Join(env.WorkDir, "data"))
			env.Setenv("VERSION", builtVersion)
			env.Values[exitKey{}] = &lastExit{}
			return nil
		},
		Condition: func(cond string) (bool, error) {
			// [file:PATH]: PATH exists (e.g. [file:/dev/full]).
			if p, ok := strings.CutPrefix(cond, "file:"); ok {
				_, err := os.Stat(p)
				return err == nil, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: scriptCmds,
	})
}

// scriptDir holds the scripts.
const scriptDir = "testdata/script"

// foregroundExec is a script line that runs framescope with testscript's
// exec: its last word says whether it is in the background (& or &NAME&).
var foregroundExec = regexp.MustCompile(`(?m)^[ \t]*(?:\[[^\]]*\][ \t]*)*(?:![ \t]*)?exec[ \t]+framescope\b(.*)$`)

var backgroundMark = regexp.MustCompile(`^&(\w+&)?$`)

// checkNoForegroundExec fails for a script that runs framescope with
// `exec framescope` in the foreground, where `framescope` keeps the exit
// status that status reads.
func checkNoForegroundExec(t *testing.T, dir string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts in %s (%v)", dir, err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		comment, _, _ := strings.Cut(string(b), "\n-- ")
		for _, m := range foregroundExec.FindAllStringSubmatchIndex(comment, -1) {
			words := strings.Fields(comment[m[2]:m[3]])
			if len(words) == 0 || !backgroundMark.MatchString(words[len(words)-1]) {
				line := strings.Count(comment[:m[0]], "\n") + 1
				t.Errorf("%s:%d: run framescope in the foreground as `framescope ARGS` (status reads its exit status), not with exec", f, line)
			}
		}
	}
}

// exitKey is the key of the script's lastExit in its testscript Values.
type exitKey struct{}

// lastExit is the exit status of the script's last framescope command,
// until status reads it.
type lastExit struct {
	code int
	set  bool
}

// framescope ARGS: runs the built binary as testscript's exec does (stdin
// from the stdin command, stdout and stderr kept for stdout, cmp and the
// rest; ! framescope wants it to fail) and keeps its exit status for
// status. A run killed by a signal has no status (status fails).
func cmdFramescope(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) > 0 && backgroundMark.MatchString(args[len(args)-1]) {
		ts.Fatalf("framescope runs in the foreground: start it in the background with exec framescope ARGS &")
	}
	last := ts.Value(exitKey{}).(*lastExit)
	*last = lastExit{}
	err := ts.Exec(builtBinary, args...)
	var exit *exec.ExitError
	switch {
	case err == nil:
		*last = lastExit{0, true}
	case errors.As(err, &exit):
		ts.Logf("[%v]", err)
		if code := exit.ExitCode(); code >= 0 { // -1: killed by a signal
			*last = lastExit{code, true}
		}
	default:
		ts.Fatalf("framescope did not run: %v", err)
	}
	if err == nil && neg {
		ts.Fatalf("unexpected command success")
	}
	if err != nil && !neg {
		ts.Fatalf("unexpected command failure")
	}
}

// scriptCmds are the commands the scripts have beside testscript's.
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"framescope": cmdFramescope,
	"status":     cmdStatus,
	"server":     cmdServer,
	"report":     cmdReport,
	"chunks":     cmdChunks,
	"envfile":    cmdEnvfile,
	"stdout2env": cmdStdout2env,
	"freeport":   cmdFreeport,
	"listening":  cmdListening,
	"valid":      cmdValid,
	"rawget":     cmdRawget,
}

// rawget URL FILE: GETs URL as an app that asks for a compressed body and
// does not decompress it (Accept-Encoding: gzip, deflate, br; no
// transparent decoding), and writes the body as received to FILE.
func cmdRawget(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: rawget URL FILE")
	}
	req, err := http.NewRequest(http.MethodGet, args[0], nil)
	ts.Check(err)
	req.Header.Set("Accept-Encoding", "gzip, deflate, br")
	resp, err := (&http.Transport{DisableCompression: true, Proxy: nil}).RoundTrip(req)
	ts.Check(err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), b, 0o644))
}

// status N: the last framescope command exited with status N. (`framescope`
// wants 0 and `! framescope` anything else; framescope's 1, alarms, and 2,
// a usage or input error, are told apart here.) A status is read once: a
// second status needs another framescope run.
func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: status N")
	}
	last := ts.Value(exitKey{}).(*lastExit)
	if !last.set {
		ts.Fatalf("no exit status recorded: did framescope run (not exec framescope, not killed by a signal)?")
	}
	got := *last
	*last = lastExit{}
	if strconv.Itoa(got.code) != args[0] {
		ts.Fatalf("framescope exited with status %d, want %s", got.code, args[0])
	}
}

// server [-status N] [-type CT] [-encoded] [-hold] [-loop FILE] NAME [BODY]
//
// starts a loopback HTTP server for the rest of the script and sets $NAME to
// its URL (http://127.0.0.1:PORT) and $NAME_HOST to 127.0.0.1:PORT. Every
// request gets status N (200), Content-Type CT (text/event-stream) and the
// file BODY (none). -encoded sends BODY compressed with the coding the URL
// path names (/gzip, /deflate or /br), whatever the request asked for.
// After BODY, -hold keeps the stream open until the client goes (10 s at
// most), and -loop sends FILE again and again until the client goes.
//
// The server writes request number I (from 1) to NAME/I.req: the request
// line ("POST /api/chat?q=1") and the headers, one "Name: value" line each,
// sorted, a header's values joined with ", "; the body, if any, goes to
// NAME/I.body as it came (cmp it with a file, or grep '\Abody\z').
func cmdServer(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! server")
	}
	status, ctype := 200, "text/event-stream"
	var encoded, hold bool
	var loop []byte
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		switch {
		case args[0] == "-status" && len(args) > 1:
			n, err := strconv.Atoi(args[1])
			ts.Check(err)
			status, args = n, args[2:]
		case args[0] == "-type" && len(args) > 1:
			ctype, args = args[1], args[2:]
		case args[0] == "-loop" && len(args) > 1:
			loop, args = []byte(ts.ReadFile(args[1])), args[2:]
		case args[0] == "-encoded":
			encoded, args = true, args[1:]
		case args[0] == "-hold":
			hold, args = true, args[1:]
		default:
			ts.Fatalf("server: unknown option %s", args[0])
		}
	}
	if len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: server [-status N] [-type CT] [-encoded] [-hold] [-loop FILE] NAME [BODY]")
	}
	name := args[0]
	var body []byte
	if len(args) == 2 {
		body = []byte(ts.ReadFile(args[1]))
	}
	logDir := ts.MkAbs(name)
	ts.Check(os.MkdirAll(logDir, 0o755))
	var mu sync.Mutex
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		n++
		i := n
		mu.Unlock()
		var req strings.Builder
		fmt.Fprintf(&req, "%s %s\n", r.Method, r.URL.RequestURI())
		keys := make([]string, 0, len(r.Header))
		for k := range r.Header {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&req, "%s: %s\n", k, strings.Join(r.Header.Values(k), ", "))
		}
		base := filepath.Join(logDir, strconv.Itoa(i))
		if len(b) > 0 {
			os.WriteFile(base+".body", b, 0o644)
		}
		os.WriteFile(base+".req", []byte(req.String()), 0o644)

		out := body
		if encoded {
			coding := strings.TrimPrefix(r.URL.Path, "/")
			out = encodeBody(coding, body)
			w.Header().Set("Content-Encoding", coding)
		}
		w.Header().Set("Content-Type", ctype)
		w.WriteHeader(status)
		w.Write(out)
		w.(http.Flusher).Flush()
		switch {
		case hold:
			select {
			case <-r.Context().Done():
			case <-time.After(10 * time.Second):
			}
		case loop != nil:
			piece := bytes.Repeat(loop, 200)
			for r.Context().Err() == nil {
				if _, err := w.Write(piece); err != nil {
					return
				}
				w.(http.Flusher).Flush()
			}
		}
	}))
	ts.Defer(srv.Close)
	ts.Setenv(name, srv.URL)
	ts.Setenv(name+"_HOST", strings.TrimPrefix(srv.URL, "http://"))
}

// encodeBody compresses b with a content coding.
func encodeBody(coding string, b []byte) []byte {
	var out bytes.Buffer
	var w io.WriteCloser
	switch coding {
	case "gzip":
		w = gzip.NewWriter(&out)
	case "deflate":
		w = zlib.NewWriter(&out)
	case "br":
		w = brotli.NewWriterLevel(&out, 1)
	default:
		return b
	}
	w.Write(b)
	w.Close()
	return out.Bytes()
}

// report [-untimed] [FILE]
//
// prints the JSON reports of `check --format json` on the last stdout (or
// in FILE), one line per fact, each line led by the report's number (from
// 1): "N dialect D", "N frames F", "N turn {…}" (the turn's JSON) for each
// turn, "N alarm RULE SEVERITY FRAME RESPONSE-ID: MESSAGE" for each alarm
// ("-" for a null), then "N KEY VALUE" for the other keys, sorted, the
// value as JSON. The keys that name the input (source, format) or the build
// (version) are left out, so that two reports of one stream read from
// different files compare equal with cmp; match those in the JSON. With
// -untimed the arrival-time facts (each turn's "timing", "timed", the
// delivery-* and budget-* alarms, and the counts that include them) are
// left out too: a raw body and a recording of it then compare equal.
func cmdReport(ts *testscript.TestScript, neg bool, args []string) {
	untimed := len(args) > 0 && args[0] == "-untimed"
	if untimed {
		args = args[1:]
	}
	if neg || len(args) > 1 {
		ts.Fatalf("usage: report [-untimed] [FILE]")
	}
	file := "stdout"
	if len(args) == 1 {
		file = args[0]
	}
	out := ts.Stdout()
	for i, line := range strings.Split(strings.TrimRight(ts.ReadFile(file), "\n"), "\n") {
		var rep map[string]json.RawMessage
		if err := json.Unmarshal([]byte(line), &rep); err != nil {
			ts.Fatalf("report %d is not JSON: %v\n%s", i+1, err, line)
		}
		n := i + 1
		var dialect string
		var frames int
		json.Unmarshal(rep["dialect"], &dialect)
		json.Unmarshal(rep["frames"], &frames)
		fmt.Fprintf(out, "%d dialect %s\n%d frames %d\n", n, dialect, n, frames)
		var turns []json.RawMessage
		json.Unmarshal(rep["turns"], &turns)
		for _, t := range turns {
			if untimed {
				t = withoutTiming(t)
			}
			fmt.Fprintf(out, "%d turn %s\n", n, t)
		}
		var alarms []struct {
			Rule       string  `json:"rule"`
			Severity   string  `json:"severity"`
			Frame      *int    `json:"frame"`
			ResponseID *string `json:"response_id"`
			Message    string  `json:"message"`
		}
		json.Unmarshal(rep["alarms"], &alarms)
		for _, a := range alarms {
			if untimed && (strings.HasPrefix(a.Rule, "delivery-") || strings.HasPrefix(a.Rule, "budget-")) {
				continue
			}
			frame, rid := "-", "-"
			if a.Frame != nil {
				frame = strconv.Itoa(*a.Frame)
			}
			if a.ResponseID != nil {
				rid = *a.ResponseID
			}
			fmt.Fprintf(out, "%d alarm %s %s %s %s: %s\n", n, a.Rule, a.Severity, frame, rid, a.Message)
		}
		var keys []string
		for k := range rep {
			switch {
			case untimed && (k == "timed" || k == "counts"):
				continue
			}
			switch k {
			case "source", "format", "version", "dialect", "frames", "turns", "alarms":
			default:
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(out, "%d %s %s\n", n, k, rep[k])
		}
	}
}

// withoutTiming is a turn's JSON without its "timing" member.
func withoutTiming(turn json.RawMessage) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(turn, &m) != nil || m["timing"] == nil {
		return turn
	}
	return json.RawMessage(strings.Replace(string(turn), `,"timing":`+string(m["timing"]), "", 1))
}

// chunks FILE: prints the bytes a JSONL capture recorded (its chunks'
// "data" and "b64", in order), to compare with cmp.
func cmdChunks(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: chunks FILE")
	}
	out := ts.Stdout()
	for i, line := range strings.Split(strings.TrimSpace(ts.ReadFile(args[0])), "\n") {
		if i == 0 {
			continue // the header
		}
		var rec struct {
			Data *string `json:"data"`
			B64  []byte  `json:"b64"`
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			ts.Fatalf("%s line %d: %v", args[0], i+1, err)
		}
		if rec.Data != nil {
			io.WriteString(out, *rec.Data)
		}
		out.Write(rec.B64)
	}
}

// envfile NAME=FILE: sets $NAME to the text of FILE (its final newline
// removed) with the script's variables expanded ($X or ${X}; one not set
// stays as written). For an argument a script line cannot hold: a pasted
// command of several lines.
func cmdEnvfile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 || !strings.Contains(args[0], "=") {
		ts.Fatalf("usage: envfile NAME=FILE")
	}
	name, file, _ := strings.Cut(args[0], "=")
	text := strings.TrimSuffix(ts.ReadFile(file), "\n")
	ts.Setenv(name, envVar.ReplaceAllStringFunc(text, func(v string) string {
		if val := ts.Getenv(strings.Trim(v, "${}")); val != "" {
			return val
		}
		return v
	}))
}

var envVar = regexp.MustCompile(`\$[A-Za-z_][A-Za-z0-9_]*|\$\{[A-Za-z_][A-Za-z0-9_]*\}`)

// stdout2env NAME REGEXP: sets $NAME to the first group of REGEXP's first
// match in the last stdout (the whole match if it has no group).
func cmdStdout2env(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: stdout2env NAME REGEXP")
	}
	re, err := regexp.Compile(`(?m)` + args[1])
	ts.Check(err)
	m := re.FindStringSubmatch(ts.ReadFile("stdout"))
	if m == nil {
		ts.Fatalf("no match for %#q in stdout", args[1])
	}
	ts.Setenv(args[0], m[len(m)-1])
}

// valid json|ndjson|xml [FILE]: the last stdout (or FILE) parses as one
// JSON value, as a JSON value a line, or as an XML document.
func cmdValid(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: valid json|ndjson|xml [FILE]")
	}
	file := "stdout"
	if len(args) == 2 {
		file = args[1]
	}
	text := ts.ReadFile(file)
	var err error
	switch args[0] {
	case "json":
		var v any
		err = json.Unmarshal([]byte(text), &v)
	case "ndjson":
		for i, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
			var v any
			if e := json.Unmarshal([]byte(line), &v); e != nil {
				err = fmt.Errorf("line %d: %v", i+1, e)
				break
			}
		}
	case "xml":
		d := xml.NewDecoder(strings.NewReader(text))
		for {
			if _, err = d.Token(); err != nil {
				break
			}
		}
		if err == io.EOF {
			err = nil
		}
	default:
		ts.Fatalf("valid: unknown format %s", args[0])
	}
	if err != nil {
		ts.Fatalf("%s is not %s: %v", file, args[0], err)
	}
}

// freeport NAME: sets $NAME to a loopback TCP port free at this moment, for
// `framescope serve --addr 127.0.0.1:$NAME ... &`.
func cmdFreeport(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: freeport NAME")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	ts.Setenv(args[0], strconv.Itoa(port))
}

// listening ADDR: waits (up to 20 s) until a server accepts connections on
// ADDR, e.g. the framescope serve started in the background.
func cmdListening(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: listening HOST:PORT")
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", args[0], time.Second)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("nothing listens on %s: %v", args[0], err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
