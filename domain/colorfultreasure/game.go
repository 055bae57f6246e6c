// Package colorfultreasure is the rules of Colorful Treasure: a memory and
// set-collection game for 2 to 4 players on a grid of face-down wonder cards,
// with its junior and advanced variants. It imports only the standard library
// and the domain package.
package colorfultreasure

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/names"
)

// Mode says who handles the cards.
type Mode string

// The two modes of play.
const (
	Digital  Mode = "digital"  // the server shuffles the grid from a seed and turns the cards
	Physical Mode = "physical" // the cards are real; the seat reports what each revealed card shows
)

// Variant is the set of rules a game is played with.
type Variant string

// The variants.
const (
	VariantStandard Variant = "standard"
	VariantJunior   Variant = "junior"   // no keys, chests, tokens or awards; reveal exactly 2; ends with the grid empty
	VariantAdvanced Variant = "advanced" // the five action tokens; diamond token 3 VP, six gems 23 VP
)

// Phase is where the turn stands.
type Phase string

// The phases of a turn.
const (
	PhaseReveal Phase = "reveal" // the seat on turn reveals the first two cards
	PhaseChoose Phase = "choose" // it may reveal one more card, then collects
	PhaseRob    Phase = "rob"    // a key and a chest token were paired: it steals
	PhaseClaim  Phase = "claim"  // advanced: it may take an action token, then ends its turn
	PhaseEnded  Phase = "ended"
	phaseFinish Phase = "finish" // internal: where thefts return after a collect
)

// Limits from the rules.
const (
	MinPlayers    = 2
	MaxPlayers    = 4
	MaxNameLength = domain.MaxNameLength
	NumTokens     = 5  // action tokens (advanced)
	EndThreshold  = 10 // the last round starts when this many cards or fewer are left
	none          = -1 // no seat
	spent         = -2 // an action token used or discarded
)

// Cell states in the grid.
const (
	CellDown uint8 = iota // a face-down card
	CellUp                // a card revealed this turn
	CellGone              // an empty place: the card was taken
)

// unknown is a physical cell's kind before the table reports it.
const unknown int8 = -1

// Cell is one place in the grid.
type Cell struct {
	Kind  int8  `json:"k"` // the card's kind; unknown in a physical game until reported
	State uint8 `json:"s"` // down, up (revealed this turn) or gone (taken)
}

// Player is one seat's state.
type Player struct {
	Name          string `json:"name"`
	Cards         []Card `json:"cards"`          // collected, in the order taken
	DiamondTokens []int  `json:"diamond_tokens"` // by column
	KeyTokens     int    `json:"key_tokens"`
	ChestTokens   int    `json:"chest_tokens"`
	Actions       []int  `json:"actions"` // action tokens held (0..4), unused one-time ones and permanent ones
	// Claimed marks a gem colour whose third card earned an action token;
	// it clears when theft takes the colour below three.
	Claimed [NumColours]bool `json:"claimed"`
	Turns   int              `json:"turns"`
}

// Game is the whole state of one game of Colorful Treasure. It changes only
// through Play; everything in it follows from the setup and the moves.
type Game struct {
	cat    *Catalog
	events []event

	Mode    Mode              `json:"mode"`
	Catalog string            `json:"catalog"`
	Hash    string            `json:"catalog_hash"`
	Seed    string            `json:"seed,omitempty"`
	Salt    string            `json:"salt,omitempty"`
	Variant Variant           `json:"variant"`
	Sides   [NumTokens]string `json:"sides"` // "a" or "b" per action token
	Start   int               `json:"start_player"`
	Players []Player          `json:"players"`

	Grid          [NumWonders][]Cell `json:"grid"`           // by column, top row first
	DiamondTokens [NumWonders]bool   `json:"diamond_tokens"` // still above the column
	LockTokens    [NumWonders]bool   `json:"lock_tokens"`    // key or chest token still below the column
	Actions       [NumTokens]int     `json:"actions"`        // -1 on offer, a seat holding it, -2 spent
	Colorful      int                `json:"colorful"`       // seat holding the Colorful Gems award, or -1
	Explorer      int                `json:"explorer"`       // seat holding the Explorer award, or -1

	Phase     Phase `json:"phase"`
	Turn      int   `json:"turn"`  // the seat on turn
	Round     int   `json:"round"` // 1-based
	LastRound bool  `json:"last_round"`
	Revealed  []Pos `json:"revealed"` // this turn, in order
	Fourth    bool  `json:"fourth"`   // the fourth-card token was used this turn
	TwoTypes  bool  `json:"two_types"`
	Claimed   bool  `json:"claimed_this_turn"`
	Thefts    int   `json:"thefts"` // thefts owed now
	Resume    Phase `json:"resume"` // where the turn goes on after the thefts
	Moves     int   `json:"moves"`
}

