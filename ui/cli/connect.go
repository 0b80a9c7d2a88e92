package cli

import (
	"io"
	"os"
	"os/signal"

	"github.com/spf13/cobra"

	"framescope/ui"
)

// newConnectCmd is connect, or with name "record" the command record.go
// makes of it: the same request and flags, headless into a capture file.
func newConnectCmd(name string, stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	var fl liveOptions
	cmd := &cobra.Command{
		Use:   name + " URL",
		Short: "Connect to a live SSE endpoint and inspect the stream as it arrives; save the session",
		Long: `Send one request (never retried: a turn stream is one-shot) and inspect the stream
in the terminal UI as it arrives (x cancels the stream, q quits). With --headless,
or when stdout is not a terminal, print every frame and alarm as it arrives and end
with the check report; Ctrl-C cancels the stream (the client-disconnect path,
recorded as "cancelled"), and so do --max-bytes and --max-frames once reached
("cancelled: stopped: --max-frames N reached"). The session is saved in the session library (see:
framescope sessions) unless --no-save.`,
		Example: `  framescope connect http://127.0.0.1:8080/api/chat -d @req.json -H "Authorization: Bearer $TOKEN"
  framescope record http://127.0.0.1:8080/api/chat -d '{"message":"hi"}' -o turn.jsonl`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts, err := fl.session(args[0], stdin)
			if err != nil {
				return err
			}
			opts.Source = name
			if name == "connect" && !fl.headless && ui.IsTerminal(stdout) {
				return runLiveTUI(args[0], opts, fl.curlish.maxTime, stderr)
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			ctx, cancel := fl.curlish.deadline(ctx, stderr)
			defer cancel()
			return runLive(ctx, opts, stdout, stderr, name == "record" && !fl.frames)
		},
	}
	fl.register(cmd, name == "record")
	return cmd
}
