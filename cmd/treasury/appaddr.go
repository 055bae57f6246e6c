package main

import (
	"net"
	"net/netip"
	"strconv"
)

// appAddresses says where the table app of a server listening on addr can
// be opened: open on this computer, and phones for the devices of a table
// on the same network (the addresses of this computer's interfaces when it
// listens on all of them). phones is empty when no other device can reach
// the server, and a table of phones needs --address 0.0.0.0:PORT.
func appAddresses(addr *net.TCPAddr, interfaces []net.Addr) (open string, phones []string) {
	port := strconv.Itoa(addr.Port)
	url := func(ip netip.Addr) string { return "http://" + net.JoinHostPort(ip.String(), port) + "/" }
	ip, _ := netip.AddrFromSlice(addr.IP)
	ip = ip.Unmap()
	switch {
	case ip.IsUnspecified():
		// Go listens on [::] for 0.0.0.0 where it can, IPv4 included. A
		// table's phones are on IPv4 nearly always: its addresses are
		// named, and IPv6 ones only where there is no other.
		var v4, v6 []string
		for _, a := range interfaces {
			n, ok := a.(*net.IPNet)
			if !ok {
				continue
			}
			p, ok := netip.AddrFromSlice(n.IP)
			p = p.Unmap()
			switch {
			case !ok || p.IsLoopback():
			case p.Is4():
				v4 = append(v4, url(p))
			case ip.Is6() && !p.IsLinkLocalUnicast(): // a link-local one needs a zone browsers do not take
				v6 = append(v6, url(p))
			}
		}
		if len(v4) > 0 {
			return url(netip.MustParseAddr("127.0.0.1")), v4
		}
		return url(netip.MustParseAddr("127.0.0.1")), v6
	case ip.IsLoopback():
		return url(ip), nil
	default:
		return url(ip), []string{url(ip)}
	}
}
