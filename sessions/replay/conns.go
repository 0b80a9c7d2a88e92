package replay

import (
	"net"
	"net/http"
	"net/netip"
	"time"

	"framescope/sessions/frontdoor"
)

// serve's connections are bounded by the front door shared with the proxy
// (sessions/frontdoor: the cap, the write timeout); these are its names
// as serve uses them.

const (
	// DefaultMaxConns is serve's --max-conns.
	DefaultMaxConns = frontdoor.DefaultMaxConns
	// DefaultWriteTimeout is serve's --write-timeout.
	DefaultWriteTimeout = frontdoor.DefaultWriteTimeout
	// ReadHeaderTimeout bounds the time to send the request headers.
	ReadHeaderTimeout = 10 * time.Second
)

// ConnLimits tunes Limit (frontdoor.ConnLimits).
type ConnLimits = frontdoor.ConnLimits

// Listener is a listener whose connections are bounded (frontdoor.Listener).
type Listener = frontdoor.Listener

// Limit wraps ln as serve does: its log lines and 503s name serve.
func Limit(ln net.Listener, lim ConnLimits) *Listener {
	if lim.Name == "" {
		lim.Name = "framescope serve"
	}
	return frontdoor.Limit(ln, lim)
}

// NewServer is the HTTP server serve runs on a Listener: the header
// timeout and an idle keep-alive bound (the body's is the handler's,
// BodyTimeout; writes are bounded by the Listener). No WriteTimeout: it
// would bound the whole response, and a replay may last for hours.
func NewServer(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: ReadHeaderTimeout, IdleTimeout: time.Minute, MaxHeaderBytes: 64 << 10}
}

// LocalAddrs are this machine's addresses (frontdoor.LocalAddrs), for
// serve --lan.
func LocalAddrs() []netip.Addr { return frontdoor.LocalAddrs() }
