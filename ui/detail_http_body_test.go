package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestHTTPTabCaptureErrorAndRequest: a recorded 404 (JSON body) whose
// request carried a body. The pipeline does not read the error page as
// SSE (no frame, no truncated-event row); the HTTP tab opens on it, the
// page pretty-printed, a scroll hint below the fold, and further down the
// request: its headers and its body, pretty-printed, secrets redacted.
func TestHTTPTabCaptureErrorAndRequest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "404.jsonl")
	capture := `{"framescope_capture":1,"url":"http://h/api/chat?key=SECRET1","method":"POST","status":404,` +
		`"request_headers":{"Content-Type":"application/json","Authorization":"Bearer SECRET2"},` +
		`"response_headers":{"Content-Type":"application/json"},` +
		`"request_body":"{\"model\":\"m\",\"password\":\"SECRET3\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\\u001b[2J\"}]}",` +
		`"started_at":"2026-05-15T18:00:00.000Z"}` + "\n" +
		`{"t":0.01,"data":"{\"error\":{\"code\":\"not_found\",\"message\":\"no route"}` + "\n" +
		`{"t":0.02,"data":" /api/chat\"}}"}` + "\n" +
		`{"t":0.03,"end":"eof"}` + "\n"
	os.WriteFile(path, []byte(capture), 0o600)
	m := loadModel(t, path, 100, 30, true)
	if m.detail.tab != TabHTTP {
		t.Fatalf("detail tab %d, want the HTTP tab", m.detail.tab)
	}
	if n := m.Store().Len(); n != 0 {
		t.Errorf("%d rows: the error page was framed as SSE", n)
	}
	top := ansi.Strip(m.detail.View())
	for _, want := range []string{"POST http://h/api/chat?key=[redacted]", "404 Not Found", "body (61 B):", `  "error": {`, `    "code": "not_found",`, "more lines"} {
		if !strings.Contains(top, want) {
			t.Errorf("HTTP tab lacks %q:\n%s", want, top)
		}
	}
	m.detail.scrollBy(100)
	below := ansi.Strip(m.detail.View())
	for _, want := range []string{"request headers:", "Authorization: [redacted]", "request body (", `  "password": "[redacted]",`, `      "content": "hi\u001b[2J"`} {
		if !strings.Contains(below, want) {
			t.Errorf("HTTP tab scrolled lacks %q:\n%s", want, below)
		}
	}
	if v := m.detail.View(); strings.Contains(top+below, "SECRET") || strings.Contains(v, "\x1b[2J") {
		t.Errorf("a secret or an escape reached the view:\n%s\n%s", top, below)
	}
}

// TestHTTPBodyBounded: a body past 64 KiB shows its first 64 KiB, says so
// and is not pretty-printed (its JSON is cut); a short one is.
func TestHTTPBodyBounded(t *testing.T) {
	sty := NewStyles(true, true)
	big := []byte(`{"a":"` + strings.Repeat("x", 70<<10) + `"}`)
	tests := []struct {
		name  string
		body  []byte
		more  bool
		want  []string
		lines int
	}{
		{"json", []byte(`{"a":[1,2]}`), false, []string{"request body (11 B):", "{", `  "a": [`, "    1,", "  ]", "}"}, 7},
		{"cut", big, false, []string{"request body (70.0 KiB, first 64.0 KiB shown):", "… cut at 64.0 KiB"}, 3},
		{"source kept no more", []byte("oops"), true, []string{"request body (4 B, more not shown):", "oops"}, 2},
		{"empty", []byte{}, false, []string{"request body (0 B):", "(empty)"}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := bodyLines("request body", tc.body, tc.more, sty)
			var plain []string
			for _, l := range got {
				plain = append(plain, l.plain)
			}
			all := strings.Join(plain, "\n")
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("lacks %q:\n%.300s", w, all)
				}
			}
			if len(got) != tc.lines {
				t.Errorf("%d lines, want %d", len(got), tc.lines)
			}
			if tc.name == "cut" && len(plain[1]) != 64<<10 {
				t.Errorf("body line %d bytes, want 64 KiB", len(plain[1]))
			}
		})
	}
}
