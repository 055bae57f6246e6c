package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mattn/go-sqlite3"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/storage/internal/migrate"
	"github.com/treasury-games/treasury/storage/internal/seatrows"
)

var _ domain.Store = (*Store)(nil)

// Store is a domain.Store kept in one SQLite file. It is safe for concurrent
// use; see the package comment for how writes are grouped.
type Store struct {
	cfg    config
	writer *sql.DB   // one connection, used by migrations, then held as conn
	conn   *sql.Conn // writer's one connection, used only by the writer goroutine
	reader *sql.DB   // read-only pool

	// mu makes "not closed, so send" atomic with respect to Close closing reqs.
	mu     sync.RWMutex
	closed atomic.Bool
	reqs   chan *request
	done   chan struct{} // closed when the writer goroutine has drained reqs

	batches atomic.Int64
	writes  atomic.Int64

	// The writer's memory of the games' idempotency key hashes (keyUsed),
	// used only by the writer goroutine.
	keys     map[string]*gameKeys
	keyCount int
	// The writer's memory of the games' indexed columns (indexedColumns),
	// used only by the writer goroutine.
	indexed map[string]indexed
	// The last append of each game's run while planRuns looks at a group,
	// used only by the writer goroutine.
	runEnds map[string]*runStep
	// The buffer packRow compresses a game's snapshot into, used only by
	// the writer goroutine.
	packBuf []byte

	// writeErr is the last write that failed on the disk (see writeFailed),
	// nil once a write succeeds again; Ping reports it.
	writeErr  atomic.Pointer[error]
	dir       string // the database's directory, whose free space the probe checks
	probeMu   sync.Mutex
	lastProbe time.Time
}

// The writer's default linger (WithLinger).
const (
	DefaultLingerGap = 100 * time.Microsecond
	DefaultLingerMax = time.Millisecond
)

type config struct {
	readers     int
	busyTimeout time.Duration
	maxBatch    int
	queue       int
	beforeBatch func() // test hook: runs in the writer goroutine after it took a first request
	onCommit    func(d time.Duration, writes int)
	lingerGap   time.Duration
	lingerMax   time.Duration
}

// Option changes a default of Open.
type Option func(*config)

// WithReaders sets the size of the read-only connection pool (default 4).
func WithReaders(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.readers = n
		}
	}
}

// WithBusyTimeout sets how long a connection waits for a lock held by another
// process before failing (default 5s). Within one Store writes never contend.
func WithBusyTimeout(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.busyTimeout = d
		}
	}
}

// WithMaxBatch bounds how many queued writes are committed in one transaction
// (default 128); 1 turns group commit off.
func WithMaxBatch(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.maxBatch = n
		}
	}
}

// WithLinger sets how the writer gathers a group while writes arrive
// together (default: gap 100µs, at most 1ms). When its previous commit
// grouped more than one write, the writer, having taken the first write of
// the next group, goes on taking writes for as long as each comes within gap
// of the one before, for at most most, before it begins the transaction. A
// commit costs the same CPU and one fsync whether it holds one write or
// thirty, so under load fewer, larger commits leave more of the machine to
// the writes themselves; a lone write (the previous commit held one) never
// waits. A zero gap turns lingering off: each group is what was already
// queued when the writer got to it.
func WithLinger(gap, most time.Duration) Option {
	return func(c *config) {
		if gap <= 0 || most <= 0 {
			c.lingerGap, c.lingerMax = 0, 0
			return
		}
		c.lingerGap, c.lingerMax = gap, max(most, gap)
	}
}

// WithCommitObserver makes the writer call f after every committed write
// transaction with how long it took, from BEGIN to the end of COMMIT (the
// fsync included), and how many writes it grouped. f runs in the writer
// goroutine, so it must return at once (a metrics histogram, say); the store
// stays free of any metrics library.
func WithCommitObserver(f func(d time.Duration, writes int)) Option {
	return func(c *config) { c.onCommit = f }
}

