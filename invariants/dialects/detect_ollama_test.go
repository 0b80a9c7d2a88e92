package dialects

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"framescope/invariants/dialects/ollama"
)

// TestDetectOllama: Ollama's frames are detected as ollama from the first
// line, an error line alone stays undecided, and the neighbours' frames
// (OpenAI chat chunks, which also carry model and created, Gemini chunks)
// never are.
func TestDetectOllama(t *testing.T) {
	for body, want := range map[string]string{
		`data: {"model":"llama3.2","created_at":"2025-09-18T10:15:03Z","message":{"role":"assistant","content":"Hi"},"done":false}` + "\n\n":          "ollama",
		`data: {"model":"llama3.2","created_at":"2025-09-18T10:15:03Z","response":"Hi","done":false}` + "\n\n":                                        "ollama",
		`data: {"model":"llama3.2","created_at":"2025-09-18T10:15:03Z","response":"","done":true,"done_reason":"load"}` + "\n\n":                      "ollama",
		`data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"llama3.2","choices":[{"index":0,"delta":{"content":"Hi"}}]}` + "\n\n": "openai-chat",
		`data: {"type":"done","done":true,"created_at":"x"}` + "\n\n":                                                                                 "ollama-not",
		`data: {"done":true}` + "\n\n": "sse",
	} {
		got := detect([]byte(body)).Name()
		if want == "ollama-not" {
			if got == "ollama" {
				t.Errorf("%s: detected as ollama (a type key is another wire's)", strings.TrimSpace(body))
			}
			continue
		}
		if got != want {
			t.Errorf("%s: detected as %s, want %s", strings.TrimSpace(body), got, want)
		}
	}
}

// TestOllamaCrossDetection: no other dialect's valid captures (nor PC3's
// rule captures) are detected as ollama, and ollama's are detected as
// nothing else.
func TestOllamaCrossDetection(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/dialects/*/valid-*.sse")
	rules, _ := filepath.Glob("../../testdata/rules/*.sse")
	n := 0
	for _, f := range append(files, rules...) {
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		mine := filepath.Base(filepath.Dir(f)) == ollama.Dialect.Name()
		got := detect(body).Name()
		switch {
		case mine && got != "ollama":
			t.Errorf("%s: detected as %s, want ollama", f, got)
		case !mine && got == "ollama":
			t.Errorf("%s: another wire's capture detected as ollama", f)
		}
		if mine {
			n++
		}
	}
	if n < 2 {
		t.Errorf("%d valid ollama captures, want at least 2", n)
	}
}
