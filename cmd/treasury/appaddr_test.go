package main

import (
	"net"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAppAddresses(t *testing.T) {
	ifaces := []net.Addr{
		&net.IPNet{IP: net.ParseIP("127.0.0.1"), Mask: net.CIDRMask(8, 32)},
		&net.IPNet{IP: net.ParseIP("192.168.1.20"), Mask: net.CIDRMask(24, 32)},
		&net.IPNet{IP: net.ParseIP("::1"), Mask: net.CIDRMask(128, 128)},
		&net.IPNet{IP: net.ParseIP("fe80::1"), Mask: net.CIDRMask(64, 128)},
		&net.IPNet{IP: net.ParseIP("2001:db8::5"), Mask: net.CIDRMask(64, 128)},
	}
	for _, c := range []struct {
		name   string
		listen string
		open   string
		phones []string
	}{
		{"loopback: this computer only", "127.0.0.1:8080", "http://127.0.0.1:8080/", nil},
		{"every IPv4 interface: the network's addresses", "0.0.0.0:8080", "http://127.0.0.1:8080/", []string{"http://192.168.1.20:8080/"}},
		{"every interface: IPv4 ones first", "[::]:9000", "http://127.0.0.1:9000/", []string{"http://192.168.1.20:9000/"}},
		{"one address", "192.168.1.20:8080", "http://192.168.1.20:8080/", []string{"http://192.168.1.20:8080/"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			addr, err := net.ResolveTCPAddr("tcp", c.listen)
			if err != nil {
				t.Fatal(err)
			}
			open, phones := appAddresses(addr, ifaces)
			assert.Equal(t, c.open, open)
			assert.Equal(t, c.phones, phones)
		})
	}
	// A network of IPv6 only: its global addresses, never a link-local one.
	addr, _ := net.ResolveTCPAddr("tcp", "[::]:8080")
	_, phones := appAddresses(addr, []net.Addr{ifaces[2], ifaces[3], ifaces[4]})
	assert.Equal(t, []string{"http://[2001:db8::5]:8080/"}, phones)
}
