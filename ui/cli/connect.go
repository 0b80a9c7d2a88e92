package cli

import (
	"context"

	"github.com/spf13/cobra"

	"framescope/ui"
)

// connectOptions are connect's (and record's) streams, argument and
// flags.
type connectOptions struct {
	ioStreams
	ctx  context.Context
	name string // connect or record
	url  string // URL
	live liveOptions
	ws   wsOptions // a ws:// or wss:// URL's messages (live_ws.go)
}

// newConnectCmd is connect, or with name "record" the command record.go
// makes of it: the same request and flags, headless into a capture file.
// It declares the flags; runF (connectRun unless a test gives one) does
// the work.
func newConnectCmd(name string, env Env, runF func(*connectOptions) error) *cobra.Command {
	o := &connectOptions{ioStreams: env.streams(), name: name}
	if runF == nil {
		runF = connectRun
	}
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
			o.ctx, o.url = cmd.Context(), args[0]
			return runF(o)
		},
	}
	o.live.register(cmd, name == "record")
	o.ws.register(cmd)
	return cmd
}

// connectRun is connect (the inspector, or headless) and record.
func connectRun(o *connectOptions) error {
	fl := &o.live
	opts, err := fl.session(o.url, o.stdin)
	if err != nil {
		return err
	}
	if err := o.ws.apply(&opts); err != nil {
		return err
	}
	opts.Source = o.name
	if o.name == "connect" && !fl.headless && ui.IsTerminal(o.stdout) {
		return runLiveTUI(o.url, opts, fl.curlish.maxTime, o.stderr)
	}
	ctx, stop := notifyStop(o.ctx)
	defer stop()
	ctx, cancel := fl.curlish.deadline(ctx, o.stderr)
	defer cancel()
	return runLive(ctx, opts, o.stdout, o.stderr, o.name == "record" && !fl.frames)
}
