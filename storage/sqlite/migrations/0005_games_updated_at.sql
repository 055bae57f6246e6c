-- The sweep of idle games (DeleteIdleGames) finds the games whose last move
-- is older than a time; this index makes that a range of it instead of a
-- scan of every game.
CREATE INDEX games_updated_at ON games (updated_at);
