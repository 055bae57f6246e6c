// Command crashrun checks that Treasury loses nothing it acknowledged when it
// dies. It builds the real server, plays games against it with concurrent
// clients (one per seat, every move and every game's creation sent with an
// Idempotency-Key and sent again with the same key until it gets an answer,
// a creation answered 503 too), and kills the server with
// SIGKILL at random moments, restarting it on the same database file each
// time. After each kill it opens the file with the sqlite3 driver and runs
// PRAGMA integrity_check. At the end it checks that:
//
//   - every move the clients saw answered 200 is in the move log, at the
//     sequence number the answer gave, with the same type and seat;
//   - every stored game is one whose creation a table got the answer of (a
//     creation sent again made no second game);
//   - every stored game replays, move by move with its ruleset from its
//     setup, to exactly the snapshot stored with it;
//   - the file passes PRAGMA integrity_check.
//
// Run it from the repository (about half a minute):
//
//	go run ./scripts/crashrun                 # 20 kills, 16 clients
//	go run ./scripts/crashrun -kills 25 -clients 32
//
// It exits with status 1 if a move is lost, a game is created twice, a game
// does not replay, or the file is damaged.
package main

import (
	"context"
	"database/sql"
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
	"slices"
	"sync"
	"syscall"
	"time"

	_ "github.com/mattn/go-sqlite3"

	"github.com/treasury-games/treasury/api/client"
	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/rulesets"
	"github.com/treasury-games/treasury/scripts/internal/play"
	"github.com/treasury-games/treasury/scripts/internal/proc"
	"github.com/treasury-games/treasury/storage/postgres"
	"github.com/treasury-games/treasury/storage/postgres/pgtest"
	"github.com/treasury-games/treasury/storage/sqlite"
)

type config struct {
	kills   int
	clients int
	minUp   time.Duration
	maxUp   time.Duration
	seed    uint64
	keep    bool
	ruleset string // the game the tables play ("": Silver & Gold)

	database string // sqlite or postgres
	servers  int
	pgKills  int // kills of the PostgreSQL server, among the -kills
}

func main() {
	var c config
	flag.IntVar(&c.kills, "kills", 20, "how many times to kill the server")
	flag.IntVar(&c.clients, "clients", 16, "concurrent clients: one per seat, 4 per table (a multiple of 4)")
	flag.DurationVar(&c.minUp, "min-up", 200*time.Millisecond, "shortest time the server runs under load before a kill")
	flag.DurationVar(&c.maxUp, "max-up", 1200*time.Millisecond, "longest time the server runs under load before a kill")
	flag.Uint64Var(&c.seed, "seed", uint64(time.Now().UnixNano()), "seed of the kill moments and the clients' choices")
	flag.BoolVar(&c.keep, "keep", false, "keep the temporary directory (database and server log)")
	flag.StringVar(&c.ruleset, "ruleset", "silver-and-gold", "the game the tables play (a name of GET /v1/rulesets)")
	flag.StringVar(&c.database, "database", "sqlite", "sqlite (a file) or postgres (a throwaway PostgreSQL cluster this run starts, fsync on)")
	flag.IntVar(&c.servers, "servers", 1, "treasury servers on the one database (more than 1 with -database postgres); each kill takes one at random while the clients retry on the others")
	flag.IntVar(&c.pgKills, "pg-kills", 1, "with -database postgres: how many of the kills also SIGKILL the PostgreSQL server (and start it again)")
	flag.Parse()
	if c.kills < 1 || c.clients < play.Seats || c.clients%play.Seats != 0 || c.minUp <= 0 || c.maxUp < c.minUp ||
		(c.database != "sqlite" && c.database != "postgres") || c.servers < 1 || (c.servers > 1 && c.database != "postgres") || c.pgKills < 0 ||
		!slices.ContainsFunc(rulesets.All(), func(r domain.Ruleset) bool { return r.Name() == c.ruleset }) {
		fmt.Fprintln(os.Stderr, "crashrun: -kills must be at least 1, -clients a positive multiple of 4, 0 < -min-up <= -max-up, -database sqlite or postgres, -servers 1 or more with postgres, -ruleset a game the server plays")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	res, err := run(ctx, c, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "crashrun:", err)
		os.Exit(1)
	}
	if !res.ok() {
		os.Exit(1)
	}
}

