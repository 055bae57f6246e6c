package sqlite_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
)

func TestDeleteIdleGames(t *testing.T) {
	t.Run("deletes the games idle since before the time, with all they hold", func(t *testing.T) {
		s, path := openStore(t)
		ctx := t.Context()
		mustCreate(t, s, "idle") // updated at t0+1ms
		appendN(t, s, "idle", 2) // moves at t0+1s, t0+2s
		mustCreate(t, s, "fresh")
		appendN(t, s, "fresh", 3) // its last move at t0+3s
		a := move("idle", 2)
		a.Idempotency = &domain.IdempotencyRecord{Key: "k", Scope: "host", RequestHash: "h", Status: 200, Response: []byte(`{"seq":3}`)}
		a.Move.At = t0.Add(2500 * time.Millisecond)
		require.NoError(t, s.Append(ctx, a))

		n, err := s.DeleteIdleGames(ctx, t0.Add(3*time.Second))
		require.NoError(t, err)
		assert.Equal(t, 1, n)
		_, err = s.Game(ctx, "idle")
		requireCode(t, err, domain.NotFound)
		_, err = s.Credentials(ctx, "idle")
		requireCode(t, err, domain.NotFound)
		_, err = s.Moves(ctx, "idle", 0, 0)
		requireCode(t, err, domain.NotFound)
		db := rawDB(t, path)
		for _, table := range []string{"moves", "seats", "idempotency"} {
			var left int
			require.NoError(t, db.QueryRow(`SELECT COUNT(*) FROM `+table+` WHERE game_id = 'idle'`).Scan(&left))
			assert.Zero(t, left, "rows of the deleted game left in %s", table)
		}

		g, err := s.Game(ctx, "fresh")
		require.NoError(t, err)
		assert.EqualValues(t, 3, g.Version)
		_, err = s.Catalog(ctx, testCatalog.Hash)
		require.NoError(t, err, "the catalog other games share stays")
		require.NoError(t, s.Append(ctx, move("fresh", 3)), "a game that is not idle plays on")
	})

	t.Run("deletes more games than one transaction holds", func(t *testing.T) {
		s, _ := openStore(t)
		for i := range 250 {
			mustCreate(t, s, "g"+string(rune('a'+i/26))+string(rune('a'+i%26)))
		}
		n, err := s.DeleteIdleGames(t.Context(), t0.Add(time.Hour))
		require.NoError(t, err)
		assert.Equal(t, 250, n)
		n, err = s.DeleteIdleGames(t.Context(), t0.Add(time.Hour))
		require.NoError(t, err)
		assert.Zero(t, n)
	})
}
