package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// A migration is one embedded SQL file. Its version is the number its name
// starts with ("0001_init.sql" is version 1).
type migration struct {
	version int
	name    string
	sql     string
}

// migrations are the embedded files in order, read once; a malformed set is a
// build mistake, caught by any test.
var migrations, migrationsErr = loadMigrations(migrationFiles)

func loadMigrations(fsys fs.FS) ([]migration, error) {
	names, err := fs.Glob(fsys, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	ms := make([]migration, 0, len(names))
	for _, name := range names {
		base := path.Base(name)
		digits, _, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(digits)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("sqlite: migration %s: name must start with a positive number and '_'", base)
		}
		if len(ms) > 0 && v <= ms[len(ms)-1].version {
			return nil, fmt.Errorf("sqlite: migration %s: version %d does not follow %d", base, v, ms[len(ms)-1].version)
		}
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{version: v, name: base, sql: string(b)})
	}
	if len(ms) == 0 {
		return nil, fmt.Errorf("sqlite: no migrations embedded")
	}
	return ms, nil
}

// latestVersion is the schema version this build expects.
func latestVersion() int { return migrations[len(migrations)-1].version }

// migrate applies the migrations db has not recorded yet, each in its own
// transaction. The check for "already applied" is repeated inside the
// transaction (which takes the write lock at BEGIN), so two processes opening
// the same new file cannot both apply a migration.
func migrate(ctx context.Context, db *sql.DB) error { return migrateTo(ctx, db, latestVersion()) }

// migrateTo is migrate stopping at version upTo (tests make the database an
// older build left this way).
func migrateTo(ctx context.Context, db *sql.DB, upTo int) error {
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    INTEGER PRIMARY KEY,
		name       TEXT NOT NULL,
		applied_at TEXT NOT NULL
	)`); err != nil {
		return fmt.Errorf("sqlite: create schema_migrations: %w", err)
	}
	var have int
	if err := db.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&have); err != nil {
		return fmt.Errorf("sqlite: read schema version: %w", err)
	}
	if have > latestVersion() {
		return fmt.Errorf("sqlite: the database is at schema version %d, newer than this build's %d", have, latestVersion())
	}
	for _, m := range migrations {
		if m.version <= have || m.version > upTo {
			continue
		}
		if err := applyMigration(ctx, db, m); err != nil {
			return err
		}
	}
	return nil
}

func applyMigration(ctx context.Context, db *sql.DB, m migration) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: migration %s: begin: %w", m.name, err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	var done bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version = ?)`, m.version).Scan(&done); err != nil {
		return fmt.Errorf("sqlite: migration %s: %w", m.name, err)
	}
	if done {
		return nil
	}
	if _, err := tx.ExecContext(ctx, m.sql); err != nil {
		return fmt.Errorf("sqlite: migration %s: %w", m.name, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`,
		m.version, m.name, formatTime(time.Now())); err != nil {
		return fmt.Errorf("sqlite: migration %s: record: %w", m.name, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite: migration %s: commit: %w", m.name, err)
	}
	return nil
}
