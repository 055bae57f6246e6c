package sqlite_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/storage/sqlite"
)

// TestMoveAudience: a move's public form and audience come back as stored;
// a move that hides nothing comes back without a public form.
func TestMoveAudience(t *testing.T) {
	ctx := t.Context()
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "treasury.db"))
	require.NoError(t, err)
	defer s.Close()
	cat := domain.CatalogBlob{Name: "c", Hash: domain.ContentHash([]byte("c")), Content: []byte("c")}
	now := time.Now().UTC()
	require.NoError(t, s.CreateGame(ctx, domain.GameRecord{ID: "g", Ruleset: "r", Mode: "digital", CatalogName: "c", CatalogHash: cat.Hash,
		CreatedAt: now, UpdatedAt: now, State: []byte(`{}`), Phase: "p"}, domain.Credentials{HostHash: "h", SeatHashes: []string{"s0", "s1"}}, cat))
	moves := []domain.MoveRecord{
		{Seq: 1, Actor: domain.Actor{Seat: 1}, Move: []byte(`{"cards":["a"]}`), Public: []byte(`{}`), For: 1, NotHost: true, Events: []byte(`[]`), At: now},
		{Seq: 2, Actor: domain.Actor{Seat: 0}, Move: []byte(`{"open":true}`), For: -1, Events: []byte(`[]`), At: now},
	}
	for i, m := range moves {
		require.NoError(t, s.Append(ctx, domain.Append{GameID: "g", ExpectVersion: int64(i), Move: m, State: []byte(`{}`), Phase: "p"}))
	}
	got, err := s.Moves(ctx, "g", 0, 0)
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, `{}`, string(got[0].Public))
	assert.Equal(t, 1, got[0].For)
	assert.True(t, got[0].NotHost)
	assert.Nil(t, got[1].Public, "a move that hides nothing has no public form")
	assert.False(t, got[1].NotHost)
}
