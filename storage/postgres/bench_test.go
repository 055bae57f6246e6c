package postgres_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/storage/postgres"
	"github.com/treasury-games/treasury/storage/storetest"
)

// BenchmarkAppend appends moves to one game, one after another (each waits
// for the previous commit), and to many games at once (commits overlap). The
// test cluster runs with fsync off: these are the costs of the statement and
// its round trip, not of the disk.
func BenchmarkAppend(b *testing.B) {
	b.Run("one game", func(b *testing.B) {
		s, _ := openStore(b)
		storetest.MustCreate(b, s, "g")
		ctx := context.Background()
		b.ResetTimer()
		for v := range int64(b.N) {
			if err := s.Append(ctx, storetest.Move("g", v)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("many games, rows of a real game", func(b *testing.B) {
		// A Silver & Gold game's rows: 1.6 KB of state, 1 KB of events, an
		// idempotency record with each move, and the state each move was
		// applied to checked, as the service has it checked.
		s, url := openStore(b)
		raw := rawConn(b, url)
		walBefore := walLSN(b, raw)
		var next atomic.Int64
		b.SetParallelism(8)
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			id := fmt.Sprint("g", next.Add(1))
			base := storetest.MustCreate(b, s, id).State
			ctx := context.Background()
			for v := int64(0); pb.Next(); v++ {
				if err := s.Append(ctx, realMove(id, v, &base)); err != nil {
					b.Error(err)
					return
				}
			}
		})
		b.StopTimer()
		// The WAL each append writes (the database's own work per move, what
		// a replica receives), and how many of the games' row updates were
		// HOT (no new index entries).
		walAfter := walLSN(b, raw)
		var upd, hot int64
		ctx := context.Background()
		if _, err := raw.Exec(ctx, `SELECT pg_stat_force_next_flush()`); err != nil {
			b.Fatal(err)
		}
		if err := raw.QueryRow(ctx, `SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = 'games'`).Scan(&upd, &hot); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(walAfter-walBefore)/float64(b.N), "WAL-B/op")
		if upd > 0 {
			b.ReportMetric(100*float64(hot)/float64(upd), "%HOT")
		}
	})
	b.Run("many games", func(b *testing.B) {
		s, _ := openStore(b)
		var next atomic.Int64
		b.SetParallelism(8)
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			id := fmt.Sprint("g", next.Add(1))
			storetest.MustCreate(b, s, id)
			ctx := context.Background()
			for v := int64(0); pb.Next(); v++ {
				if err := s.Append(ctx, storetest.Move(id, v)); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
}

// realMove is move v of game id with the rows of a real game (see
// BenchmarkAppend), applied to *base, which it sets to its own state.
func realMove(id string, v int64, base *[]byte) domain.Append {
	a := storetest.Move(id, v)
	a.State, a.Move.Events, a.ExpectState = realState, realEvents, *base
	*base = realState
	a.Idempotency = &domain.IdempotencyRecord{Key: fmt.Sprint("k", v), Scope: "seat 0", RequestHash: "h", Status: 200, Response: []byte(`{"seq":1}`)}
	return a
}

var (
	realState  = bytes.Repeat([]byte("s"), 1600)
	realEvents = bytes.Repeat([]byte("e"), 1000)
)

// BenchmarkQueueAppend is the path of a server's moves on a shared store:
// QueueAppend, the group commit of the games ready together (queue.go),
// the answers. 32 games move at once, each its next moves once those before
// are answered, as the load run's tables do: one move at a time, or four
// (the moves of a game's seats queued while its commit is in flight).
// cpu-us/op is this process's CPU (the store's side) per move, and
// pg-cpu-us/op PostgreSQL's backends'; WAL-B/op is the write-ahead log PostgreSQL wrote per
// move, the work of its side that does not depend on a loaded machine.
func BenchmarkQueueAppend(b *testing.B) {
	for _, depth := range []int{1, 4} {
		b.Run(fmt.Sprintf("%d at a time", depth), func(b *testing.B) { benchmarkQueueAppend(b, depth) })
	}
}

func benchmarkQueueAppend(b *testing.B, depth int) {
	var cc commitCounter
	s, url := openStore(b, postgres.WithCommitObserver(cc.observe))
	raw := rawConn(b, url)
	const games = 32
	bases := make([][]byte, games)
	for g := range games {
		bases[g] = storetest.MustCreate(b, s, fmt.Sprint("g", g)).State
	}
	cc.take()
	var next atomic.Int64
	walBefore := walLSN(b, raw)
	backends0 := backendsCPU(b, raw)
	cpu0 := processCPU(b)
	b.ResetTimer()
	var wg sync.WaitGroup
	for g := range games {
		wg.Go(func() {
			id := fmt.Sprint("g", g)
			waits := make([]func() error, 0, depth)
			for v := int64(0); ; {
				waits = waits[:0]
				for range depth {
					if next.Add(1) > int64(b.N) {
						break
					}
					waits = append(waits, s.QueueAppend(context.Background(), realMove(id, v, &bases[g])))
					v++
				}
				for _, w := range waits {
					if err := w(); err != nil {
						b.Error(err)
						return
					}
				}
				if len(waits) < depth {
					return
				}
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	commits, writes := cc.take()
	b.ReportMetric(float64(processCPU(b)-cpu0)/float64(time.Microsecond)/float64(b.N), "cpu-us/op")
	b.ReportMetric(float64(walLSN(b, raw)-walBefore)/float64(b.N), "WAL-B/op")
	var pgCPU time.Duration
	for pid, t := range backendsCPU(b, raw) {
		pgCPU += t - backends0[pid]
	}
	b.ReportMetric(float64(pgCPU)/float64(time.Microsecond)/float64(b.N), "pg-cpu-us/op")
	if commits > 0 {
		b.ReportMetric(float64(writes)/float64(commits), "moves/commit")
	}
}

// backendsCPU is the CPU time each backend of the database but raw's own
// has used, by process id (from /proc/<pid>/schedstat: PostgreSQL's work on
// the store's statements, without its background processes').
func backendsCPU(b *testing.B, raw *pgx.Conn) map[int]time.Duration {
	rows, _ := raw.Query(context.Background(), `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`)
	pids, err := pgx.CollectRows(rows, pgx.RowTo[int32])
	if err != nil {
		b.Fatal(err)
	}
	m := map[int]time.Duration{}
	for _, pid := range pids {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/schedstat", pid))
		if err != nil {
			b.Skip("no CPU time of PostgreSQL's backends:", err)
		}
		var ns int64
		if _, err := fmt.Sscan(string(stat), &ns); err != nil {
			b.Fatal(err)
		}
		m[int(pid)] = time.Duration(ns)
	}
	return m
}

// walLSN is where PostgreSQL's write-ahead log is, in bytes.
func walLSN(b *testing.B, raw *pgx.Conn) int64 {
	var lsn int64
	if err := raw.QueryRow(context.Background(), `SELECT pg_current_wal_insert_lsn() - '0/0'`).Scan(&lsn); err != nil {
		b.Fatal(err)
	}
	return lsn
}

// processCPU is the CPU time this process has used, user and system.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
