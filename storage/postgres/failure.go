package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/treasury-games/treasury/domain"
)

// unreachable reports whether err is a failure of the database server or
// the way to it rather than of the request: no connection, a connection
// lost, the server shutting down or starting, out of disk or memory. The
// same request may succeed later, unchanged.
func unreachable(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch {
		case len(pe.Code) == 5 && pe.Code[:2] == "08": // connection exception
			return true
		case pe.Code == "57P01", pe.Code == "57P02", pe.Code == "57P03": // shutdown, crash, cannot connect now
			return true
		case len(pe.Code) == 5 && pe.Code[:2] == "53": // insufficient resources: disk full, out of memory, too many connections
			return true
		}
		return false
	}
	var ce *pgconn.ConnectError
	var ne net.Error
	return errors.As(err, &ce) || errors.As(err, &ne) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		(pgconn.SafeToRetry(err) && !errors.Is(err, context.Canceled))
}

// unavailable turns an error that is a failure of the database server or the
// way to it into an Unavailable error (503 with Retry-After at the API) that
// still wraps the cause for the log. Other errors are returned unchanged.
func unavailable(err error) error {
	if err == nil || !unreachable(err) {
		return err
	}
	return fmt.Errorf("%w: %w", domain.Fail(domain.Unavailable, "table.store.unreachable"), err)
}
