package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/treasury-games/treasury/domain"
)

var (
	_ domain.Exporter = (*Store)(nil)
	_ domain.Importer = (*Store)(nil)
)

// GameIDs returns up to limit ids of stored games greater than after, in byte
// order (limit <= 0: all of them).
func (s *Store) GameIDs(ctx context.Context, after string, limit int) ([]string, error) {
	return s.ids(ctx, "games", `SELECT id FROM games WHERE id > ? ORDER BY id LIMIT ?`, after, limit)
}

// ExportGame reads everything stored about one game in one read transaction:
// in WAL mode it sees one commit's state throughout, so the moves agree with
// the snapshot.
func (s *Store) ExportGame(ctx context.Context, id string) (domain.GameExport, error) {
	if err := s.checkOpen(); err != nil {
		return domain.GameExport{}, err
	}
	tx, err := s.reader.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return domain.GameExport{}, fmt.Errorf("sqlite: export game %q: %w", id, err)
	}
	defer tx.Rollback() //nolint:errcheck // read-only
	var e domain.GameExport
	if e.Game, err = readGame(ctx, tx, id); err != nil {
		return domain.GameExport{}, err
	}
	if e.Credentials, err = readCredentials(ctx, tx, id); err != nil {
		return domain.GameExport{}, err
	}
	if e.Catalog, err = readCatalog(ctx, tx, e.Game.CatalogHash); err != nil {
		return domain.GameExport{}, err
	}
	if e.Moves, err = readMoves(ctx, tx, id, 0, 0); err != nil {
		return domain.GameExport{}, err
	}
	rows, err := tx.QueryContext(ctx, idemRecordsQuery, id)
	if err != nil {
		return domain.GameExport{}, fmt.Errorf("sqlite: export game %q: idempotency records: %w", id, err)
	}
	defer rows.Close()
	for rows.Next() {
		var r domain.IdempotencyRecord
		if err := rows.Scan(&r.Scope, &r.Key, &r.RequestHash, &r.Status, &r.Response); err != nil {
			return domain.GameExport{}, fmt.Errorf("sqlite: export game %q: idempotency records: %w", id, err)
		}
		e.Idempotency = append(e.Idempotency, r)
	}
	if err := rows.Err(); err != nil {
		return domain.GameExport{}, fmt.Errorf("sqlite: export game %q: idempotency records: %w", id, err)
	}
	return e, nil
}

// ImportGame stores a whole game in one transaction, through the writer:
// Conflict when a game with its id exists, Invalid when the export does not
// hold together.
func (s *Store) ImportGame(ctx context.Context, e domain.GameExport) error {
	if err := e.Check(); err != nil {
		return err
	}
	g := e.Game
	return s.submit(ctx, func(ctx context.Context, tx *sql.Conn) error {
		s.forgetGame(g.ID)
		if err := insertGame(ctx, tx, g, e.Credentials, e.Catalog); err != nil {
			return err
		}
		for _, m := range e.Moves {
			events := m.Events
			if len(events) == 0 {
				events = []byte("[]")
			}
			var public any // NULL when the move hides nothing
			if m.Public != nil {
				public = m.Public
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO moves (game_id, seq, actor_host, actor_seat, body, events, at, public, for_seat, not_host)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				g.ID, m.Seq, m.Actor.Host, m.Actor.Seat, nonNil(m.Move), events, formatTime(m.At), public, m.For, m.NotHost); err != nil {
				return fmt.Errorf("sqlite: import game %q: move %d: %w", g.ID, m.Seq, err)
			}
		}
		for _, r := range e.Idempotency {
			if _, err := tx.ExecContext(ctx, `INSERT INTO idempotency (game_id, scope, key, request_hash, status, response)
				VALUES (?, ?, ?, ?, ?, ?)`,
				g.ID, r.Scope, r.Key, r.RequestHash, r.Status, nonNil(r.Response)); err != nil {
				return fmt.Errorf("sqlite: import game %q: idempotency key %q: %w", g.ID, r.Key, err)
			}
		}
		return nil
	})
}
