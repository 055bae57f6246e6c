package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/treasury-games/treasury/domain"
)

// SetJoinCode gives game id the join code code unless it has one, and
// returns the game's code.
func (s *Store) SetJoinCode(ctx context.Context, id, code string) (string, error) {
	if err := s.enter(); err != nil {
		return "", err
	}
	defer s.leave()
	defer s.heads.forget(id) // the game's row is another transaction's
	var have *string
	err := s.write(ctx, func(tx pgx.Tx) error {
		// COALESCE keeps a code the game has; the row lock makes two
		// requests for a code of the same game agree.
		err := tx.QueryRow(ctx, `UPDATE games SET join_code = COALESCE(join_code, $2) WHERE id = $1 RETURNING join_code`, id, code).Scan(&have)
		if errors.Is(err, pgx.ErrNoRows) {
			return notFound(id)
		}
		if isUniqueViolation(err, "games_join_code") {
			return domain.Fail(domain.Conflict, "table.store.code-taken", "code", code)
		}
		if err != nil {
			return unavailable(fmt.Errorf("postgres: set join code of game %q: %w", id, err))
		}
		return nil
	})
	if err != nil || have == nil {
		return "", err
	}
	return *have, nil
}

// GameOfJoinCode returns the id of the game holding a join code.
func (s *Store) GameOfJoinCode(ctx context.Context, code string) (string, error) {
	if err := s.enter(); err != nil {
		return "", err
	}
	defer s.leave()
	var id string
	err := s.pool.QueryRow(ctx, `SELECT id FROM games WHERE join_code = $1`, code).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", domain.Fail(domain.NotFound, "table.store.no-code", "code", code)
	}
	if err != nil {
		return "", unavailable(fmt.Errorf("postgres: find join code: %w", err))
	}
	return id, nil
}

// SetSeat makes hash the credential of a seat and marks it taken; with
// onlyFree only a seat not taken (or holding hash already). When the seat's
// credential changes (picked on the join page, issued again), the game's
// credentials move to their next revision: a server holding the old ones
// stores no move of them (appendSQL) and reads them again. Taking a seat
// with its own credential changes no credential and keeps the revision.
func (s *Store) SetSeat(ctx context.Context, id string, seat int, hash string, onlyFree bool) error {
	if seat < 0 {
		return domain.Fail(domain.Invalid, "table.store.not-a-seat", "seat", seat)
	}
	if err := s.enter(); err != nil {
		return err
	}
	defer s.leave()
	defer s.heads.forget(id) // the game's row is another transaction's
	fail := func(err error) error {
		return unavailable(fmt.Errorf("postgres: set seat %d of game %q: %w", seat, id, err))
	}
	return s.write(ctx, func(tx pgx.Tx) error {
		// The game's row first, as an append locks it: the seats of a game
		// are set one request at a time, so the hash read below is the one
		// replaced.
		tag, err := tx.Exec(ctx, `SELECT FROM games WHERE id = $1 FOR NO KEY UPDATE`, id)
		if err != nil {
			return fail(err)
		}
		if tag.RowsAffected() == 0 {
			return domain.Fail(domain.NotFound, "table.store.no-seat", "game", id, "seat", seat)
		}
		var changed bool
		err = tx.QueryRow(ctx, `UPDATE seats s SET hash = $4, taken = true FROM seats o
			WHERE s.game_id = $1 AND s.seat = $2 AND o.game_id = $1 AND o.seat = $2
			AND (NOT $3 OR NOT s.taken OR s.hash = $4)
			RETURNING o.hash <> $4`, id, seat, onlyFree, hash).Scan(&changed)
		if errors.Is(err, pgx.ErrNoRows) {
			var taken bool
			err = tx.QueryRow(ctx, `SELECT taken FROM seats WHERE game_id = $1 AND seat = $2`, id, seat).Scan(&taken)
			if errors.Is(err, pgx.ErrNoRows) {
				return domain.Fail(domain.NotFound, "table.store.no-seat", "game", id, "seat", seat)
			}
			if err != nil {
				return fail(err)
			}
			return domain.Fail(domain.Conflict, "table.store.seat-taken", "seat", seat)
		}
		if err != nil {
			return fail(err)
		}
		if changed {
			if _, err := tx.Exec(ctx, `UPDATE games SET seats_rev = seats_rev + 1 WHERE id = $1`, id); err != nil {
				return fail(err)
			}
		}
		return nil
	})
}

// CreateNextGame stores g as the game after prev unless prev has one.
func (s *Store) CreateNextGame(ctx context.Context, prev string, g domain.GameRecord, creds domain.Credentials, cat domain.CatalogBlob) (string, error) {
	if g.Version != 0 {
		return "", domain.Fail(domain.Invalid, "table.store.new-version", "version", g.Version)
	}
	if err := (&domain.GameExport{Game: g, Credentials: creds, Catalog: cat}).Check(); err != nil {
		return "", unavailable(fmt.Errorf("postgres: create game: %w", err))
	}
	if err := s.enter(); err != nil {
		return "", err
	}
	defer s.leave()
	defer s.heads.forget(prev) // the game's row is another transaction's
	next := ""
	err := s.write(ctx, func(tx pgx.Tx) error {
		var cur *string
		// FOR UPDATE: of two requests, the second waits and finds the first's game.
		err := tx.QueryRow(ctx, `SELECT next_game FROM games WHERE id = $1 FOR UPDATE`, prev).Scan(&cur)
		if errors.Is(err, pgx.ErrNoRows) {
			return notFound(prev)
		}
		if err != nil {
			return unavailable(fmt.Errorf("postgres: read next game of %q: %w", prev, err))
		}
		if cur != nil {
			next = *cur
			return nil
		}
		if err := insertGame(ctx, tx, g, creds, cat); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE games SET next_game = $2 WHERE id = $1`, prev, g.ID); err != nil {
			return unavailable(fmt.Errorf("postgres: set next game of %q: %w", prev, err))
		}
		next = g.ID
		return nil
	})
	return next, err
}

// NextGame returns the id of the game after id, "" when none.
func (s *Store) NextGame(ctx context.Context, id string) (string, error) {
	if err := s.enter(); err != nil {
		return "", err
	}
	defer s.leave()
	var cur *string
	err := s.pool.QueryRow(ctx, `SELECT next_game FROM games WHERE id = $1`, id).Scan(&cur)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", notFound(id)
	}
	if err != nil {
		return "", unavailable(fmt.Errorf("postgres: read next game of %q: %w", id, err))
	}
	if cur == nil {
		return "", nil
	}
	return *cur, nil
}