// Setup is what a game is created from.
type Setup struct {
	Mode    Mode
	Players []string
	Seed    string
	Salt    string
	Variant Variant
	Start   int
	Sides   [NumTokens]string
}

// Junior reports whether the game is the junior variant.
func (g *Game) Junior() bool { return g.Variant == VariantJunior }

// Rows returns the height of the grid: 5, or 4 in junior.
func (g *Game) Rows() int {
	if g.Junior() {
		return CardsPerWonder - 1
	}
	return CardsPerWonder
}

// CatalogData returns the catalog the game was created with.
func (g *Game) CatalogData() *Catalog { return g.cat }

// New creates a game with catalog cat. A digital game needs a seed; a
// physical one has none.
func New(cat *Catalog, s Setup) (*Game, error) {
	if s.Mode != Digital && s.Mode != Physical {
		return nil, domain.Fail(domain.Invalid, "ct.invalid.mode", "mode", string(s.Mode))
	}
	if err := domain.CheckSetup("Colorful Treasure", string(s.Mode), s.Players, s.Seed, MinPlayers, MaxPlayers); err != nil {
		return nil, err
	}
	if err := names.Check(s.Players); err != nil {
		return nil, err
	}
	switch s.Variant {
	case "":
		s.Variant = VariantStandard
	case VariantStandard, VariantJunior, VariantAdvanced:
	default:
		return nil, domain.Fail(domain.Invalid, "ct.invalid.variant", "variant", string(s.Variant))
	}
	if s.Start < 0 || s.Start >= len(s.Players) {
		return nil, domain.Fail(domain.Invalid, "ct.invalid.start-player", "last", len(s.Players)-1, "seat", s.Start)
	}
	for i, side := range s.Sides {
		switch side {
		case "":
			s.Sides[i] = "a"
		case "a", "b":
		default:
			return nil, domain.Fail(domain.Invalid, "ct.invalid.token-side", "token", i+1, "side", side)

		}
	}
	g := &Game{
		cat: cat, Mode: s.Mode, Catalog: cat.Name, Hash: cat.Hash, Seed: s.Seed, Salt: s.Salt,
		Variant: s.Variant, Sides: s.Sides, Start: s.Start, Colorful: none, Explorer: none,
		Phase: PhaseReveal, Turn: s.Start, Round: 1, Revealed: []Pos{},
	}
	for _, name := range s.Players {
		g.Players = append(g.Players, Player{Name: strings.TrimSpace(name), Cards: []Card{}, DiamondTokens: []int{}, Actions: []int{}})
	}
	for i := range g.Actions {
		g.Actions[i] = spent
		if g.Variant == VariantAdvanced {
			g.Actions[i] = none
		}
	}
	for c := range cat.Wonders {
		kinds := cat.Wonders[c].Cards(g.Junior())
		if s.Mode == Digital {
			shuffle(s.Seed, fmt.Sprintf("column/%d", c), kinds)
		}
		col := make([]Cell, len(kinds))
		for r, k := range kinds {
			col[r] = Cell{Kind: int8(k)}
			if s.Mode == Physical {
				col[r].Kind = unknown
			}
		}
		g.Grid[c] = col
		g.DiamondTokens[c] = true
		g.LockTokens[c] = !g.Junior()
	}
	return g, nil
}

