// Package postgres keeps games in a PostgreSQL database. It implements
// domain.Store with the same behaviour as the SQLite store, and knows nothing
// about any game's rules: states, moves and responses are opaque bytes.
//
// # Concurrency
//
// The database decides every race, not this process: an append is one SQL
// statement, so one transaction, that updates the game only WHERE its version
// is the one the move was applied to, and inserts the move and the
// idempotency record only when that update matched. Two appends racing for a
// version (from one server or from several) are serialised by the row lock on
// the game; the second finds the version moved on and gets Conflict. An
// idempotency key stored twice fails the primary key and is a Conflict too.
// Each write commits on its own (PostgreSQL commits concurrent transactions
// together by itself), but the appends of one game queued behind its commit
// in flight (QueueAppend) share the next commit: see queue.go.
//
// # Schema
//
// The SQL files in migrations/ are embedded, applied in name order, each in
// its own transaction, and recorded in schema_migrations, under an advisory
// lock so that servers starting together apply each once. A database at a
// newer schema version than the build is refused.
package postgres

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/storage/internal/seatrows"
)

var (
	_ domain.Store                = (*Store)(nil)
	_ domain.SharedStore          = (*Store)(nil)
	_ domain.IdempotencyKeyLister = (*Store)(nil)
	_ domain.Exporter             = (*Store)(nil)
	_ domain.Importer             = (*Store)(nil)
)

// Store is a domain.Store kept in a PostgreSQL database. It is safe for
// concurrent use, by several goroutines and by several processes.
type Store struct {
	pool     *pgxpool.Pool
	onCommit func(d time.Duration, writes int)
	notices  *notifier
	senders  *senders // the backends this store's notices are sent from

	qmu    sync.Mutex
	queues map[string]*gameQueue // by game id: appends waiting for the game's commit in flight
	group  group                 // games' batches ready for a commit (queue.go)
	heads  heads                 // the snapshots this store wrote last

	mu     sync.RWMutex // calls hold it shared; Close exclusively
	closed bool
}

type config struct {
	onCommit func(d time.Duration, writes int)
	lose     func(gameID string, seq int64) bool
}

// Option changes a default of Open.
type Option func(*config)

// WithCommitObserver makes the store call f after every committed write
// transaction with how long it took and how many writes it held (the moves
// of a batch of queued appends; 1 otherwise). f must return at once.
func WithCommitObserver(f func(d time.Duration, writes int)) Option {
	return func(c *config) { c.onCommit = f }
}

// WithLostNotices makes the store drop the notice of every move for which
// lose returns true, as a server that stops between a move's commit and its
// notice would: for tests that a lost notice costs the other servers' live
// clients latency, never a move.
func WithLostNotices(lose func(gameID string, seq int64) bool) Option {
	return func(c *config) { c.lose = lose }
}

// Open connects to the database at url (postgres://user:password@host/db?…;
// the pool's settings, such as pool_max_conns, may be given in it), applies
// the migrations it lacks and checks the schema version.
func Open(ctx context.Context, url string, opts ...Option) (*Store, error) {
	if migrationsErr != nil {
		return nil, migrationsErr
	}
	var cfg config
	for _, o := range opts {
		o(&cfg)
	}
	pc, err := pgxpool.ParseConfig(url)
	if err != nil {
		// pgx's message quotes the URL, password and all: leave it out.
		return nil, errors.New("postgres: the database URL cannot be parsed; want postgres://user:password@host:port/database")
	}
	own := &senders{pids: map[uint32]struct{}{}}
	pc.BeforeClose = func(c *pgx.Conn) { own.forget(c.PgConn().PID()) }
	pool, err := pgxpool.NewWithConfig(ctx, pc)
	if err != nil {
		return nil, unavailable(fmt.Errorf("postgres: connect: %w", err))
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, unavailable(fmt.Errorf("postgres: connect: %w", err))
	}
	if err := migratePool(ctx, pool); err != nil {
		pool.Close()
		return nil, err
	}
	s := &Store{pool: pool, onCommit: cfg.onCommit, notices: newNotifier(cfg.lose), senders: own, queues: map[string]*gameQueue{},
		group: group{most: max(1, int(pc.MaxConns)/2)}} // the other connections for reads and single appends
	if err := s.Ping(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	go s.notices.run(s.sendNotices)
	return s, nil
}

// Close waits for the calls in flight and closes every connection. Calls
// made once Close has begun get an Unavailable error.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	close(s.notices.stop) // the notices of the moves committed are sent first
	<-s.notices.done
	s.pool.Close()
	return nil
}

