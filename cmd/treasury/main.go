// Command treasury runs the Treasury game server.
//
//	treasury serve [flags]
//
// Every flag can also be set with an environment variable (TREASURY_ADDRESS,
// TREASURY_DATABASE, …); a flag wins over its variable. `treasury serve
// --help` lists them all.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/treasury-games/treasury/api"
	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/groups"
	"github.com/treasury-games/treasury/domain/i18n"
	"github.com/treasury-games/treasury/domain/rulesets"
	"github.com/treasury-games/treasury/domain/service"
	"github.com/treasury-games/treasury/storage/sqlite"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(terminalSafe{os.Stderr}, "treasury:", err)
		os.Exit(exitStatus(err))
	}
}

// exitStatus is the exit status of a run that failed: 2 for a usageError, 1
// for any other error (treasury verify: the sheet or record is invalid).
func exitStatus(err error) int {
	var ue usageError
	if errors.As(err, &ue) {
		return 2
	}
	return 1
}

// usageError is a mistake in the command line, or input that cannot be used
// (treasury verify): exit status 2.
type usageError struct{ error }

const usage = `Treasury is a rules-enforcing game server for tabletop card games.

Usage:
  treasury serve [flags]   run the HTTP server (treasury serve --help lists its settings)
  treasury verify sheet|record [--json] [--lang LANG] FILE
                           check a paper score sheet or replay a game record, without a server
  treasury copy --from DATABASE --to DATABASE
                           copy every game from one store to another (SQLite files, postgres:// URLs)
`

