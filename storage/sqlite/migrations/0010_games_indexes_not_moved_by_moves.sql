-- No index entry of a game changes at an ordinary move (issue 27).
--
-- Measured on a copy of the write-ahead log during load runs of the
-- turn-based games (Lucky Treasure Hunter, Colorful Treasure: about 4 moves
-- per commit, docs/performance.md), two indexes of games took about 2 of the
-- 13.5 pages a commit wrote, as each move rewrote their entry:
-- games_updated_at (the idle sweep's; updated_at is the move's time) and
-- games_ruleset_phase (the metrics' count; the phase of those games changes
-- at nearly every move).
--
-- The idle sweep finds games by the minute of their last change instead
-- (updated_minute, updated_at's first 16 characters), which an append sets
-- only when it changes: once a minute per game in play at most. The sweep
-- still compares updated_at itself.
--
-- The count by phase reads the phase of ended games from an index of them
-- only (it does not change once a game has ended) and finds unfinished games
-- through an index that holds their ruleset only: an append sets phase and
-- ended apart, each only when it changes, so neither index is written by a
-- move that does not end its game.
-- A game's snapshot is stored compressed (S2) in state_s2, state left empty
-- (storage/sqlite/snapshot.go): the rows of games in play, rewritten at every
-- move, are 2-2.6x smaller and share pages. A row whose state_s2 is NULL
-- holds its snapshot in state, as rows written before this migration do.
ALTER TABLE games ADD COLUMN state_s2 BLOB;
ALTER TABLE games ADD COLUMN updated_minute TEXT NOT NULL DEFAULT '';
UPDATE games SET updated_minute = substr(updated_at, 1, 16);
DROP INDEX games_updated_at;
CREATE INDEX games_updated_minute ON games (updated_minute);
DROP INDEX games_ruleset_phase;
CREATE INDEX games_ended_phase ON games (ruleset, phase, ended) WHERE ended = 1;
CREATE INDEX games_playing ON games (ruleset) WHERE ended = 0;
