// Package service is the coordinating service between the API and the store:
// it caches games in memory, applies the moves of one game one at a time,
// matches retried requests by their Idempotency-Key, and fans moves out to
// live clients. It knows no rules (each game's domain.Ruleset does) and no
// storage (a domain.Store does), and imports only domain and the standard
// library.
//
// One process on its own store (SQLite) and several processes sharing one
// (PostgreSQL, a domain.SharedStore) are the same service: they differ in four
// decisions, each made in one place and named there: whether a cached game
// is trusted without reading its stored version (head), how a move reaches
// the store (Play: queued behind the game's previous move, or stored at its
// version with a lost race played again, playShared), whether the keys a
// game has used are known from memory (cache), and whether live clients also
// hear of moves stored elsewhere (FollowStore). shared.go holds the second
// half of each.
package service
