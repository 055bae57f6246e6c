package sqlite

import (
	"context"
	"database/sql"
)

// WithBeforeBatch makes the writer goroutine call f after it has received the
// first request of each batch and before it takes the others, so that a test
// can hold the writer and let requests pile up into one batch.
func WithBeforeBatch(f func()) Option {
	return func(c *config) { c.beforeBatch = f }
}

// QueueLen returns how many requests wait for the writer.
func QueueLen(s *Store) int { return len(s.reqs) }

// MigrateUpTo applies the migrations up to version to db, as an older build
// of the server would have left it.
func MigrateUpTo(db *sql.DB, version int) error {
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    INTEGER PRIMARY KEY,
		name       TEXT NOT NULL,
		applied_at TEXT NOT NULL
	)`); err != nil {
		return err
	}
	for _, m := range migrations {
		if m.version <= version {
			if err := applyMigration(ctx, db, m); err != nil {
				return err
			}
		}
	}
	return nil
}
