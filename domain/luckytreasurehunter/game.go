// Package luckytreasurehunter is Lucky Treasure Hunter: a push-your-luck dice
// and set-collection game for 2 to 6 players with hidden hands. Players place
// treasure cards into the middle, then try to steal a face-up set by rolling
// as many dice as it has cards, all of which must show the pirate. It imports
// only the standard library and the domain package.
package luckytreasurehunter

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/names"
)

// Mode says who handles the cards and dice.
type Mode string

// The two modes of play.
const (
	Digital  Mode = "digital"  // the server deals and rolls from a secret seed
	Physical Mode = "physical" // the cards and dice are real; the table reports what it reveals
)

// Phase is the step the game waits for.
type Phase string

// The phases of a game.
const (
	PhaseSetup  Phase = "setup"  // physical: the table reports the 3 cards turned into the middle
	PhasePlace  Phase = "place"  // the seat on turn places 1-5 cards of one type
	PhaseSteal  Phase = "steal"  // the seat on turn names a set to steal
	PhaseRoll   Phase = "roll"   // physical: the table reports the dice rolled
	PhaseDecide Phase = "decide" // a roll failed: the seat re-rolls, turns its captain or stops
	PhaseEnded  Phase = "ended"
)

// Game limits from the rules.
const (
	MinPlayers         = 2
	MaxPlayers         = 6
	HandSize           = 5
	MiddleAtStart      = 3
	MaxNameLength      = domain.MaxNameLength
	DefaultPirateFaces = 3
	Middle             = -1 // the owner of a set in the middle
)

// Player is one seat's state.
type Player struct {
	Name string `json:"name"`
	// Hand is the seat's cards by type (digital; a physical game's hands are
	// never reported and stay zero).
	Hand        Counts `json:"hand"`
	HandSize    int    `json:"hand_size"`
	Sets        []Set  `json:"sets"`
	CaptainUsed bool   `json:"captain_used"`
}

// Steal is the steal under way.
type Steal struct {
	Owner    int      `json:"owner"` // a seat, or Middle
	Set      int      `json:"set"`   // index of the set in its owner's sets
	Treasure Treasure `json:"treasure"`
	Size     int      `json:"size"`
	Pirates  int      `json:"pirates"` // dice showing the pirate
	Failed   int      `json:"failed"`  // dice showing a blank
	Pending  int      `json:"pending"` // physical: dice the table must report now
	Rerolls  int      `json:"rerolls"` // hand cards discarded for re-rolls
	Captain  bool     `json:"captain"` // the captain was turned during this steal
}

// Game is the whole state of one game. It changes only through Play.
type Game struct {
	events []event
	drawn  []drawEvent // cards drawn during the move being applied (digital)
	faces  [][]bool    // dice rolled during the move being applied

	Mode        Mode       `json:"mode"`
	Seed        string     `json:"seed,omitempty"`
	Salt        string     `json:"salt,omitempty"`
	PirateFaces int        `json:"pirate_faces"`
	Heart       int        `json:"captain_heart"`
	Phase       Phase      `json:"phase"`
	Turn        int        `json:"turn"`  // the seat on turn
	Turns       int        `json:"turns"` // turns begun
	Players     []Player   `json:"players"`
	Pile        []Treasure `json:"pile"` // digital: face down, top first
	Middle      []Set      `json:"middle"`
	Discard     Counts     `json:"discard"`
	LastRound   bool       `json:"last_round"` // the last card has been drawn
	Steal       *Steal     `json:"steal"`
	Rolls       int        `json:"rolls"` // rolls made (digital: numbers the dice streams)
	Moves       int        `json:"moves"`
}

// Setup is what a game is created from.
type Setup struct {
	Mode         Mode
	Players      []string
	Seed         string // digital only
	Salt         string // digital: the seed commitment's salt
	PirateFaces  int    // 1..5; 0 = the default
	CaptainHeart int    // the seat playing Captain Heart
}

