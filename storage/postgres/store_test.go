package postgres_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/storage/postgres"
	"github.com/treasury-games/treasury/storage/postgres/pgtest"
	"github.com/treasury-games/treasury/storage/storetest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// openStore opens a store on a new database and closes it when the test ends.
func openStore(t testing.TB, opts ...postgres.Option) (*postgres.Store, string) {
	t.Helper()
	url := pgtest.Database(t)
	s, err := postgres.Open(t.Context(), url, opts...)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s, url
}

func TestStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) domain.Store {
		s, _ := openStore(t)
		return s
	})
}

// rawConn connects to the store's database directly, to look behind the API.
func rawConn(t testing.TB, url string) *pgx.Conn {
	t.Helper()
	c, err := pgx.Connect(t.Context(), url)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

func TestOpen(t *testing.T) {
	t.Run("applies every migration once and records it", func(t *testing.T) {
		s, url := openStore(t)
		storetest.MustCreate(t, s, "g1")
		storetest.AppendN(t, s, "g1", 3)
		require.NoError(t, s.Close())
		applied := func() []string {
			rows, _ := rawConn(t, url).Query(t.Context(), `SELECT name || ' ' || applied_at FROM schema_migrations ORDER BY version`)
			out, err := pgx.CollectRows(rows, pgx.RowTo[string])
			require.NoError(t, err)
			return out
		}
		before := applied()
		require.Len(t, before, len(postgres.MigrationNames()))
		for i, name := range postgres.MigrationNames() {
			assert.Contains(t, before[i], name)
		}

		s, err := postgres.Open(t.Context(), url)
		require.NoError(t, err)
		defer s.Close()
		g, err := s.Game(t.Context(), "g1")
		require.NoError(t, err)
		assert.Equal(t, int64(3), g.Version)
		assert.Equal(t, before, applied(), "reopening applies nothing again")
	})

	t.Run("servers starting together on a new database migrate it once", func(t *testing.T) {
		url := pgtest.Database(t)
		errs := make(chan error, 4)
		for range 4 {
			go func() {
				s, err := postgres.Open(context.Background(), url)
				if err == nil {
					s.Close()
				}
				errs <- err
			}()
		}
		for range 4 {
			require.NoError(t, <-errs)
		}
	})

	t.Run("a database newer than this build is refused", func(t *testing.T) {
		s, url := openStore(t)
		require.NoError(t, s.Close())
		_, err := rawConn(t, url).Exec(t.Context(), `INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, '9999_future.sql', now())`)
		require.NoError(t, err)

		_, err = postgres.Open(t.Context(), url)
		require.ErrorContains(t, err, fmt.Sprintf("schema version 9999, newer than this build's %d", postgres.LatestVersion()))
	})

	t.Run("a URL that cannot be parsed is refused without echoing it", func(t *testing.T) {
		_, err := postgres.Open(t.Context(), "postgres://user:s3cret@host:notaport/db")
		require.Error(t, err)
		assert.NotContains(t, err.Error(), "s3cret")
	})

	t.Run("an unreachable server is an error, not a hang", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(t.Context(), 10e9)
		defer cancel()
		_, err := postgres.Open(ctx, "postgres://nobody@127.0.0.1:1/none?connect_timeout=2")
		require.Error(t, err)
	})
}

func TestCommitObserver(t *testing.T) {
	t.Run("hears every committed write, and no failed one", func(t *testing.T) {
		var (
			mu     sync.Mutex
			writes []int
			took   time.Duration
		)
		s, _ := openStore(t, postgres.WithCommitObserver(func(d time.Duration, n int) {
			mu.Lock()
			defer mu.Unlock()
			writes = append(writes, n)
			took += d
		}))
		storetest.MustCreate(t, s, "g1")
		storetest.AppendN(t, s, "g1", 2)
		storetest.RequireCode(t, s.Append(t.Context(), storetest.Move("g1", 0)), domain.Conflict)

		mu.Lock()
		defer mu.Unlock()
		assert.Equal(t, []int{1, 1, 1}, writes)
		assert.Positive(t, took)
	})
}
