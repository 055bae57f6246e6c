package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/treasury-games/treasury/domain"
)

// GameIDs returns up to limit ids of stored games greater than after, in byte
// order (limit <= 0: all of them).
func (s *Store) GameIDs(ctx context.Context, after string, limit int) ([]string, error) {
	// games.id is COLLATE "C": byte order, along its primary key.
	return s.ids(ctx, "games", `SELECT id FROM games WHERE id > $1 ORDER BY id LIMIT $2`, after, limit)
}

// ExportGame reads everything stored about one game in one read-only,
// repeatable-read transaction, so that the moves agree with the snapshot.
func (s *Store) ExportGame(ctx context.Context, id string) (domain.GameExport, error) {
	if err := s.enter(); err != nil {
		return domain.GameExport{}, err
	}
	defer s.leave()
	var e domain.GameExport
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		var err error
		if e.Game, err = readGame(ctx, tx, id); err != nil {
			return err
		}
		if e.Credentials, err = readCredentials(ctx, tx, id); err != nil {
			return err
		}
		e.Credentials.Revision = 0 // this database's, not the game's
		if e.Catalog, err = readCatalog(ctx, tx, e.Game.CatalogHash); err != nil {
			return err
		}
		if e.Moves, err = readMoves(ctx, tx, id, 0, 0); err != nil {
			return err
		}
		rows, _ := tx.Query(ctx, `SELECT scope, key, request_hash, status, response FROM idempotency
			WHERE game_id = $1 ORDER BY scope COLLATE "C", key COLLATE "C"`, id)
		e.Idempotency, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (domain.IdempotencyRecord, error) {
			var r domain.IdempotencyRecord
			err := row.Scan(&r.Scope, &r.Key, &r.RequestHash, &r.Status, &r.Response)
			return r, err
		})
		if err != nil {
			return unavailable(fmt.Errorf("postgres: read idempotency records of game %q: %w", id, err))
		}
		return nil
	})
	if err != nil {
		return domain.GameExport{}, err
	}
	return e, nil
}

// ImportGame stores a whole game in one transaction: Conflict when a game with
// its id exists, Invalid when the export does not hold together.
func (s *Store) ImportGame(ctx context.Context, e domain.GameExport) error {
	if err := e.Check(); err != nil {
		return err
	}
	if err := s.enter(); err != nil {
		return err
	}
	defer s.leave()
	g := e.Game
	return s.write(ctx, func(tx pgx.Tx) error {
		if err := insertGame(ctx, tx, g, e.Credentials, e.Catalog); err != nil {
			return err
		}
		// COPY: one round trip however long the game.
		_, err := tx.CopyFrom(ctx, pgx.Identifier{"moves"},
			[]string{"game_id", "seq", "actor_host", "actor_seat", "body", "events", "at", "public", "for_seat", "not_host"},
			pgx.CopyFromSlice(len(e.Moves), func(i int) ([]any, error) {
				m := e.Moves[i]
				events := m.Events
				if len(events) == 0 {
					events = []byte("[]")
				}
				return []any{g.ID, m.Seq, m.Actor.Host, int32(m.Actor.Seat), nonNil(m.Move), events, nanos(m.At), m.Public, int32(m.For), m.NotHost}, nil
			}))
		if err != nil {
			return unavailable(fmt.Errorf("postgres: import game %q: moves: %w", g.ID, err))
		}
		_, err = tx.CopyFrom(ctx, pgx.Identifier{"idempotency"},
			[]string{"game_id", "scope", "key", "request_hash", "status", "response"},
			pgx.CopyFromSlice(len(e.Idempotency), func(i int) ([]any, error) {
				r := e.Idempotency[i]
				return []any{g.ID, r.Scope, r.Key, r.RequestHash, int32(r.Status), nonNil(r.Response)}, nil
			}))
		if err != nil {
			return unavailable(fmt.Errorf("postgres: import game %q: idempotency records: %w", g.ID, err))
		}
		return nil
	})
}