func errClosed() error { return domain.Fail(domain.Unavailable, "table.store.closed") }

// enter begins a call: Unavailable once the store is closed. Until leave,
// Close waits, so that a call never meets a closed pool halfway.
func (s *Store) enter() error {
	s.mu.RLock()
	if s.closed {
		s.mu.RUnlock()
		return errClosed()
	}
	return nil
}

func (s *Store) leave() { s.mu.RUnlock() }

// Ping checks that the database answers and that its schema is at the
// version this build expects.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.enter(); err != nil {
		return err
	}
	defer s.leave()
	v, err := schemaVersion(ctx, s.pool)
	if err != nil {
		return unavailable(fmt.Errorf("postgres: ping: %w", err))
	}
	if v != latestVersion() {
		return unavailable(fmt.Errorf("postgres: ping: schema version %d, want %d", v, latestVersion()))
	}
	return nil
}

// CountGames counts the stored games by ruleset and phase label, for metrics
// (an index on games (ruleset, phase) keeps it off the games' rows).
func (s *Store) CountGames(ctx context.Context) ([]domain.GameCount, error) {
	if err := s.enter(); err != nil {
		return nil, err
	}
	defer s.leave()
	rows, _ := s.pool.Query(ctx, `SELECT ruleset, phase, COUNT(*) FROM games GROUP BY ruleset, phase`)
	out := []domain.GameCount{}
	var c domain.GameCount
	_, err := pgx.ForEachRow(rows, []any{&c.Ruleset, &c.Phase, &c.Games}, func() error { out = append(out, c); return nil })
	if err != nil {
		return nil, unavailable(fmt.Errorf("postgres: count games by phase: %w", err))
	}
	return out, nil
}

// DeleteIdleGames deletes every game whose last move (or creation, for a game
// without moves) is before before, with its moves, credentials and
// idempotency records, in one transaction per hundred games, and returns how
// many it deleted. Catalogs stay: other games share them.
func (s *Store) DeleteIdleGames(ctx context.Context, before time.Time) (int, error) {
	if err := s.enter(); err != nil {
		return 0, err
	}
	defer s.leave()
	total := 0
	for {
		var n int
		err := s.write(ctx, func(tx pgx.Tx) error {
			rows, _ := tx.Query(ctx, `SELECT id FROM games WHERE updated_at < $1 ORDER BY updated_at LIMIT 100 FOR UPDATE SKIP LOCKED`, nanos(before))
			ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
			if err != nil {
				return unavailable(fmt.Errorf("postgres: find idle games: %w", err))
			}
			for _, q := range []string{
				`DELETE FROM idempotency WHERE game_id = ANY($1)`,
				`DELETE FROM moves WHERE game_id = ANY($1)`,
				`DELETE FROM seats WHERE game_id = ANY($1)`,
				`DELETE FROM games WHERE id = ANY($1)`,
			} {
				if _, err := tx.Exec(ctx, q, ids); err != nil {
					return unavailable(fmt.Errorf("postgres: delete idle games: %w", err))
				}
			}
			n = len(ids)
			return nil
		})
		if err != nil {
			return total, err
		}
		total += n
		if n < 100 {
			return total, nil
		}
	}
}

const gameColumns = `id, ruleset, mode, catalog_name, catalog_hash, created_at, updated_at, version, state, phase, ended`

