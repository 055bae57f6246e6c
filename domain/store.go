package domain

import (
	"context"
	"errors"
	"time"
)

// GameRecord is one stored game, whatever its ruleset. The store treats State
// as opaque bytes: only the ruleset's package knows what is inside.
type GameRecord struct {
	ID          string
	Ruleset     string // "silver-and-gold"
	Mode        string // "digital" or "physical"
	CatalogName string
	CatalogHash string // hex SHA-256 of the catalog's content
	CreatedAt   time.Time
	UpdatedAt   time.Time
	Version     int64  // number of accepted moves; 0 right after creation
	State       []byte // the ruleset's snapshot of the game after Version moves
	Phase       string // the ruleset's phase label, for listings and metrics
	Ended       bool
}

// GameCount is how many stored games of a ruleset are in a phase.
type GameCount struct {
	Ruleset, Phase string
	Games          int
}

// CatalogBlob is the content of a card catalog as a game was created with it,
// kept so that an old game still replays after the server's catalog changes.
type CatalogBlob struct {
	Name    string
	Hash    string
	Content []byte
}

// Credentials are the hashes of the secrets handed out when a game was created.
// The secrets themselves are never stored.
type Credentials struct {
	HostHash   string
	SeatHashes []string // index = seat
	// Taken says, per seat, whether someone holds the seat: its credential
	// has been used, the seat was picked on the join page, or the host
	// issued it again. A seat not taken is offered on the join page. Nil
	// (as CreateGame takes it) is no seat taken.
	Taken []bool
	// Revision is, from a SharedStore, the revision of the game's
	// credentials these were read at (see Revision); 0 from other stores,
	// and not part of a game's export.
	Revision int64
}

// IsTaken reports whether seat is taken.
func (c *Credentials) IsTaken(seat int) bool { return seat < len(c.Taken) && c.Taken[seat] }

// Actor says who submitted a move: the host (the table, or anyone holding the
// host credential) or one seat.
type Actor struct {
	Host bool
	Seat int // valid when !Host
}

// MoveRecord is one accepted move in a game's append-only log.
type MoveRecord struct {
	Seq    int64 // 1-based; equals the game's version after the move
	Actor  Actor
	Move   []byte // the move in full as the ruleset encodes it (JSON)
	Events []byte // JSON array of the Events the move caused
	At     time.Time
	// Public is the move as viewers outside its audience read it while the
	// game runs; nil when the move hides nothing (see Logged).
	Public  []byte
	For     int
	NotHost bool
}

// IdempotencyRecord remembers a request made with an Idempotency-Key, so
// that a retry applies nothing and is answered as one. Response holds
// {"seq":n}, the move's version (records from before kept a whole answer;
// only its seq is read).
type IdempotencyRecord struct {
	Key         string
	Scope       string // who may replay it: a hash of the credential used
	RequestHash string // hash of the request body; another body with the same key is refused
	Status      int
	Response    []byte
}

// Append is one accepted move with everything that must become durable with it,
// in one transaction.
type Append struct {
	GameID        string
	ExpectVersion int64 // the version the move was applied to; Conflict otherwise
	Move          MoveRecord
	State         []byte
	Phase         string
	Ended         bool
	Idempotency   *IdempotencyRecord // optional
	// Credentials, when not nil, is the revision of the game's credentials
	// the move's actor was authenticated at (Credentials.Revision): a
	// SharedStore stores the move only while the game's credentials are
	// still at that revision, Conflict otherwise. Other stores ignore it.
	Credentials *int64
	// ExpectState, when not nil, is the snapshot of the game the move was
	// applied to, as the server held version ExpectVersion: a SharedStore
	// stores the move only while the game's stored snapshot is this one,
	// Conflict otherwise. A server may hold a version of its own that was
	// never stored (a move of it that lost the race for that version, not
	// yet read again): the version's number alone does not say it is the
	// one stored. Other stores ignore it.
	ExpectState []byte
}

