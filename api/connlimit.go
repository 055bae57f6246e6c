package api

import (
	"fmt"
	"net"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/i18n"
)

// ConnLimits bound the connections a server holds open. Every connection is
// a file descriptor, whatever it carries (an event stream, a request, nothing
// at all after a request): without a bound, one address holding idle
// keep-alive connections takes every descriptor the process may open, and
// then no one else, not even a health check, gets in.
type ConnLimits struct {
	// PerAddress is the most connections one client address (IPv6: its
	// /64) may hold open; a new one beyond it is answered 429 and closed at
	// once. 0: no cap.
	PerAddress int
	// Total is the most connections open at once, in all: a new one beyond
	// it is answered 503 and closed at once. Set it below the open-file limit.
	Total int
	// Reserve is the last part of Total, kept for addresses holding fewer
	// than ReserveEach connections: players who are not flooding, health
	// checks, metrics scrapers still get in when a few addresses hold the
	// rest. 0: Total/16, at least 16.
	Reserve int
	// ReserveEach: see Reserve. 0: 8.
	ReserveEach int
}

// DefaultConnectionsPerAddress is the default ConnLimits.PerAddress: far above
// what a browser (6 per server) or a bot fleet of a few hundred seats opens.
const DefaultConnectionsPerAddress = 1024

// ConnLimiter counts a listener's connections by client address and in all,
// and closes those beyond its limits as they arrive. Above three quarters of
// its Total, a new connection first closes the connections that have been
// idle longest (between requests, or accepted and not yet sending one), down
// to five eighths: the idle timeout shrinks to whatever frees the room. Use
// Listener to wrap the listener and ConnState as the http.Server's ConnState.
type ConnLimiter struct {
	limits  ConnLimits
	metrics *Metrics
	now     func() time.Time

	mu     sync.Mutex
	total  int
	byAddr map[string]int
	idle   map[*limitedConn]struct{}
}

// NewConnLimiter returns a limiter of l; m (nil: none) counts what it does.
func NewConnLimiter(l ConnLimits, m *Metrics) *ConnLimiter {
	if l.Total > 0 {
		if l.Reserve <= 0 {
			l.Reserve = max(l.Total/16, 16)
		}
		l.Reserve = min(l.Reserve, l.Total/2)
	}
	if l.ReserveEach <= 0 {
		l.ReserveEach = 8
	}
	return &ConnLimiter{limits: l, metrics: m, now: time.Now, byAddr: map[string]int{}, idle: map[*limitedConn]struct{}{}}
}

// SetMetrics makes m count what the limiter does; call it before Listener.
func (cl *ConnLimiter) SetMetrics(m *Metrics) { cl.metrics = m }

// Limits are the limits in force, defaults filled in.
func (cl *ConnLimiter) Limits() ConnLimits { return cl.limits }

// Listener wraps ln: its Accept returns only connections within the limits.
func (cl *ConnLimiter) Listener(ln net.Listener) net.Listener {
	return &limitedListener{Listener: ln, cl: cl}
}

type limitedListener struct {
	net.Listener
	cl *ConnLimiter
}

// limitedConn is one counted connection. Its fields after key are guarded by
// the limiter's mutex.
type limitedConn struct {
	net.Conn
	cl       *ConnLimiter
	key      string
	released bool      // no longer counted
	since    time.Time // when it became idle
}

// NetConn is the connection counted, for a detached event stream's watch
// of its end (see watchClose).
func (c *limitedConn) NetConn() net.Conn { return c.Conn }

// Write passes on what the server writes, but for the plain-text answers
// net/http writes itself to a request it could not read, which it turns
// into problem documents (netHTTPProblem): every error a client meets is
// one.
func (c *limitedConn) Write(p []byte) (int, error) {
	if q := netHTTPProblem(p); q != nil {
		if _, err := c.Conn.Write(q); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return c.Conn.Write(p)
}

func (c *limitedConn) Close() error {
	c.cl.release(c)
	return c.Conn.Close()
}

// Refusals written to a connection closed as it arrives (the client may see
// only the connection closing, if it sent its request before reading).
var (
	refusedByAddress = refusal(http.StatusTooManyRequests, RateLimited, i18n.M("api.connections.address"))
	refusedInAll     = refusal(http.StatusServiceUnavailable, domain.Unavailable, i18n.M("api.connections.all"))
)

// refusal is a whole HTTP/1.1 answer with a problem.
func refusal(status int, code domain.Code, detail i18n.Message) []byte {
	body := problemJSON(i18n.English, code, detail)
	return fmt.Appendf(nil, "HTTP/1.1 %d %s\r\nContent-Type: application/problem+json\r\nRetry-After: 10\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s",
		status, http.StatusText(status), len(body), body)
}

func (l *limitedListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		lc, refusal, victims := l.cl.admit(c)
		for _, v := range victims {
			_ = v.Conn.Close()
		}
		if lc != nil {
			return lc, nil
		}
		// Nothing blocks: a fresh socket's send buffer takes a few hundred bytes.
		_ = c.SetWriteDeadline(l.cl.now().Add(100 * time.Millisecond))
		_, _ = c.Write(refusal)
		_ = c.Close()
	}
}

