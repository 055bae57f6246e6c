package api

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	treasury "github.com/treasury-games/treasury"
	"github.com/treasury-games/treasury/api/oapi"
	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/groups"
	"github.com/treasury-games/treasury/domain/service"
)

// DefaultBodyLimit is the largest request body accepted unless Options say
// otherwise. A move is a few hundred bytes.
const DefaultBodyLimit = 64 << 10

// Options tune the HTTP layer.
type Options struct {
	// Logger receives one line per request and every internal error;
	// slog.Default() when nil.
	Logger *slog.Logger
	// BodyLimit is the largest request body in bytes; DefaultBodyLimit when 0.
	BodyLimit int64
	// JSONLimits bound the nesting, width and number of values of a JSON
	// body, checked before it is parsed; DefaultJSONLimits where a field is 0.
	JSONLimits JSONLimits
	// DefaultRuleset is the ruleset a catalog is looked up in when the
	// request names none; empty means the only ruleset the service plays.
	DefaultRuleset string

	// CORSOrigins are the origins whose browser pages may call the API
	// ("https://table.example"; "*" for any). None: no CORS headers at all,
	// so browsers allow only pages served by this server.
	CORSOrigins []string
	// AddressLimit and CredentialLimit are the token buckets of each client
	// address and each credential; the zero value is no limit. /healthz,
	// /readyz and /metrics are exempt.
	AddressLimit, CredentialLimit RateLimit
	// JoinLimit is the token bucket of wrong join codes of each client
	// address (see joinGuard); DefaultJoinLimit when zero: the limit
	// against guessing codes is never off.
	JoinLimit RateLimit
	// CreateLimit is the token bucket of game creations (POST /v1/games) of
	// each client address, on top of AddressLimit; the zero value is no
	// quota. Rate is in games per second.
	CreateLimit RateLimit

	// Metrics receives the server's metrics, served at /metrics; a fresh set
	// when nil. Pass the same to the store (sqlite.WithCommitObserver(
	// Metrics.ObserveCommit)) to see its commit latency.
	Metrics *Metrics
	// CountGames counts the stored games by ruleset and phase, for the
	// treasury_games gauge, at scrape time (sqlite.Store.CountGames); no
	// gauge when nil.
	CountGames func(context.Context) ([]domain.GameCount, error)

	// Done is closed when the server shuts down: open event streams end, so
	// that a graceful shutdown does not wait for clients that never leave
	// (http.Server.RegisterOnShutdown is the place to close it).
	Done <-chan struct{}
	// MaxStreams caps the event streams open at once (503 unavailable beyond
	// it), StreamsPerAddress those of one client address and
	// StreamsPerCredential those of one credential (429 rate_limited beyond
	// either); each answer carries Retry-After. 0 is the default cap
	// (DefaultMaxStreams …), below 0 no cap.
	MaxStreams, StreamsPerAddress, StreamsPerCredential int
	// Groups keeps the groups and their plays (POST /v1/groups …); nil: the
	// server keeps none, and their operations answer 503 unavailable.
	Groups *groups.Service
	// Heartbeat is how often an idle event stream sends a keep-alive
	// comment; DefaultHeartbeat when 0.
	Heartbeat time.Duration
	// StreamWriteTimeout bounds each write to an event stream: a client
	// that reads nothing for this long (up to a quarter more) is cut off,
	// and reconnects with Last-Event-ID; DefaultStreamWriteTimeout when 0.
	StreamWriteTimeout time.Duration
	// Detached, when set, counts the event streams taken from net/http
	// (an idle stream holds no goroutine of net/http's), each until it has
	// written its end and closed its connection. http.Server.Shutdown does not
	// know them: wait on it after Shutdown, so that every stream ended by Done
	// has told its client so.
	Detached *sync.WaitGroup
}

func (o Options) withDefaults() Options {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if _, ok := o.Logger.Handler().(withRequestID); !ok {
		o.Logger = slog.New(withRequestID{o.Logger.Handler()})
	}
	if o.BodyLimit <= 0 {
		o.BodyLimit = DefaultBodyLimit
	}
	if o.JSONLimits.Depth <= 0 {
		o.JSONLimits.Depth = DefaultJSONLimits.Depth
	}
	o.JSONLimits.Depth = min(o.JSONLimits.Depth, maxJSONDepth)
	if o.JSONLimits.Array <= 0 {
		o.JSONLimits.Array = DefaultJSONLimits.Array
	}
	if o.JSONLimits.Tokens <= 0 {
		o.JSONLimits.Tokens = DefaultJSONLimits.Tokens
	}
	if o.Metrics == nil {
		o.Metrics = NewMetrics()
	}
	if !o.JoinLimit.on() {
		o.JoinLimit = DefaultJoinLimit
	}
	o.MaxStreams = orDefault(o.MaxStreams, DefaultMaxStreams)
	o.StreamsPerAddress = orDefault(o.StreamsPerAddress, DefaultStreamsPerAddress)
	o.StreamsPerCredential = orDefault(o.StreamsPerCredential, DefaultStreamsPerCredential)
	if o.Heartbeat <= 0 {
		o.Heartbeat = DefaultHeartbeat
	}
	if o.StreamWriteTimeout <= 0 {
		o.StreamWriteTimeout = DefaultStreamWriteTimeout
	}
	return o
}

