package domain

import (
	"encoding/json"

	"github.com/treasury-games/treasury/domain/i18n"
)

// Ruleset is one game's rules as the server sees them: it describes itself,
// creates games and restores them. Everything it hands back is JSON so that
// the layers above never need to know which game they carry. What only some
// games have is an optional capability: Cataloger, CatalogExtender, SheetVerifier.
type Ruleset interface {
	// Name is the ruleset's stable identifier, e.g. "silver-and-gold".
	Name() string
	// Info describes the ruleset for clients: players, modes, options.
	Info() RulesetInfo
	// Create validates a creation request and returns the new game (version
	// 0) and the catalog it was created with. The service has already
	// checked the mode and chosen a digital game's seed and salt; the
	// ruleset checks the players and its options, and keeps the whole
	// request (Game.Setup returns it, options with their defaults).
	Create(req CreateRequest) (Game, CatalogBlob, error)
	// Restore rebuilds a game from a snapshot taken by Game.Snapshot and the
	// catalog the game was created with.
	Restore(state []byte, cat CatalogBlob) (Game, error)
	// Replay rebuilds a game from its creation request and catalog by
	// applying moves (as Logged.Move) in order; it stops at the first move
	// the rules reject and returns the 1-based index of that move with the
	// error (0 when all applied). A digital game's moves may name what the
	// server dealt or rolled; replay checks that the seed deals it.
	Replay(req CreateRequest, cat CatalogBlob, moves []ReplayMove) (Game, int, error)
}

// Cataloger is a Ruleset whose games are played with a catalog of cards that
// clients may read.
type Cataloger interface {
	// CatalogNames lists the catalogs offered for new games.
	CatalogNames() []string
	// CatalogView encodes a catalog offered for new games (JSON, with a
	// "ruleset" member), NotFound when there is none by that name.
	CatalogView(name string) (CatalogInfo, []byte, error)
}

// CatalogExtender is a Ruleset that offers, beside its own catalogs, one an
// operator gives as a file (treasury serve --catalog).
type CatalogExtender interface {
	// WithCatalog returns the ruleset offering also the catalog content holds
	// (replacing an offered one of the same name); content it cannot read is
	// an error.
	WithCatalog(content []byte) (Ruleset, error)
}

// CatalogInfo names a catalog and the hash of its content.
type CatalogInfo struct {
	Name string `json:"name"`
	Hash string `json:"hash"`
}

// SheetVerifier is a Ruleset that checks the paper tally of a physical game.
type SheetVerifier interface {
	// VerifySheet checks a paper score sheet (the ruleset's JSON) and returns
	// the computed scores, ranking and findings (JSON). A sheet that cannot
	// be read is an Invalid error; mistakes on it are findings.
	VerifySheet(sheet []byte) ([]byte, error)
}

// RulesetInfo describes a ruleset for clients choosing what to play.
type RulesetInfo struct {
	Name    string `json:"name"`
	Title   string `json:"title"`
	Summary string `json:"summary"`
	// SummaryMessage is Summary as a message (the API renders Summary in
	// the client's language); set with Summarized.
	SummaryMessage *i18n.Message `json:"summary_message,omitempty"`
	MinPlayers     int           `json:"min_players"`
	MaxPlayers     int           `json:"max_players"`
	Modes          []string      `json:"modes"`
	// Options are what a game of this ruleset may be created with, beside
	// the mode, the players and the seed.
	Options []Option `json:"options"`
}

// Summarized returns info with its summary from the message m.
func (info RulesetInfo) Summarized(m i18n.Message) RulesetInfo {
	info.Summary, info.SummaryMessage = i18n.Text(m), &m
	return info
}

// Described returns o with its description from the message m.
func (o Option) Described(m i18n.Message) Option {
	o.Description, o.DescriptionMessage = i18n.Text(m), &m
	return o
}

// Option is one setting a game is created with. Type is "integer", "string"
// or "boolean"; an integer has Minimum and Maximum, a string may have Enum.
// Variants are a string option named "variant".
type Option struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Description string `json:"description"`
	// DescriptionMessage is Description as a message; set with Described.
	DescriptionMessage *i18n.Message   `json:"description_message,omitempty"`
	Default            json.RawMessage `json:"default"`
	Enum               []string        `json:"enum,omitempty"`
	Minimum            *int            `json:"minimum,omitempty"`
	Maximum            *int            `json:"maximum,omitempty"`
	// Seat, for an integer option, says it names a seat (such as the start
	// player): its maximum is then the number of players less one.
	Seat bool `json:"seat,omitempty"`
}

// CreateRequest is what a game is created from.
type CreateRequest struct {
	Mode    string   // "digital" or "physical"
	Players []string // names, in seat order
	Seed    string   // digital only; the service picks one when empty
	// Salt is mixed into the seed's commitment so that a seed cannot be
	// found from it by guessing (digital games created since salts exist;
	// empty in older games, whose commitment is the seed's plain hash).
	Salt    string
	Catalog string // catalog name; empty = the ruleset's standard catalog
	// Options are the ruleset's options as a JSON object; nil or {} takes
	// every default. Game.Setup returns them with every default filled in.
	Options json.RawMessage
}

