package sqlite

import (
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/storage/internal/migrate"
	"github.com/treasury-games/treasury/storage/internal/migrate/migratetest"
)

// TestMigrationLoader holds the shared loader to its promises on a real
// SQLite file, opened as the store opens its writer.
func TestMigrationLoader(t *testing.T) {
	migratetest.Run(t, dialect, func(t *testing.T) migrate.Conn {
		db, err := sql.Open("sqlite3", filepath.Join(t.TempDir(), "m.db")+"?_txlock=immediate")
		require.NoError(t, err)
		db.SetMaxOpenConns(1)
		t.Cleanup(func() { db.Close() })
		return migrate.SQL(db)
	})
}
