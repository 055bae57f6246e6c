// Command pgappend measures how many moves per second PostgreSQL commits with
// the append statement of storage/postgres (appendSQL: the game's row
// updated at its version and credentials revision, the move and an
// idempotency record inserted from it; 1.6 KB of state, 1 KB of events)
// against the number of connections, with pgbench. Each connection appends
// to a game of its own, one statement and one commit per move, on a durable
// cluster of this run (fsync and synchronous commit on, a Unix socket). For
// contrast, the same statement with a pg_notify inside it, as appends were
// before issue 27: NOTIFY takes a cluster-wide lock at commit, held until
// the commit's WAL flush. Commits that grow with connections show that no
// lock serialises them. The two kinds alternate at each connection count.
//
//	go run ./scripts/pgappend                          # 1, 2, 4, 8, 16, 32 connections, 10 s each
//	go run ./scripts/pgappend -conns 1,8,32 -duration 5s
package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/scripts/internal/proc"
	"github.com/treasury-games/treasury/storage/postgres"
	"github.com/treasury-games/treasury/storage/postgres/pgtest"
)

// appendScript is appendSQL as pgbench runs it: the game of connection
// :client_id moves to its next version. %s is what the statement selects.
const appendScript = `WITH g AS (
	UPDATE games SET version = version + 1, state = repeat('s', 1600)::bytea, phase = 'p', ended = false, updated_at = 1
	WHERE id = 'bench-' || :client_id AND seats_rev = 0
	RETURNING id, version
), m AS (
	INSERT INTO moves (game_id, seq, actor_host, actor_seat, body, events, at, public, for_seat, not_host)
	SELECT id, version, false, 0, '{"type":"keep"}'::bytea, repeat('e', 1000)::bytea, 1, NULL, -1, false FROM g
), i AS (
	INSERT INTO idempotency (game_id, scope, key, request_hash, status, response)
	SELECT id, 'scope', 'k' || version, 'hash', 200, '{"seq":1}'::bytea FROM g
)%s
SELECT (SELECT count(*) FROM g)%s;
`

var kinds = []struct{ name, cte, sel string }{
	{"append", "", ""},
	{"append with pg_notify inside", `, n AS (SELECT pg_notify('treasury_moves', id || ' ' || version) FROM g)`, `, (SELECT count(*) FROM n)`},
}

func main() {
	conns := flag.String("conns", "1,2,4,8,16,32", "pgbench connections (-c), comma-separated")
	duration := flag.Duration("duration", 10*time.Second, "length of each pgbench run")
	flag.Parse()
	var counts []int
	for _, f := range strings.Split(*conns, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			fmt.Fprintln(os.Stderr, "pgappend: -conns takes positive numbers, comma-separated")
			os.Exit(2)
		}
		counts = append(counts, n)
	}
	if err := run(context.Background(), counts, *duration); err != nil {
		fmt.Fprintln(os.Stderr, "pgappend:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, counts []int, d time.Duration) error {
	bench, err := pgbench()
	if err != nil {
		return err
	}
	cluster, err := pgtest.Start(true)
	if err != nil {
		return err
	}
	defer cluster.Stop()
	url, err := cluster.Database(ctx, "pgappend")
	if err != nil {
		return err
	}
	if err := createGames(ctx, url, slices.Max(counts)); err != nil {
		return err
	}
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "pgappend-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)

	fmt.Printf("pgappend %s\nmachine: %s\nPostgreSQL: a cluster of this run on a Unix socket, fsync on; pgbench -M prepared, %s per run, each connection on a game of its own\n\n",
		time.Now().UTC().Format(time.RFC3339), proc.Machine(), d)
	fmt.Printf("%-12s", "connections")
	for _, k := range kinds {
		fmt.Printf("  %30s", k.name+" (commits/s)")
	}
	fmt.Println()
	for _, c := range counts {
		fmt.Printf("%-12d", c)
		for i, k := range kinds {
			script := filepath.Join(dir, fmt.Sprintf("kind%d.sql", i))
			if err := os.WriteFile(script, fmt.Appendf(nil, appendScript, k.cte, k.sel), 0o644); err != nil {
				return err
			}
			tps, err := runBench(ctx, bench, cfg, script, c, d)
			if err != nil {
				return fmt.Errorf("%s, %d connections: %w", k.name, c, err)
			}
			fmt.Printf("  %30.0f", tps)
		}
		fmt.Println()
	}
	return nil
}

// createGames stores games bench-0 … bench-(n-1) through the store, which
// applies the migrations first.
func createGames(ctx context.Context, url string, n int) error {
	s, err := postgres.Open(ctx, url)
	if err != nil {
		return err
	}
	defer s.Close()
	content := []byte(`{"cards":[]}`)
	sum := sha256.Sum256(content)
	cat := domain.CatalogBlob{Name: "bench", Hash: hex.EncodeToString(sum[:]), Content: content}
	for i := range n {
		id := fmt.Sprintf("bench-%d", i)
		g := domain.GameRecord{ID: id, Ruleset: "bench", Mode: domain.Digital, CatalogName: cat.Name, CatalogHash: cat.Hash,
			State: []byte("{}"), Phase: "p"}
		creds := domain.Credentials{HostHash: "host-" + id, SeatHashes: []string{"seat-" + id}}
		if err := s.CreateGame(ctx, g, creds, cat); err != nil {
			return err
		}
	}
	return nil
}

var tpsLine = regexp.MustCompile(`tps = ([0-9.]+)`)

// runBench runs pgbench with script on c connections for d and returns its
// transactions per second.
func runBench(ctx context.Context, bench string, cfg *pgx.ConnConfig, script string, c int, d time.Duration) (float64, error) {
	args := []string{"-n", "-M", "prepared", "-f", script, "-c", strconv.Itoa(c), "-j", strconv.Itoa(min(c, 4)),
		"-T", strconv.Itoa(max(1, int(d.Seconds()))), "-h", cfg.Host, "-p", strconv.Itoa(int(cfg.Port)), "-U", cfg.User, cfg.Database}
	out, err := exec.CommandContext(ctx, bench, args...).CombinedOutput()
	if err != nil {
		return 0, fmt.Errorf("%v\n%s", err, out)
	}
	m := tpsLine.FindSubmatch(out)
	if m == nil {
		return 0, fmt.Errorf("no tps in pgbench's output:\n%s", out)
	}
	return strconv.ParseFloat(string(m[1]), 64)
}

// pgbench finds Debian's newest pgbench, or one on PATH.
func pgbench() (string, error) {
	found, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pgbench")
	if len(found) > 0 {
		return found[len(found)-1], nil
	}
	if p, err := exec.LookPath("pgbench"); err == nil {
		return p, nil
	}
	return "", errors.New("pgbench not found (Debian: the postgresql-client or postgresql package)")
}
