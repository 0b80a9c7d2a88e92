// Package wsconn is the WebSocket transport: it dials a ws:// or wss://
// URL, sends the client's messages and streams every frame both ways, in
// arrival order, as a sessions.Capture whose chunks say who sent them
// (sessions.Chunk.From) and what kind of frame each is. It knows nothing
// of dialects, recording or the library: sessions/live puts it to use as
// it puts an HTTP body to use.
package wsconn

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"

	"framescope/invariants"
	"framescope/sessions"
)

// DefaultMaxMessage bounds the bytes of one message that are kept; the
// rest of a longer message is read and dropped (named in a problem).
const DefaultMaxMessage = 16 << 20

// Options configure one connection.
type Options struct {
	URL            string
	Header         http.Header // the handshake's headers, Sec-WebSocket-Protocol included
	Insecure       bool
	ConnectTimeout time.Duration // dial + handshake (0: 30s)
	// Send are the client's text messages, sent in order once connected:
	// SendDelay apart, and with SendAfterEach each after the server's
	// answer to the one before (a server message, then SendDelay of quiet).
	Send          [][]byte
	SendDelay     time.Duration
	SendAfterEach bool
	// MaxMessage bounds a message's kept bytes (0: DefaultMaxMessage).
	MaxMessage int64
	// RedactClient rewrites a client message for the capture (the body
	// redaction rules); nil keeps it as sent.
	RedactClient func([]byte) []byte
	// CheckRedirect refuses (or follows) a redirect of the handshake.
	CheckRedirect func(*http.Request, []*http.Request) error
}

// frame is one thing the connection saw, in order.
type frame struct {
	chunk sessions.Chunk
	end   *invariants.End
}

// Conn is a live WebSocket connection read as a Capture. Next, End and
// TakeProblems belong to the reading goroutine; Cancel and Close may be
// called from any.
type Conn struct {
	meta   sessions.Meta
	ws     *websocket.Conn
	resp   *http.Response
	start  time.Time
	opts   Options
	frames chan frame
	ctx    context.Context
	cancel context.CancelFunc

	mu    sync.Mutex
	probs sessions.ProblemList

	end       invariants.End
	ended     bool
	cancelled atomic.Bool
	served    atomic.Int64  // server messages so far
	serveSig  chan struct{} // a server message arrived (cap 1)
	sendDone  chan struct{}
	closeOnce sync.Once
	count     [2]int // messages per direction, for naming them
}

// Dial opens the connection and starts reading and sending.
func Dial(ctx context.Context, opts Options) (*Conn, error) {
	timeout := opts.ConnectTimeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	h := opts.Header.Clone()
	if h == nil {
		h = http.Header{}
	}
	var protocols []string
	for _, v := range h.Values("Sec-WebSocket-Protocol") {
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				protocols = append(protocols, p)
			}
		}
	}
	h.Del("Sec-WebSocket-Protocol") // the library sends them from Subprotocols
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = nil
	if opts.Insecure {
		tr.TLSClientConfig = &tls.Config{InsecureSkipVerify: true} //nolint:gosec // -k asked for it
	}
	client := &http.Client{Transport: tr, CheckRedirect: opts.CheckRedirect}
	if client.CheckRedirect == nil {
		client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	}
	dctx, dcancel := context.WithTimeout(ctx, timeout)
	defer dcancel()
	c := &Conn{opts: opts, frames: make(chan frame, 64), serveSig: make(chan struct{}, 1), sendDone: make(chan struct{})}
	dopts := &websocket.DialOptions{
		HTTPClient: client, HTTPHeader: h, Subprotocols: protocols,
		CompressionMode: websocket.CompressionContextTakeover,
		OnPingReceived: func(_ context.Context, p []byte) bool {
			c.control(sessions.OpPing, p)
			return true
		},
		OnPongReceived: func(_ context.Context, p []byte) { c.control(sessions.OpPong, p) },
	}
	c.start = time.Now()
	ws, resp, err := websocket.Dial(dctx, opts.URL, dopts)
	if err != nil {
		return nil, describeDialError(err, resp, dctx, ctx, timeout)
	}
	ws.SetReadLimit(-1) // bounded here, message by message (readMessage)
	c.ws, c.resp = ws, resp
	c.ctx, c.cancel = context.WithCancel(context.Background())
	reqH := map[string]string{}
	for k := range opts.Header {
		reqH[k] = strings.Join(opts.Header.Values(k), ", ")
	}
	respH := map[string]string{}
	for k := range resp.Header {
		respH[k] = strings.Join(resp.Header.Values(k), ", ")
	}
	c.meta = sessions.Meta{
		Name: opts.URL, Kind: sessions.KindWebSocket, URL: opts.URL, Method: http.MethodGet,
		Status: resp.StatusCode, RequestHeaders: reqH, ResponseHeaders: respH,
		StartedAt: c.start, Timed: true, Live: true, Synthetic: true, Transport: sessions.TransportWebSocket,
	}
	go c.readLoop()
	go c.sendLoop()
	return c, nil
}

