package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"syscall"
	"time"

	"github.com/mattn/go-sqlite3"

	"github.com/treasury-games/treasury/domain"
)

// ioFailure reports whether err is a failure of the disk or the file rather
// than of the request: the disk is full, an I/O error, the file became
// read-only or cannot be opened, or another process holds it locked for
// longer than the busy timeout. Such a write may succeed later, unchanged.
func ioFailure(err error) bool {
	var se sqlite3.Error
	if errors.As(err, &se) {
		switch se.Code {
		case sqlite3.ErrFull, sqlite3.ErrIoErr, sqlite3.ErrReadonly, sqlite3.ErrCantOpen,
			sqlite3.ErrNoLFS, sqlite3.ErrBusy, sqlite3.ErrLocked, sqlite3.ErrNomem:
			return true
		}
	}
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EIO) || errors.Is(err, syscall.EROFS)
}

// writeFailed turns a write error that is a disk failure into an Unavailable
// error (503 with Retry-After at the API: the write may be retried as it is)
// that still wraps the cause for the log, and remembers it so that Ping
// reports the store not ready until a write succeeds again. Other errors are
// returned unchanged.
func (s *Store) writeFailed(err error) error {
	if err == nil || !ioFailure(err) {
		return err
	}
	wrapped := fmt.Errorf("%w: %w", domain.Fail(domain.Unavailable, "table.store.disk-failing"), err)
	s.writeErr.Store(&wrapped)
	return wrapped
}

// writeSucceeded forgets the last write failure: the disk takes writes again.
func (s *Store) writeSucceeded() { s.writeErr.Store(nil) }

// minFree is the free space, in bytes, the disk must have again before the
// store reports itself ready after a write failed.
const minFree = 1 << 20

// probeEvery bounds how often Ping tries a write while writes fail.
const probeEvery = time.Second

// writable is Ping's check of the writer: nil unless the last write failed on
// the disk. Then it tries a one-page write (at most every probeEvery; a
// server taken out of rotation while not ready receives no writes that
// would show it has recovered) and returns its failure, if any.
func (s *Store) writable(ctx context.Context) error {
	last := s.writeErr.Load()
	if last == nil {
		return nil
	}
	s.probeMu.Lock()
	defer s.probeMu.Unlock()
	if time.Since(s.lastProbe) < probeEvery {
		if last := s.writeErr.Load(); last != nil {
			return *last
		}
		return nil
	}
	s.lastProbe = time.Now()
	// A disk with a few pages free takes a one-page write but not a move's;
	// readiness waits for room for many moves.
	var fs syscall.Statfs_t
	if err := syscall.Statfs(s.dir, &fs); err == nil && fs.Bavail*uint64(fs.Bsize) < minFree {
		return *last
	}
	// Rewriting a row as it is writes its page to the log and commits it,
	// which needs the disk as any move does, and changes nothing.
	return s.submit(ctx, func(ctx context.Context, tx *sql.Conn) error {
		_, err := tx.ExecContext(ctx, `UPDATE schema_migrations SET applied_at = applied_at
			WHERE version = (SELECT MAX(version) FROM schema_migrations)`)
		return err
	})
}
