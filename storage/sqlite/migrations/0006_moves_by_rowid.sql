-- Moves in a table ordered by rowid, found by a unique index on (game_id,
-- seq), instead of a WITHOUT ROWID table ordered by (game_id, seq) (issue 27).
--
-- A move's row is about 1 KB (its events with the status after it). In a
-- WITHOUT ROWID table a row of more than about 1,000 bytes (on 4 KB pages)
-- spills into an overflow page of its own, mostly empty, and each game's
-- move lands in that game's leaf page: a commit of k moves of k games wrote
-- about 2k pages for the moves alone. Rows ordered by rowid fit up to 4 KB
-- in their page and are appended at the table's end, a commit's moves side
-- by side in a few pages; the index entries are small.
--
-- Measured with BenchmarkAppendBytes (64 games appending at once, rows of a
-- real game, group commit), bytes written per move: 28.9 KB before, 9.2 KB
-- after. Dropping the index on games.updated_at as well changed nothing
-- measurable (28.5-29.1 KB alone, 9.1-9.2 KB with this), so it stays.
CREATE TABLE moves_by_rowid (
	id         INTEGER PRIMARY KEY,
	game_id    TEXT NOT NULL REFERENCES games (id),
	seq        INTEGER NOT NULL CHECK (seq >= 1),
	actor_host INTEGER NOT NULL CHECK (actor_host IN (0, 1)),
	actor_seat INTEGER NOT NULL,
	body       BLOB NOT NULL,
	events     BLOB NOT NULL, -- JSON array of what the move caused, for live clients
	at         TEXT NOT NULL,
	public     BLOB,
	for_seat   INTEGER NOT NULL DEFAULT -1,
	not_host   INTEGER NOT NULL DEFAULT 0 CHECK (not_host IN (0, 1))
);
INSERT INTO moves_by_rowid (game_id, seq, actor_host, actor_seat, body, events, at, public, for_seat, not_host)
	SELECT game_id, seq, actor_host, actor_seat, body, events, at, public, for_seat, not_host FROM moves ORDER BY game_id, seq;
DROP TABLE moves;
ALTER TABLE moves_by_rowid RENAME TO moves;
CREATE UNIQUE INDEX moves_game_seq ON moves (game_id, seq);
