package live

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"framescope/sessions"
	"framescope/sessions/wsconn"
)

// A ws:// or wss:// URL is a WebSocket session: the same recording,
// library and check as an HTTP stream, over the transport of
// sessions/wsconn, whose frames carry their direction.

// WSOptions are what a WebSocket session sends (--send, --send-delay,
// --send-after-each).
type WSOptions struct {
	Send          [][]byte
	SendDelay     time.Duration
	SendAfterEach bool
}

// IsWebSocketURL reports whether u names a WebSocket endpoint.
func IsWebSocketURL(u string) bool {
	l := strings.ToLower(strings.TrimSpace(u))
	return strings.HasPrefix(l, "ws://") || strings.HasPrefix(l, "wss://")
}

// liveConn is what RunLive needs of a live connection, HTTP or WebSocket.
type liveConn interface {
	sessions.Capture
	Cancel()
	Response() ResponseInfo
	DecodeFailed() string
	Probe()
}

// connectLive opens the session's connection.
func connectLive(ctx context.Context, opts LiveOptions) (liveConn, error) {
	if IsWebSocketURL(opts.Connect.URL) {
		return connectWS(ctx, opts)
	}
	l, err := Connect(ctx, opts.Connect)
	if err != nil {
		return nil, err
	}
	return l, nil
}

// wsLive is a WebSocket connection as a live session.
type wsLive struct {
	*wsconn.Conn
	info ResponseInfo
	meta sessions.Meta
}

func (w *wsLive) Response() ResponseInfo { return w.info }
func (w *wsLive) DecodeFailed() string   { return "" }
func (w *wsLive) Probe()                 {} // frames are not a body: nothing to decode
func (w *wsLive) Meta() sessions.Meta    { return w.meta }

func connectWS(ctx context.Context, opts LiveOptions) (liveConn, error) {
	co := opts.Connect
	if co.Body != nil {
		return nil, fmt.Errorf("-d is an HTTP request body; a WebSocket session sends messages with --send")
	}
	if co.Method != "" && !strings.EqualFold(co.Method, http.MethodGet) {
		return nil, fmt.Errorf("-X %s: a WebSocket handshake is a GET", sessions.Clean(co.Method))
	}
	h := http.Header{}
	for _, line := range co.Headers {
		name, value, ok := strings.Cut(line, ":")
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		if !ok || name == "" || !validHeaderName(name) {
			return nil, fmt.Errorf("header %s: want \"Name: value\"", sessions.CleanShort(line, 80))
		}
		if strings.ContainsAny(value, "\r\n\x00") {
			return nil, fmt.Errorf("header %s: the value holds a line break or NUL", sessions.Clean(name))
		}
		h.Add(name, value)
	}
	if len(h.Values("User-Agent")) == 0 {
		h.Set("User-Agent", "framescope/"+sessions.Version)
	}
	keep := co.KeepSecrets
	c, err := wsconn.Dial(ctx, wsconn.Options{
		URL: co.URL, Header: h, Insecure: co.Insecure, ConnectTimeout: co.ConnectTimeout,
		Send: opts.WS.Send, SendDelay: opts.WS.SendDelay, SendAfterEach: opts.WS.SendAfterEach,
		RedactClient: func(m []byte) []byte { return sessions.RedactBodyIf(m, "application/json", keep) },
	})
	if err != nil {
		return nil, err
	}
	resp := c.Response()
	shown := sessions.RedactURLIf(co.URL, keep)
	reqH, _ := sessions.RedactWSHeaders(c.Meta().RequestHeaders, co.Redact, keep)
	info := ResponseInfo{
		URL: shown, Method: http.MethodGet, Status: resp.StatusCode, StatusText: resp.Status, Proto: resp.Proto,
		Headers: resp.Header, ContentType: "websocket", RequestHeaders: reqH,
	}
	if p := c.Subprotocol(); p != "" {
		info.ContentType = "websocket (" + sessions.Clean(p) + ")"
	}
	meta := c.Meta()
	meta.Name = shown
	return &wsLive{Conn: c, info: info, meta: meta}, nil
}