// Result is what the run found.
type Result struct {
	Kills            int
	DatabaseKills    int // of the PostgreSQL server
	Acknowledged     int // moves answered 200
	Replayed         int // of which answered from their Idempotency-Key after a kill
	Retries          int // requests sent again after a kill
	Lost             int // acknowledged moves missing from the log, or different there
	Unclaimed        int // stored games no table got the answer of: a creation made twice
	IntegrityChecks  int
	IntegrityFailed  int
	Games            int // stored games replayed
	Moves            int // stored moves replayed
	ReplayMismatches int
	ClientErrors     map[string]int
}

func (r Result) ok() bool {
	return r.Lost == 0 && r.Unclaimed == 0 && r.IntegrityFailed == 0 && r.ReplayMismatches == 0
}

// acks collects the acknowledged moves and the games the tables created.
type acks struct {
	mu    sync.Mutex
	list  []play.Ack
	games map[string]bool
}

func (a *acks) add(x play.Ack) {
	a.mu.Lock()
	a.list = append(a.list, x)
	a.mu.Unlock()
}

// created notes a game whose creation a table got the answer of.
func (a *acks) created(id string) {
	a.mu.Lock()
	if a.games == nil {
		a.games = map[string]bool{}
	}
	a.games[id] = true
	a.mu.Unlock()
}

