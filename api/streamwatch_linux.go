package api

import (
	"net"
	"sync"
	"syscall"
)

// closeWatch hears of detached event streams' clients closing their
// connections, all of them in one goroutine: the connections' descriptors
// sit in an epoll set of its own, waiting for the peer's end (EPOLLRDHUP),
// so that a stream whose client left ends at once and frees its place
// under the caps, without a goroutine per stream blocked in a read.
type closeWatch struct {
	once sync.Once
	fd   int // the epoll set; -1 when it could not be made
	mu   sync.Mutex
	next uint64
	by   map[uint64]func()
}

var watch closeWatch

// watchClose calls gone once when the peer of conn ends the connection (or
// it fails); the function it returns ends the watch, before conn is closed.
// Where conn is not a socket, nothing watches it: its client's leaving is
// noticed at the next write, a heartbeat at most.
func watchClose(conn net.Conn, gone func()) (unwatch func()) {
	raw := rawConn(conn)
	watch.once.Do(watch.start)
	if raw == nil || watch.fd < 0 {
		return func() {}
	}
	watch.mu.Lock()
	watch.next++
	id := watch.next
	watch.by[id] = gone
	watch.mu.Unlock()
	ev := syscall.EpollEvent{Events: syscall.EPOLLRDHUP | syscall.EPOLLONESHOT, Fd: int32(id), Pad: int32(id >> 32)}
	var err error
	if cerr := raw.Control(func(fd uintptr) { err = syscall.EpollCtl(watch.fd, syscall.EPOLL_CTL_ADD, int(fd), &ev) }); cerr != nil {
		err = cerr
	}
	forget := func() {
		watch.mu.Lock()
		delete(watch.by, id)
		watch.mu.Unlock()
	}
	if err != nil {
		forget()
		return func() {}
	}
	return func() {
		forget()
		_ = raw.Control(func(fd uintptr) { _ = syscall.EpollCtl(watch.fd, syscall.EPOLL_CTL_DEL, int(fd), nil) })
	}
}

// rawConn is the socket under conn, unwrapped (see limitedConn.NetConn), or
// nil.
func rawConn(conn net.Conn) syscall.RawConn {
	for {
		u, ok := conn.(interface{ NetConn() net.Conn })
		if !ok {
			break
		}
		conn = u.NetConn()
	}
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return nil
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	return raw
}

func (w *closeWatch) start() {
	w.by = map[uint64]func(){}
	fd, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		w.fd = -1
		return
	}
	w.fd = fd
	go w.loop()
}

// loop waits for connections' ends for as long as the process runs.
func (w *closeWatch) loop() {
	events := make([]syscall.EpollEvent, 64)
	for {
		n, err := syscall.EpollWait(w.fd, events, -1)
		if err != nil {
			continue // EINTR
		}
		for _, ev := range events[:n] {
			id := uint64(uint32(ev.Fd)) | uint64(uint32(ev.Pad))<<32
			w.mu.Lock()
			gone := w.by[id]
			delete(w.by, id)
			w.mu.Unlock()
			if gone != nil {
				gone()
			}
		}
	}
}