// The two modes every ruleset is played in.
const (
	Digital  = "digital"  // the server shuffles, deals and rolls from a secret seed
	Physical = "physical" // the cards are real; the table reports what it revealed
)

// ReplayMove is a move to replay with the actor that made it.
type ReplayMove struct {
	Actor Actor
	Move  []byte
}

// Viewer says who is looking at a game: the public, the host, or one seat.
type Viewer struct {
	Host bool
	Seat int // -1 for the public and the host; a seat sees its own private information
}

// Public is the viewer with no credential.
var Public = Viewer{Seat: -1}

// HostViewer is the viewer holding the host credential.
var HostViewer = Viewer{Host: true, Seat: -1}

// SeatViewer is the viewer holding seat's credential.
func SeatViewer(seat int) Viewer { return Viewer{Seat: seat} }

// Game is one game of some ruleset, in memory. It changes only through Apply;
// a rejected move leaves it exactly as it was.
//
// The table's concepts every game tells in the same words are capabilities
// the server reads through one place each, so that what every game needs
// (take-backs, a clock, a seat the server plays) is written once:
//   - Tabled: who must act now and on what, the seat on turn and the turn
//     counter. Every ruleset of this server has it (the conformance suite
//     requires it); the server reads it through StatusOf only, which tells a
//     game without it as awaiting nobody at turn 0.
//   - Automatic: moves the server makes itself (SystemActor), read through
//     DueMove only.
type Game interface {
	// Apply checks a move (JSON) made by actor against the rules and applies
	// it, returning the move as it is logged. Errors are *Error: Invalid for
	// a move that cannot be read, Forbidden when the actor may not make it,
	// IllegalMove when the rules forbid it. An error's reason is read by the
	// actor only and may show what the actor may see, nothing more.
	Apply(actor Actor, move []byte) (Logged, error)
	// Snapshot encodes the whole state, hidden parts included, for storage.
	Snapshot() ([]byte, error)
	// Phase is a short label of where the game stands ("setup", "crossing", …).
	Phase() string
	// Ended reports whether the game is over.
	Ended() bool
	// Players returns the number of seats.
	Players() int
	// AppendView appends to b the game as viewer may see it (a JSON object
	// with a "ruleset" member), hiding what is secret from that viewer now.
	// (Appending lets the answer to a move carry the view without a copy.)
	AppendView(b []byte, v Viewer) ([]byte, error)
	// LegalMoves encodes what seat may do now, as viewer v may know it (JSON
	// with a "ruleset" member). Seat -1 asks for the table's reports in a
	// physical game (the host's moves). It must suffice on its own: a client
	// that knows no rule builds any legal move from it (every choice with
	// what it may name, what is owed and how many), without reading the game.
	// The API adds the game's "version".
	LegalMoves(v Viewer, seat int) ([]byte, error)
	// Score encodes the scores and ranking as they stand (JSON with a
	// "ruleset" member). Anyone may read it: it holds nothing secret.
	Score() ([]byte, error)
	// Setup returns what the game was created from, the secret seed included,
	// its options with every default filled in.
	Setup() CreateRequest
	// Events returns what the last accepted move caused, in order, for live
	// clients and the log (the move itself is not among them). A table view
	// that starts from a snapshot must be able to follow the game from the
	// events alone (Silver & Gold ends each move's events with a "status");
	// each event's data has a schema in openapi.yaml (EventStream x-events).
	Events() []Event
}

// Cloner is a Game that copies itself without encoding its state: Clone
// returns a game equal to the one Restore makes of its Snapshot (the same
// snapshot, views, listings and answers to every move), sharing no memory
// that either of them changes. The service reads copies of a game's stored
// versions while its next moves are applied (the listings a table's streams
// read after every move); a copy spares decoding the snapshot (issue 27).
// The conformance suite holds Clone to Restore after every move.
type Cloner interface {
	Clone() Game
}

// Logged is an accepted move as the log keeps it. Move is the move in full,
// as replay applies it. A move that shows something others may not see yet
// (a simultaneous choice, a card drawn) has a Public form for every viewer
// outside its audience, until the game ends.
type Logged struct {
	Move   []byte
	Public []byte // nil: the move hides nothing
	// For is the seat that may read Move while the game runs (with Public
	// set), and the host unless NotHost. -1 is no seat: with NotHost,
	// nobody reads Move until the game ends.
	For     int
	NotHost bool
}

// Event is something that happened in a game, told to live clients and kept
// in the log with the move that caused it.
type Event struct {
	Type string `json:"type"`
	// For makes the event private: only this seat, and the host unless
	// NotHost, may read it while the game runs.
	For     *int `json:"for,omitempty"`
	NotHost bool `json:"not_host,omitempty"`
	// Live events are told only to clients following the game as it
	// happens: a later read of the log leaves them out while the game runs
	// (a card shown and turned face down again is face down for everyone).
	Live bool            `json:"live,omitempty"`
	Data json.RawMessage `json:"data"`
}

// MoveTyper is a Ruleset that names its move types (the "type" of every
// move it takes). Move types are unique across the server's rulesets, so a
// move sent to a game of another ruleset is told as such.
type MoveTyper interface {
	MoveTypes() []string
}
