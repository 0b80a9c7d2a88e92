package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"framescope/decode"
	"framescope/sessions/live"
)

// wsOptions are connect's and record's flags for a WebSocket session
// (ws:// or wss://): the client's messages.
type wsOptions struct {
	send          []string
	sendDelay     time.Duration
	sendAfterEach bool
}

func (w *wsOptions) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringArrayVar(&w.send, "send", nil, "WebSocket: send the text message `MSG` once connected, or each line of @FILE (JSONL) in order (repeatable)")
	nonNegativeDuration(f, &w.sendDelay, "send-delay", 0, "no delay", "WebSocket: wait `D` between messages (with --send-after-each: the quiet after the answer)")
	f.BoolVar(&w.sendAfterEach, "send-after-each", false, "WebSocket: send each message after the server's answer to the one before")
}

// apply reads the messages into opts; they are only for a WebSocket URL.
func (w *wsOptions) apply(opts *live.LiveOptions) error {
	if !live.IsWebSocketURL(opts.Connect.URL) {
		if len(w.send) > 0 || w.sendDelay > 0 || w.sendAfterEach {
			return fmt.Errorf("--send, --send-delay and --send-after-each are for a ws:// or wss:// URL")
		}
		return nil
	}
	for _, s := range w.send {
		path, ok := strings.CutPrefix(s, "@")
		if !ok {
			opts.WS.Send = append(opts.WS.Send, []byte(s))
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("--send @%s: %w", decode.Sanitize(path), unwrapPathErr(err))
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			if line := bytes.TrimSpace(sc.Bytes()); len(line) > 0 {
				opts.WS.Send = append(opts.WS.Send, append([]byte(nil), line...))
			}
		}
		if err := sc.Err(); err != nil {
			return fmt.Errorf("--send @%s: %w", decode.Sanitize(path), err)
		}
	}
	opts.WS.SendDelay, opts.WS.SendAfterEach = w.sendDelay, w.sendAfterEach
	return nil
}

func unwrapPathErr(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
