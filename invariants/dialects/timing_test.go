package dialects_test

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"framescope/decode"
	"framescope/invariants"
	"framescope/invariants/dialects"
)

// The server stamps and usage each dialect's mapper reads
// (docs/timing.md "Server timestamps", "Tokens per second"), through the
// real checkers with arrival times.

// runTimed checks body with dialect name, frame i arriving at at(i).
func runTimed(t *testing.T, name, body string, at func(i int) time.Duration) ([]invariants.Alarm, []invariants.Turn) {
	t.Helper()
	d, ok := dialects.Lookup(name)
	if !ok {
		t.Fatalf("no dialect %s", name)
	}
	chk := d.NewChecker(invariants.Options{TTFE: -1})
	var dec decode.Decoder
	var all []invariants.Alarm
	i := 0
	fr := decode.NewFramer()
	emit := func(ev *decode.Event) {
		switch {
		case ev.Dispatched():
			all = append(all, chk.Observe(dec.Decode(ev, at(i), true))...)
			i++
		default:
			chk.Block(ev, at(i), true)
		}
	}
	fr.Feed([]byte(body), emit)
	fr.Close(emit)
	all = append(all, chk.End(invariants.End{Kind: invariants.EndEOF})...)
	return all, chk.Turns()
}

func deliveryOf(as []invariants.Alarm) []invariants.Alarm {
	var d []invariants.Alarm
	for _, a := range as {
		if strings.HasPrefix(a.Rule, "delivery-") {
			d = append(d, a)
		}
	}
	return d
}

// restamp rewrites the stamp field of every JSON data line: frame k is
// stamped base + k·step (stamp formats the value), the old field dropped
// and the new one put first.
func restamp(body, field string, step time.Duration, stamp func(time.Time) string) string {
	base := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	old := regexp.MustCompile(`"` + field + `":("[^"]*"|[0-9.]+),?`)
	lines := strings.Split(body, "\n")
	k := 0
	for i, l := range lines {
		p, ok := strings.CutPrefix(l, "data:")
		p = strings.TrimPrefix(p, " ")
		if !ok || !strings.HasPrefix(p, "{") {
			continue
		}
		p = strings.Replace(old.ReplaceAllString(p, ""), ",}", "}", 1)
		lines[i] = `data: {"` + field + `":` + stamp(base.Add(time.Duration(k)*step)) + "," + p[1:]
		k++
	}
	return strings.Join(lines, "\n")
}

func rfc3339(t time.Time) string { return `"` + t.Format(time.RFC3339Nano) + `"` }
func unixMs(t time.Time) string  { return fmt.Sprint(t.UnixMilli()) }
func unixSec(t time.Time) string { return fmt.Sprint(t.Unix()) }

func demo(t *testing.T, room string) string {
	t.Helper()
	b, err := os.ReadFile(room + "/demo_happy.sse")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// ollamaLines is an /api/chat stream of n content lines and the done line.
func ollamaLines(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `{"model":"m","created_at":"x","message":{"role":"assistant","content":"w%d "},"done":false}`+"\n", i)
	}
	b.WriteString(`{"model":"m","created_at":"x","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","eval_count":30,"eval_duration":1500000000}` + "\n")
	return b.String()
}

// TestServerStampsAgainstArrival: for each dialect that stamps its frames,
// a stream the server stamped over seconds that arrived within
// milliseconds is delivery-buffered with the stamps as evidence; the same
// stream paced as stamped raises no delivery alarm.
func TestServerStampsAgainstArrival(t *testing.T) {
	step := 400 * time.Millisecond
	for _, c := range []struct {
		dialect, body, field string
		stamp                func(time.Time) string
		step                 time.Duration
	}{
		{"public-sse-v1", demo(t, "publicsse"), "server_timestamp", rfc3339, step},
		{"go-bus", demo(t, "gobus"), "createdAt", rfc3339, step},
		{"typed-lines", demo(t, "typedlines"), "timestamp", unixMs, step},
		{"ag-ui", demo(t, "agui"), "timestamp", unixMs, step / 4},
		{"ollama", "data: " + strings.ReplaceAll(strings.TrimSpace(ollamaLines(12)), "\n", "\n\ndata: ") + "\n\n", "created_at", rfc3339, step},
		{"openai-chat", demo(t, "openaichat"), "created", unixSec, step},
	} {
		t.Run(c.dialect, func(t *testing.T) {
			body := restamp(c.body, c.field, c.step, c.stamp)
			// Bunched: every frame at 6 s, 10 µs apart.
			as, _ := runTimed(t, c.dialect, body, func(i int) time.Duration { return 6*time.Second + time.Duration(i)*10*time.Microsecond })
			d := deliveryOf(as)
			if len(d) != 1 || d[0].Rule != "delivery-buffered" || !strings.Contains(d[0].Message, "the server stamped them over") {
				t.Fatalf("bunched: %v", d)
			}
			// Paced as stamped.
			as, turns := runTimed(t, c.dialect, body, func(i int) time.Duration { return 50*time.Millisecond + time.Duration(i)*c.step })
			if d := deliveryOf(as); len(d) != 0 {
				t.Fatalf("paced: %v", d)
			}
			if len(turns) == 0 || !turns[0].Timing.Timed {
				t.Fatalf("no timed turn")
			}
		})
	}
}

