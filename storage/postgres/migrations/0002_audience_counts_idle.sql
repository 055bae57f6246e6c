-- A move that shows something others may not see yet keeps, beside the move
-- in full, the form everyone else reads while the game runs, and who may read
-- it in full: the seat for_seat, and the host unless not_host. A move that
-- hides nothing has public NULL. (SQLite's migration 0004.)
ALTER TABLE moves ADD COLUMN public bytea;
ALTER TABLE moves ADD COLUMN for_seat integer NOT NULL DEFAULT -1;
ALTER TABLE moves ADD COLUMN not_host boolean NOT NULL DEFAULT false;

-- Games are counted by ruleset and phase (the treasury_games metric).
DROP INDEX games_phase;
CREATE INDEX games_ruleset_phase ON games (ruleset, phase);

-- The sweep of idle games finds those whose last move is older than a time.
-- (SQLite's migration 0005.)
CREATE INDEX games_updated_at ON games (updated_at);
