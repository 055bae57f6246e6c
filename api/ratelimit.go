package api

import (
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/time/rate"

	"github.com/treasury-games/treasury/domain"
)

// RateLimit is a token bucket: Burst requests at once, refilled at Rate
// requests per second. The zero value is no limit.
type RateLimit struct {
	Rate  float64 // requests per second; 0 = no limit
	Burst int     // the most requests at once; at least 1 when Rate is set
}

func (l RateLimit) on() bool { return l.Rate > 0 }

// maxLimiters bounds the memory of one limiter set. Idle buckets are evicted
// long before, but a flood of fresh addresses or credentials must not grow
// the map without bound: when it is full, a quarter of it is dropped, the
// buckets unused for longest first, then any (those clients start again with
// a full bucket, which is the generous mistake). Dropping a quarter at once
// keeps the cost of a sweep per request constant on average.
const maxLimiters = 1 << 16

// limiters is one token bucket per key (an address or a credential),
// created on first use and evicted once idle.
type limiters struct {
	limit rate.Limit
	burst int
	idle  time.Duration // a bucket unused this long is full again: forgetting it changes nothing

	mu        sync.Mutex
	buckets   map[string]*bucket
	lastSweep time.Time
}

type bucket struct {
	lim  *rate.Limiter
	seen time.Time
}

func newLimiters(l RateLimit) *limiters {
	burst := max(l.Burst, 1)
	refill := time.Duration(float64(burst) / l.Rate * float64(time.Second))
	return &limiters{
		limit:   rate.Limit(l.Rate),
		burst:   burst,
		idle:    max(refill, time.Minute),
		buckets: map[string]*bucket{},
	}
}

// take spends a token of key's bucket. When there is none it returns how long
// until there is one.
func (ls *limiters) take(key string, now time.Time) (wait time.Duration, ok bool) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if now.Sub(ls.lastSweep) >= ls.idle || len(ls.buckets) >= maxLimiters {
		ls.sweep(now)
	}
	b := ls.buckets[key]
	if b == nil {
		b = &bucket{lim: rate.NewLimiter(ls.limit, ls.burst)}
		ls.buckets[key] = b
	}
	b.seen = now
	r := b.lim.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now) // a refused request spends nothing
		return d, false
	}
	return 0, true
}

// sweep forgets idle buckets and, when that is not enough to stay well under
// maxLimiters, the older ones and then any until a quarter is free.
func (ls *limiters) sweep(now time.Time) {
	ls.lastSweep = now
	for k, b := range ls.buckets {
		if now.Sub(b.seen) >= ls.idle {
			delete(ls.buckets, k)
		}
	}
	const room = maxLimiters * 3 / 4
	if len(ls.buckets) < maxLimiters {
		return
	}
	cut := now.Add(-ls.idle / 2)
	for k, b := range ls.buckets {
		if b.seen.Before(cut) {
			delete(ls.buckets, k)
		}
	}
	for k := range ls.buckets {
		if len(ls.buckets) <= room {
			break
		}
		delete(ls.buckets, k)
	}
}

// size is how many buckets are kept.
func (ls *limiters) size() int {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	return len(ls.buckets)
}

// exemptFromLimits are the routes that probes and scrapers call on a schedule.
var exemptFromLimits = map[string]bool{"/healthz": true, "/readyz": true, "/metrics": true}

// rateLimit refuses requests beyond the limit of their client address, and of
// their credential when they carry one, with 429 rate_limited and
// Retry-After. Either limiter may be nil (no limit).
func rateLimit(byAddress, byCredential *limiters, m *Metrics) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if exemptFromLimits[c.Path()] {
				return next(c)
			}
			now := time.Now()
			if byAddress != nil {
				if wait, ok := byAddress.take(addressKey(c.RealIP()), now); !ok {
					m.limited.WithLabelValues("address").Inc()
					return tooMany(c, wait, "this address")
				}
			}
			if cred := requestCredential(c); byCredential != nil && cred != "" {
				if wait, ok := byCredential.take(domain.HashSecret(cred), now); !ok {
					m.limited.WithLabelValues("credential").Inc()
					return tooMany(c, wait, "this credential")
				}
			}
			return next(c)
		}
	}
}

func tooMany(c echo.Context, wait time.Duration, who string) error {
	secs := int(math.Ceil(wait.Seconds()))
	secs = max(secs, 1)
	c.Response().Header().Set("Retry-After", strconv.Itoa(secs))
	return domain.Errorf(RateLimited, "too many requests from %s; retry in %d s", who, secs)
}

// addressKey is the bucket of a client address: the address itself for IPv4,
// its /64 network for IPv6 (one host usually holds a whole /64).
func addressKey(ip string) string {
	a := net.ParseIP(ip)
	if a == nil || a.To4() != nil {
		return ip
	}
	return a.Mask(net.CIDRMask(64, 128)).String() + "/64"
}

// requestCredential is the credential a request carries, in the Authorization
// header or, for event streams, the access_token query parameter.
func requestCredential(c echo.Context) string {
	h := c.Request().Header.Get(echo.HeaderAuthorization)
	if scheme, token, ok := strings.Cut(h, " "); ok && strings.EqualFold(scheme, "Bearer") {
		return strings.TrimSpace(token)
	}
	if c.Path() == eventsRoute {
		return c.QueryParam("access_token")
	}
	return ""
}

// createRoute is the path of the operation that creates games.
const createRoute = "/v1/games"

// createQuota refuses game creations beyond the bucket of their client
// address with 429 rate_limited and Retry-After. Every game is stored until
// it is deleted as idle (Options.IdleGames), so creation has a quota of its
// own, far below the request rate.
func createQuota(byAddress *limiters, m *Metrics) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if c.Request().Method != http.MethodPost || c.Path() != createRoute {
				return next(c)
			}
			if wait, ok := byAddress.take(addressKey(c.RealIP()), time.Now()); !ok {
				m.limited.WithLabelValues("create").Inc()
				secs := max(int(math.Ceil(wait.Seconds())), 1)
				c.Response().Header().Set("Retry-After", strconv.Itoa(secs))
				return domain.Errorf(RateLimited, "this address has created as many games as it may for now; retry in %d s", secs)
			}
			return next(c)
		}
	}
}
