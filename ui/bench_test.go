package ui

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/capture"
	"framescope/sessions/replay"
	"framescope/ui/source"
	"framescope/ui/store"
)

// The TUI's performance targets at scale, proven by benchmarks over one
// generated 1,000,000-frame (~300 MB) multi-turn capture:
//
//	go test ./ui -run '^$' -bench 'Open1M|_1M|LiveFlood' -benchtime 1x -timeout 30m
//
// The capture is generated once per test process, on first use, in a
// directory TestMain removes; plain `go test` never generates it and
// -short skips every benchmark that needs it.

const (
	benchFrames = 1_000_000
	benchSeed   = 20260515
	benchW      = 200
	benchH      = 60
)

var benchCapture struct {
	once   sync.Once
	dir    string
	path   string
	frames int
	bytes  int64
	alarmy int // turns built to raise alarms
	err    error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if benchCapture.dir != "" {
		os.RemoveAll(benchCapture.dir)
	}
	os.Exit(code)
}

// sharedCapture returns the 1M-frame capture, generating it on first use.
func sharedCapture(b *testing.B) (string, int) {
	b.Helper()
	if testing.Short() {
		b.Skip("the 1M-frame benchmarks need a 300 MB capture: not under -short")
	}
	c := &benchCapture
	c.once.Do(func() {
		c.dir, c.err = os.MkdirTemp("", "framescope-ui-bench-")
		if c.err != nil {
			return
		}
		c.path = filepath.Join(c.dir, "capture.sse")
		start := time.Now()
		c.frames, c.bytes, c.alarmy, c.err = writeBenchCapture(c.path, benchFrames, benchSeed)
		b.Logf("generated %s: %.1f MB, %d frames (%.0f B/frame), %d alarm turns, in %s", c.path,
			float64(c.bytes)/1e6, c.frames, float64(c.bytes)/float64(c.frames), c.alarmy, time.Since(start).Round(time.Millisecond))
	})
	if c.err != nil {
		b.Fatalf("generating the capture: %v", c.err)
	}
	return c.path, c.frames
}

// benchGen writes v0.5 turns: response_id, episode, thinking, status,
// tool_call/tool_completed, data_loading/data_loaded, text chunks, usage,
// completed, [DONE], with a keepalive comment now and then. Every 41st turn
// has an unknown event type (an info alarm) and every 97th turn never
// completes its tool call (an error alarm at the terminal).
type benchGen struct {
	w      *bufio.Writer
	rng    *rand.Rand
	buf    []byte
	ms     int64
	rid    string
	turn   int
	frames int
	bytes  int64
	alarmy int
	err    error
}

var benchWords = []string{"the", "points", "offer", "card", "weekend", "coffee", "grocery", "travel", "hotel",
	"dining", "cashback", "bonus", "balance", "statement", "café", "naïve", "déjà", "résumé", "—", "★",
	"here", "are", "three", "matches", "based", "on", "your", "recent", "purchases", "expires", "soon"}

func writeBenchCapture(path string, frames int, seed uint64) (int, int64, int, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, 0, 0, err
	}
	g := &benchGen{w: bufio.NewWriterSize(f, 1<<20), rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		ms: time.Date(2026, 5, 15, 18, 0, 0, 0, time.UTC).UnixMilli()}
	for g.frames < frames && g.err == nil {
		g.writeTurn()
	}
	if g.err == nil {
		g.err = g.w.Flush()
	}
	if cerr := f.Close(); g.err == nil {
		g.err = cerr
	}
	return g.frames, g.bytes, g.alarmy, g.err
}

