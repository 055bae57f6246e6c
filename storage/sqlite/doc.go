// Package sqlite keeps games in one SQLite file. It implements domain.Store and
// knows nothing about any game's rules: states, moves and responses are opaque
// bytes.
//
// # Concurrency
//
// SQLite lets one connection write at a time, and with synchronous=FULL each
// commit waits for the write-ahead log to reach the disk, so a write costs
// about one fsync whatever it contains. The store therefore funnels every
// write (CreateGame, Append) through a single writer goroutine that owns the
// only writer connection. Callers enqueue a request and wait for its answer.
//
// Group commit: the writer takes the first queued request and then whatever
// else is already queued (up to a bound, 128 by default) and commits them all
// in one transaction, one fsync for the whole group. Groups form from requests
// that arrived while the previous commit was in flight, so the more games are
// busy, the fewer fsyncs each move pays for. While requests arrive together
// (the previous group held more than one), the writer also lingers: it keeps
// taking requests that follow each other within a short gap (100µs, for at
// most 1ms; WithLinger) before it begins, since a commit costs about the same
// CPU and one fsync whatever it holds. A lone request never waits: after a
// group of one, the next request is committed at once.
//
// A request that fails on its own (a stale ExpectVersion, a reused
// idempotency key, a missing game) is rolled back alone and answered with its
// own error while the rest of the group commits. As that is rare, a group is
// first applied without savepoints; only when one of its requests fails is
// the transaction rolled back and the group applied again, each request inside
// its own SAVEPOINT, the failed one rolled back to it. If the COMMIT itself
// fails, every request of the group gets that error. Nobody is answered before
// the COMMIT has returned.
//
// A group often holds several moves of one game (the service queues a game's
// next move before the last one is committed): each inserts its move, but
// the game's row is set once, by the last move of such a run, and only if
// the game is still at the version the run's first move expected (runs.go).
// In the load run 60% of the appends so leave the row to a later one.
//
// A caller whose context ends while its request is still queued gets the
// context's error and its request is dropped unapplied. Once the writer has
// taken a request it is committed regardless; the caller may then stop
// waiting and not hear the outcome (a retry with the same idempotency key finds
// it). Close stops accepting writes, commits and answers what is already
// queued, and only then closes the connections.
//
// Reads never queue behind writes: they use a separate pool of read-only
// connections, and in WAL mode each read sees the last committed state while
// the writer appends to the log.
//
// # Schema
//
// The SQL files in migrations/ are embedded, applied in name order, each in
// its own transaction, and recorded in schema_migrations; reopening a file
// applies only the new ones. Every hot-path lookup is by primary key or an
// index, so the cost of reading a game or appending a move does not grow with
// the number of moves or games. A move's idempotency record is kept in the
// move's row (migration 0009, to write fewer pages per commit), and the index
// on (game_id, seq, idem) carries a 64-bit hash of its key. The writer
// remembers each game's key hashes at the game's version, so an append with
// a new key looks nothing up; a retry's look-up scans the game's entries of
// the index for the hash (a few pages for a game of a few hundred moves) and
// reads only a row whose hash matches.
//
// Since migration 0010 an ordinary move changes no index entry of its game:
// the idle sweep finds games by the minute of their last change
// (updated_minute), the count by phase reads ended games from an index of
// them and unfinished ones through an index of their ruleset, and an append
// sets the phase, ended and the minute each only when it changes (the writer
// remembers them at the game's version, as it does key hashes). A game's
// snapshot is stored compressed with S2 (state_s2), 2.2-2.3x smaller, so the
// rows of the games in play share pages.
package sqlite
