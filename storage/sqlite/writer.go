package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/storage/internal/seatrows"
)

// A request is one write waiting for the writer goroutine. apply runs its
// statements on the writer's connection, inside the writer's transaction.
type request struct {
	apply func(ctx context.Context, tx *sql.Conn) error
	run   *runStep     // an append's place in its game's run; nil for other writes
	state atomic.Int32 // queued, then taken by the writer or abandoned by the caller
	done  chan error   // buffered: the writer never blocks on a caller that left
}

const (
	queued int32 = iota
	taken
	abandoned
)

// submit queues apply for the writer and waits for the outcome of its commit.
func (s *Store) submit(ctx context.Context, apply func(context.Context, *sql.Conn) error) error {
	r, err := s.enqueue(ctx, apply)
	if err != nil {
		return err
	}
	return s.await(ctx, r)
}

// enqueue hands apply to the writer. Requests are taken in the order they
// were queued.
func (s *Store) enqueue(ctx context.Context, apply func(context.Context, *sql.Conn) error) (*request, error) {
	return s.enqueueRequest(ctx, &request{apply: apply, done: make(chan error, 1)})
}

// enqueueRequest hands r to the writer.
func (s *Store) enqueueRequest(ctx context.Context, r *request) (*request, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// The read lock keeps Close from closing reqs between the check and the send.
	s.mu.RLock()
	if s.closed.Load() {
		s.mu.RUnlock()
		return nil, errClosed()
	}
	select {
	case s.reqs <- r:
		s.mu.RUnlock()
		return r, nil
	case <-ctx.Done():
		s.mu.RUnlock()
		return nil, ctx.Err()
	}
}

// await waits for the outcome of a queued request's commit.
func (s *Store) await(ctx context.Context, r *request) error {
	select {
	case err := <-r.done:
		return err
	case <-ctx.Done():
		if r.state.CompareAndSwap(queued, abandoned) {
			return ctx.Err() // the writer will skip it: nothing was applied
		}
		return fmt.Errorf("%w (the write was already being committed; its outcome is unknown)", ctx.Err())
	}
}

// run is the writer goroutine: it owns s.conn and commits queued requests in
// groups until Close closes the queue and the queue is empty.
func (s *Store) run() {
	defer close(s.done)
	batch := make([]*request, 0, s.cfg.maxBatch)
	errs := make([]error, s.cfg.maxBatch)
	var linger *time.Timer
	if s.cfg.lingerGap > 0 {
		linger = time.NewTimer(time.Hour)
		linger.Stop()
	}
	last := 0 // writes in the previous group
	for first := range s.reqs {
		if s.cfg.beforeBatch != nil {
			s.cfg.beforeBatch()
		}
		batch = batch[:0]
		if first.state.CompareAndSwap(queued, taken) {
			batch = append(batch, first)
		}
		// Take what is already waiting; while writes are arriving together
		// (the previous group held more than one), also those that follow
		// each other closely (WithLinger).
		open := true
		if linger != nil && last > 1 {
			batch, open = s.gather(batch, linger)
		}
	fill:
		for open && len(batch) < s.cfg.maxBatch {
			select {
			case r, ok := <-s.reqs:
				if !ok {
					break fill
				}
				if r.state.CompareAndSwap(queued, taken) {
					batch = append(batch, r)
				}
			default:
				break fill
			}
		}
		if len(batch) == 0 {
			continue
		}
		last = len(batch)
		err := s.commit(batch, errs[:len(batch)])
		if err == nil {
			s.writeSucceeded()
		}
		err = s.writeFailed(err)
		for i, r := range batch {
			if err != nil {
				r.done <- err
			} else {
				r.done <- s.writeFailed(errs[i])
			}
			batch[i], errs[i] = nil, nil
		}
	}
}

