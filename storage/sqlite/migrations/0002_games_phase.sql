-- Counting games by phase (the treasury_games metric, read at every scrape)
-- scans this index instead of every game's row and its state.
CREATE INDEX games_phase ON games (phase);
