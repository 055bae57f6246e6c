package storetest

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
)

func testDeleteIdleGames(t *testing.T, open func(t *testing.T) domain.Store) {
	t.Run("deletes the games idle since before the time, with all they hold", func(t *testing.T) {
		s := open(t)
		ctx := t.Context()
		MustCreate(t, s, "idle") // updated at T0+1ms
		AppendN(t, s, "idle", 2) // moves at T0+1s, T0+2s
		MustCreate(t, s, "fresh")
		AppendN(t, s, "fresh", 3) // its last move at T0+3s
		a := Move("idle", 2)
		a.Idempotency = &domain.IdempotencyRecord{Key: "k", Scope: "host", RequestHash: "h", Status: 200, Response: []byte(`{"seq":3}`)}
		a.Move.At = T0.Add(2500 * time.Millisecond)
		require.NoError(t, s.Append(ctx, a))

		n, err := s.DeleteIdleGames(ctx, T0.Add(3*time.Second))
		require.NoError(t, err)
		assert.Equal(t, 1, n)
		_, err = s.Game(ctx, "idle")
		RequireCode(t, err, domain.NotFound)
		_, err = s.Credentials(ctx, "idle")
		RequireCode(t, err, domain.NotFound)
		_, err = s.Moves(ctx, "idle", 0, 0)
		RequireCode(t, err, domain.NotFound)
		rec, err := s.Idempotency(ctx, "idle", "host", "k")
		require.NoError(t, err)
		assert.Nil(t, rec, "the deleted game's idempotency records are gone")

		g, err := s.Game(ctx, "fresh")
		require.NoError(t, err)
		assert.EqualValues(t, 3, g.Version)
		_, err = s.Catalog(ctx, Catalog.Hash)
		require.NoError(t, err, "the catalog other games share stays")
		require.NoError(t, s.Append(ctx, Move("fresh", 3)), "a game that is not idle plays on")
		MustCreate(t, s, "idle") // its id may be used again
	})

	t.Run("deletes more games than one transaction holds", func(t *testing.T) {
		s := open(t)
		for i := range 250 {
			MustCreate(t, s, fmt.Sprintf("g%03d", i))
		}
		n, err := s.DeleteIdleGames(t.Context(), T0.Add(time.Hour))
		require.NoError(t, err)
		assert.Equal(t, 250, n)
		n, err = s.DeleteIdleGames(t.Context(), T0.Add(time.Hour))
		require.NoError(t, err)
		assert.Zero(t, n)
	})
}

func testMoveAudience(t *testing.T, open func(t *testing.T) domain.Store) {
	t.Run("a move's public form and audience come back as stored", func(t *testing.T) {
		s := open(t)
		ctx := t.Context()
		MustCreate(t, s, "g1")
		hidden := Move("g1", 0)
		hidden.Move.Public, hidden.Move.For, hidden.Move.NotHost = []byte(`{"type":"keep"}`), 1, true
		require.NoError(t, s.Append(ctx, hidden))
		open := Move("g1", 1)
		open.Move.For = -1
		require.NoError(t, s.Append(ctx, open))
		got, err := s.Moves(ctx, "g1", 0, 0)
		require.NoError(t, err)
		require.Len(t, got, 2)
		assert.Equal(t, `{"type":"keep"}`, string(got[0].Public))
		assert.Equal(t, 1, got[0].For)
		assert.True(t, got[0].NotHost)
		assert.Nil(t, got[1].Public, "a move that hides nothing has no public form")
		assert.Equal(t, -1, got[1].For)
		assert.False(t, got[1].NotHost)
	})
}
