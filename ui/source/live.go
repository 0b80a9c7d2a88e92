package source

import (
	"context"
	"net"
	"net/http"
	"strings"
	"time"

	"framescope/sessions/library"
	"framescope/sessions/live"
	"framescope/sessions/replay"
	"framescope/ui/store"
)

// LiveOutcome is what a live TUI session produced (for the caller to
// report once the terminal is back).
type LiveOutcome struct {
	Result *live.LiveResult
	Err    error
}

// Live connects once through live.RunLive; the result lands in *out once
// the run is over.
func Live(name string, opts live.LiveOptions, out *LiveOutcome) store.Source {
	return store.Source{Name: name, Live: true, Run: func(ctx context.Context, f *store.Feeder) {
		h := f.Live()
		method := requestMethod(opts.Connect)
		opts.OnResponse = func(r live.ResponseInfo) {
			f.SetConn(store.ConnUpdate{State: store.ConnOpen, HTTPStatus: r.Status, Response: responseFromLive(method, r)})
		}
		res, err := live.RunLive(ctx, opts, h)
		out.Result, out.Err = res, err
		if res == nil {
			f.Finish(store.ErrorEnd(err))
			return
		}
		if res.Response.ErrorBody != nil {
			// The whole error page, now that it has been read.
			f.SetConn(store.ConnUpdate{State: store.ConnOpen, HTTPStatus: res.Response.Status, Response: responseFromLive(method, res.Response)})
		}
		f.Finish(store.SessionEnd(res.Report, res.Duration, err))
	}}
}

// Demo serves one turn of a scenario on a fresh loopback relay (its
// pauses scaled by speed: 1 = real time, 0 = none) and reads it through
// the live path, saving the session in lib (nil: not saved); the result
// lands in *out once the run is over.
func Demo(scenario string, speed float64, lib *library.Library, out *LiveOutcome) store.Source {
	name := "demo " + scenario
	return store.Source{Name: name, Live: true, Run: func(ctx context.Context, f *store.Feeder) {
		relay, err := replay.NewRelay(replay.RelayOptions{Scenario: scenario, Speed: speed})
		if err != nil {
			out.Err = err
			f.Finish(store.ErrorEnd(err))
			return
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			out.Err = err
			f.Finish(store.ErrorEnd(err))
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
		Live(name, opts, out).Run(ctx, f)
	}}
}

// requestMethod is the method Connect sends.
func requestMethod(c live.ConnectOptions) string {
	switch {
	case c.Method != "":
		return c.Method
	case c.Body != nil:
		return http.MethodPost
	}
	return http.MethodGet
}

// responseFromLive is the live response (headers flattened; the session
// already redacted secrets as --redact / --keep-secrets say). Its URL and
// method are the last hop's when redirects were followed.
func responseFromLive(method string, r live.ResponseInfo) *store.HTTPResponse {
	if r.Method != "" {
		method = r.Method
	}
	h := make(map[string]string, len(r.Headers))
	for k, vs := range r.Headers {
		h[k] = strings.Join(vs, ", ")
	}
	return &store.HTTPResponse{
		Method: method, URL: r.URL, Status: r.Status, StatusText: r.StatusText, Proto: r.Proto,
		ContentType: r.ContentType, Headers: h,
		Body: r.ErrorBody, BodyTruncated: r.ErrorBodyTruncated,
		RequestHeaders: r.RequestHeaders, RequestBody: r.RequestBody,
	}
}
