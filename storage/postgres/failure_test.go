package postgres_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/storage/postgres"
	"github.com/treasury-games/treasury/storage/postgres/pgtest"
	"github.com/treasury-games/treasury/storage/storetest"
)

// TestDatabaseDown: while the database server is down, reads and writes are
// Unavailable (503 with Retry-After at the API: retry later, unchanged), not
// internal errors; nothing is half done.
func TestDatabaseDown(t *testing.T) {
	c, url := pgtest.Own(t, "down")
	s, err := postgres.Open(t.Context(), url)
	require.NoError(t, err)
	defer s.Close()
	storetest.MustCreate(t, s, "g1")

	require.NoError(t, c.Stop())
	ctx := t.Context()
	_, err = s.Game(ctx, "g1")
	storetest.RequireCode(t, err, domain.Unavailable)
	err = s.Append(ctx, storetest.Move("g1", 0))
	storetest.RequireCode(t, err, domain.Unavailable)
	_, err = s.Moves(ctx, "g1", 0, 0)
	storetest.RequireCode(t, err, domain.Unavailable)
	// The writes made in a transaction of their own fail at its BEGIN.
	g, creds, cat := storetest.NewGame("g2")
	storetest.RequireCode(t, s.CreateGame(ctx, g, creds, cat), domain.Unavailable)
	storetest.RequireCode(t, s.SetSeat(ctx, "g1", 0, "new", false), domain.Unavailable)
	_, err = s.DeleteIdleGames(ctx, storetest.T0)
	storetest.RequireCode(t, err, domain.Unavailable)
	storetest.RequireCode(t, s.QueueAppend(ctx, storetest.Move("g1", 0))(), domain.Unavailable)
}
