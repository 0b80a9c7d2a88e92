package cli

import (
	"bytes"
	"strings"
	"testing"
)

// aguiRun is an AG-UI run with two messages, one of them under a hostile
// id (escape sequences, a bidi override) and hostile text.
const aguiRun = `data: {"type":"RUN_STARTED","threadId":"t1","runId":"r1"}

data: {"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}

data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Rain in Bergen."}

data: {"type":"TEXT_MESSAGE_END","messageId":"m1"}

data: {"type":"TEXT_MESSAGE_START","messageId":"m2\u001b[2J\u202e","role":"assistant"}

data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m2\u001b[2J\u202e","delta":"Pack a rain jacket\u001b]52;c;aGk=\u0007"}

data: {"type":"TEXT_MESSAGE_END","messageId":"m2\u001b[2J\u202e"}

data: {"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}

`

// The generic replay keeps AG-UI messages apart and lets nothing
// untrusted reach the terminal raw.
func TestReferenceGenericMessagesApartAndSafe(t *testing.T) {
	var out, errOut bytes.Buffer
	root := NewRoot(Env{Stdin: strings.NewReader(aguiRun), Stdout: &out, Stderr: &errOut})
	if code := Execute(root, []string{"reference", "--replay", "-"}); code != 0 {
		t.Fatalf("exit %d; stderr %q", code, errOut.String())
	}
	s := out.String()
	for _, want := range []string{"generic client view (dialect ag-ui)", `[message m1 · assistant] "Rain in Bergen."`, `"Pack a rain jacket`} {
		if !strings.Contains(s, want) {
			t.Errorf("want %q in:\n%s", want, s)
		}
	}
	if strings.Contains(s, "Bergen.Pack") {
		t.Errorf("messages joined:\n%s", s)
	}
	for _, bad := range []string{"\x1b", "\u202e", "\x07"} {
		if strings.Contains(s, bad) {
			t.Errorf("output carries %q raw:\n%q", bad, s)
		}
	}
}

// A capture whose reading fails part way is replayed as far as it was
// read, the end says why, and the command fails (exit 2), never 0.
func TestReferenceGenericReadErrorFails(t *testing.T) {
	var out, errOut bytes.Buffer
	root := NewRoot(Env{Stdin: &failingReader{strings.NewReader(aguiRun)}, Stdout: &out, Stderr: &errOut})
	code := Execute(root, []string{"reference", "--replay", "-"})
	if code != 2 || !strings.Contains(out.String(), "end: error") || !strings.Contains(errOut.String(), "connection reset by peer") {
		t.Errorf("exit %d, want 2 with the read error named; stdout %q stderr %q", code, out.String(), errOut.String())
	}
}

// A PC3 stream on stdin whose reading fails is not replayed from the bytes
// kept (which end cleanly where the read failed): the failure is named.
func TestReferenceStdinReadErrorBeforePC3(t *testing.T) {
	body := "event: text\ndata: {\"event_type\":\"text\",\"version\":\"0.5\",\"timestamp\":\"2026-05-15T18:00:00.000Z\",\"response_id\":\"r1\",\"text\":\"hi\"}\n\n"
	var out, errOut bytes.Buffer
	root := NewRoot(Env{Stdin: &failingReader{strings.NewReader(body)}, Stdout: &out, Stderr: &errOut})
	if code := Execute(root, []string{"reference", "--replay", "-"}); code != 2 || !strings.Contains(errOut.String(), "connection reset by peer") {
		t.Errorf("exit %d, want 2 naming the read error; stdout %q stderr %q", code, out.String(), errOut.String())
	}
}
