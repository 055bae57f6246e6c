package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/treasury-games/treasury/domain"
)

// movesChannel is the channel the notices of stored moves go to: lines of
// "<game id> <seq>", the moves one store committed since its last notice.
const movesChannel = "treasury_moves"

// Version returns where a game stands, its version and the revision of its
// credentials: NotFound when it does not exist. One primary-key read of two
// columns.
func (s *Store) Version(ctx context.Context, id string) (domain.Revision, error) {
	if err := s.enter(); err != nil {
		return domain.Revision{}, err
	}
	defer s.leave()
	var r domain.Revision
	err := s.pool.QueryRow(ctx, `SELECT version, seats_rev FROM games WHERE id = $1`, id).Scan(&r.Version, &r.Credentials)
	if errors.Is(err, pgx.ErrNoRows) {
		return domain.Revision{}, notFound(id)
	}
	if err != nil {
		return domain.Revision{}, unavailable(fmt.Errorf("postgres: read the version of game %q: %w", id, err))
	}
	return r, nil
}

// WatchMoves listens on movesChannel on a connection of its own (outside the
// pool) and calls moved for every move any other server stores (another
// Store: this one's own notices are dropped), until ctx ends.
// When the connection fails it connects again, with a growing pause up to
// two seconds. Each time it begins to listen (the first time too) it calls
// moved("", 0): moves stored before, or while it was not listening, had
// notices it never heard. It returns ctx's error.
func (s *Store) WatchMoves(ctx context.Context, moved func(gameID string, seq int64)) error {
	pause := 50 * time.Millisecond
	for {
		err := s.listen(ctx, func() {
			pause = 50 * time.Millisecond
			moved("", 0)
		}, moved)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		_ = err // the connection failed: connect again
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pause):
		}
		pause = min(2*pause, 2*time.Second)
	}
}

// listen connects, listens, calls listening, and then moved for each notice
// until the connection fails or ctx ends.
func (s *Store) listen(ctx context.Context, listening func(), moved func(string, int64)) error {
	conn, err := pgx.ConnectConfig(ctx, s.pool.Config().ConnConfig.Copy())
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, `LISTEN `+movesChannel); err != nil {
		return err
	}
	listening()
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		if s.senders.has(n.PID) {
			continue // this store's own moves: its server has told them
		}
		for line := range strings.SplitSeq(n.Payload, "\n") {
			id, seq, ok := strings.Cut(line, " ")
			v, err := strconv.ParseInt(seq, 10, 64)
			if !ok || err != nil {
				continue // not ours
			}
			moved(id, v)
		}
	}
}