func run(ctx context.Context, c config, out io.Writer) (Result, error) {
	var res Result
	ws, err := proc.NewWorkspace("crashrun", c.keep, out)
	if err != nil {
		return res, err
	}
	defer ws.Close()
	root, tmp := ws.Root, ws.Dir
	bin := filepath.Join(tmp, "treasury")
	if err := proc.Build(ctx, root, "./cmd/treasury", bin); err != nil {
		return res, err
	}
	dbPath, database := filepath.Join(tmp, "crash.db"), ""
	var cluster *pgtest.Cluster
	if c.database == "postgres" {
		if cluster, err = pgtest.Start(true); err != nil {
			return res, err
		}
		defer cluster.Stop()
		if database, err = cluster.Database(ctx, "crash"); err != nil {
			return res, err
		}
	} else {
		database = dbPath
	}
	// All clients share 127.0.0.1: no rate limits.
	env := []string{"TREASURY_RATE_PER_ADDRESS=0", "TREASURY_RATE_PER_CREDENTIAL=0", "TREASURY_CREATE_RATE_PER_ADDRESS=0"}
	addrs := make([]string, c.servers)
	for i := range addrs {
		if addrs[i], err = proc.FreeAddress(); err != nil {
			return res, err
		}
	}
	start := func(i int) (*proc.Server, error) {
		args := []string{"serve", "--address", addrs[i], "--database", database, "--log-level", "warn"}
		return proc.Start(ctx, bin, args, addrs[i], "/healthz", filepath.Join(tmp, fmt.Sprintf("treasury-%d.log", i+1)), env...)
	}
	fmt.Fprintf(out, "crash run %s\nmachine: %s\ntreasury: %d server(s) on %s\nclients: %d (%d tables x %d seats), %d kills, %s to %s of load before each, seed %d\n",
		time.Now().UTC().Format(time.RFC3339), proc.Machine(), c.servers, c.database, c.clients, c.clients/play.Seats, play.Seats, c.kills, c.minUp, c.maxUp, c.seed)

	srvs := make([]*proc.Server, c.servers)
	defer func() {
		for _, s := range srvs {
			if s != nil {
				s.Kill()
			}
		}
	}()
	for i := range srvs {
		if srvs[i], err = start(i); err != nil {
			return res, err
		}
	}

	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 2 * c.clients
	hc := &http.Client{Transport: tr, Timeout: time.Minute}
	var cls []*client.ClientWithResponses
	for _, a := range addrs {
		cl, err := client.NewClientWithResponses("http://"+a, client.WithHTTPClient(hc))
		if err != nil {
			return res, err
		}
		cls = append(cls, cl)
	}
	var acked acks
	rec := play.NewRecorder()
	stop := make(chan struct{})
	opts := play.Options{Client: cls[0], Ruleset: c.ruleset, Idempotency: true, Persist: true, Ack: acked.add, Stop: stop, Poll: 200 * time.Millisecond}
	if len(cls) > 1 {
		opts.Servers = cls
	}
	var wg sync.WaitGroup
	for t := range c.clients / play.Seats {
		wg.Go(func() {
			for g := uint64(0); ; g++ {
				select {
				case <-stop:
					return
				default:
				}
				id, err := play.Play(ctx, opts, rec, c.seed^uint64(t)<<40^g)
				if id != "" {
					acked.created(id)
				}
				if err != nil {
					if ctx.Err() != nil {
						return
					}
					rec.Error("game abandoned: " + err.Error())
				}
			}
		})
	}

	r := rand.New(rand.NewPCG(c.seed, 0))
	for i := range c.kills {
		up := c.minUp + time.Duration(r.Int64N(int64(c.maxUp-c.minUp)+1))
		select {
		case <-time.After(up):
		case <-ctx.Done():
			close(stop)
			wg.Wait()
			return res, ctx.Err()
		}
		k := r.IntN(c.servers)
		srvs[k].Kill()
		srvs[k] = nil
		res.Kills++
		if cluster != nil && res.DatabaseKills < c.pgKills && i >= c.kills/2 {
			// The database crashes too, while a server is down.
			if err := cluster.Kill(); err != nil {
				return res, fmt.Errorf("kill %d, PostgreSQL: %w", i+1, err)
			}
			res.DatabaseKills++
		}
		if cluster == nil {
			ok, err := integrity(dbPath)
			if err != nil {
				return res, fmt.Errorf("after kill %d: %w", i+1, err)
			}
			res.IntegrityChecks++
			if !ok {
				res.IntegrityFailed++
			}
		}
		if srvs[k], err = start(k); err != nil {
			return res, fmt.Errorf("restart after kill %d: %w", i+1, err)
		}
	}
	// Some load on the last start too, then let the clients finish what
	// they have in flight and stop the server as an operator would.
	time.Sleep(c.minUp)
	close(stop)
	wg.Wait()
	for i, s := range srvs {
		if err := s.Stop(); err != nil {
			return res, err
		}
		srvs[i] = nil
	}

	sum := rec.Summary(time.Second)
	res.Retries, res.ClientErrors = sum.Retries, sum.Errors
	for _, a := range acked.list {
		res.Acknowledged++
		if a.Replayed {
			res.Replayed++
		}
	}
	var st store
	if cluster == nil {
		ok, err := integrity(dbPath)
		if err != nil {
			return res, err
		}
		res.IntegrityChecks++
		if !ok {
			res.IntegrityFailed++
		}
		if st, err = sqlite.Open(ctx, dbPath); err != nil {
			return res, err
		}
	} else if st, err = postgres.Open(ctx, database); err != nil {
		return res, err
	}
	defer st.Close()
	if err := verify(ctx, st, &acked, &res, out); err != nil {
		return res, err
	}

	fmt.Fprintf(out, "\nkills: %d (of them %d of PostgreSQL too)\nacknowledged moves: %d (%d of them answered from their Idempotency-Key after a kill; %d requests sent again)\n",
		res.Kills, res.DatabaseKills, res.Acknowledged, res.Replayed, res.Retries)
	fmt.Fprintf(out, "lost moves: %d\ngames stored that no table got the answer of (created twice): %d\n", res.Lost, res.Unclaimed)
	fmt.Fprintf(out, "integrity checks: %d, failed: %d\n", res.IntegrityChecks, res.IntegrityFailed)
	fmt.Fprintf(out, "games replayed: %d (%d moves), replay mismatches: %d\n", res.Games, res.Moves, res.ReplayMismatches)
	fmt.Fprintf(out, "error answers and abandoned games: %s\n", play.Counts(res.ClientErrors))
	if res.ok() {
		fmt.Fprintln(out, "result: ok")
	} else {
		fmt.Fprintln(out, "result: FAILED")
	}
	return res, nil
}

// integrity opens the database file with the sqlite3 driver, as anyone
// would after a crash, and runs PRAGMA integrity_check.
func integrity(path string) (bool, error) {
	db, err := sql.Open("sqlite3", path+"?_busy_timeout=5000")
	if err != nil {
		return false, err
	}
	defer db.Close()
	rows, err := db.Query(`PRAGMA integrity_check`)
	if err != nil {
		return false, fmt.Errorf("integrity_check: %w", err)
	}
	defer rows.Close()
	ok := false
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return false, err
		}
		if line == "ok" {
			ok = true
		} else {
			fmt.Fprintln(os.Stderr, "crashrun: integrity_check:", line)
			ok = false
		}
	}
	return ok, rows.Err()
}

