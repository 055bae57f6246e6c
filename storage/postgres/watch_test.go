package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/storage/postgres"
	"github.com/treasury-games/treasury/storage/storetest"
)

func TestVersion(t *testing.T) {
	s, _ := openStore(t)
	storetest.MustCreate(t, s, "g1")
	v, err := s.Version(t.Context(), "g1")
	require.NoError(t, err)
	assert.Equal(t, int64(0), v)
	storetest.AppendN(t, s, "g1", 3)
	v, err = s.Version(t.Context(), "g1")
	require.NoError(t, err)
	assert.Equal(t, int64(3), v)
	_, err = s.Version(t.Context(), "nope")
	assert.Equal(t, domain.NotFound, domain.ErrorCode(err))
}

// openURL opens another store on the database at url, as another server would.
func openURL(t *testing.T, url string) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(t.Context(), url)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

type notice struct {
	id  string
	seq int64
}

func TestWatchMoves(t *testing.T) {
	// Two stores on one database stand for two servers.
	a, url := openStore(t)
	b := openURL(t, url)
	notices := make(chan notice, 100)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		done <- b.WatchMoves(ctx, func(id string, seq int64) { notices <- notice{id, seq} })
	}()
	next := func() notice {
		t.Helper()
		select {
		case n := <-notices:
			return n
		case <-time.After(10 * time.Second):
			t.Fatal("no notice within 10s")
			return notice{}
		}
	}
	// The watch may not be listening yet: append until a notice arrives.
	storetest.MustCreate(t, a, "g1")
	var first notice
	for v := int64(0); ; v++ {
		require.NoError(t, a.Append(t.Context(), storetest.Move("g1", v)))
		select {
		case first = <-notices:
			if first.id == "" {
				continue // "listening": the next move is noticed
			}
		case <-time.After(50 * time.Millisecond):
			continue
		}
		break
	}
	assert.Equal(t, "g1", first.id)
	v, err := a.Version(t.Context(), "g1")
	require.NoError(t, err)
	for n := first; n.seq < v; {
		n = next()
		assert.Equal(t, "g1", n.id)
	}

	t.Run("a move that is not stored is not noticed", func(t *testing.T) {
		storetest.RequireCode(t, a.Append(t.Context(), storetest.Move("g1", v-1)), domain.Conflict)
		require.NoError(t, a.Append(t.Context(), storetest.Move("g1", v)))
		assert.Equal(t, notice{"g1", v + 1}, next(), "the conflict sent nothing; the next move is noticed")
	})

	t.Run("every move of every game, in order per game", func(t *testing.T) {
		storetest.MustCreate(t, a, "g2")
		storetest.AppendN(t, a, "g2", 5)
		for want := int64(1); want <= 5; want++ {
			assert.Equal(t, notice{"g2", want}, next())
		}
	})

	t.Run("a lost connection is made again and says notices may be lost", func(t *testing.T) {
		var killed int
		require.NoError(t, rawConn(t, url).QueryRow(t.Context(), `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
			WHERE datname = current_database() AND query = 'LISTEN treasury_moves'`).Scan(&killed))
		require.Equal(t, 1, killed, "the watch's connection")
		assert.Equal(t, notice{"", 0}, next(), "once listening again")
		require.NoError(t, a.Append(t.Context(), storetest.Move("g2", 5)))
		assert.Equal(t, notice{"g2", 6}, next())
	})

	cancel()
	assert.ErrorIs(t, <-done, context.Canceled)
}
