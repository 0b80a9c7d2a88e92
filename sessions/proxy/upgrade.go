package proxy

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// upgrade passes a 101 Switching Protocols (RFC 9110 §15.2.2: WebSocket,
// RFC 6455 §4) through: the response goes to the app as the upstream sent
// it, then bytes are copied both ways untouched until either side closes.
func (p *Proxy) upgrade(w http.ResponseWriter, r *http.Request, resp *http.Response, lf *liveFlow) {
	backend, ok := resp.Body.(io.ReadWriteCloser)
	if !ok {
		resp.Body.Close()
		p.fail(w, lf, "the upstream switched protocols but its connection cannot be written")
		return
	}
	defer backend.Close()
	conn, brw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		p.fail(w, lf, "this connection cannot switch protocols: "+err.Error())
		return
	}
	defer conn.Close()
	kind := KindWebSocket
	defer p.track(conn)()
	p.book.update(lf, func(f *Flow) { f.Kind, f.Status = kind, resp.StatusCode })

	resp.Header.Add("Via", viaEntry(resp.ProtoMajor, resp.ProtoMinor, p.via))
	fmt.Fprintf(brw, "HTTP/1.1 101 %s\r\n", http.StatusText(http.StatusSwitchingProtocols))
	resp.Header.Write(brw) // Connection and Upgrade included: they are the switch
	brw.WriteString("\r\n")
	if err := brw.Flush(); err != nil {
		p.book.update(lf, func(f *Flow) { f.Err, f.Done, f.Duration = err.Error(), true, time.Since(f.Started) })
		return
	}
	n := pipe(conn, brw.Reader, backend, &lf.bytes)
	_ = n
	p.book.update(lf, func(f *Flow) { f.Done, f.Duration = true, time.Since(f.Started) })
}

// fail ends a flow that got no response to pass on with 502.
func (p *Proxy) fail(w http.ResponseWriter, lf *liveFlow, msg string) {
	p.book.update(lf, func(f *Flow) {
		f.Err, f.Status, f.Done, f.Duration = msg, http.StatusBadGateway, true, time.Since(f.Started)
	})
	http.Error(w, "framescope proxy: "+msg, http.StatusBadGateway)
}

// counter is what pipe adds the bytes it copied to.
type counter interface{ Add(int64) int64 }

// pipe copies app→upstream (what the app had buffered first) and
// upstream→app until one side ends, then closes both; it returns the
// bytes copied both ways.
func pipe(app net.Conn, buffered *bufio.Reader, upstream io.ReadWriteCloser, count counter) int64 {
	var wg sync.WaitGroup
	var total int64
	var mu sync.Mutex
	cp := func(dst io.Writer, src io.Reader, closeDst func()) {
		defer wg.Done()
		n, _ := io.Copy(countingWriter{dst, count}, src)
		mu.Lock()
		total += n
		mu.Unlock()
		closeDst()
	}
	wg.Add(2)
	var fromApp io.Reader = app
	if buffered != nil && buffered.Buffered() > 0 {
		fromApp = io.MultiReader(io.LimitReader(buffered, int64(buffered.Buffered())), app)
	}
	go cp(upstream, fromApp, func() { closeWrite(upstream) })
	go cp(app, upstream, func() { closeWrite(app) })
	wg.Wait()
	return total
}

// countingWriter counts the bytes written through it as they go.
type countingWriter struct {
	w io.Writer
	c counter
}

func (c countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.c.Add(int64(n))
	return n, err
}

// closeWrite half-closes a connection where it can (the other direction
// may still carry bytes), else closes it.
func closeWrite(c io.Closer) {
	if cw, ok := c.(interface{ CloseWrite() error }); ok {
		if cw.CloseWrite() == nil {
			return
		}
	}
	c.Close()
}