// Store keeps games durably. Implementations know nothing about any rules.
// Errors carry codes: NotFound for a missing game, Conflict when ExpectVersion
// is stale or an idempotency key was stored by a concurrent request.
type Store interface {
	// CreateGame stores a new game at version 0 with its credentials and catalog.
	CreateGame(ctx context.Context, g GameRecord, creds Credentials, cat CatalogBlob) error
	// Game returns the latest snapshot of a game.
	Game(ctx context.Context, id string) (GameRecord, error)
	// Credentials returns the credential hashes of a game.
	Credentials(ctx context.Context, id string) (Credentials, error)
	// Catalog returns a stored catalog by its hash.
	Catalog(ctx context.Context, hash string) (CatalogBlob, error)
	// Moves returns up to limit moves with Seq > after, in order (limit <= 0: all).
	Moves(ctx context.Context, id string, after int64, limit int) ([]MoveRecord, error)
	// Idempotency returns the stored record for (game, scope, key), or nil.
	Idempotency(ctx context.Context, gameID, scope, key string) (*IdempotencyRecord, error)
	// Append makes a move, its snapshot and its idempotency record durable
	// together; it returns only after the commit.
	Append(ctx context.Context, a Append) error
	// DeleteIdleGames deletes every game whose last move (or, without moves,
	// its creation) is before before, with its moves, credentials and
	// idempotency records, and returns how many it deleted.
	DeleteIdleGames(ctx context.Context, before time.Time) (int, error)
	// SetJoinCode gives game id the join code code unless it has one
	// already, and returns the game's code (code, or the one it had).
	// Conflict when another game holds code; NotFound when there is no game.
	SetJoinCode(ctx context.Context, id, code string) (string, error)
	// GameOfJoinCode returns the id of the game holding a join code
	// (NotFound when none does; a deleted game's code is gone with it).
	GameOfJoinCode(ctx context.Context, code string) (string, error)
	// SetSeat makes hash the credential of a seat (0, 1, …) and marks the
	// seat taken. With onlyFree it does so only if the seat is not taken or
	// already holds hash; Conflict otherwise. Either way it is one atomic
	// step: of two requests for the same free seat, one wins.
	SetSeat(ctx context.Context, id string, seat int, hash string, onlyFree bool) error
	// CreateNextGame stores g (as CreateGame does) as the game that follows
	// game prev, unless prev has one already: it then stores nothing and
	// returns the id of the one it has. It returns g.ID otherwise.
	CreateNextGame(ctx context.Context, prev string, g GameRecord, creds Credentials, cat CatalogBlob) (string, error)
	// NextGame returns the id of the game that follows game id, "" when none.
	NextGame(ctx context.Context, id string) (string, error)
	// Ping reports whether the store is reachable and migrated.
	Ping(ctx context.Context) error
	// Close releases the store.
	Close() error
}

// SharedStore is a Store that several processes (servers) use at once, each
// with its own Games: any of them may store a move of any game. The service
// then trusts nothing it holds in memory about a game without asking the
// store (see Games' doc), and the store decides every race.
type SharedStore interface {
	Store
	// Version returns where a stored game stands, its version and the
	// revision of its credentials (NotFound when it does not exist): a cheap
	// read, made before a cached game is trusted.
	Version(ctx context.Context, id string) (Revision, error)
	// WatchMoves calls moved(gameID, seq) for the moves stored by any
	// process, for each game in the order they were stored, until ctx ends,
	// and reconnects when its connection fails. Each time it begins to
	// listen (the first time too) it calls moved("", 0), meaning "any game
	// may have moved without a notice". moved is called from one goroutine
	// and should return soon.
	WatchMoves(ctx context.Context, moved func(gameID string, seq int64)) error
}

// Revision is where a game stored in a SharedStore stands.
type Revision struct {
	Version int64 // the game's version, as GameRecord.Version
	// Credentials is the revision of the game's credentials: it grows
	// whenever SetSeat sets a seat's credential, so that a server holding
	// them in memory knows when to read them again.
	Credentials int64
}

// CredentialsChanged reports whether err is a SharedStore's Conflict for an
// Append whose Credentials revision is no longer the game's (while its
// version was right).
func CredentialsChanged(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == Conflict && e.Msg.Key == "table.store.credentials"
}

// AppendQueuer is a Store that can take a game's next move before the
// previous one is committed. QueueAppend hands the append to the store and
// returns at once; wait returns what Append would have, after the commit.
// Appends queued one after another are committed in that order, and when one
// fails, a later one that expected its version fails with Conflict. The
// service then lets the moves of a game that arrive together share a commit.
type AppendQueuer interface {
	QueueAppend(ctx context.Context, a Append) (wait func() error)
}

// IdempotencyKeyLister is a Store that lists the idempotency records stored
// for a game (their responses left out). The service then knows every key a
// cached game has used, and asks the store about a key only when it may be a
// retry.
type IdempotencyKeyLister interface {
	IdempotencyKeys(ctx context.Context, gameID string) ([]IdempotencyRecord, error)
}
