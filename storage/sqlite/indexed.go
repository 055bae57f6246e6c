package sqlite

import (
	"context"
	"database/sql"
)

// Since migration 0010 no index of games has an entry that an ordinary move
// changes: an append sets the columns those entries depend on (phase, ended,
// updated_minute) each by a statement of its own, and only when its value
// changes. To know whether it changes without reading the game's row at every
// append, the writer remembers each game's values with the version they are
// at, as it remembers key hashes (keyUsed), and trusts them only at that
// version: every append moves a game's version, whoever stores it; creating,
// importing or deleting a game forgets it (forgetGame).

// maxIndexed bounds the writer's memory of indexed columns: past it, it
// forgets them all and reads each game's again at its next append.
const maxIndexed = 1 << 16

// indexed are the columns of a game's row that index entries depend on, at
// version.
type indexed struct {
	version int64
	phase   string
	ended   bool
	minute  string
}

// indexedColumns returns game's indexed columns as they were at version
// expect: from the writer's memory, or from the row, which the append's
// UPDATE has not changed (it sets none of them).
func (s *Store) indexedColumns(ctx context.Context, tx *sql.Conn, game string, expect int64) (indexed, error) {
	if e, ok := s.indexed[game]; ok && e.version == expect {
		return e, nil
	}
	e := indexed{version: expect}
	err := tx.QueryRowContext(ctx, `SELECT phase, ended, updated_minute FROM games WHERE id = ?`, game).
		Scan(&e.phase, &e.ended, &e.minute)
	return e, err
}

// indexedStored remembers a game's indexed columns as an append left them.
func (s *Store) indexedStored(game string, e indexed) {
	if _, ok := s.indexed[game]; !ok && len(s.indexed) >= maxIndexed {
		clear(s.indexed)
	}
	s.indexed[game] = e
}

// forgetGame drops the writer's memory of a game: its key hashes and its
// indexed columns.
func (s *Store) forgetGame(game string) {
	s.forgetKeys(game)
	delete(s.indexed, game)
}
