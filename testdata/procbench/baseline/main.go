// Command baseline is what a user would write instead of `framescope
// check` to read an agent stream: github.com/tmaxmax/go-sse's sse.Read over
// the file and an encoding/json Unmarshal of each event's data into the
// envelope ([DONE] skipped). e2e/process_bench_test.go runs it beside
// framescope as a process of its own. It prints the events and typed
// frames it read.
//
// It lives under testdata/ so that `go build ./...` and `go test ./...`
// never build it; the process comparison builds it by path.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	sse "github.com/tmaxmax/go-sse"
)

type envelope struct {
	EventType  string `json:"event_type"`
	Version    string `json:"version"`
	Timestamp  string `json:"timestamp"`
	ResponseID string `json:"response_id"`
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: baseline CAPTURE.sse")
		os.Exit(2)
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "baseline:", err)
		os.Exit(2)
	}
	defer f.Close()
	frames, typed := 0, 0
	for ev, err := range sse.Read(f, nil) {
		if err != nil {
			fmt.Fprintln(os.Stderr, "baseline:", err)
			os.Exit(1)
		}
		frames++
		if ev.Data == "[DONE]" {
			continue
		}
		var env envelope
		if err := json.Unmarshal([]byte(ev.Data), &env); err != nil {
			fmt.Fprintf(os.Stderr, "baseline: event %d: %v\n", frames, err)
			os.Exit(1)
		}
		if env.EventType != "" {
			typed++
		}
	}
	fmt.Printf("%d events, %d typed\n", frames, typed)
}
