//go:build !linux

package api

import "net"

// watchClose watches nothing here: a detached stream's client's leaving is
// noticed at the next write, a heartbeat at most.
func watchClose(net.Conn, func()) (unwatch func()) { return func() {} }
