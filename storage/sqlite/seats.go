package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/treasury-games/treasury/domain"
)

// SetJoinCode gives game id the join code code unless it has one, and
// returns the game's code.
func (s *Store) SetJoinCode(ctx context.Context, id, code string) (string, error) {
	if err := s.checkOpen(); err != nil {
		return "", err
	}
	var have string
	err := s.submit(ctx, func(ctx context.Context, tx *sql.Conn) error {
		var cur sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT join_code FROM games WHERE id = ?`, id).Scan(&cur)
		if errors.Is(err, sql.ErrNoRows) {
			return domain.Fail(domain.NotFound, "table.store.no-game", "game", id)
		}
		if err != nil {
			return fmt.Errorf("sqlite: read join code of game %q: %w", id, err)
		}
		if cur.Valid {
			have = cur.String
			return nil
		}
		_, err = tx.ExecContext(ctx, `UPDATE games SET join_code = ? WHERE id = ?`, code, id)
		if isUniqueViolation(err) {
			return domain.Fail(domain.Conflict, "table.store.code-taken", "code", code)
		}
		if err != nil {
			return fmt.Errorf("sqlite: set join code of game %q: %w", id, err)
		}
		have = code
		return nil
	})
	return have, err
}

// GameOfJoinCode returns the id of the game holding a join code.
func (s *Store) GameOfJoinCode(ctx context.Context, code string) (string, error) {
	if err := s.checkOpen(); err != nil {
		return "", err
	}
	var id string
	err := s.reader.QueryRowContext(ctx, `SELECT id FROM games WHERE join_code = ?`, code).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", domain.Fail(domain.NotFound, "table.store.no-code", "code", code)
	}
	if err != nil {
		return "", fmt.Errorf("sqlite: find join code: %w", err)
	}
	return id, nil
}

// SetSeat makes hash the credential of a seat and marks it taken; with
// onlyFree only a seat not taken (or holding hash already).
func (s *Store) SetSeat(ctx context.Context, id string, seat int, hash string, onlyFree bool) error {
	if err := s.checkOpen(); err != nil {
		return err
	}
	if seat < 0 {
		return domain.Fail(domain.Invalid, "table.store.not-a-seat", "seat", seat)
	}
	return s.submit(ctx, func(ctx context.Context, tx *sql.Conn) error {
		q := `UPDATE seats SET hash = ?, taken = 1 WHERE game_id = ? AND seat = ?`
		if onlyFree {
			q += ` AND (taken = 0 OR hash = ?)`
		}
		res, err := tx.ExecContext(ctx, q, hash, id, seat, hash)
		if err != nil {
			return fmt.Errorf("sqlite: set seat %d of game %q: %w", seat, id, err)
		}
		if n, _ := res.RowsAffected(); n == 1 {
			return nil
		}
		var taken bool
		err = tx.QueryRowContext(ctx, `SELECT taken FROM seats WHERE game_id = ? AND seat = ?`, id, seat).Scan(&taken)
		if errors.Is(err, sql.ErrNoRows) {
			return domain.Fail(domain.NotFound, "table.store.no-seat", "game", id, "seat", seat)
		}
		if err != nil {
			return fmt.Errorf("sqlite: set seat %d of game %q: %w", seat, id, err)
		}
		return domain.Fail(domain.Conflict, "table.store.seat-taken", "seat", seat)
	})
}

// CreateNextGame stores g as the game after prev unless prev has one.
func (s *Store) CreateNextGame(ctx context.Context, prev string, g domain.GameRecord, creds domain.Credentials, cat domain.CatalogBlob) (string, error) {
	if err := s.checkOpen(); err != nil {
		return "", err
	}
	if g.Version != 0 {
		return "", domain.Fail(domain.Invalid, "table.store.new-version", "version", g.Version)
	}
	if err := (&domain.GameExport{Game: g, Credentials: creds, Catalog: cat}).Check(); err != nil {
		return "", fmt.Errorf("sqlite: create game: %w", err)
	}
	next := ""
	err := s.submit(ctx, func(ctx context.Context, tx *sql.Conn) error {
		var cur sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT next_game FROM games WHERE id = ?`, prev).Scan(&cur)
		if errors.Is(err, sql.ErrNoRows) {
			return domain.Fail(domain.NotFound, "table.store.no-game", "game", prev)
		}
		if err != nil {
			return fmt.Errorf("sqlite: read next game of %q: %w", prev, err)
		}
		if cur.Valid {
			next = cur.String
			return nil
		}
		if err := insertGame(ctx, tx, g, creds, cat); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE games SET next_game = ? WHERE id = ?`, g.ID, prev); err != nil {
			return fmt.Errorf("sqlite: set next game of %q: %w", prev, err)
		}
		next = g.ID
		return nil
	})
	return next, err
}

// NextGame returns the id of the game after id, "" when none.
func (s *Store) NextGame(ctx context.Context, id string) (string, error) {
	if err := s.checkOpen(); err != nil {
		return "", err
	}
	var cur sql.NullString
	err := s.reader.QueryRowContext(ctx, `SELECT next_game FROM games WHERE id = ?`, id).Scan(&cur)
	if errors.Is(err, sql.ErrNoRows) {
		return "", domain.Fail(domain.NotFound, "table.store.no-game", "game", id)
	}
	if err != nil {
		return "", fmt.Errorf("sqlite: read next game of %q: %w", id, err)
	}
	return cur.String, nil
}