// gather adds to batch the requests that arrive within the linger gap of
// each other, for at most the linger maximum. open is false once the queue
// is closed.
func (s *Store) gather(batch []*request, t *time.Timer) (_ []*request, open bool) {
	deadline := time.Now().Add(s.cfg.lingerMax)
	t.Reset(s.cfg.lingerGap)
	defer t.Stop()
	for len(batch) < s.cfg.maxBatch {
		select {
		case r, ok := <-s.reqs:
			if !ok {
				return batch, false
			}
			if r.state.CompareAndSwap(queued, taken) {
				batch = append(batch, r)
			}
			left := time.Until(deadline)
			if left <= 0 {
				return batch, true
			}
			t.Reset(min(s.cfg.lingerGap, left))
		case <-t.C:
			return batch, true
		}
	}
	return batch, true
}

// commit applies every request of batch in one transaction and records each
// request's own error in errs. It returns an error only when the transaction
// as a whole failed; then nothing was committed.
//
// A request that fails is rolled back alone, the others commit. The group is
// first applied as it is, with no savepoint: a request rarely fails (the
// service orders a game's moves), and a savepoint with its release costs two
// statements per request and a copy of every page the request changes. Only
// when a request of a group of several fails is that transaction rolled back
// and the group applied again, each request in its own savepoint (commitEach).
// A request may so run twice; what it leaves outside the transaction (the
// writer's memory of a game) holds only at the version it was stored at, and
// the second run stores it again.
func (s *Store) commit(batch []*request, errs []error) error {
	// Once taken, a request is committed whatever happens to its caller.
	ctx := context.Background()
	start := time.Now()
	if err := s.begin(ctx); err != nil {
		return err
	}
	s.planRuns(batch)
	var err error
	failed := false
	for i, r := range batch {
		if errs[i] = r.apply(ctx, s.conn); errs[i] != nil {
			failed = true
			break
		}
	}
	switch {
	case !failed:
		err = s.commitTx(ctx)
	case len(batch) == 1:
		// Rolling back the transaction rolls back the request alone.
		err = s.rollback(ctx)
	default:
		s.rollback(ctx) //nolint:errcheck // commitEach begins a new one, or says why not
		err = s.commitEach(ctx, batch, errs)
	}
	if err != nil {
		if failed && len(batch) == 1 {
			return fmt.Errorf("sqlite: roll back after %w: %w", errs[0], err)
		}
		return err
	}
	s.batches.Add(1)
	s.writes.Add(int64(len(batch)))
	if s.cfg.onCommit != nil {
		s.cfg.onCommit(time.Since(start), len(batch))
	}
	return nil
}

// commitEach applies every request of batch in one transaction, each inside
// its own savepoint, and records each request's own error in errs. It
// returns an error only when the transaction as a whole failed; then nothing
// was committed.
func (s *Store) commitEach(ctx context.Context, batch []*request, errs []error) error {
	if err := s.begin(ctx); err != nil {
		return err
	}
	for _, r := range batch {
		r.run.alone()
	}
	// Prepared once per group (the connection's statement cache keeps them),
	// rather than parsed again for every write.
	savepoint, err := s.conn.PrepareContext(ctx, `SAVEPOINT w`)
	if err != nil {
		s.rollback(ctx) //nolint:errcheck // the transaction is lost either way
		return fmt.Errorf("sqlite: savepoint: %w", err)
	}
	defer savepoint.Close()
	release, err := s.conn.PrepareContext(ctx, `RELEASE w`)
	if err != nil {
		s.rollback(ctx) //nolint:errcheck
		return fmt.Errorf("sqlite: release savepoint: %w", err)
	}
	defer release.Close()
	for i, r := range batch {
		if _, err := savepoint.ExecContext(ctx); err != nil {
			s.rollback(ctx) //nolint:errcheck // the transaction is lost either way
			return fmt.Errorf("sqlite: savepoint: %w", err)
		}
		if errs[i] = r.apply(ctx, s.conn); errs[i] != nil {
			if _, err := s.conn.ExecContext(ctx, `ROLLBACK TO w`); err != nil {
				// Some errors (I/O, disk full) make SQLite abort the whole
				// transaction; then the savepoint is gone too.
				s.rollback(ctx) //nolint:errcheck
				return fmt.Errorf("sqlite: roll back after %w: %w", errs[i], err)
			}
		}
		if _, err := release.ExecContext(ctx); err != nil {
			s.rollback(ctx) //nolint:errcheck
			return fmt.Errorf("sqlite: release savepoint: %w", err)
		}
	}
	return s.commitTx(ctx)
}

