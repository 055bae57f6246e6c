// Package migrate applies a store's schema migrations: SQL files embedded in
// the store, named NNNN_name.sql, applied in the order of their numbers, each
// inside its own transaction, and recorded in the table schema_migrations.
// The two stores differ only in a small Dialect (placeholders, the version
// table's column types, the clock's format, a lock around the whole run) and
// in the Conn that runs statements, so that what a migration is and when it
// runs is written once.
package migrate

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
)

// A migration is one embedded SQL file. Its version is the number its name
// starts with ("0001_init.sql" is version 1).
type migration struct {
	version int
	name    string
	sql     string
}

// A Dialect is what one database needs said its own way.
type Dialect struct {
	// Store names the store in errors ("sqlite", "postgres").
	Store string
	// Columns are the column definitions of schema_migrations: version
	// (integer primary key), name (text) and applied_at.
	Columns string
	// Param returns the n-th placeholder of a statement, from 1 ("?", "$1").
	Param func(n int) string
	// Now returns applied_at for a migration applied now, as the store keeps
	// time.
	Now func() any
	// Lock and Unlock, when not empty, are run on the connection before and
	// after the migrations, so that servers starting together on a new
	// database apply each migration once. Without them the check for "already
	// applied" inside each migration's transaction must be enough (SQLite
	// takes the write lock at BEGIN).
	Lock, Unlock string
}

// A Querier runs statements, on a connection or inside a transaction.
type Querier interface {
	Exec(ctx context.Context, query string, args ...any) error
	// QueryInt returns the single integer the query answers.
	QueryInt(ctx context.Context, query string, args ...any) (int, error)
}

// A Conn is one connection to the database (one, so that a lock taken on it
// holds for everything run on it).
type Conn interface {
	Querier
	// InTx runs fn inside a transaction, committed when fn returns nil and
	// rolled back otherwise.
	InTx(ctx context.Context, fn func(Querier) error) error
}

// A Schema is a store's migrations in order, with its dialect.
type Schema struct {
	d  Dialect
	ms []migration
}

// Load reads the files dir/*.sql of fsys. A name that does not start with a
// positive number and '_', two files of one version, or no file at all is
// refused. Versions may skip numbers (other branches may take them).
func Load(d Dialect, fsys fs.FS, dir string) (*Schema, error) {
	names, err := fs.Glob(fsys, path.Join(dir, "*.sql"))
	if err != nil {
		return nil, err
	}
	type file struct {
		version int
		path    string
	}
	files := make([]file, 0, len(names))
	for _, name := range names {
		base := path.Base(name)
		digits, _, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(digits)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("%s: migration %s: name must start with a positive number and '_'", d.Store, base)
		}
		files = append(files, file{v, name})
	}
	// By number, not by name: "10_x.sql" follows "9_x.sql".
	sort.SliceStable(files, func(i, j int) bool { return files[i].version < files[j].version })
	s := &Schema{d: d, ms: make([]migration, 0, len(files))}
	for _, f := range files {
		base := path.Base(f.path)
		if n := len(s.ms); n > 0 && s.ms[n-1].version == f.version {
			return nil, fmt.Errorf("%s: migration %s: version %d is taken by %s", d.Store, base, f.version, s.ms[n-1].name)
		}
		b, err := fs.ReadFile(fsys, f.path)
		if err != nil {
			return nil, err
		}
		s.ms = append(s.ms, migration{version: f.version, name: base, sql: string(b)})
	}
	if len(s.ms) == 0 {
		return nil, fmt.Errorf("%s: no migrations embedded", d.Store)
	}
	return s, nil
}

// Names returns the migrations' file names in the order they apply.
func (s *Schema) Names() []string {
	names := make([]string, len(s.ms))
	for i, m := range s.ms {
		names[i] = m.name
	}
	return names
}

// Latest is the schema version this build expects: the last migration's.
func (s *Schema) Latest() int { return s.ms[len(s.ms)-1].version }

// Version returns the schema version the database has recorded (0: none).
func (s *Schema) Version(ctx context.Context, q Querier) (int, error) {
	v, err := q.QueryInt(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`)
	if err != nil {
		return 0, fmt.Errorf("%s: read schema version: %w", s.d.Store, err)
	}
	return v, nil
}

// Migrate applies the migrations the database has not recorded yet.
func (s *Schema) Migrate(ctx context.Context, c Conn) error { return s.MigrateTo(ctx, c, s.Latest()) }

// MigrateTo is Migrate stopping at version upTo (tests make the database an
// older build left this way). A database at a version newer than this
// build's is refused.
func (s *Schema) MigrateTo(ctx context.Context, c Conn, upTo int) (err error) {
	if s.d.Lock != "" {
		if err := c.Exec(ctx, s.d.Lock); err != nil {
			return fmt.Errorf("%s: migrate: lock: %w", s.d.Store, err)
		}
		defer func() {
			// The end of the session releases the lock anyway.
			if uerr := c.Exec(context.WithoutCancel(ctx), s.d.Unlock); uerr != nil && err == nil {
				err = fmt.Errorf("%s: migrate: unlock: %w", s.d.Store, uerr)
			}
		}()
	}
	if err := c.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (`+s.d.Columns+`)`); err != nil {
		return fmt.Errorf("%s: create schema_migrations: %w", s.d.Store, err)
	}
	have, err := s.Version(ctx, c)
	if err != nil {
		return err
	}
	if have > s.Latest() {
		return fmt.Errorf("%s: the database is at schema version %d, newer than this build's %d", s.d.Store, have, s.Latest())
	}
	p := s.d.Param
	applied := `SELECT COUNT(*) FROM schema_migrations WHERE version = ` + p(1)
	record := `INSERT INTO schema_migrations (version, name, applied_at) VALUES (` + p(1) + `, ` + p(2) + `, ` + p(3) + `)`
	for _, m := range s.ms {
		if m.version <= have || m.version > upTo {
			continue
		}
		err := c.InTx(ctx, func(tx Querier) error {
			// Asked again inside the transaction: another process may have
			// applied it since the version was read.
			n, err := tx.QueryInt(ctx, applied, m.version)
			if err != nil || n > 0 {
				return err
			}
			if err := tx.Exec(ctx, m.sql); err != nil {
				return err
			}
			if err := tx.Exec(ctx, record, m.version, m.name, s.d.Now()); err != nil {
				return fmt.Errorf("record: %w", err)
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("%s: migration %s: %w", s.d.Store, m.name, err)
		}
	}
	return nil
}
