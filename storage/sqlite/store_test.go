package sqlite_test

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/luckytreasurehunter"
	"github.com/treasury-games/treasury/domain/service"
	"github.com/treasury-games/treasury/domain/silvergold"
	"github.com/treasury-games/treasury/storage/sqlite"
	"github.com/treasury-games/treasury/storage/storetest"
)

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

// openOld makes a database as an older build left it: the migrations up to
// version, then rows written with stmts; and opens it with this build.
func openOld(t *testing.T, version int, stmts string) (*sqlite.Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "treasury.db")
	db, err := sql.Open("sqlite3", path+"?_journal_mode=WAL")
	require.NoError(t, err)
	require.NoError(t, sqlite.MigrateUpTo(db, version))
	_, err = db.Exec(stmts)
	require.NoError(t, err)
	require.NoError(t, db.Close())
	s, err := sqlite.Open(t.Context(), path)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s, path
}

// oldRecords are two idempotency records of game g1 as the idempotency table
// held them.
const oldRecords = `INSERT INTO idempotency (game_id, scope, key, request_hash, status, response)
	VALUES ('g1', 'seat:0', 'k1', 'rh1', 200, '{"seq":1}'), ('g1', 'host', 'k2', 'rh2', 200, '{"seq":2}');`

// rawDB opens the store's file directly, read-only, to look behind the API.
func rawDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite3", path+"?_query_only=on")
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	return db
}

// Helpers shared with the conformance suite.
var (
	newGame     = storetest.NewGame
	move        = storetest.Move
	requireCode = storetest.RequireCode
	testCatalog = storetest.Catalog
)

func mustCreate(t *testing.T, s *sqlite.Store, id string) domain.GameRecord {
	t.Helper()
	return storetest.MustCreate(t, s, id)
}

func appendN(t *testing.T, s *sqlite.Store, id string, n int) {
	t.Helper()
	storetest.AppendN(t, s, id, n)
}

