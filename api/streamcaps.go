package api

import (
	"strconv"
	"sync"

	"github.com/labstack/echo/v4"

	"github.com/treasury-games/treasury/domain"
)

// Default caps on open event streams (Options.MaxStreams and the per-address
// and per-credential ones). Each stream holds a connection, hence a file
// descriptor, for as long as the client stays; without a cap one address
// opened 19,987 of them and the server could no longer accept connections.
// A table needs a stream per seat and one for the host's screen; the total
// stays well below the open-file limit the server raises itself to.
const (
	DefaultMaxStreams           = 4096
	DefaultStreamsPerAddress    = 64
	DefaultStreamsPerCredential = 8
)

// streamRetryAfter is the Retry-After, in seconds, of a refused stream:
// streams end when their clients leave, not on a schedule.
const streamRetryAfter = 10

// streamCaps counts the open event streams in total, by client address and
// by credential, and refuses one beyond any cap. A cap below 0 is no cap.
type streamCaps struct {
	total, perAddress, perCredential int
	m                                *Metrics

	mu     sync.Mutex
	open   int
	byAddr map[string]int
	byCred map[string]int
}

func newStreamCaps(total, perAddress, perCredential int, m *Metrics) *streamCaps {
	return &streamCaps{total: total, perAddress: perAddress, perCredential: perCredential, m: m,
		byAddr: map[string]int{}, byCred: map[string]int{}}
}

// acquire counts a stream of address addr and credential cred ("" for none)
// and returns the function that uncounts it, or the error to answer with.
func (sc *streamCaps) acquire(c echo.Context, addr, cred string) (release func(), err error) {
	credKey := ""
	if cred != "" {
		credKey = domain.HashSecret(cred)
	}
	sc.mu.Lock()
	defer sc.mu.Unlock()
	switch {
	case sc.total >= 0 && sc.open >= sc.total:
		sc.m.streamsRefused.WithLabelValues("total").Inc()
		c.Response().Header().Set("Retry-After", strconv.Itoa(streamRetryAfter))
		return nil, domain.Fail(domain.Unavailable, "api.streams.server", "count", sc.open, "seconds", streamRetryAfter)
	case sc.perAddress >= 0 && sc.byAddr[addr] >= sc.perAddress:
		sc.m.streamsRefused.WithLabelValues("address").Inc()
		c.Response().Header().Set("Retry-After", strconv.Itoa(streamRetryAfter))
		return nil, domain.Fail(RateLimited, "api.streams.address", "count", sc.byAddr[addr], "seconds", streamRetryAfter)
	case credKey != "" && sc.perCredential >= 0 && sc.byCred[credKey] >= sc.perCredential:
		sc.m.streamsRefused.WithLabelValues("credential").Inc()
		c.Response().Header().Set("Retry-After", strconv.Itoa(streamRetryAfter))
		return nil, domain.Fail(RateLimited, "api.streams.credential", "count", sc.byCred[credKey], "seconds", streamRetryAfter)
	}
	sc.open++
	sc.byAddr[addr]++
	if credKey != "" {
		sc.byCred[credKey]++
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			sc.mu.Lock()
			defer sc.mu.Unlock()
			sc.open--
			if sc.byAddr[addr]--; sc.byAddr[addr] <= 0 {
				delete(sc.byAddr, addr)
			}
			if credKey != "" {
				if sc.byCred[credKey]--; sc.byCred[credKey] <= 0 {
					delete(sc.byCred, credKey)
				}
			}
		})
	}, nil
}
