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
	servers int      // treasury servers on the database, each with a listening connection
	at      dbCounts // when the phase began
}

// dbCounts are a database's totals in pg_stat_database.
type dbCounts struct {
	commits, rollbacks, sessions int64
}

func readDBCounts(ctx context.Context, conn *pgx.Conn) (dbCounts, error) {
	var d dbCounts
	err := conn.QueryRow(ctx, `SELECT xact_commit, xact_rollback, sessions
		FROM pg_stat_database WHERE datname = current_database()`).Scan(&d.commits, &d.rollbacks, &d.sessions)
	return d, err
}

// minCallsPerMove is the fewest calls per move of a statement the report
// lists by itself; the others are summed.
const minCallsPerMove = 0.01

// startPGStats resets the statement counts of the database at url (the
// round's treasury database; the pool's settings are left off), on which
// servers treasury servers will run.
func startPGStats(ctx context.Context, url string, servers int) (*pgStats, error) {
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
	s := &pgStats{url: url, servers: servers}
	s.at, err = readDBCounts(ctx, conn)
	return s, err
}

// report lists the statements sent since start, most called first, per
// accepted move: each called at least minCallsPerMove times per move by
// itself, the rest summed. It also tells what pg_stat_statements does not
// show: the transactions (xact_commit counts every one, and the servers'
// sessions have ended, so their counts are in), the sessions opened, and the
// transactions a listening backend runs to read the notification queue each
// time a notifying statement of any server wakes it.
func (s *pgStats) report(ctx context.Context, moves int64) (string, error) {
	conn, err := pgx.Connect(ctx, s.url)
	if err != nil {
		return "", err
	}
	defer conn.Close(ctx)
	now, err := readDBCounts(ctx, conn)
	if err != nil {
		return "", err
	}
	rows, err := conn.Query(ctx, `SELECT calls, total_exec_time, rows, regexp_replace(query, '\s+', ' ', 'g')
		FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
		ORDER BY calls DESC`)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	n := float64(max(moves, 1))
	var b strings.Builder
	fmt.Fprintf(&b, "            PostgreSQL: %.2f transactions per move (%.3f rolled back), %d sessions opened; statements per move (calls, exec time, rows):\n",
		float64(now.commits-s.at.commits)/n, float64(now.rollbacks-s.at.rollbacks)/n, now.sessions-s.at.sessions)
	var all, rest, notifies float64
	others := 0
	for rows.Next() {
		var (
			calls, nrows int64
			ms           float64
			query        string
		)
		if err := rows.Scan(&calls, &ms, &nrows, &query); err != nil {
			return "", err
		}
		perMove := float64(calls) / n
		all += perMove
		if strings.Contains(query, "pg_notify(") {
			notifies += perMove
		}
		if perMove < minCallsPerMove {
			rest += perMove
			others++
			continue
		}
		if len(query) > 90 {
			query = query[:90] + "…"
		}
		fmt.Fprintf(&b, "              %5.3f  %6.1f us  %5.2f  %s\n", perMove, ms*1000/float64(max(calls, 1)), float64(nrows)/n, query)
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	fmt.Fprintf(&b, "              %5.3f  the %d other statements\n", rest, others)
	fmt.Fprintf(&b, "              %5.3f  in all\n", all)
	fmt.Fprintf(&b, "              %5.3f  notifying statements x %d listening servers: at most as many wake-ups of a listener, each a transaction not in pg_stat_statements\n",
		notifies*float64(s.servers), s.servers)
	return b.String(), nil
}
