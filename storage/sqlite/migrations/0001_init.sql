-- The first schema. Every lookup the server makes on a hot path is by primary
-- key (games.id, moves (game_id, seq), idempotency (game_id, scope, key)), so
-- reading a game or appending a move costs the same at move 3 and move 150,
-- with ten games stored or a million. Times are TEXT in UTC with nanoseconds,
-- fixed width ("2006-01-02T15:04:05.000000000Z"), so they sort as strings.

CREATE TABLE catalogs (
	hash    TEXT PRIMARY KEY, -- hex SHA-256 of content; one row however many games use it
	name    TEXT NOT NULL,
	content BLOB NOT NULL
);

CREATE TABLE games (
	id           TEXT PRIMARY KEY,
	ruleset      TEXT NOT NULL,
	mode         TEXT NOT NULL,
	catalog_name TEXT NOT NULL,
	catalog_hash TEXT NOT NULL REFERENCES catalogs (hash),
	created_at   TEXT NOT NULL,
	updated_at   TEXT NOT NULL,
	version      INTEGER NOT NULL CHECK (version >= 0),
	state        BLOB NOT NULL,
	phase        TEXT NOT NULL,
	ended        INTEGER NOT NULL CHECK (ended IN (0, 1))
);

-- seat -1 holds the host credential; 0.. the players' seats.
CREATE TABLE seats (
	game_id TEXT NOT NULL REFERENCES games (id),
	seat    INTEGER NOT NULL CHECK (seat >= -1),
	hash    TEXT NOT NULL,
	PRIMARY KEY (game_id, seat),
	UNIQUE (game_id, hash)
) WITHOUT ROWID;

-- Append-only. WITHOUT ROWID clusters a game's moves by (game_id, seq), so a
-- page of moves is a contiguous range read.
CREATE TABLE moves (
	game_id    TEXT NOT NULL REFERENCES games (id),
	seq        INTEGER NOT NULL CHECK (seq >= 1),
	actor_host INTEGER NOT NULL CHECK (actor_host IN (0, 1)),
	actor_seat INTEGER NOT NULL,
	body       BLOB NOT NULL,
	events     BLOB NOT NULL, -- JSON array of what the move caused, for live clients
	at         TEXT NOT NULL,
	PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

CREATE TABLE idempotency (
	game_id      TEXT NOT NULL REFERENCES games (id),
	scope        TEXT NOT NULL,
	key          TEXT NOT NULL,
	request_hash TEXT NOT NULL,
	status       INTEGER NOT NULL,
	response     BLOB NOT NULL,
	PRIMARY KEY (game_id, scope, key)
);
