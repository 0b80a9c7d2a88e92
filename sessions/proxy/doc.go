// Package proxy is `framescope proxy`: an HTTP proxy that passes an app's
// traffic through unchanged and un-delayed while it records and checks
// every stream it carries.
//
//   - proxy.go     the Proxy: options, the handler that picks a mode
//   - forward.go   one request forwarded (reverse, absolute-form, MITM) and
//     its response copied back, flushed on every read
//   - hop.go       the hop-by-hop headers a proxy removes (RFC 9110 §7.6.1)
//   - upgrade.go   WebSocket and other 101 upgrades, passed through
//   - tunnel.go    CONNECT tunnelled blind (RFC 9110 §9.3.6)
//   - mitm.go      CONNECT decrypted with the local CA (--mitm)
//   - ca.go        the local certificate authority and its leaf cache
//   - tap.go       the queue that tees a stream into the checker without
//     ever slowing the app; spill.go the file it spills to when the
//     checker falls behind (so nothing is left out of the check)
//   - librarycap.go the library's size cap, enforced every few seconds
//   - stream.go    a stream's recording (session library) and live check;
//     decode_stream.go an encoded stream (gzip, br, deflate) checked
//     decoded; ndjson.go an NDJSON body read as the SSE the pipeline reads
//   - flow.go      Flow, the list of flows, and the batched event feed a
//     screen subscribes to; flow_detail.go a flow's request and response
//   - listen.go    the loopback-only rule for --listen and who can reach it
//   - guard.go     the DNS-rebinding guard (serve's, sessions/frontdoor) for
//     requests addressed to the proxy itself
//   - loop.go      loops: the UPSTREAM that is the listen address (refused
//     with its secrets at start-up, ParseUpstream), Via, the 508s
//   - prior.go     HTTP/2 with prior knowledge, refused with 505
//   - reqbody_budget.go the bound of the request bodies kept in flight
//   - fault*.go    --fault: serve's faults applied to a stream on its way
//     to the app, frame by frame (the syntax, the plan and the delivery
//     faults are sessions/faults'; fault_split.go the frames,
//     fault_stream.go the frame faults, fault_hook.go what forward.go
//     calls)
//
// The proxy never imports a UI: a screen (ui/) subscribes to the flows
// (Proxy.Subscribe) and to the checked items of a stream (Options.OnStream).
package proxy
