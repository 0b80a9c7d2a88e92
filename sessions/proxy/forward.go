package proxy

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"framescope/decode"
	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/faults"
)

// copyBufSize is the read size of a busy response body: a read is
// written and flushed to the app at once, whatever its size. A body
// starts with a smallCopyBufSize buffer and moves to a copyBufSize one
// at its first read that fills it: a chat stream's reads are an event or
// a few (hundreds of bytes), and a hundred of them each holding 64 KB
// for minutes was a quarter of the proxy's heap.
const (
	copyBufSize      = 64 << 10
	smallCopyBufSize = 8 << 10
)

var (
	copyBufs      = sync.Pool{New: func() any { b := make([]byte, copyBufSize); return &b }}
	smallCopyBufs = sync.Pool{New: func() any { b := make([]byte, smallCopyBufSize); return &b }}
)

// forward sends r to target and copies the response back as it arrives:
// every read of the body is written and flushed to the app before the
// next read (no buffering anywhere), then teed to the stream's checker.
func (p *Proxy) forward(w http.ResponseWriter, r *http.Request, target *url.URL) {
	if p.looped(r.Header) {
		http.Error(w, "framescope proxy: "+errViaLoop.Error(), http.StatusLoopDetected)
		return
	}
	started := time.Now()
	lf := &liveFlow{Flow: Flow{Kind: KindHTTP, Method: r.Method, URL: sessions.RedactURL(target.String()),
		Host: target.Host, Started: started}}
	p.book.start(lf)
	// An HTTP/1 server stops the request body once the response starts;
	// the upstream may answer before it read the whole body (or stream
	// while the app still sends), and the transport, its body cut, closed
	// the upstream connection mid-stream. Full duplex keeps both open.
	_ = http.NewResponseController(w).EnableFullDuplex()

	up := upgradeType(r.Header)
	out, body := outgoing(r, target, up, viaEntry(r.ProtoMajor, r.ProtoMinor, p.via), p.bodies)
	p.book.setRequest(lf, out, body) // for the flow's detail (flow_detail.go)
	resp, err := p.transport.RoundTrip(out)
	if err != nil {
		msg := upstreamError(target, err)
		p.book.update(lf, func(f *Flow) {
			f.Err, f.Status, f.Done, f.Duration = msg, http.StatusBadGateway, true, time.Since(started)
		})
		if r.Context().Err() == nil {
			http.Error(w, "framescope proxy: "+msg, http.StatusBadGateway)
		}
		return
	}
	if resp.StatusCode == http.StatusSwitchingProtocols {
		p.upgrade(w, r, resp, lf)
		return
	}
	defer resp.Body.Close()

	h := w.Header()
	for k, vs := range resp.Header {
		h[k] = vs
	}
	removeHopHeaders(h)
	h.Add("Via", viaEntry(resp.ProtoMajor, resp.ProtoMinor, p.via))
	announceTrailers(h, resp.Trailer)
	ct := resp.Header.Get("Content-Type")
	p.book.setResponse(lf, resp.Header)
	p.book.update(lf, func(f *Flow) { f.Status, f.ContentType = resp.StatusCode, ct })
	rc := http.NewResponseController(w)
	// --fault (fault_hook.go): a matching stream's headers wait for its
	// first read, which says whether it is a stream to fault.
	plan, faulting := faults.PlanFor(p.opts.Faults, target.Host, target.Path)
	if !faulting {
		w.WriteHeader(resp.StatusCode)
		rc.Flush() // the app sees the status and headers before the first byte
	}

	bp, pool := smallCopyBufs.Get().(*[]byte), &smallCopyBufs
	defer func() { pool.Put(bp) }()
	buf := *bp
	var (
		st        *stream  // the stream's check, once the body is known to be one
		fl        *faulter // the stream's --fault, when one applies
		decided   bool
		kept      []byte
		cut       bool
		end       = invariants.End{Kind: invariants.EndEOF}
		appGone   bool
		lastAnnce = started
	)
	decide := func(first []byte) {
		decided = true
		// HEAD, 204 and 304 have no body (RFC 9110 §9.3.2, §15.3.5, §15.4.5).
		if r.Method == http.MethodHead || resp.StatusCode == http.StatusNoContent || resp.StatusCode == http.StatusNotModified || !isStream(ct, resp.Header.Get("Content-Encoding"), first) {
			return
		}
		meta := streamMeta(r, out, resp, target, started, body)
		encoded := compressedStream(resp.Header.Get("Content-Encoding")) // checked decoded, never faulted
		if faulting && !encoded {
			prepareFault(h, &meta, plan)
		}
		st = p.startStream(lf, meta, started)
		if faulting && !encoded {
			fl = newStreamFaulter(w, rc, r.Context(), plan, st.tap, isNDJSON(ct))
		}
	}
	for {
		n, rerr := resp.Body.Read(buf)
		if n > 0 {
			if !decided {
				decide(buf[:n])
				if faulting {
					w.WriteHeader(resp.StatusCode)
					rc.Flush()
				}
			}
			if fl != nil {
				if ferr := fl.feed(buf[:n]); ferr == errFaultCut {
					lf.bytes.Add(int64(n))
					end = invariants.End{Kind: invariants.EndError, Detail: "cut by the proxy after frame " + fmt.Sprint(plan.CutAfter) + " (--fault cut-after)"}
					break
				} else if ferr != nil {
					appGone = true
				}
			} else if _, werr := w.Write(buf[:n]); werr == nil {
				werr = rc.Flush()
				if werr != nil {
					appGone = true
				}
			} else {
				appGone = true
			}
			lf.bytes.Add(int64(n))
			if fl != nil {
				// the faulter pushed what the app got to the checker
			} else if st != nil {
				st.tap.push(buf[:n])
			} else if len(kept) < p.opts.BodyCap {
				take := min(n, p.opts.BodyCap-len(kept))
				kept = append(kept, buf[:take]...)
				cut = cut || take < n
			} else {
				cut = true
			}
			if n == len(buf) && pool == &smallCopyBufs { // a busy body: bigger reads
				smallCopyBufs.Put(bp)
				bp, pool = copyBufs.Get().(*[]byte), &copyBufs
				buf = *bp
			}
			if appGone {
				end = invariants.End{Kind: invariants.EndCancelled, Detail: "the app closed the connection"}
				break
			}
			if st == nil && time.Since(lastAnnce) > 250*time.Millisecond {
				lastAnnce = time.Now()
				p.book.update(lf, func(*Flow) {})
			}
		}
		if rerr != nil {
			if !decided {
				decide(nil)
				if faulting {
					w.WriteHeader(resp.StatusCode)
					rc.Flush()
				}
			}
			if !errors.Is(rerr, io.EOF) {
				end = invariants.End{Kind: invariants.EndError, Detail: "upstream: " + sessions.Clean(rerr.Error())}
				if r.Context().Err() != nil {
					end = invariants.End{Kind: invariants.EndCancelled, Detail: "the app closed the connection"}
					appGone = true
				}
			}
			break
		}
	}
	for k, vs := range resp.Trailer {
		h[http.TrailerPrefix+k] = vs
	}
	if fl != nil && !fl.cut {
		if ferr := fl.finish(end.Kind == invariants.EndEOF); ferr != nil && end.Kind == invariants.EndEOF {
			end, appGone = invariants.End{Kind: invariants.EndCancelled, Detail: "the app closed the connection"}, true
		}
	}
	if fl != nil {
		fl.out.Discard() // whatever a failed write left held gives its bytes back
		for _, n := range fl.notes {
			st.tap.note("--fault: " + n)
		}
	}
	if st != nil {
		st.tap.finish(end)
		p.book.update(lf, func(f *Flow) { f.Duration = time.Since(started) }) // Done once the check ends
	} else {
		p.book.update(lf, func(f *Flow) {
			f.Body, f.BodyCut, f.Done, f.Duration = kept, cut, true, time.Since(started)
			if end.Kind != invariants.EndEOF {
				f.Err = sessions.EndText(end)
			}
		})
	}
	if end.Kind == invariants.EndError && !appGone {
		// The upstream broke the body: the app must see a broken body too,
		// not a clean end (net/http aborts the response).
		panic(http.ErrAbortHandler)
	}
}