// TestOpenAIChatOneSecondStampsSayNothing: OpenAI stamps every chunk with
// the completion's one creation second: no spread, no evidence; and a
// spread of one whole second may be a millisecond.
func TestOpenAIChatOneSecondStampsSayNothing(t *testing.T) {
	body := demo(t, "openaichat")
	bunched := func(i int) time.Duration { return 6*time.Second + time.Duration(i)*10*time.Microsecond }
	for _, step := range []time.Duration{0, 60 * time.Millisecond} { // 0: OpenAI's; 60 ms: a second's worth
		as, _ := runTimed(t, "openai-chat", restamp(body, "created", step, unixSec), bunched)
		if d := deliveryOf(as); len(d) != 1 || strings.Contains(d[0].Message, "stamped") {
			t.Errorf("step %s: %v", step, d)
		}
	}
}

// TestUsageTokensPerSecond: the output tokens each dialect reports, and
// tokens/s over the content span.
func TestUsageTokensPerSecond(t *testing.T) {
	ollama := "data: " + strings.ReplaceAll(strings.TrimSpace(ollamaLines(12)), "\n", "\n\ndata: ") + "\n\n"
	aisdk := strings.Replace(demo(t, "aisdkui"), `{"totalTokens":538}`, `{"totalTokens":538,"totalUsage":{"inputTokens":26,"outputTokens":512}}`, 1)
	for _, c := range []struct {
		dialect, body string
		tokens        int64
		server        float64 // the server's own rate, 0 when it reports none
	}{
		{"openai-chat", demo(t, "openaichat"), 96, 0},
		{"openai-responses", demo(t, "openairesponses"), 742, 0},
		{"anthropic-messages", demo(t, "anthropic"), 263, 0},
		{"gemini", demo(t, "gemini"), 24 + 30, 0},
		{"gemini", demo(t, "gemini") + `data: {"usageMetadata":{"candidatesTokenCount":40,"thoughtsTokenCount":30},"responseId":"bH6LaZW8Fp_3nsEPqtaSwQ4","modelVersion":"gemini-2.5-flash"}` + "\n\n", 70, 0},
		{"gemini", string(must(os.ReadFile("../../testdata/real/gemini/google-basic.sse"))), 26 + 115, 0},
		{"ollama", ollama, 30, 20},
		{"ai-sdk-ui", aisdk, 512, 0},
	} {
		t.Run(c.dialect, func(t *testing.T) {
			as, turns := runTimed(t, c.dialect, c.body, func(i int) time.Duration { return time.Duration(i+1) * 100 * time.Millisecond })
			if d := deliveryOf(as); len(d) != 0 {
				t.Errorf("alarms %v", d)
			}
			tm := turns[len(turns)-1].Timing
			if !tm.HasUsage || tm.OutputTokens != c.tokens {
				t.Fatalf("usage %v, %d tokens; want %d", tm.HasUsage, tm.OutputTokens, c.tokens)
			}
			want := 0.0 // one content frame: no span, no rate
			if tm.ContentSpan > 0 {
				want = float64(c.tokens) / tm.ContentSpan.Seconds()
			}
			if tm.TokensPerSec != want {
				t.Errorf("tokens/s %v over %s, want %v", tm.TokensPerSec, tm.ContentSpan, want)
			}
			if tm.ServerTokensPerSec != c.server {
				t.Errorf("server tokens/s %v, want %v", tm.ServerTokensPerSec, c.server)
			}
		})
	}
	// AG-UI reports no usage.
	if _, turns := runTimed(t, "ag-ui", demo(t, "agui"), func(i int) time.Duration { return time.Duration(i) * time.Millisecond }); turns[0].Timing.HasUsage {
		t.Error("ag-ui has usage")
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