// begin begins the writer's transaction on its connection. The writer runs
// BEGIN, COMMIT and ROLLBACK itself rather than through database/sql's Tx,
// which starts a goroutine for every transaction to watch its context.
func (s *Store) begin(ctx context.Context) error {
	if _, err := s.conn.ExecContext(ctx, `BEGIN IMMEDIATE`); err != nil {
		return fmt.Errorf("sqlite: begin write: %w", err)
	}
	return nil
}

// commitTx commits the writer's transaction. If the COMMIT fails, SQLite may
// leave the transaction open: it is rolled back, as database/sql's Tx does.
func (s *Store) commitTx(ctx context.Context) error {
	if _, err := s.conn.ExecContext(ctx, `COMMIT`); err != nil {
		s.rollback(ctx) //nolint:errcheck // the transaction is lost either way
		return fmt.Errorf("sqlite: commit: %w", err)
	}
	return nil
}

// rollback rolls back the writer's transaction.
func (s *Store) rollback(ctx context.Context) error {
	_, err := s.conn.ExecContext(ctx, `ROLLBACK`)
	return err
}

// CreateGame stores a new game at version 0 with its credentials (the host's
// under seat -1) and its catalog, which is stored once per distinct hash.
// Zero CreatedAt and UpdatedAt are set to now.
func (s *Store) CreateGame(ctx context.Context, g domain.GameRecord, creds domain.Credentials, cat domain.CatalogBlob) error {
	if g.Version != 0 {
		return domain.Fail(domain.Invalid, "table.store.new-version", "version", g.Version)
	}
	if err := (&domain.GameExport{Game: g, Credentials: creds, Catalog: cat}).Check(); err != nil {
		return fmt.Errorf("sqlite: create game: %w", err)
	}
	now := time.Now()
	if g.CreatedAt.IsZero() {
		g.CreatedAt = now
	}
	if g.UpdatedAt.IsZero() {
		g.UpdatedAt = g.CreatedAt
	}
	return s.submit(ctx, func(ctx context.Context, tx *sql.Conn) error {
		s.forgetGame(g.ID)
		return insertGame(ctx, tx, g, creds, cat)
	})
}

// insertGame stores a game's row, its credentials and its catalog (once per
// hash).
func insertGame(ctx context.Context, tx *sql.Conn, g domain.GameRecord, creds domain.Credentials, cat domain.CatalogBlob) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO catalogs (hash, name, content) VALUES (?, ?, ?)
		ON CONFLICT (hash) DO NOTHING`, cat.Hash, cat.Name, nonNil(cat.Content)); err != nil {
		return fmt.Errorf("sqlite: create game %q: store catalog: %w", g.ID, err)
	}
	plain, packed := packState(g.State)
	_, err := tx.ExecContext(ctx, `INSERT INTO games (id, ruleset, mode, catalog_name, catalog_hash,
			created_at, updated_at, version, state, state_s2, phase, ended, updated_minute)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		g.ID, g.Ruleset, g.Mode, g.CatalogName, g.CatalogHash, formatTime(g.CreatedAt), formatTime(g.UpdatedAt),
		g.Version, plain, packed, g.Phase, g.Ended, minuteOf(formatTime(g.UpdatedAt)))
	if isUniqueViolation(err) {
		return domain.Fail(domain.Conflict, "table.store.game-exists", "game", g.ID)
	}
	if err != nil {
		return fmt.Errorf("sqlite: create game %q: %w", g.ID, err)
	}
	if err := insertSeat(ctx, tx, g.ID, seatrows.Host, creds.HostHash, false); err != nil {
		return err
	}
	for i, h := range creds.SeatHashes {
		if err := insertSeat(ctx, tx, g.ID, i, h, creds.IsTaken(i)); err != nil {
			return err
		}
	}
	return nil
}

