package domain

import "encoding/json"

// Ruleset is one game's rules as the server sees them: it creates games and
// restores them from snapshots. Everything it hands back is JSON so that the
// layers above never need to know which game they carry.
type Ruleset interface {
	// Name is the ruleset's stable identifier, e.g. "silver-and-gold".
	Name() string
	// Create validates a creation request and returns the new game (version 0)
	// and the catalog it was created with.
	Create(req CreateRequest) (Game, CatalogBlob, error)
	// Restore rebuilds a game from a snapshot taken by Game.Snapshot and the
	// catalog the game was created with.
	Restore(state []byte, cat CatalogBlob) (Game, error)
	// Replay rebuilds a game from its creation request and catalog by applying
	// moves in order; it stops at the first move the rules reject and returns
	// the 1-based index of that move with the error (0 when all applied).
	Replay(req CreateRequest, cat CatalogBlob, moves []ReplayMove) (Game, int, error)
	// CatalogView encodes a catalog offered for new games (JSON), NotFound
	// when there is none by that name.
	CatalogView(name string) ([]byte, error)
	// VerifySheet checks a paper score sheet (the ruleset's JSON) and returns
	// the computed scores, ranking and findings (JSON). A sheet that cannot
	// be read is an Invalid error; mistakes on it are findings.
	VerifySheet(sheet []byte) ([]byte, error)
}

// CreateRequest is what a client asks for when it creates a game.
type CreateRequest struct {
	Mode    string   // "digital" or "physical"
	Players []string // names, in seat order
	Seed    string   // digital only; empty = the server picks one
	Catalog string   // catalog name; empty = the ruleset's standard catalog
}

// ReplayMove is a move to replay with the actor that made it.
type ReplayMove struct {
	Actor Actor
	Move  []byte
}

// Viewer says who is looking at a game: the public, the host, or one seat.
type Viewer struct {
	Host bool
	Seat int // -1 for the public; a seat sees its own private information
}

// Public is the viewer with no credential.
var Public = Viewer{Seat: -1}

// Game is one game of some ruleset, in memory. It changes only through Apply;
// a rejected move leaves it exactly as it was.
type Game interface {
	// Apply checks a move (JSON) made by actor against the rules and applies
	// it. It returns the move as it will be logged (normalised JSON). Errors
	// are *Error: Invalid for a move that cannot be read, Forbidden when the
	// actor may not make it, IllegalMove when the rules forbid it.
	Apply(actor Actor, move []byte) ([]byte, error)
	// Snapshot encodes the whole state, hidden parts included, for storage.
	Snapshot() ([]byte, error)
	// Phase is a short label of where the game stands ("setup", "crossing", …).
	Phase() string
	// Ended reports whether the game is over.
	Ended() bool
	// Players returns the number of seats.
	Players() int
	// AppendView appends to b the game as viewer may see it (JSON), hiding
	// what is secret. (Appending lets the answer to a move carry the view
	// without a copy.)
	AppendView(b []byte, v Viewer) ([]byte, error)
	// LegalMoves encodes what seat may do now (JSON).
	LegalMoves(seat int) ([]byte, error)
	// Score encodes the scores and ranking as they stand (JSON).
	Score() ([]byte, error)
	// Setup returns what the game was created from, the secret seed included.
	Setup() CreateRequest
	// Events returns what the last accepted move caused, in order, for live
	// clients (the move itself is not among them).
	Events() []Event
}

// Event is something that happened in a game, told to live clients.
type Event struct {
	Type string          `json:"type"`
	For  *int            `json:"for,omitempty"` // private: only this seat (and the host) may see it
	Data json.RawMessage `json:"data"`
}