// New creates a game. A digital game needs a seed.
func New(s Setup) (*Game, error) {
	if s.Mode != Digital && s.Mode != Physical {
		return nil, domain.Fail(domain.Invalid, "lth.invalid.mode", "given", strconv.Quote(string(s.Mode)))
	}
	if err := domain.CheckSetup("Lucky Treasure Hunter", string(s.Mode), s.Players, s.Seed, MinPlayers, MaxPlayers); err != nil {
		return nil, err
	}
	if err := names.Check(s.Players); err != nil {
		return nil, err
	}
	n := len(s.Players)
	if s.PirateFaces == 0 {
		s.PirateFaces = DefaultPirateFaces
	}
	if s.PirateFaces < 1 || s.PirateFaces > 5 {
		return nil, domain.Fail(domain.Invalid, "lth.invalid.pirate-faces", "given", s.PirateFaces)
	}
	if s.CaptainHeart < 0 || s.CaptainHeart >= n {
		return nil, domain.Fail(domain.Invalid, "lth.invalid.captain-heart", "last", n-1, "players", n, "given", s.CaptainHeart)
	}
	g := &Game{
		Mode: s.Mode, Seed: s.Seed, Salt: s.Salt, PirateFaces: s.PirateFaces, Heart: s.CaptainHeart,
		Phase: PhaseSetup, Turn: s.CaptainHeart, Pile: []Treasure{}, Middle: []Set{},
	}
	for _, name := range s.Players {
		g.Players = append(g.Players, Player{Name: strings.TrimSpace(name), HandSize: HandSize, Sets: []Set{}})
	}
	if s.Mode == Digital {
		pile := shuffledPile(s.Seed, Deck(n))
		for i := range g.Players {
			for _, t := range pile[:HandSize] {
				g.Players[i].Hand[t]++
			}
			pile = pile[HandSize:]
		}
		for _, t := range pile[:MiddleAtStart] {
			g.Middle = combine(g.Middle, t, 1)
		}
		g.Pile = pile[MiddleAtStart:]
		g.startTurn(g.Heart)
		g.events = g.events[:0]
	}
	return g, nil
}

// NumPlayers returns the number of seats.
func (g *Game) NumPlayers() int { return len(g.Players) }

// Unseen returns, by type, the cards nobody has seen face up: the draw pile
// and every hand. Only these can be placed, discarded or drawn.
func (g *Game) Unseen() Counts {
	u := Deck(len(g.Players))
	for t := range u {
		u[t] -= g.Discard[t]
	}
	for _, s := range g.Middle {
		u[s.Treasure] -= s.Size
	}
	for i := range g.Players {
		for _, s := range g.Players[i].Sets {
			u[s.Treasure] -= s.Size
		}
	}
	return u
}

// PileSize is the number of cards in the draw pile.
func (g *Game) PileSize() int {
	if g.Mode == Digital {
		return len(g.Pile)
	}
	u := g.Unseen()
	n := u.Total()
	for i := range g.Players {
		n -= g.Players[i].HandSize
	}
	return n
}

// Collected is the number of treasure cards in a seat's sets.
func (p *Player) Collected() int {
	n := 0
	for _, s := range p.Sets {
		n += s.Size
	}
	return n
}

// hasTarget reports whether seat can name any set: one in the middle or in
// front of another player.
func (g *Game) hasTarget(seat int) bool {
	if len(g.Middle) > 0 {
		return true
	}
	for i := range g.Players {
		if i != seat && len(g.Players[i].Sets) > 0 {
			return true
		}
	}
	return false
}

// startTurn begins seat's turn: the place step, skipped with an empty hand.
func (g *Game) startTurn(seat int) {
	g.Turn = seat
	g.Turns++
	g.emit("turn_started", turnEvent{Seat: seat, Turn: g.Turns})
	if g.Players[seat].HandSize == 0 {
		g.emit("place_skipped", seatEvent{Seat: seat})
		g.stealStep()
		return
	}
	g.Phase = PhasePlace
}

// stealStep opens the steal step, skipped when there is no set to name.
func (g *Game) stealStep() {
	if !g.hasTarget(g.Turn) {
		g.emit("steal_skipped", seatEvent{Seat: g.Turn})
		g.endTurn()
		return
	}
	g.Phase = PhaseSteal
}

// endTurn draws the seat on turn back up to 5 and passes the turn, or ends
// the game when the round after the last draw comes back to Captain Heart.
func (g *Game) endTurn() {
	g.Steal = nil
	g.draw(g.Turn)
	next := (g.Turn + 1) % len(g.Players)
	if g.LastRound && next == g.Heart {
		g.Phase = PhaseEnded
		g.emit("game_ended", g.Score())
		return
	}
	g.startTurn(next)
}

