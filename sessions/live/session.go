package live

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/library"
	"framescope/sessions/pipeline"
	"framescope/sessions/record"
	"framescope/sessions/report"
)

// LiveOptions configure one live session: connect once, record, check.
type LiveOptions struct {
	Connect ConnectOptions
	// RecordPath, when set, also writes the capture there (--record / -o).
	RecordPath string
	// Library saves the session (nil = --no-save).
	Library *library.Library
	// Source labels the session in the library: connect, record, demo:<scenario>.
	Source string
	Check  invariants.Options
	// OnResponse, when set, is called once the response headers arrived.
	OnResponse func(ResponseInfo)
	// Stop ends the session deliberately at a size or frame count
	// (--max-bytes, --max-frames): recorded and reported as a cancel.
	Stop StopLimits
	// WS is what a WebSocket session (a ws:// or wss:// URL) sends.
	WS WSOptions
}

// LiveResult is what a finished live session produced.
type LiveResult struct {
	Report     *report.Report
	Response   ResponseInfo
	SessionID  string // "" when not saved
	RecordPath string
	Duration   time.Duration
	// Pruned: the oldest sessions removed to keep the library within its
	// size cap once this one was saved; PruneErr why that failed.
	Pruned   library.PruneResult
	PruneErr error
	// DecodeFailed says why the body could not be decoded (its
	// Content-Encoding failed, or stacked more than codings.Max codings):
	// the stream failed. "" when it was decoded, or a bound stopped it.
	DecodeFailed string
}

// RunLive connects once, tees every chunk into the recordings as it
// arrives and checks the stream through the same pipeline as `check`,
// calling h as frames arrive. Cancelling ctx is the user cancelling: the
// stream ends as "cancelled" (the client-disconnect path of §5.6), which
// is still a complete session.
func RunLive(ctx context.Context, opts LiveOptions, h pipeline.Handler) (*LiveResult, error) {
	started := time.Now()
	// The files first (record.Target): a bad -o path or an unwritable
	// library fails before the one-shot request is sent.
	var target *record.Target
	if opts.RecordPath != "" {
		t, err := record.OpenTarget(opts.RecordPath)
		if err != nil {
			return nil, err
		}
		target = t
	}
	var libID string
	var libFile *os.File
	abandon := func() {
		if target != nil {
			target.Abandon()
		}
		if libFile != nil {
			libFile.Close()
			opts.Library.Remove(libID)
		}
	}
	if opts.Library != nil {
		id, f, err := opts.Library.Create(started)
		if err != nil {
			abandon()
			return nil, fmt.Errorf("%w (--no-save skips the library)", err)
		}
		libID, libFile = id, f
	}
	live, err := connectLive(ctx, opts) // HTTP, or WebSocket: live_ws.go
	if err == nil && target != nil {
		if err = target.Start(); err != nil {
			live.Close()
		}
	}
	if err != nil {
		abandon()
		return nil, err
	}
	defer live.Close()
	stop := context.AfterFunc(ctx, live.Cancel)
	defer stop()

	res := &LiveResult{Response: live.Response(), RecordPath: opts.RecordPath, SessionID: libID}
	if opts.OnResponse != nil {
		opts.OnResponse(res.Response)
	}
	live.Probe() // an encoded body that does not decode is recorded as it came
	rec := record.Options{Redact: opts.Connect.Redact, KeepSecrets: opts.Connect.KeepSecrets}
	var c, recC, libC sessions.Capture = live, nil, nil
	if opts.Stop.Active() {
		c = LimitCapture(c, opts.Stop, live.Cancel)
	}
	if target != nil {
		recC = record.New(c, target.F, rec)
		c = recC
	}
	if libFile != nil {
		libC = record.New(c, libraryWriter(libFile), rec)
		c = libC
	}

	rep, runErr := report.CheckWith(c, opts.Check, h)
	res.Report = rep
	res.Duration = time.Since(started)
	res.Response = live.Response()
	res.DecodeFailed = live.DecodeFailed()
	// A recording that lost data is no success: no "recorded to" or
	// "saved as" for it, and the caller exits 2.
	var libLost error
	if target != nil {
		if lost := record.Failure("recording to "+sessions.Clean(opts.RecordPath), recC, target.F.Close()); lost != nil {
			runErr = errors.Join(runErr, lost)
			res.RecordPath = ""
		}
	}
	if libFile != nil {
		if libLost = record.Failure("session library", libC, libFile.Close()); libLost != nil {
			runErr = errors.Join(runErr, libLost)
			res.SessionID = ""
		}
	}
	if opts.Library != nil {
		meta := library.SessionMeta{
			ID: libID, URL: live.Meta().Name, Method: live.Meta().Method, Source: opts.Source,
			StartedAt: started, Duration: res.Duration, Status: res.Response.Status,
		}
		if rep != nil {
			record.Summarize(&meta, rep)
		}
		meta.Bytes = bytesOf(rep)
		if libLost != nil {
			meta.End = "error: " + libLost.Error()
		}
		if err := opts.Library.Finish(meta); err != nil {
			res.SessionID = "" // the capture is there, listed as unfinished
			runErr = errors.Join(runErr, fmt.Errorf("session library: %w", err))
		}
		res.Pruned, res.PruneErr = opts.Library.EnforceCap(libID)
	}
	return res, runErr
}

func bytesOf(rep *report.Report) int64 {
	if rep == nil {
		return 0
	}
	return rep.Bytes
}

// libraryWriter wraps the library's capture file; tests swap it for a
// writer that fails (a full disk cannot be had on demand).
var libraryWriter = func(f *os.File) io.Writer { return f }
