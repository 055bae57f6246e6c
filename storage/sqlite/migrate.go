package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"time"

	"github.com/treasury-games/treasury/storage/internal/migrate"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// dialect is how SQLite keeps schema_migrations. It takes no lock: the write
// lock taken at BEGIN (_txlock=immediate) and the check for "already
// applied" inside each migration's transaction keep two processes opening
// the same new file from both applying a migration.
var dialect = migrate.Dialect{
	Store: "sqlite",
	Columns: `version    INTEGER PRIMARY KEY,
		name       TEXT NOT NULL,
		applied_at TEXT NOT NULL`,
	Param: func(int) string { return "?" },
	Now:   func() any { return formatTime(time.Now()) },
}

// schema is the embedded migrations in order, read once; a malformed set is a
// build mistake, caught by any test.
var schema, migrationsErr = migrate.Load(dialect, migrationFiles, "migrations")

// latestVersion is the schema version this build expects.
func latestVersion() int { return schema.Latest() }

// migrateDB applies the migrations db has not recorded yet, each in its own
// transaction.
func migrateDB(ctx context.Context, db *sql.DB) error { return schema.Migrate(ctx, migrate.SQL(db)) }
