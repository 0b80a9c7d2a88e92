package live

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"context"
	"io"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"framescope/invariants"
	"framescope/sessions/codings"
	"framescope/sessions/pipeline"
)

// stackCodings applies codings to b in order (the first is applied first,
// as Content-Encoding lists them).
func stackCodings(t testing.TB, b []byte, codings ...string) []byte {
	t.Helper()
	for _, c := range codings {
		var out bytes.Buffer
		var w io.WriteCloser
		switch c {
		case "gzip":
			w = gzip.NewWriter(&out)
		case "deflate":
			w = zlib.NewWriter(&out)
		default:
			t.Fatalf("coding %q", c)
		}
		w.Write(b)
		w.Close()
		b = out.Bytes()
	}
	return b
}

func codingServer(t testing.TB, header string, body []byte) string {
	return lvServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Content-Encoding", header)
		w.Write(body)
	}).URL
}

// TestStackedCodings: five stacked codings decode; six are refused from
// the header, at once: the body is kept as it came (it used to be dropped,
// the stream ended as an error holding 0 bytes), and the stream ends as an
// error that says how many there were, with a capture-corrupt alarm.
func TestStackedCodings(t *testing.T) {
	plain := []byte(strings.Join(lvTurn(3), ""))
	for _, n := range []int{1, 5, 6, 7} {
		stacked := strings.Split(strings.Repeat("gzip,", n-1)+"deflate", ",")
		t.Run(strings.Join(stacked, ","), func(t *testing.T) {
			lvNoLeak(t)
			url := codingServer(t, strings.Join(stacked, ", "), stackCodings(t, plain, stacked...))
			start := time.Now()
			res, err := RunLive(context.Background(), LiveOptions{Connect: ConnectOptions{URL: url}}, pipeline.Handler{})
			if err != nil {
				t.Fatal(err)
			}
			took := time.Since(start)
			end := res.Report.End
			rules := strings.Join(lvRules(res.Report), " ")
			if n <= codings.Max {
				if end.Kind != invariants.EndEOF || strings.Contains(rules, "capture-corrupt") || res.DecodeFailed != "" {
					t.Errorf("%d codings: end %+v, alarms %s", n, end, rules)
				}
				return
			}
			want := "Content-Encoding stacks " + strconv.Itoa(n) + " codings: framescope decodes at most 5"
			if end.Kind != invariants.EndError || !strings.Contains(end.Detail, want) {
				t.Errorf("end %+v, want an error saying %q", end, want)
			}
			if body := stackCodings(t, plain, stacked...); res.Report.Bytes != int64(len(body)) {
				t.Errorf("%d bytes checked, want the %d that came", res.Report.Bytes, len(body))
			}
			if !strings.Contains(res.DecodeFailed, want) {
				t.Errorf("DecodeFailed %q", res.DecodeFailed)
			}
			if !strings.Contains(rules, "capture-corrupt") {
				t.Errorf("alarms %s: want capture-corrupt", rules)
			}
			if took > 2*time.Second {
				t.Errorf("refusing took %v", took)
			}
			t.Logf("refused in %v: %s", took, end.Detail)
		})
	}
}

// TestStackedCodingsNoPerLayerCost: 50,000 stacked deflate codings (a
// 450 KB header) are refused without a decoder (~35 KB) per layer: what
// the whole exchange allocates does not grow with the count.
func TestStackedCodingsNoPerLayerCost(t *testing.T) {
	lvNoLeak(t)
	const layers = 50000
	header := strings.TrimSuffix(strings.Repeat("deflate, ", layers), ", ")
	// The body: a valid deflate of nine bytes under one layer is enough;
	// the refusal comes from the header.
	url := codingServer(t, header, stackCodings(t, []byte("data: x\n\n"), "deflate"))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	l := lvConnect(t, ConnectOptions{URL: url})
	n, end := countDrain(t, l)
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	alloc := after.TotalAlloc - before.TotalAlloc
	if n == 0 || end.Kind != invariants.EndError || !strings.Contains(end.Detail, "stacks 50000 codings") {
		t.Errorf("%d bytes, end %+v, DecodeFailed %q: want the body as it came, the refusal named", n, end, l.DecodeFailed())
	}
	// The header itself is read and copied a few times (server and client
	// share this process): 450 KB each.
	if alloc > 16<<20 {
		t.Errorf("refusing %d layers allocated %d bytes", layers, alloc)
	}
	t.Logf("%d layers refused in %v, %d bytes allocated (server and client)", layers, took, alloc)
}

// emptyMembers is n empty gzip members back to back: a gzip body that
// decodes to nothing, however long.
func emptyMembers(t testing.TB, n int) []byte {
	var one bytes.Buffer
	zw := gzip.NewWriter(&one)
	zw.Close()
	return bytes.Repeat(one.Bytes(), n)
}

// TestStackedCodingsInnerLayerBounded: an inner layer that inflates a
// thousandfold into bytes the next layer decodes to nothing is stopped by
// the ratio bound, as the body's own output would be — not decoded to its
// end with no byte out and the stream "clean".
func TestStackedCodingsInnerLayerBounded(t *testing.T) {
	lvNoLeak(t)
	inner := emptyMembers(t, (64<<20)/20)      // 64 MB decoding to nothing
	body := stackCodings(t, inner, "gzip")     // ~1000:1
	url := codingServer(t, "gzip, gzip", body) // applied twice: the inner layer is the 64 MB
	l := lvConnect(t, ConnectOptions{URL: url})
	n, end := countDrain(t, l)
	if n != 0 || end.Kind != invariants.EndError || !strings.Contains(end.Detail, "ratio passed 100×") {
		t.Errorf("%d bytes, end %+v; want the ratio bound to stop the inner layer", n, end)
	}
	t.Logf("%d compressed bytes: %s", len(body), end.Detail)
}

// TestStackedCodingsCancel: a stream whose codings decode on and on to
// nothing (bounds off) ends as cancelled when the context is, promptly.
func TestStackedCodingsCancel(t *testing.T) {
	lvNoLeak(t)
	chunk := emptyMembers(t, 4096)
	srv := lvServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Content-Encoding", "gzip, gzip")
		zw := gzip.NewWriter(w)
		for r.Context().Err() == nil {
			if _, err := zw.Write(chunk); err != nil {
				return
			}
			zw.Flush()
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	l, err := Connect(ctx, ConnectOptions{URL: srv.URL, MaxDecoded: -1, MaxRatio: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	n, end := countDrain(t, l)
	if took := time.Since(start); took > 3*time.Second || end.Kind != invariants.EndCancelled || n != 0 {
		t.Errorf("after %v: %d bytes, end %+v; want cancelled soon after 300ms", took, n, end)
	}
}
