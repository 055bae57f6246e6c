package sqlite_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/storage/sqlite"
)

var t0 = time.Date(2025, 3, 14, 15, 9, 26, 535897932, time.UTC)

// openStore opens a store on a new file in a temp dir and closes it when the
// test ends.
func openStore(t *testing.T, opts ...sqlite.Option) (*sqlite.Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "treasury.db")
	s, err := sqlite.Open(t.Context(), path, opts...)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s, path
}

// rawDB opens the store's file directly, read-only, to look behind the API.
func rawDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite3", path+"?_query_only=on")
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	return db
}

var testCatalog = domain.CatalogBlob{Name: "base-2025", Hash: "c0ffee", Content: []byte("grey-01: xo. / ooc / pooo")}

func newGame(id string) (domain.GameRecord, domain.Credentials, domain.CatalogBlob) {
	g := domain.GameRecord{
		ID:          id,
		Ruleset:     "silver-and-gold",
		Mode:        "digital",
		CatalogName: testCatalog.Name,
		CatalogHash: testCatalog.Hash,
		CreatedAt:   t0,
		UpdatedAt:   t0.Add(time.Millisecond),
		State:       []byte(`{"round":0}`),
		Phase:       "setup",
	}
	creds := domain.Credentials{HostHash: "host-" + id, SeatHashes: []string{"seat0-" + id, "seat1-" + id, "seat2-" + id}}
	return g, creds, testCatalog
}

func mustCreate(t *testing.T, s *sqlite.Store, id string) domain.GameRecord {
	t.Helper()
	g, creds, cat := newGame(id)
	require.NoError(t, s.CreateGame(t.Context(), g, creds, cat))
	return g
}

// move is the append that takes game id from version v to v+1.
func move(id string, v int64) domain.Append {
	return domain.Append{
		GameID:        id,
		ExpectVersion: v,
		Move: domain.MoveRecord{
			Seq:    v + 1,
			Actor:  domain.Actor{Seat: int(v % 3)},
			Move:   fmt.Appendf(nil, `{"move":%d}`, v+1),
			Events: fmt.Appendf(nil, `[{"type":"e%d"}]`, v+1),
			At:     t0.Add(time.Duration(v+1) * time.Second),
		},
		State: fmt.Appendf(nil, `{"round":%d}`, v+1),
		Phase: "play",
	}
}

func appendN(t *testing.T, s *sqlite.Store, id string, n int) {
	t.Helper()
	for v := range int64(n) {
		require.NoError(t, s.Append(t.Context(), move(id, v)))
	}
}

func requireCode(t *testing.T, err error, code domain.Code) {
	t.Helper()
	require.Error(t, err)
	require.Equal(t, code, domain.ErrorCode(err), "error: %v", err)
}

// writerGate holds the writer goroutine before its next batch, so that
// requests pile up in the queue and are committed as one group.
type writerGate struct {
	armed chan chan struct{}
	held  chan struct{}
}

func newWriterGate() *writerGate {
	return &writerGate{armed: make(chan chan struct{}, 1), held: make(chan struct{})}
}

func (g *writerGate) option() sqlite.Option {
	return sqlite.WithBeforeBatch(func() {
		select {
		case release := <-g.armed:
			g.held <- struct{}{}
			<-release
		default:
		}
	})
}

// hold stalls the writer: it queues a CreateGame of game blocker, which the
// writer receives and then waits on the gate. It returns the function that
// lets the writer go, and a channel with the blocker's result.
func (g *writerGate) hold(t *testing.T, s *sqlite.Store, blocker string) (release func(), blockerErr <-chan error) {
	t.Helper()
	rel := make(chan struct{})
	g.armed <- rel
	errc := make(chan error, 1)
	go func() {
		gr, creds, cat := newGame(blocker)
		errc <- s.CreateGame(context.Background(), gr, creds, cat)
	}()
	<-g.held
	return sync.OnceFunc(func() { close(rel) }), errc
}

func waitQueue(t *testing.T, s *sqlite.Store, n int) {
	t.Helper()
	require.Eventually(t, func() bool { return sqlite.QueueLen(s) == n }, 5*time.Second, time.Millisecond)
}