// TestStore runs the store conformance suite on a new file per test. The
// tests below are SQLite's own: the file, WAL, the writer and its groups.
func TestStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) domain.Store {
		s, _ := openStore(t)
		return s
	})
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
		assert.Len(t, after.Migrations, len(sqlite.MigrationNames())) // every embedded migration, each once
		require.NoError(t, s.Ping(t.Context()))
	})

	t.Run("idempotency records written by an older build are still found", func(t *testing.T) {
		s, path := openOld(t, 2, `INSERT INTO catalogs (hash, name, content) VALUES ('h', 'standard', x'00');
			INSERT INTO games (id, ruleset, mode, catalog_name, catalog_hash, created_at, updated_at, version, state, phase, ended)
			VALUES ('g1', 'test', 'digital', 'standard', 'h', '2026-11-21T00:00:00.000000000Z', '2026-11-21T00:00:00.000000000Z', 1, '{}', 'play', 0);
			`+oldRecords)
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

	t.Run("moves written by an older build are read as they were, and the game goes on", func(t *testing.T) {
		// moves WITHOUT ROWID, as before migration 0006
		s, path := openOld(t, 5, `INSERT INTO catalogs (hash, name, content) VALUES ('h', 'standard', x'00');
			INSERT INTO games (id, ruleset, mode, catalog_name, catalog_hash, created_at, updated_at, version, state, phase, ended)
			VALUES ('g1', 'test', 'digital', 'standard', 'h', '2026-11-21T00:00:00.000000000Z', '2026-11-21T00:00:02.000000000Z', 2, '{}', 'play', 0);
			INSERT INTO moves (game_id, seq, actor_host, actor_seat, body, events, at, public, for_seat, not_host)
			VALUES ('g1', 2, 0, 1, '{"m":2}', '[]', '2026-11-21T00:00:02.000000000Z', NULL, -1, 0),
			       ('g1', 1, 1, 0, '{"m":1}', '[{"type":"e"}]', '2026-11-21T00:00:01.000000000Z', '{"p":1}', 0, 1)`)
		moves, err := s.Moves(t.Context(), "g1", 0, 0)
		require.NoError(t, err)
		require.Len(t, moves, 2)
		assert.Equal(t, domain.MoveRecord{Seq: 1, Actor: domain.Actor{Host: true}, Move: []byte(`{"m":1}`), Events: []byte(`[{"type":"e"}]`),
			At: time.Date(2026, 11, 21, 0, 0, 1, 0, time.UTC), Public: []byte(`{"p":1}`), For: 0, NotHost: true}, moves[0])
		assert.Equal(t, int64(2), moves[1].Seq)
		a := storetest.Move("g1", 2)
		require.NoError(t, s.Append(t.Context(), a))
		storetest.RequireCode(t, s.Append(t.Context(), a), domain.Conflict)
		moves, err = s.Moves(t.Context(), "g1", 1, 0)
		require.NoError(t, err)
		assert.Equal(t, []int64{2, 3}, []int64{moves[0].Seq, moves[1].Seq})

		var ddl string
		require.NoError(t, rawDB(t, path).QueryRow(`SELECT sql FROM sqlite_master WHERE name = 'moves'`).Scan(&ddl))
		assert.NotContains(t, ddl, "WITHOUT ROWID", "moves are in a rowid table: rows of 1 KB stay in their page")
	})

	t.Run("a game mid-play with idempotency records from before migration 0009 plays on", func(t *testing.T) {
		// records in the idempotency table, as before migration 0009
		s, _ := openOld(t, 8, `INSERT INTO catalogs (hash, name, content) VALUES ('h', 'standard', x'00');
			INSERT INTO games (id, ruleset, mode, catalog_name, catalog_hash, created_at, updated_at, version, state, phase, ended)
			VALUES ('g1', 'test', 'digital', 'standard', 'h', '2026-11-21T00:00:00.000000000Z', '2026-11-21T00:00:02.000000000Z', 2, '{}', 'play', 0);
			INSERT INTO seats (game_id, seat, hash, taken) VALUES ('g1', -1, 'host-hash', 0), ('g1', 0, 'seat-hash', 1);
			INSERT INTO moves (game_id, seq, actor_host, actor_seat, body, events, at, public, for_seat, not_host)
			VALUES ('g1', 1, 0, 0, '{"m":1}', '[]', '2026-11-21T00:00:01.000000000Z', NULL, -1, 0),
			       ('g1', 2, 1, 0, '{"m":2}', '[]', '2026-11-21T00:00:02.000000000Z', NULL, -1, 0);
			`+oldRecords)
		ctx := t.Context()
		old := &domain.IdempotencyRecord{Scope: "seat:0", Key: "k1", RequestHash: "rh1", Status: 200, Response: []byte(`{"seq":1}`)}
		got, err := s.Idempotency(ctx, "g1", "seat:0", "k1")
		require.NoError(t, err)
		require.Equal(t, old, got, "a retry of a move made before finds its record")

		// A key stored before is refused for a new move; a new one is kept.
		a := storetest.Move("g1", 2)
		a.Idempotency = &domain.IdempotencyRecord{Scope: "seat:0", Key: "k1", RequestHash: "rh3", Status: 200, Response: []byte(`{"seq":3}`)}
		storetest.RequireCode(t, s.Append(ctx, a), domain.Conflict)
		a.Idempotency.Key = "k3"
		require.NoError(t, s.Append(ctx, a))
		fresh := &domain.IdempotencyRecord{Scope: "seat:0", Key: "k3", RequestHash: "rh3", Status: 200, Response: []byte(`{"seq":3}`)}
		got, err = s.Idempotency(ctx, "g1", "seat:0", "k3")
		require.NoError(t, err)
		require.Equal(t, fresh, got)
		got, err = s.Idempotency(ctx, "g1", "host", "k3")
		require.NoError(t, err)
		require.Nil(t, got, "a key is found in its own scope only")
		b := storetest.Move("g1", 3)
		b.Idempotency = &domain.IdempotencyRecord{Scope: "seat:0", Key: "k3", RequestHash: "rh4", Status: 200, Response: []byte(`{"seq":4}`)}
		storetest.RequireCode(t, s.Append(ctx, b), domain.Conflict)
		moves, err := s.Moves(ctx, "g1", 0, 0)
		require.NoError(t, err)
		require.Len(t, moves, 3)

		keys, err := s.IdempotencyKeys(ctx, "g1")
		require.NoError(t, err)
		assert.ElementsMatch(t, []string{"k1", "k2", "k3"}, []string{keys[0].Key, keys[1].Key, keys[2].Key})

		// Export and import carry every record, old and new, as before.
		e, err := s.ExportGame(ctx, "g1")
		require.NoError(t, err)
		require.Equal(t, []domain.IdempotencyRecord{
			{Scope: "host", Key: "k2", RequestHash: "rh2", Status: 200, Response: []byte(`{"seq":2}`)}, *old, *fresh,
		}, e.Idempotency, "ordered by scope then key")
		other, _ := openStore(t)
		require.NoError(t, other.ImportGame(ctx, e))
		again, err := other.ExportGame(ctx, "g1")
		require.NoError(t, err)
		require.Equal(t, e, again)
		got, err = other.Idempotency(ctx, "g1", "seat:0", "k3")
		require.NoError(t, err)
		require.Equal(t, fresh, got)
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

func TestAppend(t *testing.T) {
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

	t.Run("the writes of a group before one that fails are stored once, their keys kept", func(t *testing.T) {
		gate := newWriterGate()
		s, _ := openStore(t, gate.option())
		mustCreate(t, s, "g1")
		keyed := func(v int64, key string) domain.Append {
			a := move("g1", v)
			a.Idempotency = &domain.IdempotencyRecord{Key: key, Scope: "s", RequestHash: "h", Status: 200, Response: []byte(`{}`)}
			return a
		}

		release, blocker := gate.hold(t, s, "blocker")
		first := s.QueueAppend(t.Context(), keyed(0, "k1"))
		second := s.QueueAppend(t.Context(), keyed(1, "k2"))
		missing := s.QueueAppend(t.Context(), move("nope", 0))
		third := s.QueueAppend(t.Context(), keyed(2, "k3"))
		waitQueue(t, s, 4)
		release()
		require.NoError(t, <-blocker)
		require.NoError(t, first())
		require.NoError(t, second())
		requireCode(t, missing(), domain.NotFound)
		require.NoError(t, third())

		moves, err := s.Moves(t.Context(), "g1", 0, 0)
		require.NoError(t, err)
		require.Len(t, moves, 3)
		for i, m := range moves {
			assert.EqualValues(t, i+1, m.Seq)
		}
		for _, key := range []string{"k1", "k2", "k3"} {
			requireCode(t, s.Append(t.Context(), keyed(3, key)), domain.Conflict)
		}
		require.NoError(t, s.Append(t.Context(), keyed(3, "k4")))
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

	t.Run("reads indexes, not every game", func(t *testing.T) {
		_, path := openStore(t)
		plan := func(q string) string {
			var plan string
			rows, err := rawDB(t, path).Query(`EXPLAIN QUERY PLAN ` + q)
			require.NoError(t, err)
			defer rows.Close()
			for rows.Next() {
				var id, parent, unused int
				var detail string
				require.NoError(t, rows.Scan(&id, &parent, &unused, &detail))
				plan += detail + "; "
			}
			return plan
		}
		assert.Contains(t, plan(`SELECT ruleset, phase, COUNT(*) FROM games WHERE ended = 1 GROUP BY ruleset, phase`), "COVERING INDEX games_ended_phase")
		assert.Contains(t, plan(`SELECT ruleset, phase, COUNT(*) FROM games WHERE ended = 0 GROUP BY ruleset, phase`), "USING INDEX games_playing")
	})

	t.Run("counts a game that ends, and one that goes on after its end, under its phase", func(t *testing.T) {
		s, _ := openStore(t)
		mustCreate(t, s, "g1")
		mustCreate(t, s, "g2")
		a := move("g1", 0)
		a.Phase, a.Ended = "ended", true
		require.NoError(t, s.Append(t.Context(), a))
		r := "silver-and-gold"
		got, err := s.CountGames(t.Context())
		require.NoError(t, err)
		assert.ElementsMatch(t, []domain.GameCount{{Ruleset: r, Phase: "setup", Games: 1}, {Ruleset: r, Phase: "ended", Games: 1}}, got)
		a = move("g1", 1) // a take-back of the last move
		a.Phase, a.Ended = "play", false
		require.NoError(t, s.Append(t.Context(), a))
		got, err = s.CountGames(t.Context())
		require.NoError(t, err)
		assert.ElementsMatch(t, []domain.GameCount{{Ruleset: r, Phase: "setup", Games: 1}, {Ruleset: r, Phase: "play", Games: 1}}, got)
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

}

// keyedMove is a move played through the service with an Idempotency-Key.
type keyedMove struct {
	actor domain.Actor
	move  []byte
	seq   int64
	key   string
}

// playKeyed plays a move of game id with each key in turn, picked as
// nextMove picks.
func playKeyed(t *testing.T, svc *service.Games, id string, r *rand.Rand, keys ...string) []keyedMove {
	t.Helper()
	var out []keyedMove
	for _, key := range keys {
		actor, m, _, ok, err := nextMove(t.Context(), svc, id, r)
		require.NoError(t, err)
		require.True(t, ok)
		p, err := svc.Play(t.Context(), id, actor, m, domain.PlayOptions{IdempotencyKey: key, Minimal: true})
		require.NoError(t, err)
		out = append(out, keyedMove{actor, m, p.Seq, key})
	}
	return out
}

// requireRetriesReplayed sends each move again with its key and requires the
// stored answer; then the first move's key with the second move, which is
// refused (a key is its actor's own and names one request).
func requireRetriesReplayed(t *testing.T, svc *service.Games, id string, moves []keyedMove) {
	t.Helper()
	for _, b := range moves {
		p, err := svc.Play(t.Context(), id, b.actor, b.move, domain.PlayOptions{IdempotencyKey: b.key, Minimal: true})
		require.NoError(t, err)
		assert.True(t, p.Replayed, "retry of move %d", b.seq)
		assert.Equal(t, b.seq, p.Seq)
	}
	_, err := svc.Play(t.Context(), id, moves[0].actor, moves[1].move, domain.PlayOptions{IdempotencyKey: moves[0].key, Minimal: true})
	requireCode(t, err, domain.IdempotencyReused)
}

// TestRetriesOfMovesStoredBeforeMigration0009 plays a real game through the
// service, turns its idempotency records into what a database migrated from
// schema 8 holds (records in the idempotency table, none in the moves' rows),
// and plays on with a new server: a retry of a move made before is answered
// as a retry, the same key with another move is refused, and a new move with
// a new key is stored and replayed.
func TestRetriesOfMovesStoredBeforeMigration0009(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "treasury.db")
	st, err := sqlite.Open(ctx, path)
	require.NoError(t, err)
	svc := service.New(st, silvergold.NewRules())
	c, err := svc.Create(ctx, silvergold.RulesetName, domain.CreateRequest{Mode: "digital", Players: []string{"Ann", "Ben", "Cid", "Dee"}})
	require.NoError(t, err)
	id, r := c.Game.ID, rand.New(rand.NewPCG(9, 1))
	before := playKeyed(t, svc, id, r, "k0", "k1", "k2")
	require.NoError(t, st.Close())

	db, err := sql.Open("sqlite3", path)
	require.NoError(t, err)
	_, err = db.Exec(`INSERT INTO idempotency (game_id, scope, key, request_hash, status, response)
			SELECT game_id, idem_scope, idem_key, idem_request_hash, idem_status, idem_response FROM moves WHERE idem IS NOT NULL;
		UPDATE moves SET idem = NULL, idem_scope = NULL, idem_key = NULL, idem_request_hash = NULL, idem_status = NULL, idem_response = NULL`)
	require.NoError(t, err)
	require.NoError(t, db.Close())

	st, err = sqlite.Open(ctx, path)
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	svc = service.New(st, silvergold.NewRules())
	requireRetriesReplayed(t, svc, id, before)
	actor, m, version, ok, err := nextMove(ctx, svc, id, r)
	require.NoError(t, err)
	require.True(t, ok)
	p, err := svc.Play(ctx, id, actor, m, domain.PlayOptions{IdempotencyKey: "k3", Minimal: true})
	require.NoError(t, err)
	require.False(t, p.Replayed)
	require.Equal(t, version+1, p.Seq)
	again, err := svc.Play(ctx, id, actor, m, domain.PlayOptions{IdempotencyKey: "k3", Minimal: true})
	require.NoError(t, err)
	assert.True(t, again.Replayed)
	assert.Equal(t, p.Seq, again.Seq)
}

// TestGamesFromBeforeMigration0010: a database of schema 9 (copied row for
// row from one where a real Lucky Treasure Hunter game was played part way
// with Idempotency-Keys, beside a game left idle since long ago) is migrated
// by this build: the game exports as it did, its moves' retries are replayed
// and it plays on; the games are counted by phase and the idle one is swept.
func TestGamesFromBeforeMigration0010(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	played := filepath.Join(dir, "played.db")
	st, err := sqlite.Open(ctx, played)
	require.NoError(t, err)
	svc := service.New(st, luckytreasurehunter.NewRules())
	req := domain.CreateRequest{Mode: "digital", Players: []string{"Ann", "Ben", "Cid", "Dee"}}
	c, err := svc.Create(ctx, luckytreasurehunter.RulesetName, req)
	require.NoError(t, err)
	idle, err := svc.Create(ctx, luckytreasurehunter.RulesetName, req)
	require.NoError(t, err)
	id, r := c.Game.ID, rand.New(rand.NewPCG(10, 1))
	before := playKeyed(t, svc, id, r, "k0", "k1", "k2", "k3", "k4")
	exported, err := st.ExportGame(ctx, id)
	require.NoError(t, err)
	g, err := st.Game(ctx, id)
	require.NoError(t, err)
	ig, err := st.Game(ctx, idle.Game.ID)
	require.NoError(t, err)
	require.NoError(t, st.Close())

	// The same rows in a database of schema 9; the idle game last moved
	// in January.
	path := filepath.Join(dir, "treasury.db")
	db, err := sql.Open("sqlite3", path+"?_journal_mode=WAL")
	require.NoError(t, err)
	require.NoError(t, sqlite.MigrateUpTo(db, 9))
	_, err = db.Exec(`ATTACH DATABASE ? AS played;
		INSERT INTO catalogs SELECT * FROM played.catalogs;
		INSERT INTO games (id, ruleset, mode, catalog_name, catalog_hash, created_at, updated_at, version, state, phase, ended, join_code, next_game)
			SELECT id, ruleset, mode, catalog_name, catalog_hash, created_at, updated_at, version, state, phase, ended, join_code, next_game FROM played.games;
		INSERT INTO seats SELECT * FROM played.seats;
		INSERT INTO moves SELECT * FROM played.moves;
		UPDATE games SET updated_at = '2026-01-02T03:04:05.000000000Z', created_at = '2026-01-02T03:04:05.000000000Z' WHERE id = ?;
		DETACH DATABASE played;`, played, idle.Game.ID)
	require.NoError(t, err)
	for _, g := range []domain.GameRecord{g, ig} { // schema 9 keeps snapshots as they are
		_, err = db.Exec(`UPDATE games SET state = ? WHERE id = ?`, g.State, g.ID)
		require.NoError(t, err)
	}
	require.NoError(t, db.Close())

	st, err = sqlite.Open(ctx, path)
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	again, err := st.ExportGame(ctx, id)
	require.NoError(t, err)
	require.Equal(t, exported, again, "the game exports as before the migration")
	var stale int
	require.NoError(t, rawDB(t, path).QueryRow(`SELECT COUNT(*) FROM games WHERE updated_minute <> substr(updated_at, 1, 16)`).Scan(&stale))
	assert.Zero(t, stale, "every game's minute is its updated_at's")

	counts, err := st.CountGames(ctx)
	require.NoError(t, err)
	want := []domain.GameCount{{Ruleset: luckytreasurehunter.RulesetName, Phase: g.Phase, Games: 1},
		{Ruleset: luckytreasurehunter.RulesetName, Phase: ig.Phase, Games: 1}}
	if g.Phase == ig.Phase {
		want = []domain.GameCount{{Ruleset: luckytreasurehunter.RulesetName, Phase: g.Phase, Games: 2}}
	}
	assert.ElementsMatch(t, want, counts)

	svc = service.New(st, luckytreasurehunter.NewRules())
	requireRetriesReplayed(t, svc, id, before)
	for i := range 20 {
		actor, m, version, ok, err := nextMove(ctx, svc, id, r)
		require.NoError(t, err)
		require.True(t, ok)
		key := fmt.Sprint("new", i)
		p, err := svc.Play(ctx, id, actor, m, domain.PlayOptions{IdempotencyKey: key, Minimal: true})
		require.NoError(t, err)
		require.Equal(t, version+1, p.Seq)
		retry, err := svc.Play(ctx, id, actor, m, domain.PlayOptions{IdempotencyKey: key, Minimal: true})
		require.NoError(t, err)
		assert.True(t, retry.Replayed)
	}

	n, err := st.DeleteIdleGames(ctx, time.Now().Add(-time.Hour))
	require.NoError(t, err)
	assert.Equal(t, 1, n, "the game idle since January is swept, the one in play stays")
	_, err = st.Game(ctx, idle.Game.ID)
	requireCode(t, err, domain.NotFound)
	e, err := st.ExportGame(ctx, id)
	require.NoError(t, err)
	assert.Len(t, e.Moves, len(exported.Moves)+20)
	other, _ := openStore(t)
	require.NoError(t, other.ImportGame(ctx, e))
	copied, err := other.ExportGame(ctx, id)
	require.NoError(t, err)
	require.Equal(t, e, copied)
}

// TestIdleByTheMinuteOfTheLastMove: the sweep finds games by the minute of
// their last change (updated_minute), which a move sets when the minute
// changes, and decides by updated_at.
func TestIdleByTheMinuteOfTheLastMove(t *testing.T) {
	s, path := openStore(t)
	ctx := t.Context()
	mustCreate(t, s, "g")
	a := move("g", 0)
	a.Move.At = storetest.T0.Add(10 * time.Second)
	require.NoError(t, s.Append(ctx, a))
	a = move("g", 1)
	a.Move.At = storetest.T0.Add(2*time.Minute + 10*time.Second)
	require.NoError(t, s.Append(ctx, a))
	var minute, updated string
	require.NoError(t, rawDB(t, path).QueryRow(`SELECT updated_minute, updated_at FROM games WHERE id = 'g'`).Scan(&minute, &updated))
	assert.Equal(t, storetest.T0.Add(2*time.Minute).UTC().Format("2006-01-02T15:04"), minute, "the move's minute (updated_at %s)", updated)

	for _, cut := range []time.Duration{time.Minute, 2 * time.Minute, 2*time.Minute + 10*time.Second} {
		n, err := s.DeleteIdleGames(ctx, storetest.T0.Add(cut))
		require.NoError(t, err)
		require.Zero(t, n, "the game moved at T0+2m10s is not idle at T0+%s", cut)
	}
	n, err := s.DeleteIdleGames(ctx, storetest.T0.Add(2*time.Minute+11*time.Second))
	require.NoError(t, err)
	require.Equal(t, 1, n)
}

// TestKeysOfAGameMadeAgain: the writer remembers the key hashes of the games
// it appends to, at the game's version; a game deleted as idle and imported
// again at that same version with other keys has its keys read again, so a
// key of the import is refused.
func TestKeysOfAGameMadeAgain(t *testing.T) {
	s, _ := openStore(t)
	ctx := t.Context()
	a := move("g", 0)
	a.Idempotency = &domain.IdempotencyRecord{Scope: "seat:0", Key: "k1", RequestHash: "rh1", Status: 200, Response: []byte(`{"seq":1}`)}
	makeAgain(t, s, a, func(e *domain.GameExport) {
		e.Idempotency = []domain.IdempotencyRecord{{Scope: "seat:0", Key: "k2", RequestHash: "rh2", Status: 200, Response: []byte(`{"seq":1}`)}}
	})

	b := move("g", 1)
	b.Idempotency = &domain.IdempotencyRecord{Scope: "seat:0", Key: "k2", RequestHash: "rh3", Status: 200, Response: []byte(`{"seq":2}`)}
	requireCode(t, s.Append(ctx, b), domain.Conflict)
	b.Idempotency.Key = "k1" // the deleted game's key is free again
	require.NoError(t, s.Append(ctx, b))
}

// TestPhaseOfAGameMadeAgain: the writer remembers the phase of the games it
// appends to, at the game's version, so that a move sets the phase only when
// it changes; a game deleted as idle and imported again at that version in
// another phase is read again, so a move back to the remembered phase sets
// it.
func TestPhaseOfAGameMadeAgain(t *testing.T) {
	s, _ := openStore(t)
	ctx := t.Context()
	a := move("g", 0)
	a.Phase = "bid"
	makeAgain(t, s, a, func(e *domain.GameExport) { e.Game.Phase = "play" })

	b := move("g", 1)
	b.Phase = "bid"
	require.NoError(t, s.Append(ctx, b))
	got, err := s.CountGames(ctx)
	require.NoError(t, err)
	assert.Equal(t, []domain.GameCount{{Ruleset: "silver-and-gold", Phase: "bid", Games: 1}}, got)
	g, err := s.Game(ctx, "g")
	require.NoError(t, err)
	assert.Equal(t, "bid", g.Phase)
}

// makeAgain creates game g, stores a (its first move), deletes the game as
// idle and imports it again as exported after a, changed by change.
func makeAgain(t *testing.T, s *sqlite.Store, a domain.Append, change func(*domain.GameExport)) {
	t.Helper()
	ctx := t.Context()
	mustCreate(t, s, "g")
	require.NoError(t, s.Append(ctx, a))
	e, err := s.ExportGame(ctx, "g")
	require.NoError(t, err)
	n, err := s.DeleteIdleGames(ctx, time.Now().Add(time.Hour))
	require.NoError(t, err)
	require.Equal(t, 1, n)
	change(&e)
	require.NoError(t, s.ImportGame(ctx, e))
}
