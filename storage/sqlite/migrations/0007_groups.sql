-- Groups (issue 25): the people who play together, their members and the
-- plays they keep. A play is kept whole as JSON (the domain's Play): it is
-- read whole, for a page of plays or a group's statistics, and never by a
-- field but its time and its members. play_members lists the members of each
-- play, so that a member's plays are found and deleted with them.
CREATE TABLE groups (
	id              TEXT PRIMARY KEY,
	name            TEXT NOT NULL,
	created_at      TEXT NOT NULL,
	credential_hash TEXT NOT NULL,
	revision        INTEGER NOT NULL DEFAULT 0,
	-- The statistics last computed (JSON), at stats_revision: a server that
	-- starts, or did not see the last change, answers from them while the
	-- group is at that revision instead of reading every play.
	stats           BLOB,
	stats_revision  INTEGER NOT NULL DEFAULT -1
);

CREATE TABLE group_members (
	group_id  TEXT NOT NULL REFERENCES groups (id),
	id        TEXT NOT NULL,
	name      TEXT NOT NULL,
	name_key  TEXT NOT NULL,
	joined_at TEXT NOT NULL,
	PRIMARY KEY (group_id, id),
	UNIQUE (group_id, name_key)
) WITHOUT ROWID;

CREATE TABLE plays (
	group_id  TEXT NOT NULL REFERENCES groups (id),
	id        TEXT NOT NULL,
	played_at TEXT NOT NULL,
	ruleset   TEXT NOT NULL,
	body      BLOB NOT NULL,
	PRIMARY KEY (group_id, id)
) WITHOUT ROWID;
CREATE INDEX plays_by_time ON plays (group_id, played_at, id);

CREATE TABLE play_members (
	group_id  TEXT NOT NULL,
	member_id TEXT NOT NULL,
	played_at TEXT NOT NULL,
	play_id   TEXT NOT NULL,
	PRIMARY KEY (group_id, member_id, played_at, play_id)
) WITHOUT ROWID;
CREATE INDEX play_members_by_play ON play_members (group_id, play_id);

-- Games created for a group whose play is not kept yet. The idle-game sweep
-- keeps the play of an ended one before it deletes the game.
CREATE TABLE group_games (
	game_id  TEXT PRIMARY KEY,
	group_id TEXT NOT NULL REFERENCES groups (id),
	members  TEXT NOT NULL -- JSON array of member ids in seat order
);
CREATE INDEX group_games_by_group ON group_games (group_id);