// run is the whole program: it returns when the server has stopped, which
// happens when ctx ends (SIGINT or SIGTERM in main) or serving fails.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return usageError{errors.New("name a command")}
	}
	switch args[0] {
	case "serve":
		return serve(ctx, args[1:], getenv, stdout, stderr)
	case "verify":
		return verifyCommand(args[1:], getenv, stdout, stderr)
	case "copy":
		return copyCommand(ctx, args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return usageError{fmt.Errorf("unknown command %q", args[0])}
}

// Server timeouts. A request is small and a move is answered in
// milliseconds; these only cut off clients that stall.
const (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 15 * time.Second
	writeTimeout      = 30 * time.Second
	idleTimeout       = 2 * time.Minute
)

// config is every setting of `treasury serve`.
type config struct {
	address         string
	database        string
	catalog         string
	bodyLimit       int64
	shutdownTimeout time.Duration
	lingerGap       time.Duration
	lingerMax       time.Duration
	logLevel        slog.Level
	logFormat       string
	corsOrigins     []string
	addressLimit    api.RateLimit
	credentialLimit api.RateLimit
	createLimit     api.RateLimit // Rate in games per second
	idleGames       time.Duration // games with no move for this long are deleted; 0: never
	// Caps on open event streams; -1 is no cap (0 on the command line).
	maxStreams, streamsPerAddress, streamsPerCredential int
	// Caps on open connections: per client address (-1: none), and in all
	// (0: from the open-file limit, which also bounds a value set).
	connsPerAddress, maxConns int
}

// setting is one flag with its environment variable.
type setting struct {
	name, env, usage string
	def              string
	set              func(*config, string) error
}

var settings = []setting{
	{"address", "TREASURY_ADDRESS", "host:port to listen on", "127.0.0.1:8080",
		func(c *config, v string) error { c.address = v; return nil }},
	{"database", "TREASURY_DATABASE", "where the games are kept: a SQLite file (created on first run), or a PostgreSQL URL postgres://user:password@host:port/database", "./treasury.db",
		func(c *config, v string) error { c.database = v; return nil }},
	{"catalog", "TREASURY_CATALOG", "an extra Silver & Gold catalog file offered for new games (a catalog named \"standard\" replaces the built-in one)", "",
		func(c *config, v string) error { c.catalog = v; return nil }},
	{"body-limit", "TREASURY_BODY_LIMIT", "largest request body accepted, in bytes", strconv.Itoa(api.DefaultBodyLimit),
		func(c *config, v string) error {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n <= 0 {
				return fmt.Errorf("want a positive number of bytes, not %q", v)
			}
			c.bodyLimit = n
			return nil
		}},
	{"shutdown-timeout", "TREASURY_SHUTDOWN_TIMEOUT", "on SIGINT or SIGTERM, how long requests in flight may take to finish", "30s",
		func(c *config, v string) error {
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 {
				return fmt.Errorf("want a positive duration such as 30s, not %q", v)
			}
			c.shutdownTimeout = d
			return nil
		}},
	{"commit-linger", "TREASURY_COMMIT_LINGER", "SQLite: while moves arrive together, how long the store waits for another before it commits the group (0: commit what is queued at once)", sqlite.DefaultLingerGap.String(),
		func(c *config, v string) error { return parseLinger(v, &c.lingerGap) }},
	{"commit-linger-max", "TREASURY_COMMIT_LINGER_MAX", "SQLite: the longest the store gathers one group for", sqlite.DefaultLingerMax.String(),
		func(c *config, v string) error { return parseLinger(v, &c.lingerMax) }},
	{"log-level", "TREASURY_LOG_LEVEL", "debug, info, warn or error", "info",
		func(c *config, v string) error { return c.logLevel.UnmarshalText([]byte(v)) }},
	{"log-format", "TREASURY_LOG_FORMAT", "text or json", "text",
		func(c *config, v string) error {
			if v != "text" && v != "json" {
				return fmt.Errorf("want text or json, not %q", v)
			}
			c.logFormat = v
			return nil
		}},
	{"cors-origins", "TREASURY_CORS_ORIGINS", "comma-separated origins whose browser pages may call the API (https://table.example; * for any); none: no CORS headers, only same-origin pages", "",
		func(c *config, v string) error {
			origins, err := parseOrigins(v)
			c.corsOrigins = origins
			return err
		}},
	{"rate-per-address", "TREASURY_RATE_PER_ADDRESS", "requests per second each client address may make on average (0: no limit); beyond it, 429 with Retry-After; bot fleets playing many games from one address raise it", fmtRate(api.DefaultAddressLimit.Rate),
		func(c *config, v string) error { return parseRate(v, &c.addressLimit.Rate) }},
	{"burst-per-address", "TREASURY_BURST_PER_ADDRESS", "requests a client address may make at once before its rate applies", strconv.Itoa(api.DefaultAddressLimit.Burst),
		func(c *config, v string) error { return parseBurst(v, &c.addressLimit.Burst) }},
	{"rate-per-credential", "TREASURY_RATE_PER_CREDENTIAL", "requests per second each credential (seat or host) may make on average (0: no limit)", fmtRate(api.DefaultCredentialLimit.Rate),
		func(c *config, v string) error { return parseRate(v, &c.credentialLimit.Rate) }},
	{"burst-per-credential", "TREASURY_BURST_PER_CREDENTIAL", "requests a credential may make at once before its rate applies", strconv.Itoa(api.DefaultCredentialLimit.Burst),
		func(c *config, v string) error { return parseBurst(v, &c.credentialLimit.Burst) }},
	{"create-rate-per-address", "TREASURY_CREATE_RATE_PER_ADDRESS", "games per minute each client address may create on average (0: no quota); beyond it, 429 with Retry-After", "10",
		func(c *config, v string) error {
			if err := parseRate(v, &c.createLimit.Rate); err != nil {
				return fmt.Errorf("want games per minute, 0 or more (0: no quota), not %q", v)
			}
			c.createLimit.Rate /= 60
			return nil
		}},
	{"create-burst-per-address", "TREASURY_CREATE_BURST_PER_ADDRESS", "games a client address may create at once before its rate applies", "30",
		func(c *config, v string) error { return parseBurst(v, &c.createLimit.Burst) }},
	{"idle-games-after", "TREASURY_IDLE_GAMES_AFTER", "a game with no move for this long is deleted, ended or not (0: never); export records before (GET /v1/games/{id}/record)", "720h",
		func(c *config, v string) error {
			d, err := time.ParseDuration(v)
			if err != nil || d < 0 {
				return fmt.Errorf("want a duration such as 720h (30 days), or 0 for never, not %q", v)
			}
			c.idleGames = d
			return nil
		}},
	{"max-streams", "TREASURY_MAX_STREAMS", "event streams open at once, in all (0: no cap of its own); beyond it, 503 with Retry-After. Each holds a connection (a file descriptor): streams never take the reserve of --max-connections", strconv.Itoa(api.DefaultMaxStreams),
		func(c *config, v string) error { return parseCap(v, &c.maxStreams) }},
	{"connections-per-address", "TREASURY_CONNECTIONS_PER_ADDRESS", "connections one client address may hold open, idle ones included (0: no cap); beyond it, a new one is answered 429 and closed", strconv.Itoa(api.DefaultConnectionsPerAddress),
		func(c *config, v string) error { return parseCap(v, &c.connsPerAddress) }},
	{"max-connections", "TREASURY_MAX_CONNECTIONS", "connections open at once, in all (0: the open-file limit less 256 for the database and logs, the most it may be); beyond it, a new one is answered 503 and closed, and near it the connections idle longest are closed", "0",
		func(c *config, v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return fmt.Errorf("want a number, 0 or more (0: from the open-file limit), not %q", v)
			}
			c.maxConns = n
			return nil
		}},
	{"streams-per-address", "TREASURY_STREAMS_PER_ADDRESS", "event streams one client address may hold open (0: no cap); beyond it, 429 with Retry-After", strconv.Itoa(api.DefaultStreamsPerAddress),
		func(c *config, v string) error { return parseCap(v, &c.streamsPerAddress) }},
	{"streams-per-credential", "TREASURY_STREAMS_PER_CREDENTIAL", "event streams one credential may hold open (0: no cap); beyond it, 429 with Retry-After", strconv.Itoa(api.DefaultStreamsPerCredential),
		func(c *config, v string) error { return parseCap(v, &c.streamsPerCredential) }},
}

