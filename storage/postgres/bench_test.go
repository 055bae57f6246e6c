package postgres_test

import (
	"bytes"
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/treasury-games/treasury/domain"
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
		var walBefore int64
		if err := raw.QueryRow(context.Background(), `SELECT pg_current_wal_insert_lsn() - '0/0'`).Scan(&walBefore); err != nil {
			b.Fatal(err)
		}
		var next atomic.Int64
		state := bytes.Repeat([]byte("s"), 1600)
		events := bytes.Repeat([]byte("e"), 1000)
		b.SetParallelism(8)
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			id := fmt.Sprint("g", next.Add(1))
			base := storetest.MustCreate(b, s, id).State
			ctx := context.Background()
			for v := int64(0); pb.Next(); v++ {
				a := storetest.Move(id, v)
				a.State, a.Move.Events, a.ExpectState = state, events, base
				base = state
				a.Idempotency = &domain.IdempotencyRecord{Key: fmt.Sprint("k", v), Scope: "seat 0", RequestHash: "h", Status: 200, Response: []byte(`{"seq":1}`)}
				if err := s.Append(ctx, a); err != nil {
					b.Error(err)
					return
				}
			}
		})
		b.StopTimer()
		// The WAL each append writes (the database's own work per move, what
		// a replica receives), and how many of the games' row updates were
		// HOT (no new index entries).
		var walAfter, upd, hot int64
		ctx := context.Background()
		if err := raw.QueryRow(ctx, `SELECT pg_current_wal_insert_lsn() - '0/0'`).Scan(&walAfter); err != nil {
			b.Fatal(err)
		}
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
