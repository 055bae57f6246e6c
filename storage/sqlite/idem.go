package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"

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

// maxKeyHashes bounds the key hashes the writer keeps (8 bytes each); past
// it, it forgets them all and reads each game's again at its next append.
const maxKeyHashes = 1 << 20

// gameKeys are the hashes of the idempotency keys a game had stored at
// version (the writer's memory of them, keyUsed).
type gameKeys struct {
	version int64
	hashes  []int64
}

// keyUsed tells whether game, whose stored version is expect (its append
// has just matched it), has a record for (scope, key), whose idemHash is h.
// The writer keeps each game's key hashes with the version it read them at
// and trusts them only at that version: every append moves a game's version,
// whoever stores it, so the hashes of a game at the same version are still
// all of them (CreateGame, ImportGame and DeleteIdleGames forget a game's,
// as they may bring its version back). A key is looked up in the database
// only when its hash is among them: an append then costs the same in a long
// game as in a short one.
func (s *Store) keyUsed(ctx context.Context, tx *sql.Conn, game string, expect, h int64, scope, key string) (bool, error) {
	e := s.keys[game]
	if e == nil || e.version != expect {
		hashes, err := readKeyHashes(ctx, tx, game)
		if err != nil {
			return false, err
		}
		s.forgetKeys(game)
		if s.keyCount+len(hashes) > maxKeyHashes {
			clear(s.keys)
			s.keyCount = 0
		}
		e = &gameKeys{version: expect, hashes: hashes}
		s.keys[game] = e
		s.keyCount += len(hashes)
	}
	if !slices.Contains(e.hashes, h) {
		return false, nil
	}
	var used bool
	err := tx.QueryRowContext(ctx, `SELECT `+idemUsed, game, h, scope, key).Scan(&used)
	return used, err
}

// keyStored records in the writer's memory that game moved from version
// expect to seq, with a key of hash h when keyed.
func (s *Store) keyStored(game string, expect, seq, h int64, keyed bool) {
	e := s.keys[game]
	if e == nil || e.version != expect {
		return
	}
	e.version = seq
	if keyed {
		e.hashes = append(e.hashes, h)
		s.keyCount++
	}
}

// forgetKeys drops the writer's memory of a game's key hashes.
func (s *Store) forgetKeys(game string) {
	if e := s.keys[game]; e != nil {
		s.keyCount -= len(e.hashes)
		delete(s.keys, game)
	}
}

// readKeyHashes reads the hashes of every idempotency key a game has stored:
// those in the moves' rows from the index, those of the idempotency table
// hashed here.
func readKeyHashes(ctx context.Context, tx *sql.Conn, game string) ([]int64, error) {
	rows, err := tx.QueryContext(ctx, `SELECT idem, '', '' FROM moves INDEXED BY moves_game_seq WHERE game_id = ?1 AND idem IS NOT NULL
		UNION ALL
		SELECT NULL, scope, key FROM idempotency WHERE game_id = ?1`, game)
	if err != nil {
		return nil, fmt.Errorf("sqlite: read idempotency keys of game %q: %w", game, err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var (
			h          sql.NullInt64
			scope, key string
		)
		if err := rows.Scan(&h, &scope, &key); err != nil {
			return nil, fmt.Errorf("sqlite: read idempotency keys of game %q: %w", game, err)
		}
		if !h.Valid {
			h.Int64 = idemHash(scope, key)
		}
		out = append(out, h.Int64)
	}
	return out, rows.Err()
}
