// Package replay is framescope's SSE server side: the byte-exact replay of
// a capture (with injected faults: dropped, duplicated and garbled frames,
// stalls, a cut connection), the relay of built-in scenarios that the demo
// and the tests run against, and their shared front door (the DNS-rebinding
// and origin guard, CORS, security headers, body deadlines) and the checks
// that keep a listener on loopback unless the network was asked for.
package replay