func insertSeat(ctx context.Context, tx *sql.Conn, gameID string, seat int, hash string, taken bool) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO seats (game_id, seat, hash, taken) VALUES (?, ?, ?, ?)`, gameID, seat, hash, taken); err != nil {
		// A unique violation here means two credentials hash alike: a bug, not a conflict.
		return fmt.Errorf("sqlite: create game %q: store credential of seat %d: %w", gameID, seat, err)
	}
	return nil
}

// Append makes a move, the game's new snapshot and the optional idempotency
// record durable together, and returns after the commit. The game must be at
// a.ExpectVersion (Conflict otherwise, and nothing is stored) and a.Move.Seq
// must be a.ExpectVersion+1. A zero a.Move.At is set to now; the game's
// updated_at becomes the move's time.
func (s *Store) Append(ctx context.Context, a domain.Append) error {
	return s.QueueAppend(ctx, a)()
}

// QueueAppend is Append in two steps: it hands a to the writer and returns at
// once; wait returns Append's outcome after the commit. Appends queued one
// after another are committed in that order, in one transaction or in
// successive ones, and each is answered only once its own commit is done; if
// one fails, a later append to the same game that expected its version fails
// with Conflict. So a caller may queue a game's next move before the previous
// one is committed, and moves that arrive together share one commit.
func (s *Store) QueueAppend(ctx context.Context, a domain.Append) (wait func() error) {
	// The request and its run step in one allocation.
	q := &struct {
		request
		step runStep
	}{step: runStep{game: a.GameID, expect: a.ExpectVersion, seq: a.Move.Seq, runExpect: a.ExpectVersion}}
	apply, err := s.appendFunc(a, &q.step)
	if err != nil {
		return func() error { return err }
	}
	q.apply, q.run, q.done = apply, &q.step, make(chan error, 1)
	r, err := s.enqueueRequest(ctx, &q.request)
	if err != nil {
		return func() error { return err }
	}
	return func() error { return s.await(ctx, r) }
}

// appendFunc checks a and returns the writes that store it, which set the
// game's row unless step says a later append of its run does (runs.go).
func (s *Store) appendFunc(a domain.Append, step *runStep) (func(context.Context, *sql.Conn) error, error) {
	if a.Move.Seq != a.ExpectVersion+1 {
		return nil, fmt.Errorf("sqlite: append to game %q: move %d does not follow version %d", a.GameID, a.Move.Seq, a.ExpectVersion)
	}
	at := a.Move.At
	if at.IsZero() {
		at = time.Now()
	}
	atText := formatTime(at)
	body := nonNil(a.Move.Move)
	var public any // NULL when the move hides nothing
	if a.Move.Public != nil {
		public = a.Move.Public
	}
	events := a.Move.Events
	if len(events) == 0 {
		events = []byte("[]")
	}
	var idem *domain.IdempotencyRecord
	if a.Idempotency != nil {
		r := *a.Idempotency
		r.Response = nonNil(r.Response)
		idem = &r
	}

	return func(ctx context.Context, tx *sql.Conn) error {
		// Only what changes at every move is set here; the columns that
		// index entries depend on (migration 0010) are set below, each by a
		// statement of its own and only when its value changes: an UPDATE
		// that sets a column rewrites the entries of every index on it (or
		// whose WHERE names it), a page per commit.
		//
		// The snapshot is compressed here, by the writer, and only for the
		// append that sets the row: under load a run holds 2-3 of a game's
		// moves, and each compressed its snapshot for the row the last one
		// writes (sqlite.packState 1.7% of the server's CPU).
		if !step.rowLater {
			plain, packed := s.packRow(a.State)
			res, err := tx.ExecContext(ctx, `UPDATE games SET version = ?, state = ?, state_s2 = ?, updated_at = ?
				WHERE id = ? AND version = ?`,
				a.Move.Seq, plain, packed, atText, a.GameID, step.runExpect)
			if err != nil {
				return fmt.Errorf("sqlite: append to game %q: %w", a.GameID, err)
			}
			if n, err := res.RowsAffected(); err != nil {
				return fmt.Errorf("sqlite: append to game %q: %w", a.GameID, err)
			} else if n == 0 {
				return versionMismatch(ctx, tx, a.GameID, step.runExpect)
			}
		}
		was, err := s.indexedColumns(ctx, tx, a.GameID, a.ExpectVersion)
		if err != nil {
			return fmt.Errorf("sqlite: append to game %q: %w", a.GameID, err)
		}
		now := indexed{version: a.Move.Seq, phase: a.Phase, ended: a.Ended, minute: minuteOf(atText)}
		for _, c := range [...]struct {
			set     string
			changed bool
			to      any
		}{
			{`UPDATE games SET phase = ? WHERE id = ?`, was.phase != now.phase, now.phase},
			{`UPDATE games SET ended = ? WHERE id = ?`, was.ended != now.ended, now.ended},
			{`UPDATE games SET updated_minute = ? WHERE id = ?`, was.minute != now.minute, now.minute},
		} {
			if !c.changed {
				continue
			}
			if _, err := tx.ExecContext(ctx, c.set, c.to, a.GameID); err != nil {
				return fmt.Errorf("sqlite: append to game %q: %w", a.GameID, err)
			}
		}
		// A record goes in its move's row (migration 0009); a key the game
		// has stored already, there or in the idempotency table, is refused
		// (keyUsed).
		idemCols := [6]any{} // NULL without a record
		var h int64
		if idem != nil {
			h = idemHash(idem.Scope, idem.Key)
			used, err := s.keyUsed(ctx, tx, a.GameID, a.ExpectVersion, h, idem.Scope, idem.Key)
			if err != nil {
				return fmt.Errorf("sqlite: append to game %q: look up idempotency key %q: %w", a.GameID, idem.Key, err)
			}
			if used {
				return domain.Fail(domain.Conflict, "table.store.idempotency", "key", idem.Key, "game", a.GameID)
			}
			idemCols = [6]any{h, idem.Scope, idem.Key, idem.RequestHash, idem.Status, idem.Response}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO moves (game_id, seq, actor_host, actor_seat, body, events, at, public, for_seat, not_host,
				idem, idem_scope, idem_key, idem_request_hash, idem_status, idem_response)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			a.GameID, a.Move.Seq, a.Move.Actor.Host, a.Move.Actor.Seat, body, events, atText,
			public, a.Move.For, a.Move.NotHost,
			idemCols[0], idemCols[1], idemCols[2], idemCols[3], idemCols[4], idemCols[5]); err != nil {
			return fmt.Errorf("sqlite: append move %d to game %q: %w", a.Move.Seq, a.GameID, err)
		}
		s.keyStored(a.GameID, a.ExpectVersion, a.Move.Seq, h, idem != nil)
		s.indexedStored(a.GameID, now)
		return nil
	}, nil
}

// versionMismatch explains why an update matched no row: no such game, or the
// game is at another version.
func versionMismatch(ctx context.Context, tx *sql.Conn, id string, expect int64) error {
	var v int64
	err := tx.QueryRowContext(ctx, `SELECT version FROM games WHERE id = ?`, id).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return domain.Fail(domain.NotFound, "table.store.no-game", "game", id)
	}
	if err != nil {
		return fmt.Errorf("sqlite: append to game %q: %w", id, err)
	}
	return domain.Fail(domain.Conflict, "table.store.version", "game", id, "version", v, "expected", expect)
}
