package sqlite

import (
	"context"
	"database/sql"

	"github.com/treasury-games/treasury/storage/internal/migrate"
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
	return schema.MigrateTo(context.Background(), migrate.SQL(db), version)
}

// MigrationNames lists the embedded migrations in the order they apply.
func MigrationNames() []string { return schema.Names() }