func (g *benchGen) writeTurn() {
	g.turn++
	g.ms += 1000 + g.rng.Int64N(5000)
	g.rid = fmt.Sprintf("resp_%040x", g.rng.Uint64())
	g.frame("response_id", "")
	g.frame("episode", fmt.Sprintf(`,"episode_id":"ep_%016x"`, g.rng.Uint64()))
	g.frame("thinking", `,"content":`+g.text(8, 20)+`,"role":"reasoning"`)
	g.frame("status", `,"data":{"event_id":"searching_offers","message":"Searching for offers..."}`)
	call := fmt.Sprintf("call_%012x", g.rng.Uint64()&0xffffffffffff)
	tool := `,"tool_call":{"id":"` + call + `","name":"search_offers","type":"mcp"}`
	g.frame("tool_call", tool)
	broken := g.turn%97 == 0
	if !broken {
		g.frame("tool_completed", tool)
	}
	id := "offer-list-" + strconv.Itoa(g.turn)
	key := `"key":{"ids":[{"id":"OFF_1"},{"id":"OFF_2"}]}`
	g.frame("data_loading", `,"data":{"id":"`+id+`","type":"offer_list",`+key+`}`)
	g.frame("data_loaded", `,"data":{"id":"`+id+`","type":"offer_list",`+key+
		`,"items":[{"id":"OFF_1","title":"10% off"},{"id":"OFF_2","title":"2x points"}]}`)
	if g.turn%41 == 0 {
		g.frame("ui_hint", `,"hint":"scroll_to_bottom"`)
	}
	if broken || g.turn%41 == 0 {
		g.alarmy++
	}
	for n := 40 + g.rng.IntN(30); n > 0; n-- {
		g.frame("text", `,"chunk":`+g.text(16, 30))
	}
	g.frame("usage", `,"input_tokens":512,"output_tokens":64,"total_tokens":576`)
	g.frame("completed", "")
	g.write("data: [DONE]\n\n")
	g.frames++
}

// frame writes one typed frame; the timestamp moves 1–40 ms.
func (g *benchGen) frame(typ, extra string) {
	if g.rng.IntN(50) == 0 {
		g.write(": keepalive\n\n")
	}
	g.ms += 1 + g.rng.Int64N(40)
	b := g.buf[:0]
	b = append(b, "event: "...)
	b = append(b, typ...)
	b = append(b, "\ndata: {\"event_type\":\""...)
	b = append(b, typ...)
	b = append(b, `","version":"0.5","timestamp":"`...)
	b = time.UnixMilli(g.ms).UTC().AppendFormat(b, "2006-01-02T15:04:05.000Z07:00")
	b = append(b, `","response_id":"`...)
	b = append(b, g.rid...)
	b = append(b, '"')
	b = append(b, extra...)
	b = append(b, "}\n\n"...)
	g.buf = b
	g.frames++
	g.writeBytes(b)
}

// text is a JSON string of lo to hi words.
func (g *benchGen) text(lo, hi int) string {
	b := []byte{'"'}
	for i, n := 0, lo+g.rng.IntN(hi-lo+1); i < n; i++ {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, benchWords[g.rng.IntN(len(benchWords))]...)
	}
	return string(append(b, ' ', '"'))
}

func (g *benchGen) write(s string) { g.writeBytes([]byte(s)) }

func (g *benchGen) writeBytes(b []byte) {
	if g.err != nil {
		return
	}
	n, err := g.w.Write(b)
	g.bytes += int64(n)
	g.err = err
}

// loop stands in for bubbletea's event loop: it applies every message,
// runs the commands Update returns on goroutines (their messages come back
// through the same queue, as in bubbletea: the client pane's checkpoint
// reading, search results), and renders at most once per frame interval
// (as the renderer does, ~60 times a second), always after the last batch.
type loop struct {
	m      *Model
	msgs   chan tea.Msg
	done   chan struct{}
	views  int
	first  time.Duration // time to the first screen with rows
	ended  time.Duration // time until the End batch was applied and shown
	client time.Duration // time until the client pane had read every frame
	last   time.Time
	start  time.Time
	render func()
}

func newLoop(m *Model) *loop {
	l := &loop{m: m, msgs: make(chan tea.Msg, 64), done: make(chan struct{}), start: time.Now()}
	l.render = func() { _ = l.m.View(); l.views++; l.last = time.Now() }
	return l
}

func (l *loop) send(msg tea.Msg) {
	select {
	case l.msgs <- msg:
	case <-l.done:
	}
}