func TestOpen(t *testing.T) {
	t.Run("creates the file in WAL mode with the schema", func(t *testing.T) {
		s, path := openStore(t)
		require.NoError(t, s.Ping(t.Context()))
		_, err := os.Stat(path)
		require.NoError(t, err)

		db := rawDB(t, path)
		var mode string
		require.NoError(t, db.QueryRow(`PRAGMA journal_mode`).Scan(&mode))
		assert.Equal(t, "wal", mode)
		var version int
		var name string
		require.NoError(t, db.QueryRow(`SELECT version, name FROM schema_migrations ORDER BY version LIMIT 1`).Scan(&version, &name))
		assert.Equal(t, 1, version)
		assert.Equal(t, "0001_init.sql", name)
	})

	t.Run("reopening finds everything as it was and applies no migration again", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "treasury.db")
		s, err := sqlite.Open(t.Context(), path)
		require.NoError(t, err)
		mustCreate(t, s, "g1")
		appendN(t, s, "g1", 3)
		a := move("g1", 3)
		a.Idempotency = &domain.IdempotencyRecord{Key: "k1", Scope: "seat0", RequestHash: "rh", Status: 200, Response: []byte(`{"ok":true}`)}
		require.NoError(t, s.Append(t.Context(), a))

		type snapshot struct {
			Game       domain.GameRecord
			Creds      domain.Credentials
			Catalog    domain.CatalogBlob
			Moves      []domain.MoveRecord
			Idem       *domain.IdempotencyRecord
			Migrations [][3]any
		}
		take := func(s *sqlite.Store) snapshot {
			ctx := t.Context()
			var snap snapshot
			var err error
			snap.Game, err = s.Game(ctx, "g1")
			require.NoError(t, err)
			snap.Creds, err = s.Credentials(ctx, "g1")
			require.NoError(t, err)
			snap.Catalog, err = s.Catalog(ctx, testCatalog.Hash)
			require.NoError(t, err)
			snap.Moves, err = s.Moves(ctx, "g1", 0, 0)
			require.NoError(t, err)
			snap.Idem, err = s.Idempotency(ctx, "g1", "seat0", "k1")
			require.NoError(t, err)
			db, err := sql.Open("sqlite3", path+"?_query_only=on")
			require.NoError(t, err)
			defer db.Close()
			rows, err := db.Query(`SELECT version, name, applied_at FROM schema_migrations ORDER BY version`)
			require.NoError(t, err)
			defer rows.Close()
			for rows.Next() {
				var v int
				var n, at string
				require.NoError(t, rows.Scan(&v, &n, &at))
				snap.Migrations = append(snap.Migrations, [3]any{v, n, at})
			}
			require.NoError(t, rows.Err())
			return snap
		}
		before := take(s)
		require.NoError(t, s.Close())

		s, err = sqlite.Open(t.Context(), path)
		require.NoError(t, err)
		defer s.Close()
		after := take(s)
		assert.Equal(t, before, after)
		assert.Len(t, after.Moves, 4)
		assert.Len(t, after.Migrations, 5) // 0001_init, 0002_games_phase, 0003_idempotency_without_rowid, 0004_move_audience, 0005_games_updated_at
		require.NoError(t, s.Ping(t.Context()))
	})

	t.Run("idempotency records written by an older build are still found", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "treasury.db")
		db, err := sql.Open("sqlite3", path+"?_journal_mode=WAL")
		require.NoError(t, err)
		require.NoError(t, sqlite.MigrateUpTo(db, 2))
		_, err = db.Exec(`INSERT INTO catalogs (hash, name, content) VALUES ('h', 'standard', x'00');
			INSERT INTO games (id, ruleset, mode, catalog_name, catalog_hash, created_at, updated_at, version, state, phase, ended)
			VALUES ('g1', 'test', 'digital', 'standard', 'h', '2026-11-21T00:00:00.000000000Z', '2026-11-21T00:00:00.000000000Z', 1, '{}', 'play', 0);
			INSERT INTO idempotency (game_id, scope, key, request_hash, status, response)
			VALUES ('g1', 'seat:0', 'k1', 'rh1', 200, '{"seq":1}'), ('g1', 'host', 'k2', 'rh2', 200, '{"seq":2}')`)
		require.NoError(t, err)
		require.NoError(t, db.Close())

		s, err := sqlite.Open(t.Context(), path)
		require.NoError(t, err)
		defer s.Close()
		got, err := s.Idempotency(t.Context(), "g1", "seat:0", "k1")
		require.NoError(t, err)
		require.Equal(t, &domain.IdempotencyRecord{Scope: "seat:0", Key: "k1", RequestHash: "rh1", Status: 200, Response: []byte(`{"seq":1}`)}, got)
		got, err = s.Idempotency(t.Context(), "g1", "host", "k2")
		require.NoError(t, err)
		require.Equal(t, "rh2", got.RequestHash)

		var ddl string
		require.NoError(t, rawDB(t, path).QueryRow(`SELECT sql FROM sqlite_master WHERE name = 'idempotency'`).Scan(&ddl))
		assert.Contains(t, ddl, "WITHOUT ROWID")
	})

	t.Run("a database newer than this build is refused", func(t *testing.T) {
		s, path := openStore(t)
		require.NoError(t, s.Close())
		db, err := sql.Open("sqlite3", path)
		require.NoError(t, err)
		_, err = db.Exec(`INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, '9999_future.sql', '')`)
		require.NoError(t, err)
		require.NoError(t, db.Close())

		_, err = sqlite.Open(t.Context(), path)
		require.ErrorContains(t, err, "newer")
	})

	t.Run("a path that is not a plain file is refused", func(t *testing.T) {
		_, err := sqlite.Open(t.Context(), ":memory:")
		require.Error(t, err)
	})
}

