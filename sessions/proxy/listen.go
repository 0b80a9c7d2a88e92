package proxy

import (
	"fmt"
	"net"
	"net/netip"
	"strings"

	"framescope/sessions"
)

// CheckListen refuses a listen address other than loopback unless
// allowRemote: a proxy reachable from the network relays anyone's
// traffic and shows them what it records.
func CheckListen(addr string, allowRemote bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--listen %s: want HOST:PORT (e.g. 127.0.0.1:7071)", sessions.CleanShort(addr, 80))
	}
	if allowRemote {
		return nil
	}
	h := strings.TrimSuffix(host, ".")
	if strings.EqualFold(h, "localhost") {
		return nil
	}
	if ip, err := netip.ParseAddr(h); err == nil && ip.Unmap().IsLoopback() {
		return nil
	}
	return fmt.Errorf("--listen %s is reachable from other machines, which could then send traffic through this proxy and read what it records: add --allow-remote if that is what you want (or use 127.0.0.1:PORT)", sessions.Clean(addr))
}

// Reach says who can reach a listener: "only this machine" or a warning
// naming the exposure, for the startup message.
func Reach(ln net.Addr) string {
	ap, err := netip.ParseAddrPort(ln.String())
	if err != nil || ap.Addr().Unmap().IsLoopback() {
		return "only this machine can use it"
	}
	if ap.Addr().IsUnspecified() {
		return "ANY device that can reach this machine on port " + fmt.Sprint(ap.Port()) + " can use it (--allow-remote)"
	}
	return "devices that can reach " + ap.Addr().String() + " can use it (--allow-remote)"
}

// Remote says whether a listener is reachable from other machines.
func Remote(ln net.Addr) bool {
	ap, err := netip.ParseAddrPort(ln.String())
	return err == nil && !ap.Addr().Unmap().IsLoopback()
}
