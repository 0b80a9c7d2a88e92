package replay

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"time"

	"framescope/sessions"
)

// serve listens on loopback unless told otherwise: the replay answers
// anyone who can reach the port, so listening on the network is an
// explicit choice (serve --lan), and then serve says where a phone finds it.

// CheckBind refuses a listen address that is reachable from other machines
// (every interface, a LAN address, a name that resolves to one) unless lan
// is set. It resolves names but binds nothing.
func CheckBind(addr string, lan bool) error {
	if lan {
		return nil
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--addr %s: want HOST:PORT (e.g. 127.0.0.1:7070)", sessions.CleanShort(strconv.Quote(addr), 80))
	}
	exposed := func(what string) error {
		return fmt.Errorf("--addr %s listens on %s, not just this machine: add --lan to serve devices on the network (or use 127.0.0.1:PORT)", sessions.Clean(addr), what)
	}
	h := strings.TrimSuffix(host, ".")
	if h == "" {
		return exposed("every network interface")
	}
	if strings.EqualFold(h, "localhost") || strings.HasSuffix(strings.ToLower(h), ".localhost") {
		return nil
	}
	if ip, err := netip.ParseAddr(h); err == nil {
		switch {
		case ip.IsUnspecified():
			return exposed("every network interface")
		case !ip.Unmap().IsLoopback():
			return exposed(ip.String())
		}
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ips, err := net.DefaultResolver.LookupNetIP(ctx, "ip", h)
	if err != nil {
		return fmt.Errorf("--addr %s: %s", sessions.Clean(addr), sessions.Clean(err.Error()))
	}
	for _, ip := range ips {
		if !ip.Unmap().IsLoopback() {
			return exposed(fmt.Sprintf("%s (%s)", sessions.Clean(h), ip))
		}
	}
	return nil
}

// CheckListener is CheckBind on the address actually bound (a name may
// resolve differently the second time).
func CheckListener(ln net.Addr, lan bool) error {
	if lan {
		return nil
	}
	if ap, err := netip.ParseAddrPort(ln.String()); err == nil && !ap.Addr().Unmap().IsLoopback() {
		return fmt.Errorf("listening on %s, not just this machine: add --lan to serve devices on the network (or use 127.0.0.1:PORT)", ap)
	}
	return nil
}

// LANURLs are the URLs a device on the network can use for a server
// listening on bound: the bound address itself, or, for every interface
// (0.0.0.0, ::), each of local's addresses — IPv4 private ones first.
func LANURLs(bound net.Addr, path string, local []netip.Addr) []string {
	ap, err := netip.ParseAddrPort(bound.String())
	if err != nil {
		return nil
	}
	url := func(ip netip.Addr) string {
		return "http://" + netip.AddrPortFrom(ip, ap.Port()).String() + path
	}
	if ip := ap.Addr().Unmap(); !ip.IsUnspecified() {
		if ip.IsLoopback() {
			return nil
		}
		return []string{url(ip)}
	}
	var ips []netip.Addr
	seen := map[netip.Addr]bool{}
	for _, ip := range local {
		ip = ip.Unmap()
		if ip.IsLoopback() || ip.IsUnspecified() || ip.IsLinkLocalUnicast() || ip.IsMulticast() || seen[ip] {
			continue
		}
		seen[ip] = true
		if ap.Addr().Is4() && !ip.Is4() {
			continue // a 0.0.0.0 listener does not take IPv6
		}
		ips = append(ips, ip)
	}
	rank := func(ip netip.Addr) int {
		switch {
		case ip.Is4() && ip.IsPrivate():
			return 0
		case ip.Is4():
			return 1
		}
		return 2
	}
	slices.SortStableFunc(ips, func(a, b netip.Addr) int { return rank(a) - rank(b) })
	out := make([]string, len(ips))
	for i, ip := range ips {
		out[i] = url(ip)
	}
	return out
}