func TestCreateGame(t *testing.T) {
	t.Run("stores every field", func(t *testing.T) {
		s, _ := openStore(t)
		want, creds, cat := newGame("g1")
		want.Ended = true
		require.NoError(t, s.CreateGame(t.Context(), want, creds, cat))

		got, err := s.Game(t.Context(), "g1")
		require.NoError(t, err)
		assert.Equal(t, want, got)

		gotCreds, err := s.Credentials(t.Context(), "g1")
		require.NoError(t, err)
		assert.Equal(t, creds, gotCreds)

		gotCat, err := s.Catalog(t.Context(), cat.Hash)
		require.NoError(t, err)
		assert.Equal(t, cat, gotCat)
	})

	t.Run("zero times become now, in UTC", func(t *testing.T) {
		s, _ := openStore(t)
		g, creds, cat := newGame("g1")
		g.CreatedAt, g.UpdatedAt = time.Time{}, time.Time{}
		before := time.Now()
		require.NoError(t, s.CreateGame(t.Context(), g, creds, cat))
		got, err := s.Game(t.Context(), "g1")
		require.NoError(t, err)
		assert.WithinRange(t, got.CreatedAt, before, time.Now())
		assert.Equal(t, got.CreatedAt, got.UpdatedAt)
		assert.Equal(t, time.UTC, got.CreatedAt.Location())
	})

	t.Run("an existing id is a conflict and the first game stays", func(t *testing.T) {
		s, _ := openStore(t)
		mustCreate(t, s, "g1")
		g, creds, cat := newGame("g1")
		g.Phase = "other"
		requireCode(t, s.CreateGame(t.Context(), g, creds, cat), domain.Conflict)
		got, err := s.Game(t.Context(), "g1")
		require.NoError(t, err)
		assert.Equal(t, "setup", got.Phase)
	})

	t.Run("a catalog is stored once for many games", func(t *testing.T) {
		s, path := openStore(t)
		mustCreate(t, s, "g1")
		g, creds, cat := newGame("g2")
		cat.Name = "renamed" // same hash: the first copy is kept
		require.NoError(t, s.CreateGame(t.Context(), g, creds, cat))

		var n int
		require.NoError(t, rawDB(t, path).QueryRow(`SELECT count(*) FROM catalogs`).Scan(&n))
		assert.Equal(t, 1, n)
		got, err := s.Catalog(t.Context(), testCatalog.Hash)
		require.NoError(t, err)
		assert.Equal(t, testCatalog, got)
		for _, id := range []string{"g1", "g2"} {
			g, err := s.Game(t.Context(), id)
			require.NoError(t, err)
			assert.Equal(t, testCatalog.Hash, g.CatalogHash)
		}
	})

	t.Run("a game not at version 0 is refused", func(t *testing.T) {
		s, _ := openStore(t)
		g, creds, cat := newGame("g1")
		g.Version = 3
		require.Error(t, s.CreateGame(t.Context(), g, creds, cat))
		_, err := s.Game(t.Context(), "g1")
		requireCode(t, err, domain.NotFound)
	})

	t.Run("a catalog hash that differs from the game's is refused", func(t *testing.T) {
		s, _ := openStore(t)
		g, creds, cat := newGame("g1")
		cat.Hash = "other"
		require.Error(t, s.CreateGame(t.Context(), g, creds, cat))
	})
}

