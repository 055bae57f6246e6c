package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/treasury-games/treasury/scripts/internal/proc"
	"github.com/treasury-games/treasury/storage/postgres/pgtest"
)

// pgCPU is the CPU time the cluster has used so far; 0 without one. The
// backends of a server just stopped are given a moment to end and be
// reaped, so that their time is counted (in the postmaster's).
func pgCPU(c *pgtest.Cluster) time.Duration {
	if c == nil {
		return 0
	}
	time.Sleep(300 * time.Millisecond)
	return proc.GroupCPUTime(c.PID())
}

func perMoveCPU(d time.Duration, moves int64) float64 {
	if moves <= 0 {
		return 0
	}
	return float64(d.Microseconds()) / float64(moves)
}

// pgStats counts what one database of the cluster was sent during a phase,
// from pg_stat_statements (loaded with -pg-stats) and pg_stat_database.
type pgStats struct {
	url     string
	commits int64 // xact_commit when the phase began
}

// startPGStats resets the statement counts of the database at url (the
// round's treasury database; the pool's settings are left off).
func startPGStats(ctx context.Context, url string) (*pgStats, error) {
	url, _, _ = strings.Cut(url, "&pool_max_conns")
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return nil, err
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements"); err != nil {
		return nil, fmt.Errorf("pg_stat_statements: %w", err)
	}
	if _, err := conn.Exec(ctx, "SELECT pg_stat_statements_reset()"); err != nil {
		return nil, err
	}
	s := &pgStats{url: url}
	err = conn.QueryRow(ctx, "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()").Scan(&s.commits)
	return s, err
}

// report lists the statements sent since start, most called first, per
// accepted move.
func (s *pgStats) report(ctx context.Context, moves int64) (string, error) {
	conn, err := pgx.Connect(ctx, s.url)
	if err != nil {
		return "", err
	}
	defer conn.Close(ctx)
	var commits int64
	if err := conn.QueryRow(ctx, "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()").Scan(&commits); err != nil {
		return "", err
	}
	rows, err := conn.Query(ctx, `SELECT calls, total_exec_time, rows, regexp_replace(query, '\s+', ' ', 'g')
		FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
		ORDER BY calls DESC LIMIT 12`)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	n := float64(max(moves, 1))
	var b strings.Builder
	fmt.Fprintf(&b, "            PostgreSQL: %.2f transactions per move; statements per move (calls, exec time, rows):\n", float64(commits-s.commits)/n)
	var all float64
	for rows.Next() {
		var (
			calls, nrows int64
			ms           float64
			query        string
		)
		if err := rows.Scan(&calls, &ms, &nrows, &query); err != nil {
			return "", err
		}
		all += float64(calls)
		if len(query) > 90 {
			query = query[:90] + "…"
		}
		fmt.Fprintf(&b, "              %5.2f  %6.1f us  %5.2f  %s\n", float64(calls)/n, ms*1000/float64(max(calls, 1)), float64(nrows)/n, query)
	}
	fmt.Fprintf(&b, "              %5.2f  in all (of the 12 most called)\n", all/n)
	return b.String(), rows.Err()
}
