package live

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"framescope/sessions/pipeline"
)

// TestUndecodableBodyKept (item 12): plain SSE labelled Content-Encoding:
// gzip (a server bug) is recorded and checked as it came, the failure
// named; the capture used to hold 0 body bytes.
func TestUndecodableBodyKept(t *testing.T) {
	plain := strings.Join(lvTurn(3), "")
	url := lvServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write([]byte(plain))
	}).URL
	out := filepath.Join(t.TempDir(), "rec.jsonl")
	res, err := RunLive(context.Background(), LiveOptions{Connect: ConnectOptions{URL: url}, RecordPath: out}, pipeline.Handler{})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if res.Report.Bytes != int64(len(plain)) {
		t.Errorf("%d bytes checked, want the %d that came", res.Report.Bytes, len(plain))
	}
	if strings.Contains(string(rec), "decoded_from") || !strings.Contains(string(rec), `data: {`) && !strings.Contains(string(rec), `data:`) {
		t.Errorf("the recording does not hold the body as it came:\n%s", rec)
	}
	if !strings.Contains(res.DecodeFailed, "gzip") {
		t.Errorf("DecodeFailed %q: want the gzip failure named", res.DecodeFailed)
	}
	if rules := strings.Join(lvRules(res.Report), " "); !strings.Contains(rules, "capture-corrupt") {
		t.Errorf("alarms %s: want capture-corrupt naming the failure", rules)
	}
	t.Logf("%d-byte body recorded in %d bytes; DecodeFailed %q", len(plain), len(rec), res.DecodeFailed)
}
