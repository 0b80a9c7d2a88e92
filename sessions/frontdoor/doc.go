// Package frontdoor is what a framescope server that listens on this
// machine checks before it answers anyone, shared by `serve` (the replay
// and the scenario relay, sessions/replay) and `proxy` (sessions/proxy):
//
//   - allow.go    the DNS-rebinding defence: which Host and Origin headers
//     are answered (loopback, this machine's addresses, --allow-origin)
//   - loopback.go what names this machine: localhost, 127.0.0.0/8, ::1
//   - addrs.go    this machine's own addresses (serve --lan, proxy
//     --allow-remote)
//   - conns.go    the connection cap (--max-conns, 503 past it) and the
//     write timeout for a client that does not read
package frontdoor
