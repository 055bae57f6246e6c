-- A move that shows something others may not see yet (a simultaneous choice,
-- a card drawn) keeps, beside the move in full, the form everyone else reads
-- while the game runs, and who may read it in full: the seat for_seat, and
-- the host unless not_host. A move that hides nothing has public NULL.
ALTER TABLE moves ADD COLUMN public BLOB;
ALTER TABLE moves ADD COLUMN for_seat INTEGER NOT NULL DEFAULT -1;
ALTER TABLE moves ADD COLUMN not_host INTEGER NOT NULL DEFAULT 0 CHECK (not_host IN (0, 1));

-- Games are counted by ruleset and phase (the treasury_games metric): the
-- index that made counting by phase a scan of an index now has both.
DROP INDEX games_phase;
CREATE INDEX games_ruleset_phase ON games (ruleset, phase);
