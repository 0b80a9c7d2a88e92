package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The inputs check reads, through the binary: what a user hands it that
// is not the plain capture file of the examples (a long first value, a
// pipe, a FIFO, a folder with links, a damaged header).

// ollamaChat is one frame of Ollama's /api/chat, its content as given.
func ollamaChat(content string, done bool) string {
	end := `false}`
	if done {
		end = `true,"done_reason":"stop"}`
	}
	return `{"model":"llama3","created_at":"2024-05-01T10:00:00Z","message":{"role":"assistant","content":"` + content + `"},"done":` + end
}

// TestCheckLongFirstValue: a raw NDJSON body (or JSON values as jq prints
// them) whose first frame is longer than the 64 KiB sniff window is read,
// from a file and from stdin, with --dialect ollama or detected, as one
// of 63 KiB is.
func TestCheckLongFirstValue(t *testing.T) {
	dir := t.TempDir()
	for _, kib := range []int{63, 64, 70, 200} {
		body := ollamaChat(strings.Repeat("x", kib<<10), false) + "\n" + ollamaChat("", true) + "\n"
		path := filepath.Join(dir, "chat.ndjson")
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{
			{"check", "--format", "json", path},
			{"check", "--format", "json", "--dialect", "ollama", path},
			{"check", "--format", "json", "-"},
			{"check", "--format", "json", "--dialect", "ollama", "-"},
		} {
			stdin := ""
			if args[len(args)-1] == "-" {
				stdin = body
			}
			res := runCLI(t, stdin, args...)
			if res.code == 2 {
				t.Errorf("%d KiB: %v: exit 2: %s", kib, args[1:], res.stderr)
				continue
			}
			reps := parseReports(t, res.stdout)
			if len(reps) != 1 || reps[0].Dialect != "ollama" || reps[0].Frames != 2 || len(reps[0].Turns) != 1 {
				t.Errorf("%d KiB: %v: reports %+v", kib, args[1:], reps)
			}
		}
	}
	// Printed over lines (jq .): JSON values.
	pretty := "{\n  \"model\": \"llama3\",\n  \"created_at\": \"2024-05-01T10:00:00Z\",\n  \"message\": {\n    \"role\": \"assistant\",\n    \"content\": \"" +
		strings.Repeat("y", 70<<10) + "\"\n  },\n  \"done\": false\n}\n" + ollamaChat("", true) + "\n"
	res := runCLI(t, pretty, "check", "--format", "json", "-")
	if reps := parseReports(t, res.stdout); res.code == 2 || len(reps) != 1 || reps[0].Frames != 2 || reps[0].Dialect != "ollama" {
		t.Errorf("pretty-printed 70 KiB value: exit %d, %s %s", res.code, res.stdout, res.stderr)
	}
}

// TestCheckJSONLHeaderTooLong: a JSONL capture whose header line is over
// the 64 MiB line bound loses what the header recorded (an MCP request the
// dialect checks the stream against): a capture-corrupt error, exit 1,
// never a warning and exit 0. The file is sparse: its long line is a hole
// of zero bytes that costs no disk.
func TestCheckJSONLHeaderTooLong(t *testing.T) {
	if testing.Short() {
		t.Skip("reads a 64 MiB line")
	}
	path := filepath.Join(t.TempDir(), "mcp.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	head := `{"framescope_capture":1,"url":"http://127.0.0.1:8000/mcp","method":"POST","status":200,"response_headers":{"Content-Type":"text/event-stream"},"request_body":"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"w\"}}","pad":"`
	rest := `"}` + "\n" +
		`{"t":0.05,"data":"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"ok\"}],\"isError\":false}}\n\n"}` + "\n" +
		`{"t":0.1,"end":"eof"}` + "\n"
	if _, err := f.WriteString(head); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Seek(64<<20, 1); err != nil { // the hole
		t.Fatal(err)
	}
	if _, err := f.WriteString(rest); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	res := runCLI(t, "", "check", "--format", "json", path)
	reps := parseReports(t, res.stdout)
	if res.code != 1 || len(reps) != 1 {
		t.Fatalf("exit %d, want 1: %s %s", res.code, res.stdout, res.stderr)
	}
	found := false
	for _, a := range reps[0].Alarms {
		if a.Rule == "capture-corrupt" && a.Severity == "error" && strings.Contains(a.Message, ":1: capture header line is longer than 64 MiB") {
			found = true
		}
	}
	if !found {
		t.Errorf("no capture-corrupt error naming the header line: %+v", reps[0].Alarms)
	}
}
