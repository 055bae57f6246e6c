-- Every accepted move with an Idempotency-Key inserts one record. As a rowid
-- table with a separate primary-key index, each insert changed two B-trees
-- (two pages written to the WAL at every commit); clustered by its key it
-- changes one. Records are looked up only by that key.
CREATE TABLE idempotency_by_key (
	game_id      TEXT NOT NULL REFERENCES games (id),
	scope        TEXT NOT NULL,
	key          TEXT NOT NULL,
	request_hash TEXT NOT NULL,
	status       INTEGER NOT NULL,
	response     BLOB NOT NULL,
	PRIMARY KEY (game_id, scope, key)
) WITHOUT ROWID;

INSERT INTO idempotency_by_key (game_id, scope, key, request_hash, status, response)
	SELECT game_id, scope, key, request_hash, status, response FROM idempotency;

DROP TABLE idempotency;

ALTER TABLE idempotency_by_key RENAME TO idempotency;