// Game returns the latest snapshot of a game.
func (s *Store) Game(ctx context.Context, id string) (domain.GameRecord, error) {
	if err := s.enter(); err != nil {
		return domain.GameRecord{}, err
	}
	defer s.leave()
	return readGame(ctx, s.pool, id)
}

type queryRower interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

func readGame(ctx context.Context, q queryRower, id string) (domain.GameRecord, error) {
	var (
		g                domain.GameRecord
		created, updated int64
	)
	err := q.QueryRow(ctx, `SELECT `+gameColumns+` FROM games WHERE id = $1`, id).
		Scan(&g.ID, &g.Ruleset, &g.Mode, &g.CatalogName, &g.CatalogHash,
			&created, &updated, &g.Version, &g.State, &g.Phase, &g.Ended)
	if errors.Is(err, pgx.ErrNoRows) {
		return domain.GameRecord{}, notFound(id)
	}
	if err != nil {
		return domain.GameRecord{}, unavailable(fmt.Errorf("postgres: read game %q: %w", id, err))
	}
	g.CreatedAt, g.UpdatedAt = fromNanos(created), fromNanos(updated)
	return g, nil
}

func notFound(id string) error {
	return domain.Fail(domain.NotFound, "table.store.no-game", "game", id)
}

// Credentials returns the credential hashes of a game.
func (s *Store) Credentials(ctx context.Context, id string) (domain.Credentials, error) {
	if err := s.enter(); err != nil {
		return domain.Credentials{}, err
	}
	defer s.leave()
	return readCredentials(ctx, s.pool, id)
}

