-- Groups (issue 25): the people who play together, their members and the
-- plays they keep, as SQLite's migration 0007. A play is kept whole as JSON
-- (the domain's Play); play_members lists the members of each play, so that
-- a member's plays are found and deleted with them. Times are nanoseconds.
CREATE TABLE groups (
	id              text COLLATE "C" PRIMARY KEY,
	name            text NOT NULL,
	created_at      bigint NOT NULL,
	credential_hash text NOT NULL,
	revision        bigint NOT NULL DEFAULT 0,
	-- The statistics last computed (JSON), at stats_revision.
	stats           bytea,
	stats_revision  bigint NOT NULL DEFAULT -1
);

CREATE TABLE group_members (
	group_id  text COLLATE "C" NOT NULL REFERENCES groups (id),
	id        text COLLATE "C" NOT NULL,
	name      text NOT NULL,
	name_key  text NOT NULL,
	joined_at bigint NOT NULL,
	PRIMARY KEY (group_id, id),
	CONSTRAINT group_members_name UNIQUE (group_id, name_key)
);

CREATE TABLE plays (
	group_id  text COLLATE "C" NOT NULL REFERENCES groups (id),
	id        text COLLATE "C" NOT NULL,
	played_at bigint NOT NULL,
	ruleset   text NOT NULL,
	body      bytea NOT NULL,
	PRIMARY KEY (group_id, id)
);
CREATE INDEX plays_by_time ON plays (group_id, played_at, id);

CREATE TABLE play_members (
	group_id  text COLLATE "C" NOT NULL,
	member_id text COLLATE "C" NOT NULL,
	played_at bigint NOT NULL,
	play_id   text COLLATE "C" NOT NULL,
	PRIMARY KEY (group_id, member_id, played_at, play_id)
);
CREATE INDEX play_members_by_play ON play_members (group_id, play_id);

-- Games created for a group whose play is not kept yet.
CREATE TABLE group_games (
	game_id  text COLLATE "C" PRIMARY KEY,
	group_id text COLLATE "C" NOT NULL REFERENCES groups (id),
	members  text NOT NULL -- JSON array of member ids in seat order
);
CREATE INDEX group_games_by_group ON group_games (group_id);
