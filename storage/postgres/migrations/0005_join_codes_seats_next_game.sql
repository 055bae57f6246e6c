-- Game night (issue 24): a join code per game, looked up by the code (one
-- game per code: the unique index; games without one hold NULL, which is
-- never equal to another NULL); which seats are taken, offered on the join
-- page while they are not; and the game that follows a game ended ("play
-- again"). (SQLite's migration 0008.)
ALTER TABLE games ADD COLUMN join_code text;
ALTER TABLE games ADD COLUMN next_game text;
CREATE UNIQUE INDEX games_join_code ON games (join_code);
ALTER TABLE seats ADD COLUMN taken boolean NOT NULL DEFAULT false;