// outgoing is the request sent upstream: r's method, headers (without the
// hop-by-hop ones, RFC 9110 §7.6.1, but TE: trailers; with via added to
// Via, §7.6.3) and
// body, streamed; Host is the target's. body holds the start of the
// request body as it is sent (for the recording).
func outgoing(r *http.Request, target *url.URL, upgrade, via string, budget *bodyBudget) (*http.Request, *bodyTee) {
	out := r.Clone(r.Context())
	out.URL = target
	out.Host = target.Host
	out.RequestURI = ""
	out.Header = r.Header.Clone()
	removeHopHeaders(out.Header)
	if teTrailers(r.Header) {
		out.Header.Set("Te", "trailers")
	}
	out.Header.Add("Via", via)
	if upgrade != "" {
		out.Header.Set("Connection", "Upgrade")
		out.Header.Set("Upgrade", r.Header.Get("Upgrade"))
	}
	if _, ok := r.Header["User-Agent"]; !ok {
		out.Header["User-Agent"] = nil // Go's client would add its own
	}
	var tee *bodyTee
	if r.Body != nil && r.Body != http.NoBody && r.ContentLength != 0 {
		tee = &bodyTee{r: r.Body, budget: budget}
		out.Body = tee
	} else {
		out.Body = nil
	}
	out.Close = false
	return out, tee
}

