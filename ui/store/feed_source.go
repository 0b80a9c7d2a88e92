package store

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"framescope/decode"
	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/library"
	"framescope/sessions/live"
	"framescope/sessions/pipeline"
	"framescope/sessions/replay"
	"framescope/sessions/report"
)

// Source is something the feeder can run: a capture or a live connection.
type Source struct {
	Name string
	Live bool
	// Run reads the stream to its end, feeding f; it must call f.finish.
	Run func(ctx context.Context, f *Feeder)
}

// CaptureSource reads a capture file through the pipeline.
func CaptureSource(name string, c sessions.Capture, opts invariants.Options) Source {
	return Source{Name: name, Run: func(ctx context.Context, f *Feeder) {
		stop := context.AfterFunc(ctx, func() { c.Close() })
		defer stop()
		file := sseFile(c.Meta())
		f.keepBytes(file)
		h := f.handler()
		if m := c.Meta(); m.HTTP {
			resp := responseFromMeta(m)
			f.SetConn(ConnUpdate{State: ConnOpen, HTTPStatus: m.Status, Response: resp})
			h.OnErrorBody = func(body []byte, more bool) { f.SetConn(withErrorBody(resp, body, more)) }
		} else {
			f.SetConn(ConnUpdate{State: ConnOpen})
		}
		// The store lists alarms as check's report does (alarms.go).
		res, err := pipeline.Run(c, report.Listed(opts), h)
		e := endOf(res, err)
		if res != nil {
			e.Turns = res.Turns
		}
		f.Finish(e)
	}}
}

// sseFile opens a raw SSE capture again for reading its blocks back: its
// stream offsets are its file offsets (the reader passes the bytes through
// untouched), so it needs no spill. Nil for anything else (stdin, pipes,
// JSONL/HAR/NDJSON, whose bytes are not the stream's). The descriptor is
// held for the life of the session; the file is trusted not to be
// rewritten meanwhile (a short read shows "bytes not kept").
func sseFile(m sessions.Meta) ByteSource {
	if m.Kind != sessions.KindSSE || m.Name == "" || m.Name == "-" {
		return nil
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

func endOf(res *pipeline.Result, err error) EndInfo {
	var e EndInfo
	if res != nil {
		e = EndInfo{Kind: string(res.End.Kind), Detail: decode.Sanitize(res.End.Detail), At: res.End.T, HasTime: res.End.HasTime}
	}
	if err != nil {
		e.Kind, e.Detail = "error", decode.Sanitize(err.Error())
	}
	if e.Kind == "" {
		e.Kind = "eof"
	}
	return e
}

// LiveSource connects once through sessions.RunLive; the result lands in
// *out once the run is over.
func LiveSource(name string, opts live.LiveOptions, out *LiveOutcome) Source {
	return Source{Name: name, Live: true, Run: func(ctx context.Context, f *Feeder) {
		f.keepBytes(nil)
		opts.OnResponse = func(r live.ResponseInfo) {
			f.SetConn(ConnUpdate{State: ConnOpen, HTTPStatus: r.Status, Response: responseFromLive(requestMethod(opts.Connect), r)})
		}
		res, err := live.RunLive(ctx, opts, f.handler())
		out.Result, out.Err = res, err
		if res != nil && res.Response.ErrorBody != nil {
			// The whole error page, now that it has been read.
			f.SetConn(ConnUpdate{State: ConnOpen, HTTPStatus: res.Response.Status, Response: responseFromLive(requestMethod(opts.Connect), res.Response)})
		}
		var e EndInfo
		switch {
		case res == nil:
			e = EndInfo{Kind: "error", Detail: decode.Sanitize(fmt.Sprint(err))}
		case res.Report != nil:
			e = EndInfo{Kind: string(res.Report.End.Kind), Detail: decode.Sanitize(res.Report.End.Detail), Turns: res.Report.Turns}
			if err != nil && e.Kind != "error" {
				e.Detail = decode.Sanitize(err.Error())
			}
		}
		if e.Kind == "" {
			e.Kind = "eof"
		}
		if res != nil {
			e.At, e.HasTime = res.Duration, true
		}
		f.Finish(e)
	}}
}

// DemoSource serves one turn of a scenario on a fresh loopback relay (its
// pauses scaled by speed: 1 = real time, 0 = none) and reads it through
// the live path, saving the session in lib (nil: not saved); the result
// lands in *out once the run is over.
func DemoSource(scenario string, speed float64, lib *library.Library, out *LiveOutcome) Source {
	name := "demo " + scenario
	return Source{Name: name, Live: true, Run: func(ctx context.Context, f *Feeder) {
		relay, err := replay.NewRelay(replay.RelayOptions{Scenario: scenario, Speed: speed})
		if err != nil {
			out.Err = err
			f.Finish(EndInfo{Kind: "error", Detail: decode.Sanitize(err.Error())})
			return
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			out.Err = err
			f.Finish(EndInfo{Kind: "error", Detail: decode.Sanitize(err.Error())})
			return
		}
		srv := &http.Server{Handler: relay, ReadHeaderTimeout: 10 * time.Second}
		go srv.Serve(ln)
		defer srv.Close()
		opts := live.LiveOptions{
			Connect: live.ConnectOptions{URL: "http://" + ln.Addr().String() + "/api/chat", Method: "POST",
				Body: []byte(`{"message":"demo"}`), Headers: []string{"Content-Type: application/json"}},
			Source:  "demo:" + scenario,
			Library: lib,
		}
		LiveSource(name, opts, out).Run(ctx, f)
	}}
}

// LiveOutcome is what a live TUI session produced (for the caller to
// report once the terminal is back).
type LiveOutcome struct {
	Result *live.LiveResult
	Err    error
}
