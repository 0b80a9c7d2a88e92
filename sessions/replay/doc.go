// Package replay is framescope's SSE server side: the byte-exact replay of
// a capture (with injected faults: dropped, duplicated and garbled frames,
// stalls, a cut connection), the relay of built-in scenarios that the demo
// and the tests run against, and their shared front door (CORS, security
// headers, body deadlines; the DNS-rebinding and origin guard and the
// connection cap are sessions/frontdoor's, shared with the proxy) and the
// checks that keep a listener on loopback unless the network was asked for.
package replay
