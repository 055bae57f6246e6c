package main

import (
	"context"
	"net/url"
	"strings"
	"time"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/storage/postgres"
	"github.com/treasury-games/treasury/storage/sqlite"
)

// gameStore is what the commands need of a store: the domain's interface, the
// count for the treasury_games metric, whole-game export and import for
// treasury copy, and the groups. Both stores have all of it.
type gameStore interface {
	domain.Store
	domain.Exporter
	domain.Importer
	domain.GroupStore
	CountGames(ctx context.Context) ([]domain.GameCount, error)
}

var (
	_ gameStore = (*sqlite.Store)(nil)
	_ gameStore = (*postgres.Store)(nil)
)

// isPostgres reports whether a --database value names a PostgreSQL database
// rather than a SQLite file.
func isPostgres(database string) bool {
	d := strings.ToLower(database)
	return strings.HasPrefix(d, "postgres://") || strings.HasPrefix(d, "postgresql://")
}

// storeOptions are the settings of the stores; each takes those it has.
type storeOptions struct {
	observeCommit        func(d time.Duration, writes int) // nil: none
	lingerGap, lingerMax time.Duration                     // SQLite's group commit
	lingerSet            bool                              // false: SQLite's defaults
}

// openStore opens the store a --database value names: a postgres:// or
// postgresql:// URL, or else a SQLite file path.
func openStore(ctx context.Context, database string, o storeOptions) (gameStore, error) {
	if isPostgres(database) {
		var opts []postgres.Option
		if o.observeCommit != nil {
			opts = append(opts, postgres.WithCommitObserver(o.observeCommit))
		}
		return postgres.Open(ctx, database, opts...)
	}
	var opts []sqlite.Option
	if o.observeCommit != nil {
		opts = append(opts, sqlite.WithCommitObserver(o.observeCommit))
	}
	if o.lingerSet {
		opts = append(opts, sqlite.WithLinger(o.lingerGap, o.lingerMax))
	}
	return sqlite.Open(ctx, database, opts...)
}

// describeDatabase is a --database value fit for logs: a URL's password and
// any password parameter are replaced by xxxxx.
func describeDatabase(database string) string {
	if !isPostgres(database) {
		return database
	}
	u, err := url.Parse(database)
	if err != nil {
		return "a PostgreSQL URL that cannot be parsed"
	}
	q := u.Query()
	if q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}