// admit counts c, or returns the refusal to write to it. victims are idle
// connections to close (no longer counted).
func (cl *ConnLimiter) admit(c net.Conn) (lc *limitedConn, refusal []byte, victims []*limitedConn) {
	key := "?"
	if host, _, err := net.SplitHostPort(c.RemoteAddr().String()); err == nil {
		key = addressKey(host)
	}
	l := cl.limits
	cl.mu.Lock()
	defer cl.mu.Unlock()
	n := cl.byAddr[key]
	if l.PerAddress > 0 && n >= l.PerAddress {
		cl.refused("address")
		return nil, refusedByAddress, nil
	}
	if l.Total > 0 && cl.total >= l.Total*3/4 {
		victims = cl.closeIdle(l.Total * 5 / 8)
		n = cl.byAddr[key] // the address's own idle ones may have gone
	}
	if l.Total > 0 && (cl.total >= l.Total || (cl.total >= l.Total-l.Reserve && n >= l.ReserveEach)) {
		cl.refused("total")
		return nil, refusedInAll, victims
	}
	cl.total++
	cl.byAddr[key] = n + 1
	cl.gauge()
	return &limitedConn{Conn: c, cl: cl, key: key}, nil, victims
}

// closeIdle stops counting the connections idle longest until total is
// down to target, and returns them to close.
func (cl *ConnLimiter) closeIdle(target int) []*limitedConn {
	if len(cl.idle) == 0 {
		return nil
	}
	idle := make([]*limitedConn, 0, len(cl.idle))
	for c := range cl.idle {
		idle = append(idle, c)
	}
	slices.SortFunc(idle, func(a, b *limitedConn) int { return a.since.Compare(b.since) })
	var out []*limitedConn
	for _, c := range idle {
		if cl.total <= target {
			break
		}
		cl.releaseLocked(c)
		out = append(out, c)
	}
	if cl.metrics != nil {
		cl.metrics.connsClosedIdle.Add(float64(len(out)))
	}
	return out
}

// ConnState follows each connection's state: set it as the http.Server's
// ConnState.
func (cl *ConnLimiter) ConnState(c net.Conn, s http.ConnState) {
	lc, ok := c.(*limitedConn)
	if !ok {
		return
	}
	cl.mu.Lock()
	defer cl.mu.Unlock()
	if lc.released {
		return
	}
	switch s {
	case http.StateNew, http.StateIdle:
		lc.since = cl.now()
		cl.idle[lc] = struct{}{}
	default:
		delete(cl.idle, lc)
	}
}

func (cl *ConnLimiter) release(c *limitedConn) {
	cl.mu.Lock()
	cl.releaseLocked(c)
	cl.mu.Unlock()
}

func (cl *ConnLimiter) releaseLocked(c *limitedConn) {
	if c.released {
		return
	}
	c.released = true
	delete(cl.idle, c)
	cl.total--
	if cl.byAddr[c.key]--; cl.byAddr[c.key] <= 0 {
		delete(cl.byAddr, c.key)
	}
	cl.gauge()
}

// Open is the number of connections counted now.
func (cl *ConnLimiter) Open() int {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	return cl.total
}

func (cl *ConnLimiter) gauge() {
	if cl.metrics != nil {
		cl.metrics.conns.Set(float64(cl.total))
	}
}

func (cl *ConnLimiter) refused(limit string) {
	if cl.metrics != nil {
		cl.metrics.connsRefused.WithLabelValues(limit).Inc()
	}
}

func newConnMetrics(m *Metrics) []prometheus.Collector {
	m.conns = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "treasury_connections",
		Help: "Client connections open now (each holds a file descriptor).",
	})
	m.connsRefused = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "treasury_connections_refused_total",
		Help: "Connections closed as they arrived because a cap was reached, by cap (address, total).",
	}, []string{"limit"})
	m.connsClosedIdle = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "treasury_connections_closed_idle_total",
		Help: "Idle connections closed early to make room, the server being near its cap on connections.",
	})
	return []prometheus.Collector{m.conns, m.connsRefused, m.connsClosedIdle}
}
