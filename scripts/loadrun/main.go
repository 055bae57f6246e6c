// Command loadrun measures how close Treasury comes to the limit of its own
// stack. It builds the real server (cmd/treasury) and the floor server
// (scripts/floor), and in each round of the run:
//
//  1. starts treasury on a fresh database and plays complete 4-player games
//     of -ruleset through the HTTP API with the generated Go client: -clients
//     concurrent clients, one per seat (-clients/4 tables), each moving as
//     soon as the game awaits it, a move picked from its legal moves: each
//     seat follows the game's event stream with ?legal_moves=true, as the
//     table app does, and sends each move in one request with Prefer:
//     return=minimal (-follow=false: reads its legal moves before each move
//     instead, and gets the whole game in the answer);
//  2. starts the floor on a fresh database (with -database postgres, the
//     PostgreSQL floor: one statement per move) and sends the same number of
//     clients, each submitting moves in a closed loop (the bodies treasury's
//     clients sent), for as long as the treasury phase took.
//
// It prints, per round and as medians over the rounds, accepted moves per
// second, p50/p99/max latency of move submissions, error answers by status
// and code, reads, and the ratios treasury/floor. Run it from the repository:
//
//	go run ./scripts/loadrun                       # 32 clients, 3 rounds of 15s
//	go run ./scripts/loadrun -games 40 -runs 5     # rounds of 40 complete games
//	go run ./scripts/loadrun -pprof cpu.prof       # also profile the server
//	go run ./scripts/loadrun -database postgres -servers 3 -pprof cpu.prof  # cpu.prof.1, .2, .3
//	go run ./scripts/loadrun -database postgres -nginx   # one server behind nginx (its CPU per move too)
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/treasury-games/treasury/api/client"
	"github.com/treasury-games/treasury/domain/rulesets"
	"github.com/treasury-games/treasury/scripts/deploy/nginx"
	"github.com/treasury-games/treasury/scripts/internal/play"
	"github.com/treasury-games/treasury/scripts/internal/proc"
	"github.com/treasury-games/treasury/storage/postgres/pgtest"
)

type config struct {
	clients     int
	games       int
	duration    time.Duration
	runs        int
	output      string
	idempotency bool
	pprof       string
	clientPprof string
	keep        bool
	ruleset     string
	database    string // sqlite or postgres
	servers     int
	pgConns     int
	unrouted    bool
	nginx       bool // clients talk to nginx in front of the servers (one server too)
	follow      bool
	pgStats     bool
}

