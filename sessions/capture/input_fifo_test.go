//go:build unix

package capture

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"framescope/sessions"
	"framescope/sessions/internal/sessiontest"
)

// fifo makes a FIFO that a goroutine fills with data once a reader opens
// it (the writer's open waits for one).
func fifo(t *testing.T, data string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "ff")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	go func() {
		f, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		f.WriteString(data)
		f.Close()
	}()
	return p
}

// TestInputStreamReadOnce: a FIFO (as a pipe, stdin) is opened and sniffed
// once; its capture reads on from the sniffed bytes, so nothing is lost,
// and a second Open is an error, not a wait for a writer that has gone.
func TestInputStreamReadOnce(t *testing.T) {
	const sse = "data: {\"a\":1}\n\ndata: {\"a\":2}\n\n"
	p := fifo(t, sse)
	if !IsStream(p) {
		t.Fatal("a FIFO is no stream")
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		in := OpenInput(p, OpenOptions{})
		defer in.Close()
		if in.Entries() != nil {
			t.Errorf("entries %v of an SSE stream", in.Entries())
		}
		c, err := in.Open(-1)
		if err != nil {
			t.Error(err)
			return
		}
		d := sessiontest.Drain(t, c)
		c.Close()
		if string(d.Data) != sse || c.Meta().Kind != sessions.KindSSE {
			t.Errorf("read %q as %s, want %q", d.Data, c.Meta().Kind, sse)
		}
		if _, err := in.Open(-1); err == nil || !strings.Contains(err.Error(), "read already") {
			t.Errorf("second open: %v", err)
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the FIFO was opened twice: hung")
	}
}