// bodyTee keeps the start of a request body as it is streamed upstream:
// its first requestBodyCap bytes always, the rest of its first
// requestBodyKeep as the proxy's budget allows (reqbody_budget.go).
type bodyTee struct {
	r      io.ReadCloser
	budget *bodyBudget // nil: no bound
	mu     sync.Mutex
	kept   []byte
	size   int64
	held   int64 // reserved from budget (given back by release)
	short  bool  // the budget ran out: nothing more is kept
}

// requestBodyKeep bounds the request body a recording keeps (as connect's).
const requestBodyKeep = 1 << 20

func (t *bodyTee) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if n > 0 {
		t.mu.Lock()
		t.size += int64(n)
		if room := requestBodyKeep - len(t.kept); room > 0 && !t.short {
			take := min(n, room)
			if past := len(t.kept) + take - requestBodyCap; past > 0 {
				want := int64(min(past, take))
				got := t.budget.take(want)
				t.held += got
				if got < want {
					take -= int(want - got)
					t.short = true
				}
			}
			t.kept = append(t.kept, p[:take]...)
		}
		t.mu.Unlock()
	}
	return n, err
}

// release gives the tee's reservation back once its flow keeps only its
// prefix (and no recording reads the tee any more).
func (t *bodyTee) release() {
	if t == nil {
		return
	}
	t.mu.Lock()
	t.budget.give(t.held)
	t.held = 0
	t.mu.Unlock()
}

func (t *bodyTee) Close() error { return t.r.Close() }

// sent is the body kept so far and its whole size.
func (t *bodyTee) sent() ([]byte, int64) {
	if t == nil {
		return nil, 0
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]byte(nil), t.kept...), t.size
}

// prefix is a copy of at most the first n bytes kept so far, and the
// body's whole size.
func (t *bodyTee) prefix(n int) ([]byte, int64) {
	if t == nil {
		return nil, 0
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return bytes.Clone(t.kept[:min(len(t.kept), n)]), t.size
}

// announceTrailers declares the upstream's trailers so net/http sends them.
func announceTrailers(h http.Header, tr http.Header) {
	if len(tr) == 0 {
		return
	}
	names := make([]string, 0, len(tr))
	for k := range tr {
		names = append(names, k)
	}
	h["Trailer"] = []string{strings.Join(names, ", ")}
	// Trailers go to an HTTP/1.1 app in a chunked body only: an HTTP/2
	// upstream may send a Content-Length with them (a short gRPC reply).
	h.Del("Content-Length")
}

// streamTypes are the media types of a stream, recorded and checked
// whatever their first bytes: SSE (WHATWG HTML §9.2) and newline-
// delimited JSON (the NDJSON and JSON Lines conventions).
var streamTypes = []string{"text/event-stream", "application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonlines"}

// isStream says whether a response is recorded and checked as a stream:
// a stream media type, or a body without one whose first bytes are SSE
// fields (a server that forgot its Content-Type: detection decides the
// dialect). An encoded body is a stream by its media type alone, when its
// coding can be decoded for the check (decode_stream.go).
func isStream(contentType, encoding string, first []byte) bool {
	encoded, decodable := streamCoding(encoding)
	if encoded && !decodable {
		return false
	}
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		mt, _, _ = strings.Cut(strings.ToLower(contentType), ";")
		mt = strings.TrimSpace(mt)
	}
	for _, t := range streamTypes {
		if mt == t {
			return true
		}
	}
	if encoded || mt != "" && mt != "text/plain" && mt != "application/octet-stream" {
		return false
	}
	for _, field := range []string{"data:", "event:", "id:", "retry:", ": "} {
		if len(first) >= len(field) && string(first[:len(field)]) == field {
			return true
		}
	}
	return false
}

// isNDJSON says whether a stream is newline-delimited JSON.
func isNDJSON(contentType string) bool {
	mt, _, _ := strings.Cut(strings.ToLower(contentType), ";")
	mt = strings.TrimSpace(mt)
	return mt != "text/event-stream" && mt != "text/plain" && mt != "application/octet-stream" && mt != ""
}

// upstreamError says why the upstream gave no response, for the app (a
// 502 body) and the flow list.
func upstreamError(target *url.URL, err error) string {
	return "upstream " + decode.Sanitize(target.Host) + ": " + sessions.Clean(err.Error())
}