func main() {
	var c config
	flag.IntVar(&c.clients, "clients", 32, "concurrent clients: one per seat, 4 per table (a multiple of 4)")
	flag.IntVar(&c.games, "games", 0, "complete this many games in each treasury phase (0: play for -duration)")
	flag.DurationVar(&c.duration, "duration", 15*time.Second, "length of each treasury phase when -games is 0")
	flag.IntVar(&c.runs, "runs", 3, "rounds of treasury then floor; the report gives medians")
	flag.StringVar(&c.output, "output", "", "also write the results as JSON to this file")
	flag.BoolVar(&c.idempotency, "idempotency", true, "send an Idempotency-Key with every move, as a careful frontend does")
	flag.StringVar(&c.pprof, "pprof", "", "write a CPU profile of the server during the first treasury phase to this file (with several servers, one per server: this file with .1, .2, ... appended)")
	flag.StringVar(&c.clientPprof, "client-pprof", "", "write a CPU profile of the clients (this process) during the first treasury phase to this file")
	flag.BoolVar(&c.keep, "keep", false, "keep the temporary directory (databases and server logs)")
	flag.StringVar(&c.ruleset, "ruleset", "silver-and-gold", "the game the tables play, one of "+strings.Join(rulesetNames(), ", ")+" (each seat reads its legal moves and picks one)")
	flag.StringVar(&c.database, "database", "sqlite", "treasury's store: sqlite (a file) or postgres (a throwaway PostgreSQL cluster this run starts, fsync on)")
	flag.IntVar(&c.pgConns, "pg-conns", 0, "with -database postgres: each server's pool_max_conns (0: pgx's default, the larger of 4 and the CPUs)")
	flag.IntVar(&c.servers, "servers", 1, "treasury servers on the one database (more than 1 with -database postgres), behind the nginx configuration Treasury ships (scripts/deploy/nginx: a game's requests go to one server) when nginx is installed")
	flag.BoolVar(&c.follow, "follow", true, "each seat follows the event stream with ?legal_moves=true and sends one request per move (false: a read of the legal moves before each move)")
	flag.BoolVar(&c.pgStats, "pg-stats", false, "with -database postgres: load pg_stat_statements in the cluster and print, per round, the statements treasury's servers sent per move and the transactions per move")
	flag.BoolVar(&c.unrouted, "unrouted", false, "with -servers above 1: no load balancer; each table's seats go to different servers directly")
	flag.BoolVar(&c.nginx, "nginx", false, "with -servers 1: the clients talk to the server through the shipped nginx configuration too, as they do to several servers (to tell nginx's hop apart from the split)")
	flag.Parse()
	if os.Getenv("GOGC") == "" {
		// The clients decode every answer; collecting less often leaves
		// more of the machine to the servers measured.
		debug.SetGCPercent(400)
	}
	if c.clients < play.Seats || c.clients%play.Seats != 0 || c.runs < 1 || (c.games <= 0 && c.duration <= 0) || !slices.Contains(rulesetNames(), c.ruleset) ||
		(c.database != "sqlite" && c.database != "postgres") || c.servers < 1 || (c.servers > 1 && c.database != "postgres") {
		fmt.Fprintln(os.Stderr, "loadrun: -clients must be a positive multiple of 4, -runs at least 1, -games or -duration positive, -ruleset one of "+strings.Join(rulesetNames(), ", ")+", -database sqlite or postgres, and -servers 1, or more with postgres")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, c, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "loadrun:", err)
		os.Exit(1)
	}
}

// Round is one treasury phase and one floor phase.
type Round struct {
	Treasury play.Summary `json:"treasury"`
	Floor    play.Summary `json:"floor"`
	Ratios   Ratios       `json:"ratios"`
}

// Ratios compare treasury with the floor: throughput above 1 and p99 below 1
// favour treasury.
type Ratios struct {
	Throughput float64 `json:"throughput"`
	P99        float64 `json:"p99"`
}

// Report is the whole run.
type Report struct {
	Date        string  `json:"date"`
	Machine     string  `json:"machine"`
	Database    string  `json:"database"`
	Servers     int     `json:"servers"`
	Routing     string  `json:"routing,omitempty"` // with several servers: "nginx" (by game) or "unrouted"
	Clients     int     `json:"clients"`
	Tables      int     `json:"tables"`
	Idempotency bool    `json:"idempotency_keys"`
	Follow      bool    `json:"follow_stream"`
	Ruleset     string  `json:"ruleset"`
	Rounds      []Round `json:"rounds"`
	Median      struct {
		TreasuryPerSecond   float64 `json:"treasury_accepted_per_second"`
		TreasuryP50         float64 `json:"treasury_p50_ms"`
		TreasuryP99         float64 `json:"treasury_p99_ms"`
		TreasuryMax         float64 `json:"treasury_max_ms"`
		FloorPerSecond      float64 `json:"floor_accepted_per_second"`
		FloorP50            float64 `json:"floor_p50_ms"`
		FloorP99            float64 `json:"floor_p99_ms"`
		FloorMax            float64 `json:"floor_max_ms"`
		TreasuryCPU         float64 `json:"treasury_server_cpu_us_per_move"`
		TreasuryDatabaseCPU float64 `json:"treasury_database_cpu_us_per_move,omitempty"`
		FloorDatabaseCPU    float64 `json:"floor_database_cpu_us_per_move,omitempty"`
		TreasuryWritten     float64 `json:"treasury_written_bytes_per_move,omitempty"`
		FloorWritten        float64 `json:"floor_written_bytes_per_move,omitempty"`
		Ratios              Ratios  `json:"ratios"`
	} `json:"median"`
	RuleErrors  int `json:"rule_errors"`  // refusals by the rules (422 illegal_move)
	OtherErrors int `json:"other_errors"` // everything else
}

