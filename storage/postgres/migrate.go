package postgres

import (
	"context"
	"embed"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/treasury-games/treasury/storage/internal/migrate"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrationLock is the key of the advisory lock held while migrating, so that
// servers starting together on a new database apply each migration once.
const migrationLock = 0x7472656173757279 // "treasury"

// dialect is how PostgreSQL keeps schema_migrations, under an advisory lock.
var dialect = migrate.Dialect{
	Store: "postgres",
	Columns: `version    integer PRIMARY KEY,
		name       text NOT NULL,
		applied_at timestamptz NOT NULL`,
	Param:  func(n int) string { return "$" + strconv.Itoa(n) },
	Now:    func() any { return time.Now().UTC() },
	Lock:   fmt.Sprintf(`SELECT pg_advisory_lock(%d)`, int64(migrationLock)),
	Unlock: fmt.Sprintf(`SELECT pg_advisory_unlock(%d)`, int64(migrationLock)),
}

// schema is the embedded migrations in order, read once; a malformed set is a
// build mistake, caught by any test.
var schema, migrationsErr = migrate.Load(dialect, migrationFiles, "migrations")

// latestVersion is the schema version this build expects.
func latestVersion() int { return schema.Latest() }

// migratePool applies the migrations the database has not recorded yet, each
// in its own transaction, on one connection that holds the advisory lock.
func migratePool(ctx context.Context, pool *pgxpool.Pool) error {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("postgres: migrate: %w", err)
	}
	defer conn.Release()
	return schema.Migrate(ctx, pgxConn{pgxQuerier{conn}, conn})
}

// schemaVersion returns the version the database has recorded.
func schemaVersion(ctx context.Context, q pgxRunner) (int, error) {
	return schema.Version(ctx, pgxQuerier{q})
}

// pgxRunner is what a pool, a connection and a transaction share.
type pgxRunner interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// pgxQuerier runs the loader's statements on pgx.
type pgxQuerier struct{ r pgxRunner }

func (q pgxQuerier) Exec(ctx context.Context, query string, args ...any) error {
	_, err := q.r.Exec(ctx, query, args...)
	return err
}

func (q pgxQuerier) QueryInt(ctx context.Context, query string, args ...any) (int, error) {
	var n int
	err := q.r.QueryRow(ctx, query, args...).Scan(&n)
	return n, err
}

// pgxConn is the loader's Conn on one pooled connection.
type pgxConn struct {
	pgxQuerier
	c *pgxpool.Conn
}

func (c pgxConn) InTx(ctx context.Context, fn func(migrate.Querier) error) error {
	return pgx.BeginFunc(ctx, c.c, func(tx pgx.Tx) error { return fn(pgxQuerier{tx}) })
}
