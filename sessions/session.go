package sessions

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"framescope/invariants"
)

// LiveOptions configure one live session: connect once, record, check.
type LiveOptions struct {
	Connect ConnectOptions
	// RecordPath, when set, also writes the capture there (--record / -o).
	RecordPath string
	// Library saves the session (nil = --no-save).
	Library *Library
	// Source labels the session in the library: connect, record, demo:<scenario>.
	Source string
	Check  invariants.Options
	// OnResponse, when set, is called once the response headers arrived.
	OnResponse func(ResponseInfo)
}

// LiveResult is what a finished live session produced.
type LiveResult struct {
	Report     *Report
	Response   ResponseInfo
	SessionID  string // "" when not saved
	RecordPath string
	Duration   time.Duration
}

// RunLive connects once, tees every chunk into the recordings as it
// arrives and checks the stream through the same pipeline as `check`,
// calling h as frames arrive. Cancelling ctx is the user cancelling: the
// stream ends as "cancelled" (the client-disconnect path of §5.6), which
// is still a complete session.
func RunLive(ctx context.Context, opts LiveOptions, h Handler) (*LiveResult, error) {
	started := time.Now()
	live, err := Connect(ctx, opts.Connect)
	if err != nil {
		return nil, err
	}
	defer live.Close()
	stop := context.AfterFunc(ctx, live.Cancel)
	defer stop()

	res := &LiveResult{Response: live.Response(), RecordPath: opts.RecordPath}
	res.Response.URL = live.Meta().Name
	if opts.OnResponse != nil {
		opts.OnResponse(res.Response)
	}
	rec := RecordOptions{Redact: opts.Connect.Redact, KeepSecrets: opts.Connect.KeepSecrets}
	var c Capture = live
	var closers []io.Closer
	defer func() {
		for _, cl := range closers {
			cl.Close()
		}
	}()
	if opts.RecordPath != "" {
		f, err := RecordFile(opts.RecordPath)
		if err != nil {
			return nil, err
		}
		closers = append(closers, f)
		c = Record(c, f, rec)
	}
	if opts.Library != nil {
		id, f, err := opts.Library.Create(started)
		if err != nil {
			return nil, fmt.Errorf("session library: %w", err)
		}
		closers = append(closers, f)
		res.SessionID = id
		c = Record(c, f, rec)
	}

	rep, runErr := CheckWith(c, opts.Check, h)
	res.Report = rep
	res.Duration = time.Since(started)
	res.Response = live.Response()
	res.Response.URL = live.Meta().Name
	if opts.Library != nil {
		meta := SessionMeta{
			ID: res.SessionID, URL: live.Meta().Name, Method: live.Meta().Method, Source: opts.Source,
			StartedAt: started, Duration: res.Duration, Status: res.Response.Status,
		}
		if rep != nil {
			SummaryFromReport(&meta, rep)
		}
		meta.Bytes = bytesOf(rep)
		if err := opts.Library.Finish(meta); err != nil {
			runErr = errors.Join(runErr, fmt.Errorf("session library: %w", err))
		}
	}
	return res, runErr
}

func bytesOf(rep *Report) int64 {
	if rep == nil {
		return 0
	}
	return rep.Bytes
}