// Response is the handshake's response.
func (c *Conn) Response() *http.Response { return c.resp }

// Subprotocol is the subprotocol the server chose ("" none).
func (c *Conn) Subprotocol() string { return c.ws.Subprotocol() }

func describeDialError(err error, resp *http.Response, dctx, parent context.Context, timeout time.Duration) error {
	switch {
	case parent.Err() != nil:
		return fmt.Errorf("cancelled before the WebSocket handshake completed")
	case errors.Is(dctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("WebSocket handshake timed out after %s (--connect-timeout)", timeout)
	case resp != nil && resp.StatusCode >= 300 && resp.StatusCode < 400:
		return fmt.Errorf("the WebSocket handshake was answered with a redirect (%s to %s): redirects are not followed",
			resp.Status, sessions.Clean(sessions.RedactURL(resp.Header.Get("Location"))))
	case resp != nil && resp.StatusCode != http.StatusSwitchingProtocols:
		return fmt.Errorf("the server refused the WebSocket upgrade: HTTP %s", sessions.Clean(resp.Status))
	}
	return fmt.Errorf("WebSocket handshake: %s", sessions.Clean(sessions.RedactMessage(err.Error())))
}

func (c *Conn) since() time.Duration { return time.Since(c.start) }

// put hands a frame to the reader of the capture unless the connection
// is over.
func (c *Conn) put(f frame) bool {
	select {
	case c.frames <- f:
		return true
	case <-c.ctx.Done():
		return false
	}
}

func (c *Conn) control(op sessions.FrameOp, p []byte) {
	c.put(frame{chunk: sessions.Chunk{Op: op, Payload: append([]byte(nil), p...), T: c.since(), HasTime: true}})
}

// note is a remark, not damage (frame-utf8 raises the alarm).
func (c *Conn) note(format string, args ...any) {
	c.mu.Lock()
	c.probs.Note(format, args...)
	c.mu.Unlock()
}

func (c *Conn) problem(format string, args ...any) {
	c.mu.Lock()
	c.probs.Add(0, format, args...)
	c.mu.Unlock()
}

// readLoop reads the server's messages until the connection ends, then
// waits for the sender and hands the end on, last.
func (c *Conn) readLoop() {
	max := c.opts.MaxMessage
	if max <= 0 {
		max = DefaultMaxMessage
	}
	var end invariants.End
	for {
		typ, r, err := c.ws.Reader(c.ctx)
		if err != nil {
			end = c.endOf(err)
			break
		}
		msg, size, rerr := readMessage(r, max)
		if rerr != nil {
			end = c.endOf(rerr)
			break
		}
		c.count[sessions.FromServer]++
		n := c.count[sessions.FromServer]
		op := sessions.OpText
		if typ == websocket.MessageBinary {
			op = sessions.OpBinary
		}
		if size > int64(len(msg)) {
			c.problem("server message %d is %s, over the %s kept of one message: its first %s are shown", n,
				sessions.FormatSize(size), sessions.FormatSize(max), sessions.FormatSize(int64(len(msg))))
		}
		if op == sessions.OpText && !utf8.Valid(msg) {
			c.note("server text message %d is not valid UTF-8 (RFC 6455 §8.1: a client fails the connection); its text is shown with the bad bytes escaped", n)
		}
		if !c.put(frame{chunk: sessions.Chunk{Op: op, Payload: msg, T: c.since(), HasTime: true}}) {
			end = invariants.End{Kind: invariants.EndCancelled, Detail: "stopped by the user"}
			break
		}
		c.served.Add(1)
		select {
		case c.serveSig <- struct{}{}:
		default:
		}
	}
	c.cancel() // the sender stops
	<-c.sendDone
	end.At, end.HasTime = c.since(), true
	c.frames <- frame{end: &end}
	close(c.frames)
}

// readMessage reads one message, keeping its first max bytes; size is
// its whole length.
func readMessage(r io.Reader, max int64) (msg []byte, size int64, err error) {
	var buf bytes.Buffer
	n, err := io.Copy(&buf, io.LimitReader(r, max))
	if err != nil {
		return nil, n, err
	}
	rest, err := io.Copy(io.Discard, r)
	return buf.Bytes(), n + rest, err
}

// endOf says how a read error ended the connection, handing on the
// close frame when one came.
func (c *Conn) endOf(err error) invariants.End {
	if c.cancelled.Load() {
		return invariants.End{Kind: invariants.EndCancelled, Detail: "stopped by the user"}
	}
	var ce websocket.CloseError
	if errors.As(err, &ce) {
		code := int(ce.Code)
		if ce.Code == websocket.StatusNoStatusRcvd {
			code = 0 // a close frame without a status
		}
		c.put(frame{chunk: sessions.Chunk{Op: sessions.OpClose, CloseCode: code, CloseReason: ce.Reason, T: c.since(), HasTime: true}})
		switch ce.Code {
		case websocket.StatusNormalClosure, websocket.StatusGoingAway, websocket.StatusNoStatusRcvd:
			return invariants.End{Kind: invariants.EndEOF}
		}
		return invariants.End{Kind: invariants.EndError, Detail: fmt.Sprintf("the server closed the WebSocket with status %d %s",
			code, sessions.CleanShort(ce.Reason, 120))}
	}
	return invariants.End{Kind: invariants.EndError, Detail: "the connection ended without a close frame (abnormal closure, 1006): the session is truncated (" +
		sessions.CleanShort(sessions.RedactMessage(err.Error()), 160) + ")"}
}

// sendLoop sends the client's messages in order.
func (c *Conn) sendLoop() {
	defer close(c.sendDone)
	wait := func(d time.Duration) bool {
		if d <= 0 {
			return true
		}
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
			return true
		case <-c.ctx.Done():
			return false
		}
	}
	var servedAtSend int64
	for i, m := range c.opts.Send {
		if i > 0 && c.opts.SendAfterEach {
			for c.served.Load() <= servedAtSend { // the answer's first message
				select {
				case <-c.serveSig:
				case <-c.ctx.Done():
					return
				}
			}
			for c.opts.SendDelay > 0 { // then quiet for SendDelay
				n := c.served.Load()
				if !wait(c.opts.SendDelay) {
					return
				}
				if c.served.Load() == n {
					break
				}
			}
		} else if i > 0 && !wait(c.opts.SendDelay) {
			return
		}
		servedAtSend = c.served.Load()
		c.count[sessions.FromClient]++
		rec := m
		if c.opts.RedactClient != nil {
			rec = c.opts.RedactClient(m)
		}
		// Handed on before it is written: the server's answer cannot come
		// before it in the capture.
		if !c.put(frame{chunk: sessions.Chunk{From: sessions.FromClient, Op: sessions.OpText, Payload: rec, T: c.since(), HasTime: true}}) {
			return
		}
		if err := c.ws.Write(c.ctx, websocket.MessageText, m); err != nil {
			if c.ctx.Err() == nil {
				c.problem("client message %d could not be sent: %s", i+1, sessions.Clean(err.Error()))
			}
			return
		}
	}
}

