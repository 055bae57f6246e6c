package api

import (
	"context"
	"errors"
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

// The default limits let a bot play a whole 4-seat game as fast as the server
// answers without being throttled: a game is about 150 moves, under 300
// requests from one address with a legal-moves read before every move, and
// under 80 per seat credential (TestBotNotThrottled plays one). A person at a
// table makes less than one request a second. Bot fleets that play many games
// from one address raise the address limit (or turn it off) and keep the
// credential limit, which bounds what one runaway client can do to one game.
var (
	DefaultAddressLimit    = RateLimit{Rate: 120, Burst: 480}
	DefaultCredentialLimit = RateLimit{Rate: 30, Burst: 120}
)

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
// until there is one. left is what remains of the bucket after the request.
func (ls *limiters) take(key string, now time.Time) (wait time.Duration, left float64, ok bool) {
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
		return d, max(b.lim.TokensAt(now), 0), false
	}
	return 0, max(b.lim.TokensAt(now), 0), true
}

// peek reports whether key's bucket holds a token, without spending it, and
// when not, how long until it does.
func (ls *limiters) peek(key string, now time.Time) (wait time.Duration, ok bool) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	b := ls.buckets[key]
	if b == nil {
		return 0, true
	}
	if t := b.lim.TokensAt(now); t < 1 {
		return time.Duration((1 - t) / float64(ls.limit) * float64(time.Second)), false
	}
	return 0, true
}

// policy is the limit as an item of the RateLimit-Policy header
// (draft-ietf-httpapi-ratelimit-headers): quota q requests per window w
// seconds, the time an empty bucket takes to fill.
func (ls *limiters) policy(name string) string {
	w := int(math.Ceil(float64(ls.burst) / float64(ls.limit)))
	return `"` + name + `";q=` + strconv.Itoa(ls.burst) + ";w=" + strconv.Itoa(max(w, 1))
}

// state is the bucket as an item of the RateLimit header: r requests left
// now, t seconds until the bucket is full again.
func (ls *limiters) state(name string, left float64) string {
	t := int(math.Ceil((float64(ls.burst) - left) / float64(ls.limit)))
	return `"` + name + `";r=` + strconv.Itoa(int(left)) + ";t=" + strconv.Itoa(max(t, 0))
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
// Retry-After. Either limiter may be nil (no limit). Every answer says where
// the client stands in RateLimit-Policy and RateLimit headers
// (draft-ietf-httpapi-ratelimit-headers), so that a client can pace itself
// before it is refused.
func rateLimit(byAddress, byCredential *limiters, m *Metrics) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if exemptFromLimits[c.Path()] {
				return next(c)
			}
			now := time.Now()
			var policies, states []string
			h := c.Response().Header()
			report := func() {
				h.Set("RateLimit-Policy", strings.Join(policies, ", "))
				h.Set("RateLimit", strings.Join(states, ", "))
			}
			if byAddress != nil {
				wait, left, ok := byAddress.take(addressKey(c.RealIP()), now)
				policies, states = append(policies, byAddress.policy("address")), append(states, byAddress.state("address", left))
				if !ok {
					report()
					m.limited.WithLabelValues("address").Inc()
					return tooMany(c, wait, "api.rate.address")
				}
			}
			if cred := requestCredential(c); byCredential != nil && cred != "" {
				wait, left, ok := byCredential.take(domain.HashSecret(cred), now)
				policies, states = append(policies, byCredential.policy("credential")), append(states, byCredential.state("credential", left))
				if !ok {
					report()
					m.limited.WithLabelValues("credential").Inc()
					return tooMany(c, wait, "api.rate.credential")
				}
			}
			report()
			return next(c)
		}
	}
}

// retryAfterKey is where tooMany leaves the exact wait, in milliseconds, for
// the problem's retry_after_ms.
const retryAfterKey = "treasury.retry_after_ms"

// tooMany refuses a request. Retry-After counts whole seconds (RFC 9110), so
// a wait of 120 ms is rounded up to 1 s; the problem's retry_after_ms and
// detail give the exact wait for clients that can use it.
func tooMany(c echo.Context, wait time.Duration, key string) error {
	ms := max(int64(math.Ceil(float64(wait)/float64(time.Millisecond))), 1)
	secs := max(int(math.Ceil(wait.Seconds())), 1)
	c.Response().Header().Set("Retry-After", strconv.Itoa(secs))
	c.Set(retryAfterKey, ms)
	return domain.Fail(RateLimited, key, "ms", int(ms))
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
			wait, _, ok := byAddress.take(addressKey(c.RealIP()), time.Now())
			if ok {
				return next(c)
			}
			refuse := func() error {
				m.limited.WithLabelValues("create").Inc()
				secs := max(int(math.Ceil(wait.Seconds())), 1)
				c.Response().Header().Set("Retry-After", strconv.Itoa(secs))
				c.Set(retryAfterKey, max(wait.Milliseconds(), 1))
				return domain.Fail(RateLimited, "api.rate.create", "seconds", secs)
			}
			if c.Request().Header.Get("Idempotency-Key") == "" {
				return refuse()
			}
			// A retry of a creation that was made (its answer lost) creates
			// nothing: it gets its answer, whatever the quota. Anything else
			// is refused.
			r := c.Request()
			c.SetRequest(r.WithContext(context.WithValue(r.Context(), replayOnlyKey{}, true)))
			if err := next(c); !errors.Is(err, errNotCreated) {
				return err
			}
			return refuse()
		}
	}
}

// replayOnlyKey marks, in a creation's context, a request over its address's
// quota, which may only be answered as a retry (CreateGame).
type replayOnlyKey struct{}

// errNotCreated is CreateGame's answer to a request marked replayOnlyKey
// that is no retry of a creation made before: createQuota refuses it.
var errNotCreated = errors.New("over the creation quota and no retry")
