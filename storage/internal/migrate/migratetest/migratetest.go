// Package migratetest is what the migration loader guarantees, run by each
// store against its own database with its own dialect.
package migratetest

import (
	"context"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/storage/internal/migrate"
)

// files are three migrations; the third fails halfway (its first statement
// runs, its second names a missing table).
var files = fstest.MapFS{
	"m/0001_a.sql": {Data: []byte(`CREATE TABLE a (x INTEGER)`)},
	"m/0002_b.sql": {Data: []byte(`CREATE TABLE b (x INTEGER)`)},
	"m/0004_c.sql": {Data: []byte(`CREATE TABLE c (x INTEGER); INSERT INTO missing VALUES (1)`)},
}

// Run tests the loader with dialect d on fresh, empty databases that open
// returns (one connection each).
func Run(t *testing.T, d migrate.Dialect, open func(t *testing.T) migrate.Conn) {
	ctx := context.Background()
	load := func(t *testing.T, fs fstest.MapFS) *migrate.Schema {
		s, err := migrate.Load(d, fs, "m")
		require.NoError(t, err)
		return s
	}
	recorded := func(t *testing.T, c migrate.Conn) int {
		n, err := c.QueryInt(ctx, `SELECT COUNT(*) FROM schema_migrations`)
		require.NoError(t, err)
		return n
	}
	exists := func(t *testing.T, c migrate.Conn, table string) bool {
		return c.Exec(ctx, `SELECT COUNT(*) FROM `+table) == nil
	}

	t.Run("applies in order, records each once, and applies nothing twice", func(t *testing.T) {
		c := open(t)
		s := load(t, fstest.MapFS{"m/0001_a.sql": files["m/0001_a.sql"], "m/0002_b.sql": files["m/0002_b.sql"]})
		require.NoError(t, s.Migrate(ctx, c))
		require.NoError(t, s.Migrate(ctx, c)) // would fail creating a again
		v, err := s.Version(ctx, c)
		require.NoError(t, err)
		assert.Equal(t, 2, v)
		assert.Equal(t, 2, recorded(t, c))
		assert.True(t, exists(t, c, "a") && exists(t, c, "b"))
	})

	t.Run("stops where asked and goes on later", func(t *testing.T) {
		c := open(t)
		s := load(t, fstest.MapFS{"m/0001_a.sql": files["m/0001_a.sql"], "m/0002_b.sql": files["m/0002_b.sql"]})
		require.NoError(t, s.MigrateTo(ctx, c, 1))
		assert.False(t, exists(t, c, "b"))
		require.NoError(t, s.Migrate(ctx, c))
		assert.True(t, exists(t, c, "b"))
		assert.Equal(t, 2, recorded(t, c))
	})

	t.Run("a failing migration leaves nothing of itself and keeps those before it", func(t *testing.T) {
		c := open(t)
		s := load(t, files)
		err := s.Migrate(ctx, c)
		require.Error(t, err)
		assert.Contains(t, err.Error(), d.Store+": migration 0004_c.sql")
		assert.False(t, exists(t, c, "c"), "the failed migration's first statement was rolled back")
		v, err := s.Version(ctx, c)
		require.NoError(t, err)
		assert.Equal(t, 2, v)
	})

	t.Run("a database newer than the build is refused", func(t *testing.T) {
		c := open(t)
		s := load(t, fstest.MapFS{"m/0001_a.sql": files["m/0001_a.sql"]})
		require.NoError(t, s.Migrate(ctx, c))
		newer := load(t, fstest.MapFS{"m/0001_a.sql": files["m/0001_a.sql"], "m/0002_b.sql": files["m/0002_b.sql"]})
		require.NoError(t, newer.Migrate(ctx, c))
		err := s.Migrate(ctx, c)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "newer than this build's 1")
	})

	if d.Lock != "" { // PostgreSQL's advisory lock, the only lock a dialect takes
		t.Run("the lock is given back", func(t *testing.T) {
			c := open(t)
			s := load(t, fstest.MapFS{"m/0001_a.sql": files["m/0001_a.sql"]})
			require.NoError(t, s.Migrate(ctx, c))
			n, err := c.QueryInt(ctx, `SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()`)
			require.NoError(t, err)
			assert.Zero(t, n, "advisory locks left on the session")
		})
	}
}