func (c *Conn) Meta() sessions.Meta { return c.meta }

// Next returns the next frame, its message as an SSE block in Data and
// as it travelled in Payload.
func (c *Conn) Next() (sessions.Chunk, error) {
	if c.ended {
		return sessions.Chunk{}, io.EOF
	}
	f, ok := <-c.frames
	if !ok || f.end != nil {
		c.ended = true
		if f.end != nil {
			c.end = *f.end
		}
		return sessions.Chunk{}, io.EOF
	}
	ch := f.chunk
	ch.Data = sessions.MessageBlock(nil, ch.Op, ch.Payload, ch.CloseCode, ch.CloseReason)
	return ch, nil
}

func (c *Conn) End() invariants.End { return c.end }

func (c *Conn) TakeProblems() []sessions.Problem {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.probs.Take()
}

// Cancel ends the connection as the user's stop: a normal close is sent.
func (c *Conn) Cancel() {
	c.cancelled.Store(true)
	c.closeOnce.Do(func() {
		go func() {
			_ = c.ws.Close(websocket.StatusNormalClosure, "")
		}()
		time.AfterFunc(2*time.Second, func() { c.ws.CloseNow(); c.cancel() })
	})
}

// Close releases the connection.
func (c *Conn) Close() error {
	c.cancelled.Store(true)
	c.cancel()
	c.ws.CloseNow()
	for range c.frames { // let the reader finish
	}
	return nil
}