// draw tops seat's hand up to 5 from the pile.
func (g *Game) draw(seat int) {
	p := &g.Players[seat]
	n := min(HandSize-p.HandSize, g.PileSize())
	if n <= 0 {
		return
	}
	if g.Mode == Digital {
		cards := append([]Treasure(nil), g.Pile[:n]...)
		g.Pile = g.Pile[n:]
		for _, t := range cards {
			p.Hand[t]++
		}
		g.drawn = append(g.drawn, drawEvent{Seat: seat, Cards: cards})
		s := seat
		g.emitFor("cards_drawn", drawEvent{Seat: seat, Cards: cards}, &s)
	}
	p.HandSize += n
	left := g.PileSize()
	g.emit("drew", drewEvent{Seat: seat, Count: n, Pile: left})
	if left == 0 && !g.LastRound {
		g.LastRound = true
		g.emit("pile_empty", lastRoundEvent{Seat: seat, EndsBefore: g.Heart})
	}
}

// event is an Event before it is encoded.
type event struct {
	typ  string
	for_ *int
	data any
}

func (g *Game) emit(typ string, data any) { g.events = append(g.events, event{typ: typ, data: data}) }

func (g *Game) emitFor(typ string, data any, seat *int) {
	g.events = append(g.events, event{typ: typ, for_: seat, data: data})
}

// Events returns what the last accepted move caused, in order. The cards a
// seat drew are private to that seat (not the host).
func (g *Game) Events() []domain.Event {
	out := make([]domain.Event, 0, len(g.events))
	for _, e := range g.events {
		b, _ := json.Marshal(e.data) // plain structs of plain values
		de := domain.Event{Type: e.typ, Data: b}
		if e.for_ != nil {
			de.For, de.NotHost = e.for_, true
		}
		out = append(out, de)
	}
	return out
}

type seatEvent struct {
	Seat int `json:"seat"`
}

type turnEvent struct {
	Seat int `json:"seat"`
	Turn int `json:"turn"`
}

type drawEvent struct {
	Seat  int        `json:"seat"`
	Cards []Treasure `json:"cards"`
}

type drewEvent struct {
	Seat  int `json:"seat"`
	Count int `json:"count"`
	Pile  int `json:"pile"`
}

type lastRoundEvent struct {
	Seat       int `json:"seat"`        // who drew the last card
	EndsBefore int `json:"ends_before"` // the game ends when this seat's turn would come
}

type placedEvent struct {
	Seat     int      `json:"seat"`
	Treasure Treasure `json:"treasure"`
	Count    int      `json:"count"`
	Middle   []Set    `json:"middle"`
}

type stealEvent struct {
	Seat     int      `json:"seat"`
	Owner    *int     `json:"owner"`
	Set      int      `json:"set"`
	Treasure Treasure `json:"treasure"`
	Size     int      `json:"size"`
}

type rollEvent struct {
	Seat    int      `json:"seat"`
	Faces   []string `json:"faces"`
	Pirates int      `json:"pirates"` // dice showing the pirate now, of the set's size
	Failed  int      `json:"failed"`
}

type discardEvent struct {
	Seat     int      `json:"seat"`
	Treasure Treasure `json:"treasure"`
	Count    int      `json:"count"`
}

type stolenEvent struct {
	Seat     int      `json:"seat"`
	Owner    *int     `json:"owner"`
	Treasure Treasure `json:"treasure"`
	Size     int      `json:"size"`
	Sets     []Set    `json:"sets"` // the thief's sets after combining
}

// Clone returns a copy of g sharing no memory that either changes: the game
// Restore makes of g's snapshot, without the JSON.
func (g *Game) Clone() *Game {
	c := *g
	c.events, c.drawn, c.faces = nil, nil, nil
	c.Players = slices.Clone(g.Players)
	for i := range c.Players {
		c.Players[i].Sets = slices.Clone(c.Players[i].Sets)
	}
	c.Pile, c.Middle = slices.Clone(g.Pile), slices.Clone(g.Middle)
	if c.Pile == nil {
		c.Pile = []Treasure{} // as Restore has it
	}
	if g.Steal != nil {
		s := *g.Steal
		c.Steal = &s
	}
	return &c
}

// Restore decodes a snapshot taken with Snapshot.
func Restore(state []byte) (*Game, error) {
	g := &Game{}
	if err := json.Unmarshal(state, g); err != nil {
		return nil, fmt.Errorf("luckytreasurehunter: decode snapshot: %w", err)
	}
	if g.Pile == nil {
		g.Pile = []Treasure{}
	}
	return g, nil
}
