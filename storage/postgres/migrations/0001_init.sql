-- The first schema, the same tables as the SQLite store's. Every lookup the
-- server makes on a hot path is by primary key (games.id, moves (game_id,
-- seq), idempotency (game_id, scope, key)), so reading a game or appending a
-- move costs the same at move 3 and move 150, with ten games stored or a
-- million.
--
-- Times are bigint nanoseconds since 1970-01-01 UTC: timestamptz keeps only
-- microseconds, and a game copied from SQLite (which keeps nanoseconds) must
-- come back exactly as it was. to_timestamp(at / 1e9) shows one.

CREATE TABLE catalogs (
	hash    text PRIMARY KEY, -- hex SHA-256 of content; one row however many games use it
	name    text NOT NULL,
	content bytea NOT NULL
);

CREATE TABLE games (
	id           text COLLATE "C" PRIMARY KEY, -- byte order, as SQLite's: games are listed in it
	ruleset      text NOT NULL,
	mode         text NOT NULL,
	catalog_name text NOT NULL,
	catalog_hash text NOT NULL REFERENCES catalogs (hash),
	created_at   bigint NOT NULL,
	updated_at   bigint NOT NULL,
	version      bigint NOT NULL CHECK (version >= 0), -- appends check it: UPDATE … WHERE version = expected
	state        bytea NOT NULL,
	phase        text NOT NULL,
	ended        boolean NOT NULL
);

-- Counting games by phase (the treasury_games metric, read at every scrape)
-- scans this index instead of every game's row and its state.
CREATE INDEX games_phase ON games (phase);

-- seat -1 holds the host credential; 0.. the players' seats.
CREATE TABLE seats (
	game_id text NOT NULL REFERENCES games (id),
	seat    integer NOT NULL CHECK (seat >= -1),
	hash    text NOT NULL,
	PRIMARY KEY (game_id, seat),
	UNIQUE (game_id, hash)
);

-- Append-only.
CREATE TABLE moves (
	game_id    text NOT NULL REFERENCES games (id),
	seq        bigint NOT NULL CHECK (seq >= 1),
	actor_host boolean NOT NULL,
	actor_seat integer NOT NULL,
	body       bytea NOT NULL,
	events     bytea NOT NULL, -- JSON array of what the move caused, for live clients
	at         bigint NOT NULL,
	PRIMARY KEY (game_id, seq)
);

-- The primary key makes a key stored twice (by two servers racing, say) fail
-- the second transaction.
CREATE TABLE idempotency (
	game_id      text NOT NULL REFERENCES games (id),
	scope        text NOT NULL,
	key          text NOT NULL,
	request_hash text NOT NULL,
	status       integer NOT NULL,
	response     bytea NOT NULL,
	PRIMARY KEY (game_id, scope, key)
);
