package api

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/treasury-games/treasury/domain"
)

// Metrics are the server's Prometheus metrics, in a registry of their own (no
// global state: two servers in one process, or tests in parallel, never
// share a counter). GET /metrics serves them.
type Metrics struct {
	reg *prometheus.Registry

	requests       *prometheus.CounterVec
	latency        *prometheus.HistogramVec
	moves          *prometheus.CounterVec
	commits        prometheus.Histogram
	groupSize      prometheus.Histogram
	streams        prometheus.Gauge
	streamsRefused *prometheus.CounterVec
	resyncs        prometheus.Counter
	limited        *prometheus.CounterVec

	conns           prometheus.Gauge
	connsRefused    *prometheus.CounterVec
	connsClosedIdle prometheus.Counter

	phases atomic.Pointer[func(context.Context) ([]domain.GameCount, error)]

	countMu   sync.Mutex // one count at a time; the scrapes meanwhile wait for it
	counted   []domain.GameCount
	countedAt time.Time
}

// gamesCountFresh is how long a count of the games by phase answers the
// scrapes that follow it. /metrics is open to every client and exempt from
// the request rates, and a count reads the row of every unfinished game
// (about 0.1 s for 100,000 of them on SQLite): however often it is asked
// for, the store counts at most once in this time.
const gamesCountFresh = 5 * time.Second

// NewMetrics returns a fresh set of metrics, the Go runtime's and the
// process's included.
func NewMetrics() *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "treasury_http_requests_total",
		Help: "HTTP requests answered, by route pattern, method and status.",
	}, []string{"route", "method", "status"})
	m.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "treasury_http_request_duration_seconds",
		Help:    "How long HTTP requests took to answer, by route pattern, method and status (an event stream: how long it stayed open).",
		Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
	}, []string{"route", "method", "status"})
	m.moves = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "treasury_moves_total",
		Help: "Moves submitted, by ruleset (empty for a game this server does not hold) and result (accepted, replayed, rejected); rejected ones by error code.",
	}, []string{"ruleset", "result", "code"})
	m.commits = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name:    "treasury_store_commit_duration_seconds",
		Help:    "How long each write transaction of the game store took, from BEGIN to the end of COMMIT (fsync included).",
		Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1},
	})
	m.groupSize = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name:    "treasury_store_commit_writes",
		Help:    "How many writes (moves, new games) each write transaction of the game store grouped.",
		Buckets: []float64{1, 2, 4, 8, 16, 32, 64, 128},
	})
	m.streams = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "treasury_event_streams",
		Help: "Event streams (GET /v1/games/{id}/events) open now.",
	})
	m.streamsRefused = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "treasury_event_streams_refused_total",
		Help: "Event streams refused because a cap was reached, by cap (total, address, credential).",
	}, []string{"limit"})
	m.resyncs = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "treasury_event_stream_resyncs_total",
		Help: "Times an event stream fell too far behind the live updates and caught up from the store.",
	})
	m.limited = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "treasury_rate_limited_total",
		Help: "Requests refused with 429, by the limit they exceeded (address, credential, create, join: wrong join codes).",
	}, []string{"limit"})
	m.reg.MustRegister(m.requests, m.latency, m.moves, m.commits, m.groupSize, m.streams, m.streamsRefused, m.resyncs, m.limited,
		gamesCollector{m},
	)
	m.reg.MustRegister(newConnMetrics(m)...)
	m.reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	return m
}

// Registry is where the metrics are registered; add your own to it, or gather it.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// ObserveCommit records one committed write transaction of the store; pass it
// to sqlite.WithCommitObserver.
func (m *Metrics) ObserveCommit(d time.Duration, writes int) {
	m.commits.Observe(d.Seconds())
	m.groupSize.Observe(float64(writes))
}

// countGamesWith sets how the treasury_games gauge is counted at scrape time.
func (m *Metrics) countGamesWith(f func(context.Context) ([]domain.GameCount, error)) {
	if f != nil {
		m.phases.Store(&f)
	}
}

var gamesDesc = prometheus.NewDesc("treasury_games", "Games stored, by ruleset and phase (counted in the store at scrape time).", []string{"ruleset", "phase"}, nil)

// gamesCollector counts the games by phase when Prometheus scrapes: the store
// is the only place that knows, and a scrape every few seconds costs one
// index scan.
type gamesCollector struct{ m *Metrics }

func (c gamesCollector) Describe(ch chan<- *prometheus.Desc) { ch <- gamesDesc }

func (c gamesCollector) Collect(ch chan<- prometheus.Metric) {
	f := c.m.phases.Load()
	if f == nil {
		return
	}
	counts, err := c.m.countGames(*f)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(gamesDesc, err)
		return
	}
	for _, c := range counts {
		ch <- prometheus.MustNewConstMetric(gamesDesc, prometheus.GaugeValue, float64(c.Games), c.Ruleset, c.Phase)
	}
}

// countGames returns the games by phase as f counted them at most
// gamesCountFresh ago.
func (m *Metrics) countGames(f func(context.Context) ([]domain.GameCount, error)) ([]domain.GameCount, error) {
	m.countMu.Lock()
	defer m.countMu.Unlock()
	if m.counted != nil && time.Since(m.countedAt) < gamesCountFresh {
		return m.counted, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	counts, err := f(ctx)
	if err != nil {
		return nil, err
	}
	if counts == nil {
		counts = []domain.GameCount{}
	}
	m.counted, m.countedAt = counts, time.Now()
	return counts, nil
}

// handler serves GET /metrics.
func (m *Metrics) handler() echo.HandlerFunc {
	h := promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError})
	return echo.WrapHandler(h)
}

// The route of a request Echo matched to no route, so that stray paths do
// not grow the metrics without bound.
const unmatchedRoute = "unmatched"

// movesRoute is the pattern of the route that submits moves.
const movesRoute = "/v1/games/:id/moves"

// observe counts a finished request.
func (m *Metrics) observe(c echo.Context, route string, status int, d time.Duration) {
	req := c.Request()
	code := strconv.Itoa(status)
	m.requests.WithLabelValues(route, req.Method, code).Inc()
	m.latency.WithLabelValues(route, req.Method, code).Observe(d.Seconds())
	if route != movesRoute || req.Method != http.MethodPost {
		return
	}
	var ruleset string
	if s := scopeIn(req.Context()); s != nil {
		ruleset = s.ruleset
	}
	switch {
	case status < 300 && c.Response().Header().Get("Idempotency-Replayed") == "true":
		m.moves.WithLabelValues(ruleset, "replayed", "").Inc()
	case status < 300:
		m.moves.WithLabelValues(ruleset, "accepted", "").Inc()
	default:
		problem, _ := c.Get(problemCodeKey).(string)
		m.moves.WithLabelValues(ruleset, "rejected", problem).Inc()
	}
}

// noteRuleset records the ruleset of the game a move was for.
func noteRuleset(ctx context.Context, ruleset string) {
	if s := scopeIn(ctx); s != nil {
		s.ruleset = ruleset
	}
}