// parseCap reads a cap: a count, 0 for none (-1 in the config).
func parseCap(v string, n *int) error {
	x, err := strconv.Atoi(v)
	if err != nil || x < 0 {
		return fmt.Errorf("want a number, 0 or more (0: no cap), not %q", v)
	}
	if x == 0 {
		x = -1
	}
	*n = x
	return nil
}

// parseLinger reads a duration of 0 to 100ms.
func parseLinger(v string, d *time.Duration) error {
	x, err := time.ParseDuration(v)
	if err != nil || x < 0 || x > 100*time.Millisecond {
		return fmt.Errorf("want a duration from 0 to 100ms such as 100us, not %q", v)
	}
	*d = x
	return nil
}

// fmtRate writes a default rate as the flag takes it.
func fmtRate(r float64) string { return strconv.FormatFloat(r, 'f', -1, 64) }

// parseOrigins reads a comma-separated list of origins.
func parseOrigins(v string) ([]string, error) {
	var out []string
	for _, o := range strings.Split(v, ",") {
		o = strings.TrimSpace(o)
		if o == "" {
			continue
		}
		if o != "*" {
			u, err := url.Parse(o)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
				return nil, fmt.Errorf("want origins such as https://table.example or *, not %q", o)
			}
			o = u.Scheme + "://" + u.Host
		}
		out = append(out, o)
	}
	return out, nil
}

func parseRate(v string, rate *float64) error {
	r, err := strconv.ParseFloat(v, 64)
	if err != nil || r < 0 || math.IsInf(r, 0) || math.IsNaN(r) {
		return fmt.Errorf("want requests per second, 0 or more (0: no limit), not %q", v)
	}
	*rate = r
	return nil
}

func parseBurst(v string, burst *int) error {
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return fmt.Errorf("want a number of requests, 1 or more, not %q", v)
	}
	*burst = n
	return nil
}

// flagValue adapts a setting to flag.Value.
type flagValue struct {
	c   *config
	s   *setting
	cur string
}

func (f *flagValue) String() string { return f.cur }
func (f *flagValue) Set(v string) error {
	if err := f.s.set(f.c, v); err != nil {
		return err
	}
	f.cur = v
	return nil
}

