package postgres_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

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
