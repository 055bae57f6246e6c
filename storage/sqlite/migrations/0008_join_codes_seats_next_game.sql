-- Game night (issue 24): a join code per game, looked up by the code (one
-- game per code: the unique index; games without one hold NULL, which is
-- never equal to another NULL); which seats are taken, offered on the join
-- page while they are not; and the game that follows a game ended ("play
-- again"). The code and the next game go with the game's row when it is
-- deleted as idle.
ALTER TABLE games ADD COLUMN join_code TEXT;
ALTER TABLE games ADD COLUMN next_game TEXT;
CREATE UNIQUE INDEX games_join_code ON games (join_code);
ALTER TABLE seats ADD COLUMN taken INTEGER NOT NULL DEFAULT 0 CHECK (taken IN (0, 1));