func run(ctx context.Context, c config, out io.Writer) error {
	// The zero config plays one server on SQLite, as the flags' defaults do.
	c.servers = max(c.servers, 1)
	if c.database == "" {
		c.database = "sqlite"
	}
	if c.ruleset == "" {
		c.ruleset = "silver-and-gold"
	}
	ws, err := proc.NewWorkspace("loadrun", c.keep, out)
	if err != nil {
		return err
	}
	defer ws.Close()
	root, tmp := ws.Root, ws.Dir
	treasuryBin, floorBin := filepath.Join(tmp, "treasury"), filepath.Join(tmp, "floor")
	var tags []string
	if c.pprof != "" {
		tags = append(tags, "pprof")
	}
	if err := proc.Build(ctx, root, "./cmd/treasury", treasuryBin, tags...); err != nil {
		return err
	}
	if err := proc.Build(ctx, root, "./scripts/floor", floorBin); err != nil {
		return err
	}

	var cluster *pgtest.Cluster
	if c.database == "postgres" {
		var settings []string
		if c.pgStats {
			settings = append(settings, "shared_preload_libraries=pg_stat_statements", "pg_stat_statements.track=all")
		}
		if cluster, err = pgtest.StartWith(true, settings...); err != nil {
			return err
		}
		defer cluster.Stop()
	}

	rep := Report{Date: time.Now().UTC().Format(time.RFC3339), Machine: proc.Machine(), Database: c.database, Servers: c.servers, Clients: c.clients, Tables: c.clients / play.Seats, Idempotency: c.idempotency, Follow: c.follow, Ruleset: c.ruleset}
	switch _, err := nginx.Find(); {
	case c.servers > 1 && c.unrouted:
		rep.Routing = "unrouted"
	case c.servers > 1 && err != nil:
		fmt.Fprintf(out, "%s: the servers get no load balancer; each table's seats go to different servers\n", err)
		rep.Routing = "unrouted"
	case c.nginx && err != nil:
		return err
	case c.servers > 1 || c.nginx:
		rep.Routing = "nginx"
	}
	c.nginx, c.unrouted = rep.Routing == "nginx", rep.Routing == "unrouted"
	fmt.Fprintf(out, "load run %s\nmachine: %s\ntreasury: %d server(s) on %s\n", rep.Date, rep.Machine, c.servers, c.database)
	switch rep.Routing {
	case "nginx":
		fmt.Fprintln(out, "routing: every client talks to nginx with the configuration Treasury ships (scripts/deploy/nginx/treasury.conf), a game's requests to one server")
	case "unrouted":
		fmt.Fprintln(out, "routing: none; the seats of a table talk to different servers directly")
	}
	if cluster != nil {
		fmt.Fprintln(out, "PostgreSQL: a cluster of this run on a Unix socket, fsync on; its CPU is not in the server CPU per move")
	}
	fmt.Fprintf(out, "clients: %d (%d tables x %d seats), idempotency keys: %v, ruleset: %s, following the event stream: %v, ", c.clients, rep.Tables, play.Seats, c.idempotency, c.ruleset, c.follow)
	if c.games > 0 {
		fmt.Fprintf(out, "%d complete games per treasury phase\n", c.games)
	} else {
		fmt.Fprintf(out, "treasury phases of %s\n", c.duration)
	}
	fmt.Fprintln(out, "the floor runs as many clients, closed loop, for as long as the treasury phase before it")

	for i := range c.runs {
		dir := filepath.Join(tmp, fmt.Sprintf("round-%d", i+1))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		profile, clientProfile := "", ""
		if i == 0 {
			profile, clientProfile = c.pprof, c.clientPprof
		}
		database := filepath.Join(dir, "treasury.db")
		if cluster != nil {
			if database, err = cluster.Database(ctx, fmt.Sprintf("treasury_round_%d", i+1)); err != nil {
				return err
			}
			if c.pgConns > 0 {
				database += fmt.Sprintf("&pool_max_conns=%d", c.pgConns)
			}
		}
		var stats *pgStats
		if cluster != nil && c.pgStats {
			if stats, err = startPGStats(ctx, database, c.servers); err != nil {
				return err
			}
		}
		pg0 := pgCPU(cluster)
		t, bodies, err := treasuryPhase(ctx, c, treasuryBin, dir, database, profile, clientProfile)
		if err != nil {
			return fmt.Errorf("round %d, treasury: %w", i+1, err)
		}
		t.DatabaseCPU = perMoveCPU(pgCPU(cluster)-pg0, t.Accepted)
		var statements string
		if stats != nil {
			if statements, err = stats.report(ctx, t.Accepted); err != nil {
				return err
			}
		}
		floorDB := "" // SQLite, a file in dir
		if cluster != nil {
			// The PostgreSQL floor: one statement per move, on a database of
			// the same cluster.
			if floorDB, err = cluster.Database(ctx, fmt.Sprintf("floor_round_%d", i+1)); err != nil {
				return err
			}
			if c.pgConns > 0 {
				floorDB += fmt.Sprintf("&pool_max_conns=%d", c.pgConns)
			}
		}
		pg0 = pgCPU(cluster)
		f, err := floorPhase(ctx, c, floorBin, dir, floorDB, bodies, time.Duration(t.Seconds*float64(time.Second)))
		if err != nil {
			return fmt.Errorf("round %d, floor: %w", i+1, err)
		}
		f.DatabaseCPU = perMoveCPU(pgCPU(cluster)-pg0, f.Accepted)
		r := Round{Treasury: t, Floor: f, Ratios: Ratios{Throughput: t.PerSecond / f.PerSecond, P99: t.P99 / f.P99}}
		rep.Rounds = append(rep.Rounds, r)
		fmt.Fprintf(out, "\nround %d\n", i+1)
		printPhase(out, "treasury", t)
		printPhase(out, "floor", f)
		fmt.Fprint(out, statements)
		fmt.Fprintf(out, "  ratio treasury/floor: throughput %.2f, p99 %.2f\n", r.Ratios.Throughput, r.Ratios.P99)
	}

	med := func(f func(Round) float64) float64 {
		v := make([]float64, len(rep.Rounds))
		for i, r := range rep.Rounds {
			v[i] = f(r)
		}
		return median(v)
	}
	m := &rep.Median
	m.TreasuryPerSecond = med(func(r Round) float64 { return r.Treasury.PerSecond })
	m.TreasuryP50 = med(func(r Round) float64 { return r.Treasury.P50 })
	m.TreasuryP99 = med(func(r Round) float64 { return r.Treasury.P99 })
	m.TreasuryMax = med(func(r Round) float64 { return r.Treasury.Max })
	m.FloorPerSecond = med(func(r Round) float64 { return r.Floor.PerSecond })
	m.FloorP50 = med(func(r Round) float64 { return r.Floor.P50 })
	m.FloorP99 = med(func(r Round) float64 { return r.Floor.P99 })
	m.FloorMax = med(func(r Round) float64 { return r.Floor.Max })
	m.TreasuryCPU = med(func(r Round) float64 { return r.Treasury.ServerCPU })
	m.TreasuryDatabaseCPU = med(func(r Round) float64 { return r.Treasury.DatabaseCPU })
	m.FloorDatabaseCPU = med(func(r Round) float64 { return r.Floor.DatabaseCPU })
	m.TreasuryWritten = med(func(r Round) float64 { return r.Treasury.WrittenPerMove })
	m.FloorWritten = med(func(r Round) float64 { return r.Floor.WrittenPerMove })
	m.Ratios.Throughput = med(func(r Round) float64 { return r.Ratios.Throughput })
	m.Ratios.P99 = med(func(r Round) float64 { return r.Ratios.P99 })
	for _, r := range rep.Rounds {
		for k, n := range r.Treasury.Errors {
			if strings.HasSuffix(k, " illegal_move") {
				rep.RuleErrors += n
			} else {
				rep.OtherErrors += n
			}
		}
		for _, n := range r.Floor.Errors {
			rep.OtherErrors += n
		}
	}

	fmt.Fprintf(out, "\nmedians of %d rounds (%d clients; %s)\n", len(rep.Rounds), c.clients, rep.Machine)
	fmt.Fprintf(out, "  treasury  %7.0f moves/s  p50 %6.2f ms  p99 %6.2f ms  max %7.2f ms\n", m.TreasuryPerSecond, m.TreasuryP50, m.TreasuryP99, m.TreasuryMax)
	fmt.Fprintf(out, "  floor     %7.0f moves/s  p50 %6.2f ms  p99 %6.2f ms  max %7.2f ms\n", m.FloorPerSecond, m.FloorP50, m.FloorP99, m.FloorMax)
	// The throughput target is Silver & Gold's, whose four seats act at
	// once; in the other games the seats of a table take turns, each move
	// after a read of the listing, and the clients set the pace for both.
	throughput := "no target for this game"
	switch {
	case c.ruleset != "" && c.ruleset != "silver-and-gold":
	case c.database == "postgres" && c.servers == 1:
		throughput = "target >= 0.9 of the one-statement PostgreSQL floor: " + verdict(m.Ratios.Throughput >= 0.9)
	case c.database == "postgres":
		throughput = "no target against the floor with several servers: compare with a run of one server"
	default:
		throughput = "target >= 2: " + verdict(m.Ratios.Throughput >= 2)
	}
	p99 := "target <= 0.25: " + verdict(m.Ratios.P99 <= 0.25)
	if c.database == "postgres" {
		p99 = "no target on PostgreSQL"
	}
	fmt.Fprintf(out, "  ratio treasury/floor: throughput %.2f (%s), p99 %.2f (%s)\n",
		m.Ratios.Throughput, throughput, m.Ratios.P99, p99)
	fmt.Fprintf(out, "  treasury server CPU per move: %.0f us\n", m.TreasuryCPU)
	if m.TreasuryDatabaseCPU > 0 {
		fmt.Fprintf(out, "  PostgreSQL CPU per move: treasury %.0f us, floor %.0f us\n", m.TreasuryDatabaseCPU, m.FloorDatabaseCPU)
	}
	if m.TreasuryWritten > 0 && m.FloorWritten > 0 {
		fmt.Fprintf(out, "  written to files per move: treasury %.1f KB, floor %.1f KB (target <= the floor's: %s)\n",
			m.TreasuryWritten/1024, m.FloorWritten/1024, verdict(m.TreasuryWritten <= m.FloorWritten))
	}
	fmt.Fprintf(out, "  error answers: %d by the rules, %d others (target 0: %s)\n", rep.RuleErrors, rep.OtherErrors, verdict(rep.OtherErrors == 0))

	if c.output != "" {
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(c.output, append(b, '\n'), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "MISSED"
}

func printPhase(out io.Writer, name string, s play.Summary) {
	fmt.Fprintf(out, "  %-8s  %7.0f moves/s  p50 %6.2f ms  p99 %6.2f ms  max %7.2f ms  (%d accepted of %d in %.1fs, body %.0f B)\n",
		name, s.PerSecond, s.P50, s.P99, s.Max, s.Accepted, s.Submissions, s.Seconds, s.AvgBodyBytes)
	pg := ""
	if s.DatabaseCPU > 0 {
		pg = fmt.Sprintf(", PostgreSQL %.0f us", s.DatabaseCPU)
	}
	if s.Proxied {
		pg += fmt.Sprintf(", nginx %.0f us", s.ProxyCPU)
	}
	fmt.Fprintf(out, "            CPU per move: server %.0f us%s, clients %.0f us; errors: %s\n", s.ServerCPU, pg, s.ClientCPU, play.Counts(s.Errors))
	if s.WritesPerCommit > 0 {
		fmt.Fprintf(out, "            writes per commit: %.1f\n", s.WritesPerCommit)
	}
	if s.WrittenPerMove > 0 {
		fmt.Fprintf(out, "            written to files per move: %.1f KB\n", s.WrittenPerMove/1024)
	}
	if len(s.Reads) > 0 || s.Creates > 0 {
		fmt.Fprintf(out, "            reads: %s; games created %d, completed %d\n", play.Counts(s.Reads), s.Creates, s.Games)
	}
}

func median(v []float64) float64 {
	slices.Sort(v)
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return (v[n/2-1] + v[n/2]) / 2
}

// httpClient keeps one connection per client alive, as phones would.
func httpClient(clients int) *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConns = 2 * clients
	tr.MaxIdleConnsPerHost = 2 * clients
	tr.DisableCompression = true
	return &http.Client{Transport: tr, Timeout: time.Minute}
}

// treasuryPhase plays games on fresh treasury servers (c.servers of them on
// one database) and returns what the clients measured and the move bodies
// they sent.
func treasuryPhase(ctx context.Context, c config, bin, dir, database, profile, clientProfile string) (play.Summary, [][]byte, error) {
	// Every client of the run comes from 127.0.0.1, far beyond what one
	// address or credential may send to a public server: no rate limits.
	env := []string{"TREASURY_RATE_PER_ADDRESS=0", "TREASURY_RATE_PER_CREDENTIAL=0", "TREASURY_CREATE_RATE_PER_ADDRESS=0"}
	var (
		pprofAddrs []string // of every server, when profiled
		err        error
	)
	hc := httpClient(c.clients)
	var (
		srvs []*proc.Server
		cls  []*client.ClientWithResponses
	)
	defer func() {
		for _, s := range srvs {
			s.Stop()
		}
	}()
	for i := range c.servers {
		addr, err := proc.FreeAddress()
		if err != nil {
			return play.Summary{}, nil, err
		}
		e := env
		if profile != "" {
			pa, err := proc.FreeAddress()
			if err != nil {
				return play.Summary{}, nil, err
			}
			pprofAddrs = append(pprofAddrs, pa)
			e = append(slices.Clip(env), "TREASURY_PPROF="+pa)
		}
		args := []string{"serve", "--address", addr, "--database", database, "--log-level", "warn"}
		srv, err := proc.Start(ctx, bin, args, addr, "/healthz", filepath.Join(dir, fmt.Sprintf("treasury-%d.log", i+1)), e...)
		if err != nil {
			return play.Summary{}, nil, err
		}
		srvs = append(srvs, srv)
		cl, err := client.NewClientWithResponses(srv.URL, client.WithHTTPClient(hc))
		if err != nil {
			return play.Summary{}, nil, err
		}
		cls = append(cls, cl)
	}
	cpuTime := func() time.Duration {
		var d time.Duration
		for _, s := range srvs {
			d += s.CPUTime()
		}
		return d
	}
	written := func() int64 {
		var n int64
		for _, s := range srvs {
			if w := s.WrittenBytes(); w >= 0 {
				n += w
			}
		}
		return n
	}

	rec := play.NewRecorder()
	stop := make(chan struct{})
	opts := play.Options{Client: cls[0], Idempotency: c.idempotency, Ruleset: c.ruleset, Stop: stop, Stream: c.follow}
	var lb *nginx.Proxy
	if len(cls) > 1 && c.unrouted {
		opts.Servers = cls
	} else if c.nginx {
		backends := make([]string, len(srvs))
		for i, s := range srvs {
			backends[i] = s.Address
		}
		lbDir := filepath.Join(dir, "nginx")
		if err := os.MkdirAll(lbDir, 0o755); err != nil {
			return play.Summary{}, nil, err
		}
		if lb, err = nginx.Start(ctx, lbDir, backends); err != nil {
			return play.Summary{}, nil, err
		}
		defer lb.Stop()
		if opts.Client, err = client.NewClientWithResponses(lb.URL, client.WithHTTPClient(hc)); err != nil {
			return play.Summary{}, nil, err
		}
	}
	tables := c.clients / play.Seats
	var (
		started  atomic.Int64
		wg       sync.WaitGroup
		errMu    sync.Mutex
		firstErr error
	)
	lbCPU := func() time.Duration {
		if lb == nil {
			return 0
		}
		return lb.CPUTime()
	}
	start, cpu0, own0, written0, lb0 := time.Now(), cpuTime(), selfCPU(), written(), lbCPU()
	if c.games <= 0 {
		timer := time.AfterFunc(c.duration, func() { close(stop) })
		defer timer.Stop()
	}
	profiled := make(chan error, len(pprofAddrs))
	secs := int(c.duration.Seconds()) - 2
	if c.games > 0 {
		secs = 10
	}
	for i, pa := range pprofAddrs {
		path := profile
		if len(pprofAddrs) > 1 {
			path = fmt.Sprintf("%s.%d", profile, i+1)
		}
		go func() { profiled <- fetchProfile(pa, max(secs, 1), path) }()
	}
	if clientProfile != "" {
		f, err := os.Create(clientProfile)
		if err != nil {
			return play.Summary{}, nil, err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return play.Summary{}, nil, err
		}
		defer pprof.StopCPUProfile()
	}
	for t := range tables {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := 0; ; g++ {
				if c.games > 0 && started.Add(1) > int64(c.games) {
					return
				}
				if proc.Over(ctx, stop) {
					return
				}
				if _, err := play.Play(ctx, opts, rec, uint64(t)<<32|uint64(g)); err != nil {
					errMu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					errMu.Unlock()
					return
				}
			}
		}()
	}
	wg.Wait()
	elapsed, cpu, own, wrote, lbUsed := time.Since(start), cpuTime()-cpu0, selfCPU()-own0, written()-written0, lbCPU()-lb0
	grouped, err := writesPerCommit(ctx, hc, srvs[0].URL)
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadrun: metrics:", err)
	}
	for range pprofAddrs {
		if err := <-profiled; err != nil {
			fmt.Fprintln(os.Stderr, "loadrun: profile:", err)
		}
	}
	if firstErr != nil {
		return play.Summary{}, nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return play.Summary{}, nil, err
	}
	sum := withCPU(rec.Summary(elapsed), cpu, own)
	sum.WritesPerCommit = grouped
	if lb != nil {
		sum.Proxied, sum.ProxyCPU = true, perMoveCPU(lbUsed, sum.Accepted)
	}
	if c.database != "postgres" {
		sum.WrittenPerMove = perMove(wrote, sum.Accepted)
	}
	return sum, rec.Bodies(), nil
}