// Open opens the database file at path, creating it if absent, applies the
// migrations it lacks and starts the writer. path must name a file: WAL mode
// and separate reader connections need one.
func Open(ctx context.Context, path string, opts ...Option) (*Store, error) {
	if migrationsErr != nil {
		return nil, migrationsErr
	}
	cfg := config{readers: 4, busyTimeout: 5 * time.Second, maxBatch: 128, lingerGap: DefaultLingerGap, lingerMax: DefaultLingerMax}
	for _, o := range opts {
		o(&cfg)
	}
	cfg.queue = 4 * cfg.maxBatch
	if path == "" || path == ":memory:" || strings.HasPrefix(path, "file:") || strings.Contains(path, "?") {
		return nil, fmt.Errorf("sqlite: open %q: want a plain file path", path)
	}

	// Parameter names are those of github.com/mattn/go-sqlite3; each is applied
	// to every new connection. The statement cache keeps each connection's
	// prepared statements, so the fixed queries below are compiled once.
	common := fmt.Sprintf("_busy_timeout=%d&_foreign_keys=on&_stmt_cache_size=32", cfg.busyTimeout.Milliseconds())
	writer, err := sql.Open("sqlite3", path+"?"+common+"&_journal_mode=WAL&_synchronous=FULL&_txlock=immediate")
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	writer.SetMaxOpenConns(1)
	writer.SetMaxIdleConns(1)
	writer.SetConnMaxLifetime(0)
	writer.SetConnMaxIdleTime(0)
	if err := writer.PingContext(ctx); err != nil {
		writer.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	if err := migrateDB(ctx, writer); err != nil {
		writer.Close()
		return nil, err
	}

	// Opened after the writer so that the file is already in WAL mode.
	reader, err := sql.Open("sqlite3", path+"?"+common+"&_query_only=on")
	if err != nil {
		writer.Close()
		return nil, fmt.Errorf("sqlite: open %s for reading: %w", path, err)
	}
	reader.SetMaxOpenConns(cfg.readers)
	reader.SetMaxIdleConns(cfg.readers)
	reader.SetConnMaxLifetime(0)
	reader.SetConnMaxIdleTime(0)

	s := &Store{
		cfg:     cfg,
		writer:  writer,
		reader:  reader,
		dir:     filepath.Dir(path),
		reqs:    make(chan *request, cfg.queue),
		done:    make(chan struct{}),
		keys:    map[string]*gameKeys{},
		indexed: map[string]indexed{},
		runEnds: map[string]*runStep{},
	}
	if s.conn, err = writer.Conn(ctx); err != nil {
		writer.Close()
		reader.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	if err := s.Ping(ctx); err != nil {
		s.conn.Close()
		writer.Close()
		reader.Close()
		return nil, err
	}
	go s.run()
	return s, nil
}

// Close stops accepting writes, commits and answers the writes already queued,
// then closes the database. Calls made after Close get an Unavailable error.
func (s *Store) Close() error {
	s.mu.Lock()
	if s.closed.Load() {
		s.mu.Unlock()
		return nil
	}
	s.closed.Store(true)
	close(s.reqs)
	s.mu.Unlock()
	<-s.done
	return errors.Join(s.conn.Close(), s.writer.Close(), s.reader.Close())
}

// Stats counts the writer's work since Open.
type Stats struct {
	Batches int64 // write transactions committed
	Writes  int64 // requests (CreateGame, Append) in them, including those that failed alone
}

// Stats returns what the writer has committed so far; Writes/Batches is the
// average group size.
func (s *Store) Stats() Stats {
	return Stats{Batches: s.batches.Load(), Writes: s.writes.Load()}
}

func errClosed() error { return domain.Fail(domain.Unavailable, "table.store.closed") }

func (s *Store) checkOpen() error {
	if s.closed.Load() {
		return errClosed()
	}
	return nil
}

// Ping checks that a reader connection answers, that the schema is at the
// version this build expects, and that writes succeed: after a write failed
// on the disk (full, I/O error, read-only), Ping fails with Unavailable until
// a write succeeds again, trying one itself at most once a second.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.checkOpen(); err != nil {
		return err
	}
	if err := s.writable(ctx); err != nil {
		return err
	}
	v, err := schema.Version(ctx, migrate.SQL(s.reader))
	if err != nil {
		return fmt.Errorf("sqlite: ping: %w", err)
	}
	if v != latestVersion() {
		return fmt.Errorf("sqlite: ping: schema version %d, want %d", v, latestVersion())
	}
	return nil
}