// exec runs a command the way bubbletea does: off the loop, its message
// queued like any other.
func (l *loop) exec(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		switch msg := cmd().(type) {
		case nil:
		case tea.BatchMsg:
			for _, c := range msg {
				l.exec(c)
			}
		default:
			l.send(msg)
		}
	}()
}

// run applies messages until the store has ended and the client pane has
// caught up with it.
func (l *loop) run() {
	defer close(l.done)
	st := l.m.Store()
	for msg := range l.msgs {
		_, cmd := l.m.Update(msg)
		l.exec(cmd)
		if l.first == 0 && st.Len() > 0 {
			l.render()
			l.first = time.Since(l.start)
		}
		if st.Conn == store.ConnEnded && l.ended == 0 {
			l.render()
			l.ended = time.Since(l.start)
		}
		if l.ended != 0 && st.ClientRead() >= st.Frames {
			l.render()
			l.client = time.Since(l.start)
			return
		}
		if time.Since(l.last) >= 16*time.Millisecond {
			l.render()
		}
	}
}

// memMB returns the Go heap in use and the resident set (VmRSS) and its
// peak (VmHWM) in MB, after a GC.
func memMB() (heap, rss, hwm float64) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	heap = float64(ms.HeapInuse) / (1 << 20)
	data, _ := os.ReadFile("/proc/self/status")
	for _, line := range bytes.Split(data, []byte("\n")) {
		f := bytes.Fields(line)
		if len(f) < 2 {
			continue
		}
		kb, _ := strconv.ParseFloat(string(f[1]), 64)
		switch string(f[0]) {
		case "VmRSS:":
			rss = kb / 1024
		case "VmHWM:":
			hwm = kb / 1024
		}
	}
	return
}

// cpuTime is the CPU time the process used so far (user + system): with
// other work on the machine, the open's CPU time is steadier than its wall
// time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// resetPeakRSS makes VmHWM start again from the current RSS (Linux).
func resetPeakRSS() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// openModel opens the capture in a fresh model at 200×60 and runs it to
// the end the way the TUI does (feeder goroutine, batches, renders). With
// stdin set the capture is read as standard input (so its bytes go to the
// spill, as for live streams and JSONL/HAR captures).
func openModel(b *testing.B, path string, stdin bool) (*Model, *loop) {
	b.Helper()
	dark := true
	m := NewModel(filepath.Base(path), false, Config{Dark: &dark, Now: func() time.Time { return fixedNow }})
	m.Update(tea.WindowSizeMsg{Width: benchW, Height: benchH})
	l := newLoop(m)
	var c sessions.Capture
	var err error
	if stdin {
		fh, ferr := os.Open(path)
		if ferr != nil {
			b.Fatal(ferr)
		}
		defer fh.Close()
		c, err = capture.Open("-", capture.OpenOptions{Entry: -1, Stdin: fh})
	} else {
		c, err = capture.Open(path, capture.OpenOptions{Entry: -1})
	}
	if err != nil {
		b.Fatal(err)
	}
	start(context.Background(), source.Capture(filepath.Base(path), c, invariants.Options{}), l.send, 0)
	l.run()
	c.Close()
	return m, l
}

// BenchmarkOpen1M: opening the 1M-frame capture in the TUI. Metrics:
// first-screen-ms (the first batch applied and rendered), indexed-ms (the
// whole capture read, checked, indexed and shown), heap-MB and rss-MB
// after a GC with the model still alive, peak-rss-MB (VmHWM during the
// open). The rows' bytes are read back from the capture file.
func BenchmarkOpen1M(b *testing.B) { benchOpen(b, false) }

// BenchmarkOpen1MStdin: the same capture read as standard input: every
// block also goes to the spill file (the cost of a source whose bytes
// cannot be read back: stdin, live, JSONL, HAR).
func BenchmarkOpen1MStdin(b *testing.B) { benchOpen(b, true) }