func TestGame(t *testing.T) {
	t.Run("a missing game is not found", func(t *testing.T) {
		s, _ := openStore(t)
		_, err := s.Game(t.Context(), "nope")
		requireCode(t, err, domain.NotFound)
	})

	t.Run("times come back in UTC to the nanosecond", func(t *testing.T) {
		s, _ := openStore(t)
		g, creds, cat := newGame("g1")
		zone := time.FixedZone("UTC+5:30", 5*3600+1800)
		g.CreatedAt = t0.In(zone)
		g.UpdatedAt = t0.In(zone).Add(time.Nanosecond)
		require.NoError(t, s.CreateGame(t.Context(), g, creds, cat))
		got, err := s.Game(t.Context(), "g1")
		require.NoError(t, err)
		assert.Equal(t, t0, got.CreatedAt)
		assert.Equal(t, t0.Add(time.Nanosecond), got.UpdatedAt)
	})

	t.Run("shows the latest append", func(t *testing.T) {
		s, _ := openStore(t)
		mustCreate(t, s, "g1")
		appendN(t, s, "g1", 5)
		got, err := s.Game(t.Context(), "g1")
		require.NoError(t, err)
		assert.Equal(t, int64(5), got.Version)
		assert.Equal(t, move("g1", 4).State, got.State)
	})
}

func TestCredentials(t *testing.T) {
	t.Run("a missing game is not found", func(t *testing.T) {
		s, _ := openStore(t)
		_, err := s.Credentials(t.Context(), "nope")
		requireCode(t, err, domain.NotFound)
	})

	t.Run("host and seats in seat order", func(t *testing.T) {
		s, _ := openStore(t)
		g, _, cat := newGame("g1")
		seats := make([]string, 12) // more than 9, so seat order is numeric
		for i := range seats {
			seats[i] = fmt.Sprintf("hash-%02d", 11-i)
		}
		creds := domain.Credentials{HostHash: "host", SeatHashes: seats}
		require.NoError(t, s.CreateGame(t.Context(), g, creds, cat))
		got, err := s.Credentials(t.Context(), "g1")
		require.NoError(t, err)
		assert.Equal(t, creds, got)
	})

	t.Run("a credential used twice in one game is refused", func(t *testing.T) {
		s, _ := openStore(t)
		g, _, cat := newGame("g1")
		err := s.CreateGame(t.Context(), g, domain.Credentials{HostHash: "same", SeatHashes: []string{"same"}}, cat)
		require.Error(t, err)
		_, err = s.Game(t.Context(), "g1")
		requireCode(t, err, domain.NotFound)
	})
}

func TestCatalog(t *testing.T) {
	t.Run("a missing hash is not found", func(t *testing.T) {
		s, _ := openStore(t)
		_, err := s.Catalog(t.Context(), "nope")
		requireCode(t, err, domain.NotFound)
	})
}

