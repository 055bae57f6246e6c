-- A move's idempotency record in the move's own row (issue 27).
--
-- Measured on a copy of the write-ahead log during a load run (32 clients,
-- 5.8 moves per commit, docs/performance.md): the idempotency table, keyed by
-- (game_id, scope, key), took one leaf page per game per commit, 6.9 of the
-- 21.8 pages a commit wrote, more than any other B-tree; the moves' index on
-- (game_id, seq) took another leaf per game. A record kept in its move's row,
-- found through that index, which carries a 64-bit hash of (scope, key)
-- (idem), writes no page the move did not already write. A record is looked
-- up by scanning the game's entries of the index for that hash, then
-- comparing scope and key in the one row it names; the writer remembers each
-- game's hashes, so a new key is refused or let through without a look-up.
--
-- The index no longer makes (game_id, seq) unique; the game's version, bumped
-- in the same transaction as each append (UPDATE ... WHERE version = ?), and
-- the import's check that moves are numbered 1..n do.
--
-- Records stored before, and those of imported games, stay in the
-- idempotency table; both are read.
ALTER TABLE moves ADD COLUMN idem INTEGER;
ALTER TABLE moves ADD COLUMN idem_scope TEXT;
ALTER TABLE moves ADD COLUMN idem_key TEXT;
ALTER TABLE moves ADD COLUMN idem_request_hash TEXT;
ALTER TABLE moves ADD COLUMN idem_status INTEGER;
ALTER TABLE moves ADD COLUMN idem_response BLOB;
DROP INDEX moves_game_seq;
CREATE INDEX moves_game_seq ON moves (game_id, seq, idem);
