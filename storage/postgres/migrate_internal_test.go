package postgres

import (
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/storage/internal/migrate"
	"github.com/treasury-games/treasury/storage/internal/migrate/migratetest"
	"github.com/treasury-games/treasury/storage/postgres/pgtest"
)

// TestMigrationLoader holds the shared loader to its promises on a real
// PostgreSQL database, on one pooled connection as Open uses.
func TestMigrationLoader(t *testing.T) {
	migratetest.Run(t, dialect, func(t *testing.T) migrate.Conn {
		pool, err := pgxpool.New(t.Context(), pgtest.Database(t))
		require.NoError(t, err)
		t.Cleanup(pool.Close)
		conn, err := pool.Acquire(t.Context())
		require.NoError(t, err)
		t.Cleanup(conn.Release)
		return pgxConn{pgxQuerier{conn}, conn}
	})
}
