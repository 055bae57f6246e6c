package migrate

import (
	"context"
	"database/sql"
)

// sqlRunner is what *sql.DB, *sql.Conn and *sql.Tx share.
type sqlRunner interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// SQLHandle is a *sql.DB or a *sql.Conn.
type SQLHandle interface {
	sqlRunner
	BeginTx(ctx context.Context, opts *sql.TxOptions) (*sql.Tx, error)
}

// SQL is a Conn on a database/sql handle. Give it a *sql.Conn, or a *sql.DB
// limited to one connection, when the dialect takes a lock.
func SQL(h SQLHandle) Conn { return sqlConn{sqlQuerier{h}, h} }

type sqlQuerier struct{ r sqlRunner }

func (q sqlQuerier) Exec(ctx context.Context, query string, args ...any) error {
	_, err := q.r.ExecContext(ctx, query, args...)
	return err
}

func (q sqlQuerier) QueryInt(ctx context.Context, query string, args ...any) (int, error) {
	var n int
	err := q.r.QueryRowContext(ctx, query, args...).Scan(&n)
	return n, err
}

type sqlConn struct {
	sqlQuerier
	h SQLHandle
}

func (c sqlConn) InTx(ctx context.Context, fn func(Querier) error) error {
	tx, err := c.h.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	if err := fn(sqlQuerier{tx}); err != nil {
		return err
	}
	return tx.Commit()
}