// orDefault is n, or def when n is 0.
func orDefault(n, def int) int {
	if n == 0 {
		return def
	}
	return n
}

// Spec loads and checks the OpenAPI document embedded in the binary.
func Spec() (*openapi3.T, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(treasury.OpenAPI)
	if err != nil {
		return nil, fmt.Errorf("api: load openapi.yaml: %w", err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		return nil, fmt.Errorf("api: openapi.yaml is invalid: %w", err)
	}
	return doc, nil
}

// NewHandler returns the whole API over games: routes generated from
// openapi.yaml and the hand-written ones it excludes (event streams, metrics,
// docs, the table app), request validation against it, request ids, logs and metrics,
// CORS, rate limits, credentials, body limits and problem+json errors.
func NewHandler(games *service.Games, opts Options) (http.Handler, error) {
	opts = opts.withDefaults()
	doc, err := Spec()
	if err != nil {
		return nil, err
	}
	// Requests are matched on their path alone, whatever host they name.
	doc.Servers = nil
	validate, err := validator(doc)
	if err != nil {
		return nil, err
	}

	opts.Metrics.countGamesWith(opts.CountGames)
	var byAddress, byCredential *limiters
	if opts.AddressLimit.on() {
		byAddress = newLimiters(opts.AddressLimit)
	}
	if opts.CredentialLimit.on() {
		byCredential = newLimiters(opts.CredentialLimit)
	}

	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.JSONSerializer = bodySerializer{}
	// The address a limit applies to is the peer's: X-Forwarded-For and
	// X-Real-IP are anyone's to forge.
	e.IPExtractor = echo.ExtractIPDirect()
	e.HTTPErrorHandler = errorHandler(opts.Logger)
	chain := []echo.MiddlewareFunc{
		speak, // first: every answer, problems too, leaves through it
		requestID,
		observe(opts.Logger, opts.Metrics),
		middleware.RecoverWithConfig(middleware.RecoverConfig{
			LogErrorFunc: func(c echo.Context, err error, stack []byte) error {
				opts.Logger.ErrorContext(c.Request().Context(), "panic", "error", err, "stack", string(stack))
				return err
			},
		}),
	}
	// CORS before the limits, so that a browser can read a 429.
	if mw := cors(opts.CORSOrigins); mw != nil {
		chain = append(chain, mw)
	}
	if byAddress != nil || byCredential != nil {
		chain = append(chain, rateLimit(byAddress, byCredential, opts.Metrics))
	}
	if opts.CreateLimit.on() {
		chain = append(chain, createQuota(newLimiters(opts.CreateLimit), opts.Metrics))
	}
	chain = append(chain, joinGuard(newLimiters(opts.JoinLimit), opts.Metrics))
	chain = append(chain, privateCache, bodyLimits(opts.BodyLimit), readBody(opts.JSONLimits), validate, bearer)
	e.Use(builtOnce(chain...))

	srv := NewServer(games, opts)
	oapi.RegisterHandlers(e, oapi.NewStrictHandler(srv, []oapi.StrictMiddlewareFunc{gzipAnswers}))
	// The operations of openapi.yaml that are not JSON (excluded from the
	// generated server in oapi/config.yaml).
	e.GET(eventsRoute, srv.streamGameEvents)
	e.GET("/metrics", opts.Metrics.handler())
	e.GET("/docs", docsPage)
	e.GET("/docs/redoc.standalone.js", docsScript)
	e.GET("/", appPage)
	e.GET("/app/:file", appAsset)
	return e, nil
}

// builtOnce is the middleware of chain, in its order, wrapped once around
// the handler of the request's route. Echo wraps the handler of every
// request in its middleware anew (a closure of each, some fifteen
// allocations of every request), and what it wraps is always c.Handler(),
// the route's handler its router has just found (or the 404 and 405
// handlers): so the chain's innermost handler calls that, and the chain
// Echo is handed ignores the handler it is given.
func builtOnce(chain ...echo.MiddlewareFunc) echo.MiddlewareFunc {
	h := func(c echo.Context) error { return c.Handler()(c) }
	for i := len(chain) - 1; i >= 0; i-- {
		h = chain[i](h)
	}
	return func(echo.HandlerFunc) echo.HandlerFunc { return h }
}