// writesPerCommit reads from the server's /metrics how many writes its store
// grouped per commit, on average since it started.
func writesPerCommit(ctx context.Context, hc *http.Client, base string) (float64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/metrics", nil)
	if err != nil {
		return 0, err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	var sum, count float64
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			continue
		}
		switch name {
		case "treasury_store_commit_writes_sum":
			sum, err = strconv.ParseFloat(value, 64)
		case "treasury_store_commit_writes_count":
			count, err = strconv.ParseFloat(value, 64)
		}
		if err != nil {
			return 0, fmt.Errorf("%s: %w", name, err)
		}
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	if count == 0 {
		return 0, fmt.Errorf("no treasury_store_commit_writes in /metrics")
	}
	return sum / count, nil
}

// withCPU adds the CPU time per accepted move to s.
func withCPU(s play.Summary, server, clients time.Duration) play.Summary {
	if s.Accepted > 0 {
		s.ServerCPU = float64(server.Microseconds()) / float64(s.Accepted)
		s.ClientCPU = float64(clients.Microseconds()) / float64(s.Accepted)
	}
	return s
}

// perMove is bytes per accepted move.
func perMove(bytes, accepted int64) float64 {
	if accepted == 0 {
		return 0
	}
	return float64(bytes) / float64(accepted)
}