func benchOpen(b *testing.B, stdin bool) {
	path, frames := sharedCapture(b)
	sharedModel.release()
	var first, ended, client, cpu time.Duration
	var heap, rss, hwm float64
	for b.Loop() {
		b.StopTimer()
		runtime.GC()
		debug.FreeOSMemory()
		resetPeakRSS()
		cpu0 := cpuTime()
		b.StartTimer()
		m, l := openModel(b, path, stdin)
		b.StopTimer()
		cpu += cpuTime() - cpu0
		if st := m.Store(); st.Frames != frames {
			b.Fatalf("%d frames in the store, %d in the capture", st.Frames, frames)
		}
		first += l.first
		ended += l.ended
		client += l.client
		h, r, p := memMB()
		heap, rss, hwm = max(heap, h), max(rss, r), max(hwm, p)
		if path := os.Getenv("FRAMESCOPE_HEAP_PROFILE"); path != "" {
			writeHeapProfile(b, path)
		}
		runtime.KeepAlive(m)
		b.StartTimer()
	}
	n := float64(b.N)
	b.ReportMetric(float64(first.Milliseconds())/n, "first-screen-ms")
	b.ReportMetric(float64(ended.Milliseconds())/n, "indexed-ms")
	b.ReportMetric(float64(client.Milliseconds())/n, "client-ready-ms")
	b.ReportMetric(float64(cpu.Milliseconds())/n, "cpu-ms")
	b.ReportMetric(heap, "heap-MB")
	b.ReportMetric(rss, "rss-MB")
	b.ReportMetric(hwm, "peak-rss-MB")
}

// sharedModel is one model with the whole capture loaded, shared by the
// navigation benchmarks.
var sharedModel modelCache

type modelCache struct {
	mu sync.Mutex
	m  *Model
}

func (s *modelCache) release() {
	s.mu.Lock()
	s.m = nil
	s.mu.Unlock()
}

func loadedModel(b *testing.B) *Model {
	path, frames := sharedCapture(b)
	sharedModel.mu.Lock()
	defer sharedModel.mu.Unlock()
	if sharedModel.m == nil {
		m, _ := openModel(b, path, false)
		if m.Store().Frames != frames {
			b.Fatalf("%d frames loaded, want %d", m.Store().Frames, frames)
		}
		sharedModel.m = m
	}
	return sharedModel.m
}

func benchKey(b *testing.B, m *Model, k string) {
	m.Update(keyMsg(k))
	if s := m.View().Content; s == "" {
		b.Fatal("empty view")
	}
}

// BenchmarkView200x60_1M: rendering the whole 200×60 screen with the
// cursor in the middle of the 1M-frame session.
func BenchmarkView200x60_1M(b *testing.B) {
	m := loadedModel(b)
	m.jump(m.Store().Len() / 2)
	m.View()
	for b.Loop() {
		if m.View().Content == "" {
			b.Fatal("empty view")
		}
	}
	reportMS(b)
}

// BenchmarkCursorDown_1M: one step down (Update) and the new screen (View).
func BenchmarkCursorDown_1M(b *testing.B) {
	m := loadedModel(b)
	m.jump(m.Store().Len() / 3)
	for b.Loop() {
		if m.Selected() >= m.Store().Len()-1 {
			m.jump(0)
		}
		benchKey(b, m, "j")
	}
	reportMS(b)
}

// BenchmarkJumpEnd_1M: from the top to the last row (G) and back (g), each
// followed by a View; one op is one jump.
func BenchmarkJumpEnd_1M(b *testing.B) {
	m := loadedModel(b)
	m.jump(0)
	i := 0
	for b.Loop() {
		if i%2 == 0 {
			benchKey(b, m, "G")
		} else {
			benchKey(b, m, "g")
		}
		i++
	}
	if m.Selected() != 0 && m.Selected() != m.Store().Len()-1 {
		b.Fatalf("cursor at %d", m.Selected())
	}
	reportMS(b)
}

// BenchmarkNextAlarm_1M: n (the next row with an alarm) and the View;
// back to the top after the last alarm.
func BenchmarkNextAlarm_1M(b *testing.B) {
	m := loadedModel(b)
	st := m.Store()
	if st.AlarmRowCount() < 100 {
		b.Fatalf("only %d rows with alarms", st.AlarmRowCount())
	}
	m.jump(0)
	for b.Loop() {
		before := m.Selected()
		benchKey(b, m, "n")
		if m.Selected() == before {
			m.jump(0)
		} else if len(st.Row(m.Selected()).Alarms) == 0 {
			b.Fatalf("row %d has no alarm", m.Selected())
		}
	}
	reportMS(b)
}

