package source

import (
	"context"
	"os"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/pipeline"
	"framescope/sessions/report"
	"framescope/ui/store"
)

// Capture reads a capture file through the pipeline.
func Capture(name string, c sessions.Capture, opts invariants.Options) store.Source {
	return store.Source{Name: name, Run: func(ctx context.Context, f *store.Feeder) {
		stop := context.AfterFunc(ctx, func() { c.Close() })
		defer stop()
		h := f.Capture(sseFile(c.Meta()), c.Meta())
		// The store lists alarms as check's report does (store/alarms.go).
		res, err := pipeline.Run(c, report.Listed(opts), h)
		f.Finish(store.EndOf(res, err))
	}}
}

// sseFile opens a raw SSE capture again for reading its blocks back: its
// stream offsets are its file offsets (the reader passes the bytes through
// untouched), so it needs no spill. Nil for anything else (stdin, pipes,
// JSONL/HAR/NDJSON, whose bytes are not the stream's). The descriptor is
// held for the life of the session; the file is trusted not to be
// rewritten meanwhile (a short read shows "bytes not kept").
func sseFile(m sessions.Meta) store.ByteSource {
	if m.Kind != sessions.KindSSE || m.Name == "" || m.Name == "-" {
		return nil
	}
	if fi, err := os.Stat(m.Name); err != nil || !fi.Mode().IsRegular() {
		return nil // opening a FIFO again would wait for a writer, or take its bytes
	}
	fh, err := os.Open(m.Name)
	if err != nil {
		return nil
	}
	if fi, err := fh.Stat(); err != nil || !fi.Mode().IsRegular() {
		fh.Close()
		return nil
	}
	return fh
}
