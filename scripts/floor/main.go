// Command floor is the least a durable move submission can do on Treasury's
// stack: Echo over net/http, go-sqlite3 in WAL mode with synchronous=FULL, and
// one transaction per request that reads the game's version, appends the
// request body as the next move and bumps the version. It knows no rules and
// checks nothing, so it is the yardstick the load run (scripts/loadrun)
// measures the real server against.
//
//	go run ./scripts/floor --address 127.0.0.1:8090 --database /tmp/floor.db
//
// POST /v1/games/{id}/moves stores the body as the game's next move (a game
// springs into being with its first move) and answers {"seq": n} after the
// commit. GET /healthz answers 200. Like Treasury's store, it writes through
// one connection: SQLite lets one writer in at a time, and a pool of writers
// would only add lock waits.
//
// With --postgres URL it is the PostgreSQL floor instead: Echo + pgx, each
// move one statement (so one round trip and one transaction) that bumps the
// game's version and appends the move, from a pool of connections.
//
//	go run ./scripts/floor --postgres 'postgres://…' --address 127.0.0.1:8090
package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/labstack/echo/v4"
	_ "github.com/mattn/go-sqlite3"
)

const schema = `
CREATE TABLE IF NOT EXISTS games (
	id      TEXT PRIMARY KEY,
	version INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS moves (
	game_id TEXT NOT NULL,
	seq     INTEGER NOT NULL,
	body    BLOB NOT NULL,
	PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;`

func main() {
	address := flag.String("address", "127.0.0.1:8090", "host:port to listen on")
	database := flag.String("database", "./floor.db", "SQLite file; created if absent")
	conns := flag.Int("conns", 1, "database connections (1: requests queue for the one writer, as in Treasury's store)")
	pg := flag.String("postgres", "", "a PostgreSQL URL: be the PostgreSQL floor (one statement per move) instead of SQLite's")
	flag.Parse()
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400) // as treasury does (cmd/treasury/gc.go)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	if *pg != "" {
		err = runPostgres(ctx, *address, *pg)
	} else {
		err = run(ctx, *address, *database, *conns)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, address, path string, conns int) error {
	db, err := sql.Open("sqlite3", path+"?_journal_mode=WAL&_synchronous=FULL&_txlock=immediate&_busy_timeout=5000&_stmt_cache_size=16")
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(conns)
	db.SetMaxIdleConns(conns)
	db.SetConnMaxLifetime(0)
	if _, err := db.ExecContext(ctx, schema); err != nil {
		return fmt.Errorf("create schema: %w", err)
	}

	return serve(ctx, address, path, db.PingContext, func(ctx context.Context, id string, body []byte) (int64, error) {
		return appendMove(ctx, db, id, body)
	})
}

// serve answers moves with appendMove and /healthz with ping until ctx ends.
func serve(ctx context.Context, address, database string, ping func(context.Context) error, appendMove func(context.Context, string, []byte) (int64, error)) error {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.GET("/healthz", func(c echo.Context) error {
		if err := ping(c.Request().Context()); err != nil {
			return c.JSON(http.StatusServiceUnavailable, map[string]string{"status": "unavailable"})
		}
		return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
	})
	e.POST("/v1/games/:id/moves", func(c echo.Context) error {
		body, err := io.ReadAll(io.LimitReader(c.Request().Body, 64<<10))
		if err != nil {
			return echo.NewHTTPError(http.StatusBadRequest, "unreadable body")
		}
		seq, err := appendMove(c.Request().Context(), c.Param("id"), body)
		if err != nil {
			return echo.NewHTTPError(http.StatusInternalServerError, err.Error())
		}
		c.Response().Header().Set("ETag", `"`+strconv.FormatInt(seq, 10)+`"`)
		return c.JSONBlob(http.StatusOK, []byte(`{"seq":`+strconv.FormatInt(seq, 10)+`}`))
	})

	ln, err := net.Listen("tcp", address)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: e, ReadHeaderTimeout: 5 * time.Second, IdleTimeout: 2 * time.Minute}
	fmt.Printf("floor: listening on http://%s (database %s)\n", ln.Addr(), database)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = srv.Shutdown(sctx)
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// appendMove is the whole durable work of a move: one transaction that reads
// the version, appends the body and bumps the version, committed with a sync
// of the write-ahead log before it returns.
func appendMove(ctx context.Context, db *sql.DB, id string, body []byte) (int64, error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it is a no-op
	var v int64
	err = tx.QueryRowContext(ctx, `SELECT version FROM games WHERE id = ?`, id).Scan(&v)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		if _, err := tx.ExecContext(ctx, `INSERT INTO games (id, version) VALUES (?, 0)`, id); err != nil {
			return 0, err
		}
	case err != nil:
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO moves (game_id, seq, body) VALUES (?, ?, ?)`, id, v+1, body); err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE games SET version = ? WHERE id = ?`, v+1, id); err != nil {
		return 0, err
	}
	return v + 1, tx.Commit()
}

const pgSchema = `
CREATE TABLE IF NOT EXISTS games (
	id      text PRIMARY KEY,
	version bigint NOT NULL
);
CREATE TABLE IF NOT EXISTS moves (
	game_id text NOT NULL,
	seq     bigint NOT NULL,
	body    bytea NOT NULL,
	PRIMARY KEY (game_id, seq)
);`

// pgAppend is the whole durable work of a move on PostgreSQL, in one
// statement: the game's version goes up by one (a game springs into being
// with its first move), the move is stored under it.
const pgAppend = `WITH g AS (
	INSERT INTO games (id, version) VALUES ($1, 1)
	ON CONFLICT (id) DO UPDATE SET version = games.version + 1
	RETURNING version
)
INSERT INTO moves (game_id, seq, body) SELECT $1, version, $2 FROM g RETURNING seq`

func runPostgres(ctx context.Context, address, url string) error {
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		return err
	}
	defer pool.Close()
	if _, err := pool.Exec(ctx, pgSchema); err != nil {
		return fmt.Errorf("create schema: %w", err)
	}
	return serve(ctx, address, "PostgreSQL", pool.Ping, func(ctx context.Context, id string, body []byte) (int64, error) {
		var seq int64
		err := pool.QueryRow(ctx, pgAppend, id, body).Scan(&seq)
		return seq, err
	})
}