// parse reads the settings: built-in defaults, then the environment, then flags.
func parse(args []string, getenv func(string) string, stdout io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("treasury serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	for i := range settings {
		s := &settings[i]
		v := s.def
		if e := getenv(s.env); e != "" {
			v = e
		}
		if err := s.set(&c, v); err != nil {
			return c, usageError{fmt.Errorf("%s=%s: %w", s.env, v, err)}
		}
		fs.Var(&flagValue{c: &c, s: s, cur: v}, s.name, s.usage)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printServeHelp(stdout)
			return c, err
		}
		return c, usageError{err}
	}
	if fs.NArg() > 0 {
		return c, usageError{fmt.Errorf("unexpected argument %q", fs.Arg(0))}
	}
	return c, nil
}

func printServeHelp(w io.Writer) {
	var b strings.Builder
	b.WriteString("Usage: treasury serve [flags]\n\n")
	b.WriteString("Runs the Treasury HTTP server (the API is described at /openapi.yaml).\n")
	b.WriteString("Every flag can be set with its environment variable instead; a flag wins.\n\n")
	for _, s := range settings {
		def := s.def
		if def == "" {
			def = "none"
		}
		fmt.Fprintf(&b, "  --%s  (%s)\n        %s (default %s)\n", s.name, s.env, s.usage, def)
	}
	fmt.Fprintf(&b, "\nThe server reads a request header within %s and a whole request within %s, answers within %s\n", readHeaderTimeout, readTimeout, writeTimeout)
	fmt.Fprintf(&b, "(an event stream stays open; a client that reads none of it for %s is cut off),\n", writeTimeout)
	fmt.Fprintf(&b, "closes idle connections after %s (sooner near --max-connections), and on SIGINT or SIGTERM stops accepting connections,\n", idleTimeout)
	b.WriteString("ends event streams, lets requests in flight finish, then closes the database.\n")
	b.WriteString("A PostgreSQL database that does not answer at start is tried again, with back-off, until it does;\n")
	b.WriteString("meanwhile /readyz and every request but /healthz and /metrics answer 503.\n")
	b.WriteString("\nGET /healthz says the server is alive, /readyz that its database is usable, /metrics serves\n")
	b.WriteString("Prometheus metrics and /docs the API's documentation. Logs go to stderr, one line per request.\n")
	io.WriteString(w, b.String())
}

func newLogger(c config, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: c.logLevel}
	if c.logFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// rules builds the rulesets the server plays: every one registered, the
// default one offering also the catalog file c names.
func rules(c config) ([]domain.Ruleset, error) {
	if c.catalog == "" {
		return rulesets.All(), nil
	}
	content, err := os.ReadFile(c.catalog)
	if err != nil {
		return nil, fmt.Errorf("read catalog: %w", err)
	}
	rs, err := rulesets.WithCatalog(rulesets.Default, content)
	if err != nil {
		return nil, fmt.Errorf("catalog %s: %w", c.catalog, err)
	}
	return rs, nil
}

