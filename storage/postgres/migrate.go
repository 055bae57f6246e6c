package postgres

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
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
			return nil, fmt.Errorf("postgres: migration %s: name must start with a positive number and '_'", base)
		}
		if len(ms) > 0 && v <= ms[len(ms)-1].version {
			return nil, fmt.Errorf("postgres: migration %s: version %d does not follow %d", base, v, ms[len(ms)-1].version)
		}
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{version: v, name: base, sql: string(b)})
	}
	if len(ms) == 0 {
		return nil, fmt.Errorf("postgres: no migrations embedded")
	}
	return ms, nil
}

// latestVersion is the schema version this build expects.
func latestVersion() int { return migrations[len(migrations)-1].version }

// migrationLock is the key of the advisory lock held while migrating, so that
// servers starting together on a new database apply each migration once.
const migrationLock = 0x7472656173757279 // "treasury"

// migrate applies the migrations the database has not recorded yet, each in
// its own transaction, while holding an advisory lock on one connection.
func migrate(ctx context.Context, pool *pgxpool.Pool) error {
	return migrateTo(ctx, pool, latestVersion())
}

// migrateTo is migrate stopping at version upTo (tests make the database an
// older build left this way).
func migrateTo(ctx context.Context, pool *pgxpool.Pool, upTo int) error {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("postgres: migrate: %w", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, int64(migrationLock)); err != nil {
		return fmt.Errorf("postgres: migrate: lock: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, int64(migrationLock)) //nolint:errcheck // the session ends the lock anyway

	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    integer PRIMARY KEY,
		name       text NOT NULL,
		applied_at timestamptz NOT NULL
	)`); err != nil {
		return fmt.Errorf("postgres: create schema_migrations: %w", err)
	}
	have, err := schemaVersion(ctx, conn)
	if err != nil {
		return err
	}
	if have > latestVersion() {
		return fmt.Errorf("postgres: the database is at schema version %d, newer than this build's %d", have, latestVersion())
	}
	for _, m := range migrations {
		if m.version <= have || m.version > upTo {
			continue
		}
		err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, m.sql); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)`,
				m.version, m.name, time.Now().UTC())
			return err
		})
		if err != nil {
			return fmt.Errorf("postgres: migration %s: %w", m.name, err)
		}
	}
	return nil
}

type queryRower interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

func schemaVersion(ctx context.Context, q queryRower) (int, error) {
	var v int
	if err := q.QueryRow(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&v); err != nil {
		return 0, fmt.Errorf("postgres: read schema version: %w", err)
	}
	return v, nil
}
