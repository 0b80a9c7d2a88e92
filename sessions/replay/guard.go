package replay

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"framescope/sessions"
	"framescope/sessions/frontdoor"
)

// The replay server's front door, shared by the capture replay and the
// scenario relay: the DNS-rebinding defence (which Host and Origin headers
// are served), opt-in CORS, the security headers of every response, and the
// deadline for a request's body.

// AllowList says which Host and Origin headers serve answers besides
// loopback ones: the front door's (frontdoor.AllowList), shared with the
// proxy.
type AllowList = frontdoor.AllowList

// ParseAllowList parses --allow-origin values (frontdoor.ParseAllowList).
func ParseAllowList(values []string) (*AllowList, error) { return frontdoor.ParseAllowList(values) }

// refusedHelp ends a refusal: what is served and how to serve more.
const refusedHelp = ". Only loopback hosts and origins (localhost, 127.0.0.0/8, [::1]) and the ones named by --allow-origin are served," +
	" as a defence against DNS rebinding: restart with --allow-origin HOST (or an origin, http://HOST:PORT) to serve that one" +
	" (and --lan to listen on the network for a device on the LAN).\n"

// DefaultBodyTimeout is how long a client may take to send its request
// body: a client that trickles it would otherwise hold a connection (and a
// goroutine) for as long as it likes.
const DefaultBodyTimeout = 10 * time.Second

// readBody reads (and throws away) up to limit bytes of the request body
// within timeout (0: DefaultBodyTimeout). Reading the body to its end lets
// the server notice at once when the client goes away. On a slow or broken
// body it answers 408 and returns false: the connection is then closed.
func readBody(w http.ResponseWriter, req *http.Request, limit int64, timeout time.Duration) (ok bool, why string) {
	if req.Body == nil || req.Body == http.NoBody {
		return true, ""
	}
	if timeout <= 0 {
		timeout = DefaultBodyTimeout
	}
	rc := http.NewResponseController(w)
	deadlineSet := rc.SetReadDeadline(time.Now().Add(timeout)) == nil
	_, err := io.Copy(io.Discard, io.LimitReader(req.Body, limit))
	if err == nil {
		if deadlineSet {
			// The deadline is for the body only, never for the replay that
			// follows. (net/http lifts it too when its background read
			// starts at the body's end; a body cut at limit has no end.)
			_ = rc.SetReadDeadline(time.Time{})
		}
		return true, ""
	}
	// The deadline stays: net/http would otherwise wait for the rest of
	// the body before closing the connection.
	if errors.Is(err, os.ErrDeadlineExceeded) {
		why = fmt.Sprintf("request body not received within %s", timeout)
	} else {
		why = "request body unreadable: " + sessions.Clean(err.Error())
	}
	w.Header().Set("Connection", "close")
	replayPlainError(w, http.StatusRequestTimeout, "framescope serve: "+why+"\n")
	return false, why
}

// secureHeaders are sent with every response: whatever the capture holds,
// a browser must neither sniff it into HTML nor run it as a page.
func secureHeaders(hdr http.Header) {
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("Content-Security-Policy", "sandbox")
}

// GuardOptions tunes Guard.
type GuardOptions struct {
	// Allow names the non-loopback hosts and origins served (nil: loopback
	// only).
	Allow *AllowList
	// CORS answers preflights and adds Access-Control-Allow-Origin for the
	// origins served.
	CORS bool
	// BodyTimeout bounds the time to receive a request body (0:
	// DefaultBodyTimeout).
	BodyTimeout time.Duration
	// MaxBody is how much of a body is read (0: 1 MiB); the rest is not.
	MaxBody int64
}

// Guard wraps a handler (the scenario relay) with the replay server's
// front door: the DNS-rebinding defence, opt-in CORS, security headers and
// the body deadline. The request reaches h with its body consumed.
func Guard(h http.Handler, opts GuardOptions) http.Handler {
	maxBody := opts.MaxBody
	if maxBody <= 0 {
		maxBody = 1 << 20
	}
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		secureHeaders(w.Header())
		if why := opts.Allow.RefuseReason(req); why != "" {
			replayPlainError(w, http.StatusForbidden, "framescope serve: refused: "+why+refusedHelp)
			return
		}
		if origin := req.Header.Get("Origin"); opts.CORS && origin != "" && headerValueOK(origin) {
			hdr := w.Header()
			hdr.Set("Access-Control-Allow-Origin", origin)
			hdr.Set("Vary", "Origin")
			if req.Method == http.MethodOptions {
				hdr.Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
				if ah := req.Header.Get("Access-Control-Request-Headers"); ah != "" && headerValueOK(ah) {
					hdr.Set("Access-Control-Allow-Headers", ah)
				}
				w.WriteHeader(http.StatusNoContent)
				return
			}
		}
		if ok, _ := readBody(w, req, maxBody, opts.BodyTimeout); !ok {
			return
		}
		req.Body = http.NoBody // read here, within the deadline; the rest is not
		h.ServeHTTP(w, req)
	})
}