type querier interface {
	queryRower
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

func readCredentials(ctx context.Context, q querier, id string) (domain.Credentials, error) {
	// One statement: the seats and the revision they are at, as of one moment.
	rows, _ := q.Query(ctx, `SELECT s.seat, s.hash, s.taken, g.seats_rev
		FROM seats s JOIN games g ON g.id = s.game_id WHERE s.game_id = $1 ORDER BY s.seat`, id)
	var (
		r          seatrows.Credentials
		seat       int
		hash       string
		taken      bool
		rev, atRev int64
	)
	_, err := pgx.ForEachRow(rows, []any{&seat, &hash, &taken, &rev}, func() error { atRev = rev; return r.Add(seat, hash, taken) })
	if err != nil {
		return domain.Credentials{}, unavailable(fmt.Errorf("postgres: read credentials of game %q: %w", id, err))
	}
	c, found := r.Result()
	if !found {
		// Every game has at least its host row.
		return domain.Credentials{}, notFound(id)
	}
	c.Revision = atRev
	return c, nil
}

// Catalog returns a stored catalog by its hash.
func (s *Store) Catalog(ctx context.Context, hash string) (domain.CatalogBlob, error) {
	if err := s.enter(); err != nil {
		return domain.CatalogBlob{}, err
	}
	defer s.leave()
	return readCatalog(ctx, s.pool, hash)
}

func readCatalog(ctx context.Context, q queryRower, hash string) (domain.CatalogBlob, error) {
	c := domain.CatalogBlob{Hash: hash}
	err := q.QueryRow(ctx, `SELECT name, content FROM catalogs WHERE hash = $1`, hash).Scan(&c.Name, &c.Content)
	if errors.Is(err, pgx.ErrNoRows) {
		return domain.CatalogBlob{}, domain.Fail(domain.NotFound, "table.store.no-catalog", "catalog", hash)
	}
	if err != nil {
		return domain.CatalogBlob{}, unavailable(fmt.Errorf("postgres: read catalog %q: %w", hash, err))
	}
	return c, nil
}

// Moves returns up to limit moves of a game with Seq > after, in order
// (limit <= 0: all of them). A game without such moves gives an empty slice;
// a missing game gives NotFound.
func (s *Store) Moves(ctx context.Context, id string, after int64, limit int) ([]domain.MoveRecord, error) {
	if err := s.enter(); err != nil {
		return nil, err
	}
	defer s.leave()
	return readMoves(ctx, s.pool, id, after, limit)
}

func readMoves(ctx context.Context, q querier, id string, after int64, limit int) ([]domain.MoveRecord, error) {
	var lim *int64 // LIMIT NULL is no limit
	capHint := 64
	if limit > 0 {
		l := int64(limit)
		lim, capHint = &l, limit
	}
	rows, _ := q.Query(ctx, `SELECT seq, actor_host, actor_seat, body, events, at, public, for_seat, not_host
		FROM moves WHERE game_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`, id, after, lim)
	out := make([]domain.MoveRecord, 0, min(capHint, 1024))
	var (
		m  domain.MoveRecord
		at int64
	)
	_, err := pgx.ForEachRow(rows, []any{&m.Seq, &m.Actor.Host, &m.Actor.Seat, &m.Move, &m.Events, &at, &m.Public, &m.For, &m.NotHost}, func() error {
		m.At = fromNanos(at)
		out = append(out, m)
		m = domain.MoveRecord{} // the next row scans into fresh slices
		return nil
	})
	if err != nil {
		return nil, unavailable(fmt.Errorf("postgres: read moves of game %q: %w", id, err))
	}
	if len(out) == 0 {
		// Only now is it worth a second lookup to tell "no moves" from "no game".
		var exists bool
		if err := q.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM games WHERE id = $1)`, id).Scan(&exists); err != nil {
			return nil, unavailable(fmt.Errorf("postgres: look up game %q: %w", id, err))
		}
		if !exists {
			return nil, notFound(id)
		}
	}
	return out, nil
}

// Idempotency returns the stored record for (game, scope, key), or nil.
func (s *Store) Idempotency(ctx context.Context, gameID, scope, key string) (*domain.IdempotencyRecord, error) {
	if err := s.enter(); err != nil {
		return nil, err
	}
	defer s.leave()
	r := domain.IdempotencyRecord{Key: key, Scope: scope}
	err := s.pool.QueryRow(ctx, `SELECT request_hash, status, response
		FROM idempotency WHERE game_id = $1 AND scope = $2 AND key = $3`, gameID, scope, key).
		Scan(&r.RequestHash, &r.Status, &r.Response)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, unavailable(fmt.Errorf("postgres: read idempotency key %q of game %q: %w", key, gameID, err))
	}
	return &r, nil
}

// IdempotencyKeys lists the idempotency records stored for a game, without
// their responses.
func (s *Store) IdempotencyKeys(ctx context.Context, gameID string) ([]domain.IdempotencyRecord, error) {
	if err := s.enter(); err != nil {
		return nil, err
	}
	defer s.leave()
	rows, _ := s.pool.Query(ctx, `SELECT scope, key, request_hash, status FROM idempotency WHERE game_id = $1`, gameID)
	var (
		out []domain.IdempotencyRecord
		r   domain.IdempotencyRecord
	)
	_, err := pgx.ForEachRow(rows, []any{&r.Scope, &r.Key, &r.RequestHash, &r.Status}, func() error {
		out = append(out, r)
		return nil
	})
	if err != nil {
		return nil, unavailable(fmt.Errorf("postgres: read idempotency keys of game %q: %w", gameID, err))
	}
	return out, nil
}

// CreateGame stores a new game at version 0 with its credentials (the host's
// under seat -1) and its catalog, which is stored once per distinct hash.
// Zero CreatedAt and UpdatedAt are set to now. An existing id is a Conflict.
func (s *Store) CreateGame(ctx context.Context, g domain.GameRecord, creds domain.Credentials, cat domain.CatalogBlob) error {
	if g.Version != 0 {
		return domain.Fail(domain.Invalid, "table.store.new-version", "version", g.Version)
	}
	if err := (&domain.GameExport{Game: g, Credentials: creds, Catalog: cat}).Check(); err != nil {
		return unavailable(fmt.Errorf("postgres: create game: %w", err))
	}
	if err := s.enter(); err != nil {
		return err
	}
	defer s.leave()
	now := time.Now()
	if g.CreatedAt.IsZero() {
		g.CreatedAt = now
	}
	if g.UpdatedAt.IsZero() {
		g.UpdatedAt = g.CreatedAt
	}
	return s.write(ctx, func(tx pgx.Tx) error { return insertGame(ctx, tx, g, creds, cat) })
}

// write runs f in a transaction and reports the commit to the observer. The
// errors of the transaction itself (no connection for its BEGIN, its COMMIT
// lost with the connection) are Unavailable as f's own are: the database
// could not be reached, and the same request may succeed later.
func (s *Store) write(ctx context.Context, f func(pgx.Tx) error) error {
	start := time.Now()
	if err := pgx.BeginFunc(ctx, s.pool, f); err != nil {
		if domain.ErrorCode(err) != domain.Internal {
			return err // f's, already told
		}
		return unavailable(fmt.Errorf("postgres: write: %w", err))
	}
	if s.onCommit != nil {
		s.onCommit(time.Since(start), 1)
	}
	return nil
}

func insertGame(ctx context.Context, tx pgx.Tx, g domain.GameRecord, creds domain.Credentials, cat domain.CatalogBlob) error {
	if _, err := tx.Exec(ctx, `INSERT INTO catalogs (hash, name, content) VALUES ($1, $2, $3)
		ON CONFLICT (hash) DO NOTHING`, cat.Hash, cat.Name, nonNil(cat.Content)); err != nil {
		return unavailable(fmt.Errorf("postgres: create game %q: store catalog: %w", g.ID, err))
	}
	_, err := tx.Exec(ctx, `INSERT INTO games (`+gameColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
		g.ID, g.Ruleset, g.Mode, g.CatalogName, g.CatalogHash, nanos(g.CreatedAt), nanos(g.UpdatedAt),
		g.Version, nonNil(g.State), g.Phase, g.Ended)
	if isUniqueViolation(err, "games_pkey") {
		return domain.Fail(domain.Conflict, "table.store.game-exists", "game", g.ID)
	}
	if err != nil {
		return unavailable(fmt.Errorf("postgres: create game %q: %w", g.ID, err))
	}
	// One statement for every seat: the host under -1, then 0, 1, …
	seats := make([]int32, 0, 1+len(creds.SeatHashes))
	hashes := make([]string, 0, 1+len(creds.SeatHashes))
	taken := make([]bool, 0, 1+len(creds.SeatHashes))
	seats, hashes, taken = append(seats, seatrows.Host), append(hashes, creds.HostHash), append(taken, false)
	for i, h := range creds.SeatHashes {
		seats, hashes, taken = append(seats, int32(i)), append(hashes, h), append(taken, creds.IsTaken(i))
	}
	if _, err := tx.Exec(ctx, `INSERT INTO seats (game_id, seat, hash, taken) SELECT $1, * FROM unnest($2::integer[], $3::text[], $4::boolean[])`,
		g.ID, seats, hashes, taken); err != nil {
		// A unique violation here means two credentials hash alike: a bug, not a conflict.
		return unavailable(fmt.Errorf("postgres: create game %q: store credentials: %w", g.ID, err))
	}
	return nil
}

// appendSQL stores a run of appends of one game in one statement, so in one
// transaction and one round trip: the moves of the run each follow the one
// before it (queue.go), and the game's row is updated once, from the version
// the first expects to the last's snapshot, its moves and idempotency
// records inserted from the row it updated. The update matches only when the
// game is at the expected version (under a row lock: a concurrent append to
// the same game waits, then finds the version moved on). A stored key makes
// the statement fail on the primary key, and nothing of it is kept. With $8
// (not NULL) the game's credentials must still be at that revision too: the
// actors were authenticated with credentials read at it. With $9 (not NULL)
// the game's snapshot must still be the one the first move was applied to: a
// version's number alone does not say which of the servers' versions of that
// number is the one stored (see stateGuard); with $10 (not NULL) the row must
// still be the one that transaction wrote, which stands for the same check
// when this store wrote that snapshot (see heads). It returns the rows it
// updated and the transaction's id. It notifies nothing: the notice goes
// after the commit, batched with others (notify.go).
//
// One update per run instead of one per move (issue 27): in the load run
// with one server, 45% of the appends followed another of their game in the
// same transaction, and each update wrote the game's whole row (its
// snapshot, 1.6 KB of a Silver & Gold game) to the WAL again. Statements per
// move there went from 1.39-1.43 to 0.95-0.96 (3 servers: 1.51 to 1.04);
// BenchmarkQueueAppend, four moves of a game at a time, medians of 6
// alternated: WAL 2,012 to 1,509 B per move, PostgreSQL's backends 61 to
// 36 µs per move, the store's side 46 to 32 µs.
//
// A run of one append (most runs) gives its move ($11-$19) and its record
// ($20-$24, a NULL key when it has none) as values, a longer run as arrays
// with an element per move and per record: unnest cost PostgreSQL about
// half as much again as the append itself on a run of one
// (BenchmarkQueueAppend, one at a time).
var appendSQL = [2]string{
	fmt.Sprintf(appendTemplate,
		`SELECT id, $11::bigint, $12::boolean, $13::integer, $14::bytea, $15::bytea, $16::bigint, $17::bytea, $18::integer, $19::boolean FROM g`,
		`SELECT id, $20::text, $21::text, $22::text, $23::integer, $24::bytea FROM g WHERE $21::text IS NOT NULL`),
	fmt.Sprintf(appendTemplate,
		`SELECT g.id, u.* FROM g, unnest($11::bigint[], $12::boolean[], $13::integer[], $14::bytea[], $15::bytea[],
		$16::bigint[], $17::bytea[], $18::integer[], $19::boolean[]) AS u`,
		`SELECT g.id, u.* FROM g, unnest($20::text[], $21::text[], $22::text[], $23::integer[], $24::bytea[]) AS u`),
}

const appendTemplate = `WITH g AS (
	UPDATE games SET version = $3, state = $4, phase = $5, ended = $6, updated_at = $7
	WHERE id = $1 AND version = $2 AND ($8::bigint IS NULL OR seats_rev = $8) AND ($9::bytea IS NULL OR state = $9)
		AND ($10::xid IS NULL OR xmin = $10::xid)
	RETURNING id
), m AS (
	INSERT INTO moves (game_id, seq, actor_host, actor_seat, body, events, at, public, for_seat, not_host)
	%s
), i AS (
	INSERT INTO idempotency (game_id, scope, key, request_hash, status, response)
	%s
)
SELECT count(*), CASE WHEN count(*) > 0 THEN pg_current_xact_id()::xid END FROM g`

// appendChainedSQL is appendSQL for a run sent in one transaction after the
// run whose last version it expects (queue.go): it matches only a row that
// this transaction wrote, so that when the run before it matched nothing,
// it cannot match the same version stored by another server instead.
var appendChainedSQL = [2]string{chain(appendSQL[0]), chain(appendSQL[1])}

func chain(sql string) string {
	return strings.Replace(sql, "WHERE id = $1 AND version = $2", "WHERE id = $1 AND version = $2 AND xmin = pg_current_xact_id()::xid", 1)
}

// Append makes a move, the game's new snapshot and the optional idempotency
// record durable together, and returns after the commit. The game must be at
// a.ExpectVersion (Conflict otherwise, and nothing is stored) and a.Move.Seq
// must be a.ExpectVersion+1. A zero a.Move.At is set to now; the game's
// updated_at becomes the move's time.
func (s *Store) Append(ctx context.Context, a domain.Append) error {
	if err := checkFollows(a); err != nil {
		return err
	}
	if err := s.enter(); err != nil {
		return err
	}
	defer s.leave()
	start := time.Now()
	var (
		n   int
		xid pgtype.Uint32
	)
	sql, args := s.appendArgs([]domain.Append{a}, false)
	err := s.pool.QueryRow(ctx, sql, args...).Scan(&n, &xid)
	if isUniqueViolation(err, "idempotency_pkey") {
		return domain.Fail(domain.Conflict, "table.store.idempotency", "key", a.Idempotency.Key, "game", a.GameID)
	}
	if err != nil {
		return unavailable(fmt.Errorf("postgres: append to game %q: %w", a.GameID, err))
	}
	if n == 0 {
		return s.versionMismatch(ctx, a.GameID, a.ExpectVersion, a.Credentials)
	}
	s.heads.wrote(a, xid.Uint32)
	s.notices.told(a.GameID, a.Move.Seq)
	if s.onCommit != nil {
		s.onCommit(time.Since(start), 1)
	}
	return nil
}

// checkFollows checks that a's move follows the version it expects.
func checkFollows(a domain.Append) error {
	if a.Move.Seq != a.ExpectVersion+1 {
		return unavailable(fmt.Errorf("postgres: append to game %q: move %d does not follow version %d", a.GameID, a.Move.Seq, a.ExpectVersion))
	}
	return nil
}

// appendArgs are the statement that stores run, appends of one game each
// following the one before it and authenticated at the same revision of
// its credentials, and its arguments: appendSQL's, or appendChainedSQL's
// when chained (the state the first was applied to is then the one the run
// before it in the same transaction wrote, and is not compared). A zero
// Move.At is now.
func (s *Store) appendArgs(run []domain.Append, chained bool) (string, []any) {
	first, last := run[0], run[len(run)-1]
	var (
		seqs     = make([]int64, len(run))
		hosts    = make([]bool, len(run))
		seats    = make([]int32, len(run))
		bodies   = make(pgtype.FlatArray[[]byte], len(run)) // not [][]byte: pgx encodes those by reflection
		events   = make(pgtype.FlatArray[[]byte], len(run))
		ats      = make([]int64, len(run))
		publics  = make(pgtype.FlatArray[[]byte], len(run))
		fors     = make([]int32, len(run))
		notHosts = make([]bool, len(run))
		scopes   []string
		keys     []string
		hashes   []string
		statuses []int32
		answers  pgtype.FlatArray[[]byte]
	)
	for i, a := range run {
		at := a.Move.At
		if at.IsZero() {
			at = time.Now()
		}
		ev := a.Move.Events
		if len(ev) == 0 {
			ev = []byte("[]")
		}
		seqs[i], hosts[i], seats[i], bodies[i], events[i] = a.Move.Seq, a.Move.Actor.Host, int32(a.Move.Actor.Seat), nonNil(a.Move.Move), ev
		ats[i], publics[i], fors[i], notHosts[i] = nanos(at), a.Move.Public, int32(a.Move.For), a.Move.NotHost
		if r := a.Idempotency; r != nil {
			scopes, keys, hashes = append(scopes, r.Scope), append(keys, r.Key), append(hashes, r.RequestHash)
			statuses, answers = append(statuses, int32(r.Status)), append(answers, nonNil(r.Response))
		}
	}
	state, writer := s.stateGuard(first, chained)
	args := []any{first.GameID, first.ExpectVersion, last.Move.Seq, nonNil(last.State), last.Phase, last.Ended, ats[len(run)-1],
		first.Credentials, state, writer}
	form := 1 // arrays
	if len(run) == 1 {
		form = 0
		args = append(args, seqs[0], hosts[0], seats[0], bodies[0], events[0], ats[0], publics[0], fors[0], notHosts[0])
		if len(keys) == 1 {
			args = append(args, scopes[0], keys[0], hashes[0], statuses[0], answers[0])
		} else {
			args = append(args, nil, nil, nil, nil, nil)
		}
	} else {
		args = append(args, seqs, hosts, seats, bodies, events, ats, publics, fors, notHosts, scopes, keys, hashes, statuses, answers)
	}
	if chained {
		return appendChainedSQL[form], args
	}
	return appendSQL[form], args
}

// stateGuard is appendSQL's $9 and $10 for a: the snapshot a's move was
// applied to, or else (when this store wrote that snapshot) the
// transaction that wrote it, or neither (NULL: not compared). The update
// reads the game's row anyway: the check costs no round trip, only the
// snapshot's bytes sent once more and compared (a few kilobytes: less CPU on
// both sides than hashing them, which took PostgreSQL 5-10 µs per 1.6 KB with
// md5()), or a transaction's id.
func (s *Store) stateGuard(a domain.Append, chained bool) (state []byte, writer *uint32) {
	if chained || a.ExpectState == nil {
		return nil, nil
	}
	if xid, ok := s.heads.writer(a); ok {
		return nil, &xid
	}
	return a.ExpectState, nil
}

// heads are the snapshots this store's appends wrote last, by game, with
// the transaction that wrote each. The game's row at an append's version
// holds the snapshot the append was applied to when that transaction wrote
// it (xmin): an append applied to a snapshot of these is checked by the
// transaction's id, 4 bytes, instead of the snapshot's kilobytes sent and
// compared again (about a third of the bytes of an append of a Silver &
// Gold game). A transaction's id may stand for a row no more (PostgreSQL
// froze the row, or the id wrapped around after four billion
// transactions): the append then fails as if its snapshot were another, the
// game's head is forgotten, and the move goes again with its snapshot.
type heads struct {
	mu sync.Mutex
	m  map[string]head
}

type head struct {
	version int64
	state   []byte
	xid     uint32
}

// maxHeads bounds how many games' heads a store keeps: a few of their
// snapshots' worth of memory, as the service's cache holds them anyway.
const maxHeads = 10000

// wrote records that transaction xid stored a, and so a.State at a.Move.Seq.
func (h *heads) wrote(a domain.Append, xid uint32) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.m == nil {
		h.m = map[string]head{}
	}
	if _, ok := h.m[a.GameID]; !ok && len(h.m) >= maxHeads {
		for id := range h.m {
			delete(h.m, id) // any one
			break
		}
	}
	h.m[a.GameID] = head{a.Move.Seq, a.State, xid}
}

// writer returns the transaction that wrote the snapshot a was applied to
// at the version it expects, when this store wrote it last.
func (h *heads) writer(a domain.Append) (uint32, bool) {
	h.mu.Lock()
	hd, ok := h.m[a.GameID]
	h.mu.Unlock()
	if !ok || hd.version != a.ExpectVersion || !bytes.Equal(hd.state, a.ExpectState) {
		return 0, false
	}
	return hd.xid, true
}

// forget forgets the head of game id.
func (h *heads) forget(id string) {
	h.mu.Lock()
	delete(h.m, id)
	h.mu.Unlock()
}

// versionMismatch explains why an append matched no row: no such game, the
// game is at another version, or its credentials at another revision than
// creds (when not nil), or else its snapshot is not the one the move was
// applied to (Append.ExpectState).
func (s *Store) versionMismatch(ctx context.Context, id string, expect int64, creds *int64) error {
	s.heads.forget(id) // the move goes again with its snapshot
	var v, rev int64
	err := s.pool.QueryRow(ctx, `SELECT version, seats_rev FROM games WHERE id = $1`, id).Scan(&v, &rev)
	if errors.Is(err, pgx.ErrNoRows) {
		return notFound(id)
	}
	if err != nil {
		return unavailable(fmt.Errorf("postgres: append to game %q: %w", id, err))
	}
	switch {
	case v != expect:
		return domain.Fail(domain.Conflict, "table.store.version", "game", id, "version", v, "expected", expect)
	case creds != nil && *creds != rev:
		return domain.Fail(domain.Conflict, "table.store.credentials", "game", id)
	}
	return domain.Fail(domain.Conflict, "table.store.state", "game", id, "version", v)
}

// nanos is how times are stored: nanoseconds since 1970 UTC.
func nanos(t time.Time) int64 { return t.UnixNano() }

func fromNanos(n int64) time.Time { return time.Unix(0, n).UTC() }

// isUniqueViolation reports whether err is a violation of the named
// primary-key or unique constraint.
func isUniqueViolation(err error, constraint string) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505" && pe.ConstraintName == constraint
}

// nonNil turns a nil slice into an empty one: bytea columns are NOT NULL.
func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}