// selfCPU is the CPU time this process has used so far.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func fetchProfile(addr string, secs int, path string) error {
	resp, err := http.Get(fmt.Sprintf("http://%s/debug/pprof/profile?seconds=%d", addr, secs))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("pprof answered %s", resp.Status)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// floorPhase sends clients closed loops of move submissions to a fresh floor
// server for d.
func floorPhase(ctx context.Context, c config, bin, dir, pgURL string, bodies [][]byte, d time.Duration) (play.Summary, error) {
	if len(bodies) == 0 {
		return play.Summary{}, errors.New("the treasury phase sent no moves to copy")
	}
	addr, err := proc.FreeAddress()
	if err != nil {
		return play.Summary{}, err
	}
	args := []string{"--address", addr, "--database", filepath.Join(dir, "floor.db")}
	if pgURL != "" {
		args = append(args, "--postgres", pgURL)
	}
	srv, err := proc.Start(ctx, bin, args, addr, "/healthz", filepath.Join(dir, "floor.log"))
	if err != nil {
		return play.Summary{}, err
	}
	defer srv.Stop()

	cl, err := client.NewClientWithResponses(srv.URL, client.WithHTTPClient(httpClient(c.clients)))
	if err != nil {
		return play.Summary{}, err
	}
	rec := play.NewRecorder()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	start, cpu0, own0, written0 := time.Now(), srv.CPUTime(), selfCPU(), srv.WrittenBytes()
	time.AfterFunc(d, func() { close(stop) })
	for i := range c.clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(i), 7))
			id := fmt.Sprintf("floor-%d", i/play.Seats)
			for {
				if proc.Over(ctx, stop) {
					return
				}
				if err := floorMove(ctx, cl, id, bodies[r.IntN(len(bodies))], rec); err != nil {
					rec.Error("transport")
					return
				}
			}
		}()
	}
	wg.Wait()
	elapsed, cpu, own, wrote := time.Since(start), srv.CPUTime()-cpu0, selfCPU()-own0, srv.WrittenBytes()-written0
	if err := ctx.Err(); err != nil {
		return play.Summary{}, err
	}
	sum := withCPU(rec.Summary(elapsed), cpu, own)
	if written0 >= 0 && pgURL == "" {
		sum.WrittenPerMove = perMove(wrote, sum.Accepted)
	}
	return sum, nil
}

func floorMove(ctx context.Context, cl *client.ClientWithResponses, id string, body []byte, rec *play.Recorder) error {
	start := time.Now()
	resp, err := cl.SubmitMoveWithBody(ctx, id, nil, "application/json", strings.NewReader(string(body)))
	if err != nil {
		return err
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err != nil {
		return err
	}
	code := ""
	if resp.StatusCode != http.StatusOK {
		code = "-"
	}
	rec.Move(time.Since(start), resp.StatusCode, code, body)
	return nil
}

// rulesetNames returns the names of the games the server plays that the
// load run can play: digital games of play.Seats players.
func rulesetNames() []string {
	var names []string
	for _, r := range rulesets.All() {
		if i := r.Info(); i.MinPlayers <= play.Seats && play.Seats <= i.MaxPlayers && slices.Contains(i.Modes, "digital") {
			names = append(names, r.Name())
		}
	}
	return names
}