// BenchmarkSearch_1M: a search over every row of the 1M-frame session, as
// the command runs it off the bubbletea goroutine (the rows' bytes read
// back from the capture file), then applied in Update.
func BenchmarkSearch_1M(b *testing.B) {
	m := loadedModel(b)
	want := benchCapture.frames / 70 / 41 // about one ui_hint frame per 41 turns
	for b.Loop() {
		cmd := m.startSearch("scroll_to_bottom")
		m.Update(cmd())
		if len(m.matches) < want/2 {
			b.Fatalf("%d matches, want about %d", len(m.matches), want)
		}
	}
	m.clearSearch()
	reportMS(b)
}

func reportMS(b *testing.B) {
	if b.N > 0 {
		b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
	}
}

// BenchmarkLiveFlood: the relay's flood scenario (FRAMESCOPE_FLOOD_FRAMES
// text frames, default 200,000, no pauses) through the live path (RunLive:
// connect, check) into the model, rendered as the program would. It fails
// on any loss (frames the pipeline saw == frames in the store == the
// scenario's) and reports frames/s shown, the process's CPU (cpu-cores:
// utime+stime / wall, relay server included) and the UI thread's alone
// (ui-cores: the goroutine that applies batches and renders, locked to its
// OS thread).
func BenchmarkLiveFlood(b *testing.B) {
	n := 200_000
	if s := os.Getenv("FRAMESCOPE_FLOOD_FRAMES"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 {
			b.Fatalf("FRAMESCOPE_FLOOD_FRAMES=%q: want a positive whole number", s)
		}
		n = v
	}
	relay, err := replay.NewRelay(replay.RelayOptions{Scenario: "flood", Speed: 0, FloodFrames: n})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(relay)
	defer srv.Close()
	want := n + 3 // response_id, the text frames, completed, [DONE]

	var wall time.Duration
	var cpu, uiCPU time.Duration
	for b.Loop() {
		out := &source.LiveOutcome{}
		dark := true
		m := NewModel("flood", true, Config{Dark: &dark})
		m.Update(tea.WindowSizeMsg{Width: benchW, Height: benchH})
		l := newLoop(m)
		var ru0, ru1 syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
		t0 := time.Now()
		src := source.Live("flood", liveOpts(srv.URL+"/api/chat"), out)
		f := start(context.Background(), src, l.send, 0)
		done := make(chan time.Duration)
		go func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var a, z syscall.Rusage
			syscall.Getrusage(syscall.RUSAGE_THREAD, &a)
			l.run()
			syscall.Getrusage(syscall.RUSAGE_THREAD, &z)
			done <- rusageTime(&z) - rusageTime(&a)
		}()
		uiCPU += <-done
		wall += time.Since(t0)
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
		cpu += rusageTime(&ru1) - rusageTime(&ru0)
		<-f.Sent()
		st := m.Store()
		if out.Result == nil || out.Result.Report == nil {
			b.Fatalf("no live result: %v", out.Err)
		}
		if got := out.Result.Report.Frames; got != want || st.Frames != want || st.Len() != want {
			b.Fatalf("served %d frames, pipeline saw %d, store has %d frames in %d rows", want, got, st.Frames, st.Len())
		}
	}
	s := wall.Seconds()
	b.ReportMetric(float64(want)*float64(b.N)/s, "frames/s")
	b.ReportMetric(cpu.Seconds()/s, "cpu-cores")
	b.ReportMetric(uiCPU.Seconds()/s, "ui-cores")
}

// writeHeapProfile writes what is live now (the loaded model) for
// `go tool pprof -sample_index=inuse_space`.
func writeHeapProfile(b testing.TB, path string) {
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := pprof.WriteHeapProfile(f); err != nil {
		b.Fatal(err)
	}
}

func rusageTime(r *syscall.Rusage) time.Duration {
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}