func serve(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	c, err := parse(args, getenv, stdout)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	log := newLogger(c, stderr)
	n, err := raiseOpenFileLimit()
	if err != nil {
		log.Warn("could not raise the open-file limit", "error", err, "limit", n)
	}
	limiter := api.NewConnLimiter(connLimits(c, n, log), nil)
	cl := limiter.Limits()
	// An event stream holds a connection: streams may take every connection
	// but the reserve kept for addresses holding few (health checks, other
	// players), whatever --max-streams says.
	if most := cl.Total - cl.Reserve; c.maxStreams < 0 || c.maxStreams > most {
		if c.maxStreams > most {
			log.Warn("the cap on event streams is above what the open-file limit leaves; lowered (raise the hard open-file limit, systemd: LimitNOFILE=, to allow more)",
				"max_streams", c.maxStreams, "lowered_to", most, "open_file_limit", n)
		}
		c.maxStreams = most
	}

	rs, err := rules(c)
	if err != nil {
		return err
	}
	metrics := api.NewMetrics()
	limiter.SetMetrics(metrics)
	sopts := storeOptions{observeCommit: metrics.ObserveCommit, lingerGap: c.lingerGap, lingerMax: c.lingerMax, lingerSet: true}
	// Closed when shutdown begins: event streams end instead of holding the
	// shutdown until its timeout.
	stopping := make(chan struct{})
	start := func(store gameStore) (http.Handler, func(), error) {
		return startGames(c, rs, store, metrics, stopping, log)
	}

	// The handler in force: the games' once their store answers.
	var current atomic.Pointer[http.Handler]
	var stopGames func() // ends what startGames began; set once
	var waited chan struct{}
	store, err := openStore(ctx, c.database, sopts)
	switch {
	case err == nil:
		h, stop, err := start(store)
		if err != nil {
			return err
		}
		current.Store(&h)
		stopGames = stop
	case isPostgres(c.database) && domain.ErrorCode(err) == domain.Unavailable:
		// A database that is down, or still starting with the machine: serve
		// anyway, not ready, and connect when it answers, so that a server
		// restarted with its database comes back by itself.
		log.Warn("the database does not answer; serving anyway: /readyz answers 503 and games wait until it does. Trying again",
			"database", describeDatabase(c.database), "error", storeCause(err), "retry_in", firstRetry)
		h := api.Waiting(metrics, i18n.M("api.waiting-for-database"))
		current.Store(&h)
		waited = make(chan struct{})
		waitCtx, stopWaiting := context.WithCancel(ctx)
		defer stopWaiting()
		go func() {
			defer close(waited)
			store, ok := waitForStore(waitCtx, c.database, sopts, log)
			if !ok {
				return
			}
			h, stop, err := start(store)
			if err != nil {
				log.Error("the database answers, but the games cannot start", "error", err)
				_ = store.Close()
				return
			}
			stopGames = stop
			current.Store(&h)
			log.Info("the database answers: serving games", "database", describeDatabase(c.database))
		}()
	default:
		return err
	}
	defer func() {
		if waited != nil {
			<-waited // stopGames is set, or will never be
		}
		if stopGames != nil {
			stopGames()
		}
	}()
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { (*current.Load()).ServeHTTP(w, r) })

	ln, err := net.Listen("tcp", c.address)
	if err != nil {
		return err
	}
	ln = limiter.Listener(ln)
	srv := &http.Server{
		Handler:           handler,
		ConnState:         limiter.ConnState,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    16 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	srv.RegisterOnShutdown(func() { close(stopping) })
	fmt.Fprintf(stdout, "treasury: listening on http://%s (database %s)\n", ln.Addr(), describeDatabase(c.database))
	// Where to open the table app: the first thing a new user looks for.
	ifaces, _ := net.InterfaceAddrs()
	open, phones := appAddresses(ln.Addr().(*net.TCPAddr), ifaces)
	fmt.Fprintf(stdout, "treasury: the table app is at %s\n", open)
	if len(phones) == 0 {
		fmt.Fprintf(stdout, "treasury: only this computer can open it; for a table with phones, serve with --address 0.0.0.0:%d\n", ln.Addr().(*net.TCPAddr).Port)
	} else {
		fmt.Fprintf(stdout, "treasury: phones on this network open %s\n", strings.Join(phones, " or "))
	}
	log.Info("serving", "address", ln.Addr().String(), "database", describeDatabase(c.database), "rulesets", rulesetNames(rs),
		"max_connections", cl.Total, "connections_per_address", cl.PerAddress, "max_streams", c.maxStreams)

	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}

	log.Info("shutting down: finishing requests in flight", "timeout", c.shutdownTimeout)
	sctx, cancel := context.WithTimeout(context.Background(), c.shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		// Requests still running are cut off; the store still commits
		// what it has taken, and every move is one transaction.
		log.Warn("shutdown timed out; closing connections", "error", err)
		_ = srv.Close()
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	log.Info("stopped")
	return nil
}

