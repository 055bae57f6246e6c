package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"hash/fnv"

	"github.com/treasury-games/treasury/domain"
)

// Since migration 0009 a move's idempotency record is kept in the move's row;
// records stored before, and those of imported games, are in the idempotency
// table. Both are read.

// idemHash is the 64-bit hash of (scope, key) that the index moves_game_seq
// carries, so that a game's records are found by scanning its entries of the
// index and reading only the row whose hash matches. Two keys may share a
// hash: the row's scope and key are compared as well.
func idemHash(scope, key string) int64 {
	h := fnv.New64a()
	h.Write([]byte(scope))
	h.Write([]byte{0})
	h.Write([]byte(key))
	return int64(h.Sum64())
}

// idemUsed is true when game ?1 has a record for (scope ?3, key ?4), whose
// idemHash is ?2.
const idemUsed = `EXISTS (SELECT 1 FROM moves INDEXED BY moves_game_seq
		WHERE game_id = ?1 AND idem = ?2 AND idem_scope = ?3 AND idem_key = ?4)
	OR EXISTS (SELECT 1 FROM idempotency WHERE game_id = ?1 AND scope = ?3 AND key = ?4)`

// idemRecordsQuery lists a game's records, responses included, ordered by
// scope then key.
const idemRecordsQuery = `SELECT idem_scope, idem_key, idem_request_hash, idem_status, idem_response
		FROM moves WHERE game_id = ?1 AND idem IS NOT NULL
	UNION ALL
	SELECT scope, key, request_hash, status, response FROM idempotency WHERE game_id = ?1
	ORDER BY 1, 2`

// Idempotency returns the stored record for (game, scope, key), or nil.
func (s *Store) Idempotency(ctx context.Context, gameID, scope, key string) (*domain.IdempotencyRecord, error) {
	if err := s.checkOpen(); err != nil {
		return nil, err
	}
	r := domain.IdempotencyRecord{Key: key, Scope: scope}
	err := s.reader.QueryRowContext(ctx, `SELECT idem_request_hash, idem_status, idem_response
			FROM moves INDEXED BY moves_game_seq
			WHERE game_id = ?1 AND idem = ?2 AND idem_scope = ?3 AND idem_key = ?4
		UNION ALL
		SELECT request_hash, status, response FROM idempotency WHERE game_id = ?1 AND scope = ?3 AND key = ?4
		LIMIT 1`, gameID, idemHash(scope, key), scope, key).
		Scan(&r.RequestHash, &r.Status, &r.Response)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: read idempotency key %q of game %q: %w", key, gameID, err)
	}
	return &r, nil
}

// IdempotencyKeys lists the idempotency records stored for a game, without
// their responses.
func (s *Store) IdempotencyKeys(ctx context.Context, gameID string) ([]domain.IdempotencyRecord, error) {
	if err := s.checkOpen(); err != nil {
		return nil, err
	}
	rows, err := s.reader.QueryContext(ctx, idemRecordsQuery, gameID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: read idempotency keys of game %q: %w", gameID, err)
	}
	defer rows.Close()
	var out []domain.IdempotencyRecord
	for rows.Next() {
		var (
			r        domain.IdempotencyRecord
			response sql.RawBytes // left out
		)
		if err := rows.Scan(&r.Scope, &r.Key, &r.RequestHash, &r.Status, &response); err != nil {
			return nil, fmt.Errorf("sqlite: read idempotency keys of game %q: %w", gameID, err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: read idempotency keys of game %q: %w", gameID, err)
	}
	return out, nil
}