// verify checks every acknowledged move against the log, that every stored
// game is one a table got the answer of (a creation sent again after a kill
// made no second game), and replays every stored game to its stored
// snapshot.
func verify(ctx context.Context, st store, acked *acks, res *Result, out io.Writer) error {
	ids, err := gameIDs(ctx, st)
	if err != nil {
		return err
	}
	logs := map[string]map[int64]domain.MoveRecord{}
	for _, id := range ids {
		moves, err := st.Moves(ctx, id, 0, 0)
		if err != nil {
			return err
		}
		bySeq := make(map[int64]domain.MoveRecord, len(moves))
		for _, m := range moves {
			bySeq[m.Seq] = m
		}
		logs[id] = bySeq
		if !acked.games[id] {
			res.Unclaimed++
			fmt.Fprintf(out, "unclaimed: game %s (%d moves) is stored and no table got the answer to its creation\n", id, len(moves))
		}
		res.Games++
		res.Moves += len(moves)
		if msg := replay(ctx, st, id, moves); msg != "" {
			res.ReplayMismatches++
			fmt.Fprintf(out, "replay of game %s: %s\nits log:\n", id, msg)
			for _, m := range moves {
				fmt.Fprintf(out, "  %d %s host=%v seat=%d %s\n", m.Seq, m.At.Format(time.RFC3339Nano), m.Actor.Host, m.Actor.Seat, m.Move)
			}
		}
	}
	for _, a := range acked.list {
		m, ok := logs[a.Game][a.Seq]
		if !ok {
			res.Lost++
			fmt.Fprintf(out, "lost: game %s move %d (%s by seat %d) was acknowledged and is not in the log\n", a.Game, a.Seq, a.Type, a.Seat)
			continue
		}
		var logged struct {
			Type string `json:"type"`
			Seat *int   `json:"seat"`
		}
		if err := json.Unmarshal(m.Move, &logged); err != nil || logged.Type != a.Type || logged.Seat == nil || *logged.Seat != a.Seat || m.Actor.Host || m.Actor.Seat != a.Seat {
			res.Lost++
			fmt.Fprintf(out, "lost: game %s move %d was acknowledged as %s by seat %d; the log has %s\n", a.Game, a.Seq, a.Type, a.Seat, m.Move)
		}
	}
	return nil
}

// replay rebuilds a stored game from its setup and move log and compares it
// with the stored snapshot; it returns what differs, or "".
func replay(ctx context.Context, st store, id string, moves []domain.MoveRecord) string {
	rec, err := st.Game(ctx, id)
	if err != nil {
		return err.Error()
	}
	all := rulesets.All()
	i := slices.IndexFunc(all, func(r domain.Ruleset) bool { return r.Name() == rec.Ruleset })
	if i < 0 {
		return "no ruleset " + rec.Ruleset
	}
	rules := all[i]
	if rec.Version != int64(len(moves)) {
		return fmt.Sprintf("the game is at version %d and its log has %d moves", rec.Version, len(moves))
	}
	cat, err := st.Catalog(ctx, rec.CatalogHash)
	if err != nil {
		return err.Error()
	}
	stored, err := rules.Restore(rec.State, cat)
	if err != nil {
		return "restore the stored snapshot: " + err.Error()
	}
	rm := make([]domain.ReplayMove, len(moves))
	for i, m := range moves {
		rm[i] = domain.ReplayMove{Actor: m.Actor, Move: m.Move}
	}
	g, bad, err := domain.ReplayLog(rules, stored.Setup(), cat, rm)
	if err != nil {
		return fmt.Sprintf("move %d does not replay: %v", bad, err)
	}
	snap, err := g.Snapshot()
	if err != nil {
		return err.Error()
	}
	if string(snap) != string(rec.State) {
		return "the replayed game differs from the stored snapshot"
	}
	if g.Phase() != rec.Phase || g.Ended() != rec.Ended {
		return fmt.Sprintf("replayed phase %s (ended %v), stored %s (ended %v)", g.Phase(), g.Ended(), rec.Phase, rec.Ended)
	}
	return ""
}

// store is what the checks read: either store has all of it.
type store interface {
	domain.Store
	domain.Exporter
}

// gameIDs lists every stored game.
func gameIDs(ctx context.Context, st store) ([]string, error) {
	var ids []string
	for {
		after := ""
		if len(ids) > 0 {
			after = ids[len(ids)-1]
		}
		page, err := st.GameIDs(ctx, after, 1000)
		if err != nil {
			return nil, err
		}
		if len(page) == 0 {
			break
		}
		ids = append(ids, page...)
	}
	if len(ids) == 0 {
		return nil, errors.New("no game was stored")
	}
	return ids, nil
}