func TestMoves(t *testing.T) {
	s, _ := openStore(t)
	mustCreate(t, s, "g1")
	appendN(t, s, "g1", 10)
	mustCreate(t, s, "empty")

	seqs := func(ms []domain.MoveRecord) []int64 {
		out := []int64{}
		for _, m := range ms {
			out = append(out, m.Seq)
		}
		return out
	}

	t.Run("pages in order", func(t *testing.T) {
		for _, tc := range []struct {
			after int64
			limit int
			want  []int64
		}{
			{0, 3, []int64{1, 2, 3}},
			{3, 3, []int64{4, 5, 6}},
			{8, 5, []int64{9, 10}},
			{10, 5, []int64{}},
			{0, 0, []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
			{7, -1, []int64{8, 9, 10}},
		} {
			got, err := s.Moves(t.Context(), "g1", tc.after, tc.limit)
			require.NoError(t, err)
			assert.Equal(t, tc.want, seqs(got), "after %d limit %d", tc.after, tc.limit)
		}
	})

	t.Run("every field reads back", func(t *testing.T) {
		got, err := s.Moves(t.Context(), "g1", 4, 1)
		require.NoError(t, err)
		require.Len(t, got, 1)
		assert.Equal(t, move("g1", 4).Move, got[0])
	})

	t.Run("a host move reads back as the host's", func(t *testing.T) {
		mustCreate(t, s, "hosted")
		a := move("hosted", 0)
		a.Move.Actor = domain.Actor{Host: true}
		require.NoError(t, s.Append(t.Context(), a))
		got, err := s.Moves(t.Context(), "hosted", 0, 0)
		require.NoError(t, err)
		assert.Equal(t, []domain.MoveRecord{a.Move}, got)
	})

	t.Run("a game without moves has none", func(t *testing.T) {
		got, err := s.Moves(t.Context(), "empty", 0, 0)
		require.NoError(t, err)
		assert.Empty(t, got)
	})

	t.Run("a missing game is not found", func(t *testing.T) {
		_, err := s.Moves(t.Context(), "nope", 0, 0)
		requireCode(t, err, domain.NotFound)
	})
}

func TestIdempotency(t *testing.T) {
	t.Run("an unknown key gives nil", func(t *testing.T) {
		s, _ := openStore(t)
		mustCreate(t, s, "g1")
		got, err := s.Idempotency(t.Context(), "g1", "seat0", "k1")
		require.NoError(t, err)
		assert.Nil(t, got)
	})

	t.Run("stored with its move and read back", func(t *testing.T) {
		s, _ := openStore(t)
		mustCreate(t, s, "g1")
		rec := domain.IdempotencyRecord{Key: "k1", Scope: "seat0", RequestHash: "rh1", Status: 201, Response: []byte(`{"version":1}`)}
		a := move("g1", 0)
		a.Idempotency = &rec
		require.NoError(t, s.Append(t.Context(), a))

		got, err := s.Idempotency(t.Context(), "g1", "seat0", "k1")
		require.NoError(t, err)
		require.NotNil(t, got)
		assert.Equal(t, rec, *got)

		// The key is per scope: another credential's k1 is another key.
		other, err := s.Idempotency(t.Context(), "g1", "seat1", "k1")
		require.NoError(t, err)
		assert.Nil(t, other)
	})
}

func TestAppend(t *testing.T) {
	t.Run("stores the move and the game's new state", func(t *testing.T) {
		s, _ := openStore(t)
		before := mustCreate(t, s, "g1")
		a := move("g1", 0)
		a.Ended = true
		a.Phase = "scored"
		require.NoError(t, s.Append(t.Context(), a))

		got, err := s.Game(t.Context(), "g1")
		require.NoError(t, err)
		want := before
		want.Version, want.State, want.Phase, want.Ended, want.UpdatedAt = 1, a.State, "scored", true, a.Move.At
		assert.Equal(t, want, got)

		moves, err := s.Moves(t.Context(), "g1", 0, 0)
		require.NoError(t, err)
		assert.Equal(t, []domain.MoveRecord{a.Move}, moves)
	})

	t.Run("a stale version is a conflict and changes nothing", func(t *testing.T) {
		s, _ := openStore(t)
		mustCreate(t, s, "g1")
		appendN(t, s, "g1", 2)
		before, err := s.Game(t.Context(), "g1")
		require.NoError(t, err)

		stale := move("g1", 1)
		stale.State = []byte("stale")
		requireCode(t, s.Append(t.Context(), stale), domain.Conflict)

		after, err := s.Game(t.Context(), "g1")
		require.NoError(t, err)
		assert.Equal(t, before, after)
		moves, err := s.Moves(t.Context(), "g1", 0, 0)
		require.NoError(t, err)
		assert.Len(t, moves, 2)
	})

	t.Run("a missing game is not found", func(t *testing.T) {
		s, _ := openStore(t)
		requireCode(t, s.Append(t.Context(), move("nope", 0)), domain.NotFound)
	})

	t.Run("a move that does not follow the version is refused", func(t *testing.T) {
		s, _ := openStore(t)
		mustCreate(t, s, "g1")
		a := move("g1", 0)
		a.Move.Seq = 2
		require.Error(t, s.Append(t.Context(), a))
		got, err := s.Game(t.Context(), "g1")
		require.NoError(t, err)
		assert.Zero(t, got.Version)
	})

	t.Run("a reused idempotency key is a conflict and the move is not stored", func(t *testing.T) {
		s, _ := openStore(t)
		mustCreate(t, s, "g1")
		first := move("g1", 0)
		first.Idempotency = &domain.IdempotencyRecord{Key: "k1", Scope: "seat0", RequestHash: "rh1", Status: 200, Response: []byte("one")}
		require.NoError(t, s.Append(t.Context(), first))

		second := move("g1", 1)
		second.Idempotency = &domain.IdempotencyRecord{Key: "k1", Scope: "seat0", RequestHash: "rh2", Status: 200, Response: []byte("two")}
		requireCode(t, s.Append(t.Context(), second), domain.Conflict)

		got, err := s.Game(t.Context(), "g1")
		require.NoError(t, err)
		assert.Equal(t, int64(1), got.Version)
		rec, err := s.Idempotency(t.Context(), "g1", "seat0", "k1")
		require.NoError(t, err)
		assert.Equal(t, "rh1", rec.RequestHash)
	})

	t.Run("failures in one group fail alone", func(t *testing.T) {
		gate := newWriterGate()
		s, _ := openStore(t, gate.option())
		for i := range 4 {
			mustCreate(t, s, fmt.Sprintf("g%d", i))
		}
		appendN(t, s, "g0", 2)
		require.NoError(t, s.Append(t.Context(), func() domain.Append {
			a := move("g3", 0)
			a.Idempotency = &domain.IdempotencyRecord{Key: "k", Scope: "s", RequestHash: "h"}
			return a
		}()))
		statsBefore := s.Stats()

		release, blocker := gate.hold(t, s, "blocker")
		dupKey := move("g3", 1)
		dupKey.Idempotency = &domain.IdempotencyRecord{Key: "k", Scope: "s", RequestHash: "h2"}
		appends := []domain.Append{
			move("g1", 0),
			move("g0", 0), // stale: g0 is at 2
			move("g2", 0),
			move("nope", 0),
			dupKey,
			move("g0", 2),
		}
		want := []domain.Code{"", domain.Conflict, "", domain.NotFound, domain.Conflict, ""}
		errs := make([]error, len(appends))
		var wg sync.WaitGroup
		for i, a := range appends {
			wg.Go(func() { errs[i] = s.Append(context.Background(), a) })
			waitQueue(t, s, i+1) // queue them in this order
		}
		release()
		wg.Wait()
		require.NoError(t, <-blocker)

		for i := range appends {
			assert.Equal(t, want[i], domain.ErrorCode(errs[i]), "append %d: %v", i, errs[i])
		}
		stats := s.Stats()
		assert.Equal(t, int64(1), stats.Batches-statsBefore.Batches, "one commit for the group")
		assert.Equal(t, int64(len(appends)+1), stats.Writes-statsBefore.Writes)

		for id, v := range map[string]int64{"g0": 3, "g1": 1, "g2": 1, "g3": 1, "blocker": 0} {
			g, err := s.Game(t.Context(), id)
			require.NoError(t, err)
			assert.Equal(t, v, g.Version, id)
		}
	})

	t.Run("a caller that gives up in the queue applies nothing", func(t *testing.T) {
		gate := newWriterGate()
		s, _ := openStore(t, gate.option())
		mustCreate(t, s, "g1")

		release, blocker := gate.hold(t, s, "blocker")
		ctx, cancel := context.WithCancel(t.Context())
		errc := make(chan error, 1)
		go func() { errc <- s.Append(ctx, move("g1", 0)) }()
		waitQueue(t, s, 1)
		cancel()
		require.Equal(t, context.Canceled, <-errc)
		release()
		require.NoError(t, <-blocker)

		// The writer is free again and skipped the abandoned append.
		require.NoError(t, s.Append(t.Context(), move("g1", 0)))
		moves, err := s.Moves(t.Context(), "g1", 0, 0)
		require.NoError(t, err)
		assert.Len(t, moves, 1)
	})

	t.Run("concurrent appends to many games are all kept in order", func(t *testing.T) {
		const (
			games   = 16
			workers = 64 // 4 per game, racing each other on the same versions
			each    = 10 // accepted appends per worker
		)
		s, _ := openStore(t)
		for g := range games {
			mustCreate(t, s, fmt.Sprintf("g%02d", g))
		}

		type ack struct {
			seq  int64
			body string
		}
		var (
			mu      sync.Mutex
			acked   = map[string][]ack{}
			total   atomic.Int64
			started = make(chan struct{})
			wg      sync.WaitGroup
		)
		for w := range workers {
			id := fmt.Sprintf("g%02d", w%games)
			wg.Go(func() {
				for i := 0; i < each; {
					g, err := s.Game(context.Background(), id)
					if !assert.NoError(t, err) {
						return
					}
					a := move(id, g.Version)
					body := fmt.Sprintf(`{"worker":%d,"i":%d}`, w, i)
					a.Move.Move = []byte(body)
					err = s.Append(context.Background(), a)
					if domain.ErrorCode(err) == domain.Conflict {
						continue // another worker took this version; read again
					}
					if !assert.NoError(t, err) {
						return
					}
					mu.Lock()
					acked[id] = append(acked[id], ack{a.Move.Seq, body})
					mu.Unlock()
					if total.Add(1) == workers*each/2 {
						close(started)
					}
					i++
				}
			})
		}

		// Halfway through, an append on a version long gone must fail alone.
		<-started
		requireCode(t, s.Append(t.Context(), move("g00", 0)), domain.Conflict)
		wg.Wait()

		perGame := int64(workers / games * each)
		for g := range games {
			id := fmt.Sprintf("g%02d", g)
			moves, err := s.Moves(t.Context(), id, 0, 0)
			require.NoError(t, err)
			require.Len(t, moves, int(perGame), id)
			bySeq := map[int64]string{}
			for i, m := range moves {
				require.Equal(t, int64(i+1), m.Seq, "%s: versions 1..n without gaps", id)
				bySeq[m.Seq] = string(m.Move)
			}
			require.Len(t, acked[id], int(perGame))
			for _, a := range acked[id] {
				assert.Equal(t, a.body, bySeq[a.seq], "%s: acknowledged move %d", id, a.seq)
			}
			game, err := s.Game(t.Context(), id)
			require.NoError(t, err)
			assert.Equal(t, perGame, game.Version)
		}
		st := s.Stats()
		t.Logf("%d writes in %d commits", st.Writes, st.Batches)
	})
}

func TestCountGames(t *testing.T) {
	t.Run("counts every game under its ruleset and phase", func(t *testing.T) {
		s, _ := openStore(t)
		got, err := s.CountGames(t.Context())
		require.NoError(t, err)
		assert.Empty(t, got)

		for _, id := range []string{"g1", "g2", "g3"} {
			mustCreate(t, s, id) // phase "setup"
		}
		appendN(t, s, "g2", 2) // phase "play"
		g, creds, cat := newGame("g4")
		g.Ruleset = "other-game"
		require.NoError(t, s.CreateGame(t.Context(), g, creds, cat))
		got, err = s.CountGames(t.Context())
		require.NoError(t, err)
		r := "silver-and-gold"
		assert.ElementsMatch(t, []domain.GameCount{{Ruleset: r, Phase: "setup", Games: 2}, {Ruleset: r, Phase: "play", Games: 1},
			{Ruleset: "other-game", Phase: "setup", Games: 1}}, got)
	})

	t.Run("scans the index, not the games", func(t *testing.T) {
		_, path := openStore(t)
		var plan string
		rows, err := rawDB(t, path).Query(`EXPLAIN QUERY PLAN SELECT ruleset, phase, COUNT(*) FROM games GROUP BY ruleset, phase`)
		require.NoError(t, err)
		defer rows.Close()
		for rows.Next() {
			var id, parent, unused int
			var detail string
			require.NoError(t, rows.Scan(&id, &parent, &unused, &detail))
			plan += detail + "; "
		}
		assert.Contains(t, plan, "COVERING INDEX games_ruleset_phase")
	})

	t.Run("a closed store is unavailable", func(t *testing.T) {
		s, _ := openStore(t)
		require.NoError(t, s.Close())
		_, err := s.CountGames(t.Context())
		requireCode(t, err, domain.Unavailable)
	})
}

func TestCommitObserver(t *testing.T) {
	t.Run("hears every committed transaction with its duration and size", func(t *testing.T) {
		var mu sync.Mutex
		var writes []int
		var took time.Duration
		gate := newWriterGate()
		s, _ := openStore(t, gate.option(), sqlite.WithCommitObserver(func(d time.Duration, n int) {
			mu.Lock()
			defer mu.Unlock()
			writes = append(writes, n)
			took += d
		}))
		mustCreate(t, s, "g1")

		// Hold the writer so that three appends join the blocker's group.
		release, blocker := gate.hold(t, s, "blocker")
		var wg sync.WaitGroup
		for i := range 3 {
			wg.Go(func() { _ = s.Append(context.Background(), move("g1", int64(i))) })
		}
		waitQueue(t, s, 3)
		release()
		require.NoError(t, <-blocker)
		wg.Wait()

		mu.Lock()
		defer mu.Unlock()
		// The first create alone, then the blocker with the three appends
		// that queued behind it (two of which fail on their stale
		// versions, inside the same commit).
		assert.Equal(t, []int{1, 4}, writes)
		assert.Positive(t, took)
	})
}

func TestPing(t *testing.T) {
	t.Run("an open, migrated store answers", func(t *testing.T) {
		s, _ := openStore(t)
		require.NoError(t, s.Ping(t.Context()))
	})

	t.Run("a closed store is unavailable", func(t *testing.T) {
		s, _ := openStore(t)
		require.NoError(t, s.Close())
		requireCode(t, s.Ping(t.Context()), domain.Unavailable)
	})
}

func TestClose(t *testing.T) {
	t.Run("commits what is queued and refuses what comes later", func(t *testing.T) {
		gate := newWriterGate()
		dir := t.TempDir()
		path := filepath.Join(dir, "treasury.db")
		s, err := sqlite.Open(t.Context(), path, gate.option())
		require.NoError(t, err)
		const n = 5
		for i := range n {
			mustCreate(t, s, fmt.Sprintf("g%d", i))
		}

		release, blocker := gate.hold(t, s, "blocker")
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() { errs[i] = s.Append(context.Background(), move(fmt.Sprintf("g%d", i), 0)) })
		}
		waitQueue(t, s, n)

		closed := make(chan error, 1)
		go func() { closed <- s.Close() }()
		// Once Close has begun, new writes are refused at once.
		require.Eventually(t, func() bool { return domain.ErrorCode(s.Ping(t.Context())) == domain.Unavailable },
			5*time.Second, time.Millisecond)
		requireCode(t, s.Append(t.Context(), move("g0", 1)), domain.Unavailable)
		_, err = s.Game(t.Context(), "g0")
		requireCode(t, err, domain.Unavailable)

		release()
		wg.Wait()
		require.NoError(t, <-blocker)
		require.NoError(t, <-closed)
		for i, err := range errs {
			require.NoError(t, err, "queued append %d", i)
		}

		s, err = sqlite.Open(t.Context(), path)
		require.NoError(t, err)
		defer s.Close()
		for i := range n {
			g, err := s.Game(t.Context(), fmt.Sprintf("g%d", i))
			require.NoError(t, err)
			assert.Equal(t, int64(1), g.Version)
		}
	})

	t.Run("closing twice is harmless", func(t *testing.T) {
		s, _ := openStore(t)
		require.NoError(t, s.Close())
		require.NoError(t, s.Close())
		g, creds, cat := newGame("g1")
		requireCode(t, s.CreateGame(t.Context(), g, creds, cat), domain.Unavailable)
	})
}