// CountGames counts the stored games by ruleset and phase label, for
// metrics. Ended games are counted from an index of them by ruleset and phase
// (games_ended_phase), unfinished ones found through an index of them by
// ruleset (games_playing) and their rows read for the phase, which changes at
// most moves and so is in no index of them (migration 0010): about 1.2 µs per
// unfinished game (BenchmarkCountGames: 118 ms for 100,000, against 10 ms when
// an index held every game's phase). Neither scans the table.
func (s *Store) CountGames(ctx context.Context) ([]domain.GameCount, error) {
	if err := s.checkOpen(); err != nil {
		return nil, err
	}
	out := []domain.GameCount{}
	at := map[[2]string]int{}
	for _, q := range []string{
		`SELECT ruleset, phase, COUNT(*) FROM games WHERE ended = 1 GROUP BY ruleset, phase`,
		`SELECT ruleset, phase, COUNT(*) FROM games WHERE ended = 0 GROUP BY ruleset, phase`,
	} {
		if err := countGames(ctx, s.reader, q, &out, at); err != nil {
			return nil, fmt.Errorf("sqlite: count games by phase: %w", err)
		}
	}
	return out, nil
}

// countGames adds the counts q finds to out; at is where out holds each
// (ruleset, phase).
func countGames(ctx context.Context, db querier, q string, out *[]domain.GameCount, at map[[2]string]int) error {
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var c domain.GameCount
		if err := rows.Scan(&c.Ruleset, &c.Phase, &c.Games); err != nil {
			return err
		}
		if i, ok := at[[2]string{c.Ruleset, c.Phase}]; ok {
			(*out)[i].Games += c.Games
			continue
		}
		at[[2]string{c.Ruleset, c.Phase}] = len(*out)
		*out = append(*out, c)
	}
	return rows.Err()
}

// Game returns the latest snapshot of a game.
func (s *Store) Game(ctx context.Context, id string) (domain.GameRecord, error) {
	if err := s.checkOpen(); err != nil {
		return domain.GameRecord{}, err
	}
	return readGame(ctx, s.reader, id)
}

// querier is what reads need: the reader pool, or a transaction on it.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func readGame(ctx context.Context, q querier, id string) (domain.GameRecord, error) {
	var (
		g                domain.GameRecord
		created, updated string
		plain, packed    []byte
	)
	err := q.QueryRowContext(ctx, `SELECT id, ruleset, mode, catalog_name, catalog_hash,
			created_at, updated_at, version, state, state_s2, phase, ended
		FROM games WHERE id = ?`, id).
		Scan(&g.ID, &g.Ruleset, &g.Mode, &g.CatalogName, &g.CatalogHash,
			&created, &updated, &g.Version, &plain, &packed, &g.Phase, &g.Ended)
	if errors.Is(err, sql.ErrNoRows) {
		return domain.GameRecord{}, domain.Fail(domain.NotFound, "table.store.no-game", "game", id)
	}
	if err != nil {
		return domain.GameRecord{}, fmt.Errorf("sqlite: read game %q: %w", id, err)
	}
	if g.State, err = unpackState(plain, packed); err != nil {
		return domain.GameRecord{}, fmt.Errorf("sqlite: read game %q: %w", id, err)
	}
	if g.CreatedAt, err = parseTime(created); err != nil {
		return domain.GameRecord{}, fmt.Errorf("sqlite: read game %q: created_at: %w", id, err)
	}
	if g.UpdatedAt, err = parseTime(updated); err != nil {
		return domain.GameRecord{}, fmt.Errorf("sqlite: read game %q: updated_at: %w", id, err)
	}
	return g, nil
}

// Credentials returns the credential hashes of a game.
func (s *Store) Credentials(ctx context.Context, id string) (domain.Credentials, error) {
	if err := s.checkOpen(); err != nil {
		return domain.Credentials{}, err
	}
	return readCredentials(ctx, s.reader, id)
}

func readCredentials(ctx context.Context, q querier, id string) (domain.Credentials, error) {
	rows, err := q.QueryContext(ctx, `SELECT seat, hash, taken FROM seats WHERE game_id = ? ORDER BY seat`, id)
	if err != nil {
		return domain.Credentials{}, fmt.Errorf("sqlite: read credentials of game %q: %w", id, err)
	}
	defer rows.Close()
	var r seatrows.Credentials
	for rows.Next() {
		var (
			seat  int
			hash  string
			taken bool
		)
		if err := rows.Scan(&seat, &hash, &taken); err != nil {
			return domain.Credentials{}, fmt.Errorf("sqlite: read credentials of game %q: %w", id, err)
		}
		if err := r.Add(seat, hash, taken); err != nil {
			return domain.Credentials{}, fmt.Errorf("sqlite: read credentials of game %q: %w", id, err)
		}
	}
	if err := rows.Err(); err != nil {
		return domain.Credentials{}, fmt.Errorf("sqlite: read credentials of game %q: %w", id, err)
	}
	c, found := r.Result()
	if !found {
		// Every game has at least its host row.
		return domain.Credentials{}, domain.Fail(domain.NotFound, "table.store.no-game", "game", id)
	}
	return c, nil
}