// startGames starts serving the games of store: the coordinating service,
// following other servers' moves (PostgreSQL), the sweep of idle games, and
// the HTTP handler. stop ends them and closes the store, after the HTTP
// server has stopped.
func startGames(c config, rs []domain.Ruleset, store gameStore, metrics *api.Metrics, stopping <-chan struct{}, log *slog.Logger) (http.Handler, func(), error) {
	var stops []func() // run last first
	stop := func() {
		for i := len(stops) - 1; i >= 0; i-- {
			stops[i]()
		}
	}
	stops = append(stops, func() {
		if err := store.Close(); err != nil {
			log.Error("close the database", "error", err)
		}
	})
	games := service.New(store, rs...)
	if games.Shared() {
		// Other servers may store moves in this database: hear of them for
		// this server's event streams, until the store is closed.
		followCtx, stopFollowing := context.WithCancel(context.Background())
		followed := make(chan struct{})
		go func() { _ = games.FollowStore(followCtx); close(followed) }()
		stops = append(stops, func() { stopFollowing(); <-followed })
	}
	grps := groups.New(store, games)
	if c.idleGames > 0 {
		sweepCtx, stopSweep := context.WithCancel(context.Background())
		swept := sweepIdleGames(sweepCtx, games, grps, c.idleGames, log)
		stops = append(stops, func() { stopSweep(); <-swept })
	}
	var detached sync.WaitGroup
	handler, err := api.NewHandler(games, api.Options{
		Logger: log, BodyLimit: c.bodyLimit, DefaultRuleset: rulesets.Default, Groups: grps,
		CORSOrigins: c.corsOrigins, AddressLimit: c.addressLimit, CredentialLimit: c.credentialLimit, CreateLimit: c.createLimit,
		MaxStreams: c.maxStreams, StreamsPerAddress: c.streamsPerAddress, StreamsPerCredential: c.streamsPerCredential,
		Metrics: metrics, CountGames: store.CountGames, Done: stopping, Detached: &detached,
	})
	if err != nil {
		stop()
		return nil, nil, err
	}
	// Run first: the event streams taken from net/http (which its Shutdown
	// does not wait for) write their end before the store closes.
	stops = append(stops, func() {
		ended := make(chan struct{})
		go func() { detached.Wait(); close(ended) }()
		select {
		case <-ended:
		case <-time.After(c.shutdownTimeout):
			log.Warn("shutdown: event streams still ending; closing the store", "timeout", c.shutdownTimeout)
		}
	})
	return handler, stop, nil
}

// storeCause is what went wrong with a store, without what an HTTP client
// would be told of it (a store's Unavailable error wraps both).
func storeCause(err error) error {
	if u, ok := err.(interface{ Unwrap() []error }); ok {
		if es := u.Unwrap(); len(es) > 0 {
			return es[len(es)-1]
		}
	}
	return err
}

// Back-off of the tries to reach a database that did not answer at start.
const (
	firstRetry = 500 * time.Millisecond
	lastRetry  = 15 * time.Second
)

// waitForStore opens the store of database again and again, waiting twice
// as long after each failure (up to lastRetry), until it opens or ctx ends
// (false). A failure that is not the database being unreachable (a wrong
// password, a schema too new) is logged as an error and tried again too: the
// operator may fix it without restarting the server.
func waitForStore(ctx context.Context, database string, o storeOptions, log *slog.Logger) (gameStore, bool) {
	wait := firstRetry
	for {
		select {
		case <-ctx.Done():
			return nil, false
		case <-time.After(wait):
		}
		wait = min(2*wait, lastRetry)
		octx, cancel := context.WithTimeout(ctx, 30*time.Second)
		store, err := openStore(octx, database, o)
		cancel()
		if err == nil {
			return store, true
		}
		if ctx.Err() != nil {
			return nil, false
		}
		if domain.ErrorCode(err) == domain.Unavailable {
			log.Warn("the database still does not answer; /readyz answers 503. Trying again", "database", describeDatabase(database), "error", storeCause(err), "retry_in", wait)
		} else {
			log.Error("the database answers but cannot be used; /readyz answers 503. Trying again", "database", describeDatabase(database), "error", err, "retry_in", wait)
		}
	}
}

// rulesetNames are the names of the rulesets served, in order.
func rulesetNames(rs []domain.Ruleset) []string {
	var names []string
	for _, r := range rs {
		names = append(names, r.Name())
	}
	slices.Sort(names)
	return names
}
