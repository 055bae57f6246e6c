package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// deleteBatch is how many games one transaction of DeleteIdleGames deletes:
// the sweep shares the writer with moves, which wait behind each of its
// transactions.
const deleteBatch = 100

// DeleteIdleGames deletes every game whose last move (or creation, for a game
// without moves) is before before, with its moves, credentials and
// idempotency records, and returns how many it deleted. Catalogs stay: other
// games share them. It deletes in transactions of a hundred games, each
// queued behind the writes already waiting, so moves keep flowing during a
// long sweep.
func (s *Store) DeleteIdleGames(ctx context.Context, before time.Time) (int, error) {
	if err := s.checkOpen(); err != nil {
		return 0, err
	}
	cut := formatTime(before)
	// updated_minute is updated_at's minute (migration 0010): the index on
	// it narrows the search to the games last changed in cut's minute or
	// before, and updated_at decides.
	total := 0
	for {
		n := 0
		err := s.submit(ctx, func(ctx context.Context, tx *sql.Conn) error {
			rows, err := tx.QueryContext(ctx, `SELECT id FROM games WHERE updated_minute <= ? AND updated_at < ?
				ORDER BY updated_minute LIMIT ?`, minuteOf(cut), cut, deleteBatch)
			if err != nil {
				return fmt.Errorf("sqlite: find idle games: %w", err)
			}
			var ids []string
			for rows.Next() {
				var id string
				if err := rows.Scan(&id); err != nil {
					rows.Close()
					return fmt.Errorf("sqlite: find idle games: %w", err)
				}
				ids = append(ids, id)
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return fmt.Errorf("sqlite: find idle games: %w", err)
			}
			for _, id := range ids {
				s.forgetGame(id)
				// Children first: foreign keys are enforced.
				for _, q := range []string{
					`DELETE FROM idempotency WHERE game_id = ?`,
					`DELETE FROM moves WHERE game_id = ?`,
					`DELETE FROM seats WHERE game_id = ?`,
					`DELETE FROM games WHERE id = ?`,
				} {
					if _, err := tx.ExecContext(ctx, q, id); err != nil {
						return fmt.Errorf("sqlite: delete idle game %q: %w", id, err)
					}
				}
			}
			n = len(ids)
			return nil
		})
		if err != nil {
			return total, err
		}
		total += n
		if n < deleteBatch {
			return total, nil
		}
	}
}