// Catalog returns a stored catalog by its hash.
func (s *Store) Catalog(ctx context.Context, hash string) (domain.CatalogBlob, error) {
	if err := s.checkOpen(); err != nil {
		return domain.CatalogBlob{}, err
	}
	return readCatalog(ctx, s.reader, hash)
}

func readCatalog(ctx context.Context, q querier, hash string) (domain.CatalogBlob, error) {
	c := domain.CatalogBlob{Hash: hash}
	err := q.QueryRowContext(ctx, `SELECT name, content FROM catalogs WHERE hash = ?`, hash).Scan(&c.Name, &c.Content)
	if errors.Is(err, sql.ErrNoRows) {
		return domain.CatalogBlob{}, domain.Fail(domain.NotFound, "table.store.no-catalog", "catalog", hash)
	}
	if err != nil {
		return domain.CatalogBlob{}, fmt.Errorf("sqlite: read catalog %q: %w", hash, err)
	}
	return c, nil
}

// Moves returns up to limit moves of a game with Seq > after, in order
// (limit <= 0: all of them). A game without such moves gives an empty slice;
// a missing game gives NotFound.
func (s *Store) Moves(ctx context.Context, id string, after int64, limit int) ([]domain.MoveRecord, error) {
	if err := s.checkOpen(); err != nil {
		return nil, err
	}
	return readMoves(ctx, s.reader, id, after, limit)
}

func readMoves(ctx context.Context, q querier, id string, after int64, limit int) ([]domain.MoveRecord, error) {
	lim, capHint := int64(limit), limit
	if limit <= 0 {
		lim, capHint = -1, 64 // LIMIT -1 is "no limit" in SQLite
	}
	rows, err := q.QueryContext(ctx, `SELECT seq, actor_host, actor_seat, body, events, at, public, for_seat, not_host
		FROM moves WHERE game_id = ? AND seq > ? ORDER BY seq LIMIT ?`, id, after, lim)
	if err != nil {
		return nil, fmt.Errorf("sqlite: read moves of game %q: %w", id, err)
	}
	defer rows.Close()
	out := make([]domain.MoveRecord, 0, min(capHint, 1024))
	for rows.Next() {
		var (
			m  domain.MoveRecord
			at string
		)
		if err := rows.Scan(&m.Seq, &m.Actor.Host, &m.Actor.Seat, &m.Move, &m.Events, &at,
			&m.Public, &m.For, &m.NotHost); err != nil {
			return nil, fmt.Errorf("sqlite: read moves of game %q: %w", id, err)
		}
		if m.At, err = parseTime(at); err != nil {
			return nil, fmt.Errorf("sqlite: read moves of game %q: move %d: %w", id, m.Seq, err)
		}
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: read moves of game %q: %w", id, err)
	}
	if len(out) == 0 {
		// Only now is it worth a second lookup to tell "no moves" from "no game".
		if err := gameExists(ctx, q, id); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func gameExists(ctx context.Context, q querier, id string) error {
	var one int
	err := q.QueryRowContext(ctx, `SELECT 1 FROM games WHERE id = ?`, id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return domain.Fail(domain.NotFound, "table.store.no-game", "game", id)
	}
	if err != nil {
		return fmt.Errorf("sqlite: look up game %q: %w", id, err)
	}
	return nil
}

// timeLayout is fixed-width UTC with nanoseconds, so stored times sort as text
// and read back exactly.
const timeLayout = "2006-01-02T15:04:05.000000000Z"

func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

// minuteOf is the minute of a time as formatTime writes it
// ("2006-01-02T15:04"): games.updated_minute (migration 0010).
func minuteOf(formatted string) string { return formatted[:len("2006-01-02T15:04")] }

func parseTime(s string) (time.Time, error) { return time.Parse(timeLayout, s) }

// isUniqueViolation reports whether err is a primary-key or unique constraint
// failure.
func isUniqueViolation(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) &&
		(se.ExtendedCode == sqlite3.ErrConstraintPrimaryKey || se.ExtendedCode == sqlite3.ErrConstraintUnique)
}

// nonNil turns a nil slice into an empty one: blob columns are NOT NULL.
func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}
