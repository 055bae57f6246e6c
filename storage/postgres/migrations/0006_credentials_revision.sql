-- The revision of a game's credentials (issue 27): SetSeat adds one to it
-- whenever a seat's credential is set (taken, picked on the join page, issued
-- again). A server keeps a game's credentials in memory with the revision it
-- read them at, and its appends store a move only while the game's revision
-- is still that one (appendSQL), so that a move is one round trip and a
-- credential issued again on another server is still refused at once. The
-- version read (Version) returns it too. A column with a constant default
-- is added without rewriting the table.
ALTER TABLE games ADD COLUMN seats_rev bigint NOT NULL DEFAULT 0;
