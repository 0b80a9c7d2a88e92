package cli

import "github.com/spf13/cobra"

// newRecordCmd is connect without the terminal UI, writing the stream to a
// capture file (-o) as it arrives: connect.go builds it, and runF
// (connectRun unless a test gives one) does the work.
func newRecordCmd(env Env, runF func(*connectOptions) error) *cobra.Command {
	cmd := newConnectCmd("record", env, runF)
	cmd.Short = "Record a live SSE stream to a capture file (headless) and print the check summary"
	cmd.Long = `Send one request (never retried: a turn stream is one-shot) and write the stream
to a framescope JSONL capture (-o FILE) as it arrives, without the terminal UI; then
print the check report (--frames also prints every frame as it arrives). Ctrl-C
cancels the stream (recorded as "cancelled"); --max-bytes and --max-frames stop it
the same way once reached (recorded as "cancelled: stopped: --max-frames N reached",
exit status as for Ctrl-C), so a flooding server cannot fill the disk. The session is also saved in the
session library (see: framescope sessions) unless --no-save. Exit status: 0 clean,
1 an error alarm, 2 the request failed (no response, or a body its Content-Encoding does not
decode) or the recording lost data.`
	cmd.Example = `  framescope record http://127.0.0.1:8080/api/chat -d '{"message":"hi"}' -o turn.jsonl
  framescope record localhost:8080/api/chat -d @req.json -H "Authorization: Bearer $TOKEN" -o turn.jsonl --frames`
	return cmd
}