// Left returns how many cards are still in the grid.
func (g *Game) Left() int {
	n := 0
	for c := range g.Grid {
		for _, cell := range g.Grid[c] {
			if cell.State != CellGone {
				n++
			}
		}
	}
	return n
}

// cell returns the cell at p, nil when p is off the grid.
func (g *Game) cell(p Pos) *Cell {
	if p.Column < 0 || p.Column >= NumWonders || p.Row < 0 || p.Row >= len(g.Grid[p.Column]) {
		return nil
	}
	return &g.Grid[p.Column][p.Row]
}

// wonder returns the id of column c.
func (g *Game) wonder(c int) string { return g.cat.Wonders[c].ID }

// ref names card c for the API.
func (g *Game) ref(c Card) CardRef { return CardRef{Wonder: g.wonder(c.Wonder), Kind: c.Kind} }

// holds returns the index of card c among p's cards, or -1.
func (p *Player) holds(c Card) int {
	for i, h := range p.Cards {
		if h == c {
			return i
		}
	}
	return -1
}

// gems returns how many gem cards of each colour p holds.
func (p *Player) gems() [NumColours]int {
	var n [NumColours]int
	for _, c := range p.Cards {
		if c.Kind.IsGem() {
			n[c.Kind.colourIndex()]++
		}
	}
	return n
}

// locks returns how many key and chest cards p holds.
func (p *Player) locks() int {
	n := 0
	for _, c := range p.Cards {
		if c.Kind.IsLock() {
			n++
		}
	}
	return n
}

// wonders returns how many different wonders p holds cards of.
func (p *Player) wonders() int {
	var seen [NumWonders]bool
	n := 0
	for _, c := range p.Cards {
		if !seen[c.Wonder] {
			seen[c.Wonder] = true
			n++
		}
	}
	return n
}

// event is an Event before it is encoded: encoding waits until someone asks.
type event struct {
	typ     string
	data    any
	forSeat int // -1: everyone
	notHost bool
	live    bool
}

func (g *Game) emit(typ string, data any) {
	g.events = append(g.events, event{typ: typ, data: data, forSeat: none})
}

// Events returns what the last accepted move caused, in order.
func (g *Game) Events() []domain.Event {
	out := make([]domain.Event, 0, len(g.events))
	for _, e := range g.events {
		b, _ := json.Marshal(e.data) // plain structs of plain values
		de := domain.Event{Type: e.typ, Data: b, NotHost: e.notHost, Live: e.live}
		if e.forSeat != none {
			s := e.forSeat
			de.For = &s
		}
		out = append(out, de)
	}
	return out
}

// Restore decodes a snapshot taken with Snapshot for a game created with cat.
func Restore(cat *Catalog, state []byte) (*Game, error) {
	g := &Game{}
	if err := json.Unmarshal(state, g); err != nil {
		return nil, fmt.Errorf("colorfultreasure: decode snapshot: %w", err)
	}
	if g.Hash != cat.Hash {
		return nil, fmt.Errorf("colorfultreasure: snapshot of catalog %s restored with catalog %s", g.Hash, cat.Hash)
	}
	g.cat = cat
	if g.Mode == Physical {
		// Snapshots taken before the server forgot face-down reports kept
		// them; a face-down physical card is unknown.
		for c := range g.Grid {
			for r := range g.Grid[c] {
				if g.Grid[c][r].State == CellDown {
					g.Grid[c][r].Kind = unknown
				}
			}
		}
	}
	return g, nil
}

// Clone returns a deep copy of g (the bot's look-ahead and the tests use it).
func (g *Game) Clone() *Game {
	c := *g
	c.events = nil
	c.Players = make([]Player, len(g.Players))
	for i, p := range g.Players {
		p.Cards = append([]Card{}, p.Cards...)
		p.DiamondTokens = append([]int{}, p.DiamondTokens...)
		p.Actions = append([]int{}, p.Actions...)
		c.Players[i] = p
	}
	for i := range g.Grid {
		c.Grid[i] = append([]Cell(nil), g.Grid[i]...)
	}
	c.Revealed = append([]Pos{}, g.Revealed...)
	return &c
}
