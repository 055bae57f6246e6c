package silvergold

import (
	"strconv"
	"sync"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/i18n"
)

// Placement is one way to cross: the boxes of the pattern on one card, or a
// single box. Crosses says how many red crosses it covers: that many extra
// boxes are then owed anywhere on the player's cards.
type Placement struct {
	Card    string `json:"card"`
	Boxes   []Pos  `json:"boxes"`
	Crosses int    `json:"red_crosses"`
	Coins   int    `json:"coins"`
	Palms   int    `json:"palms"`
}

// Legal is what one seat (or, with Seat -1, the table) may do now: enough
// to build any legal move without another read and without knowing the
// rules.
type Legal struct {
	Ruleset string `json:"ruleset"` // "silver-and-gold"
	Seat    int    `json:"seat"`    // -1: the table's reports (physical)
	// Action is what the seat is asked for: "keep", "cross", "take", or
	// "wait" when nothing is asked of it; for the table "reveal", "display"
	// or "wait".
	Action string `json:"action"`
	// Count is how many are owed: 2 cards to keep, the replacement cards
	// still to take, the display cards still to report; 1 for a crossing or
	// a reveal; 0 for wait.
	Count      int         `json:"count"`
	Expedition *Expedition `json:"expedition,omitempty"`
	// Crossed says the seat has crossed this turn already: a new cross
	// replaces Crossing until the last player crosses and the turn resolves.
	Crossed    bool        `json:"crossed"`
	Crossing   *Move       `json:"crossing"`
	Placements []Placement `json:"placements"`   // cross: the pattern on each card, every distinct placement
	Singles    []Placement `json:"single_boxes"` // cross: every box that can be crossed alone
	// Free is, for cross, every uncrossed box of the seat's cards (as before
	// this turn's crossing) with its symbol: what a move's extra may name.
	Free     []FreeCard `json:"free_boxes"`
	Keep     []string   `json:"keep_from"` // keep: the cards to choose 2 of (digital: the 4 dealt; physical: every card no other seat holds)
	TakeFrom []string   `json:"take_from"` // take: the display cards on offer
	Deck     bool       `json:"deck"`      // take: the deck can be drawn from
	// DeckCards (physical) are the cards that may be named as drawn from
	// the deck (take) or turned into the display (display): every card not
	// seen elsewhere.
	DeckCards []string `json:"deck_cards"`
	// RevealFrom (physical, the table) are the expedition cards that may be
	// reported revealed now: those with a copy left face down this round.
	RevealFrom []string `json:"reveal_from"`
	// Moves and Pools are the listing in the table language every ruleset
	// speaks (domain.LegalMove): each move ready to send or completed from
	// parts of a pool.
	Moves []domain.LegalMove `json:"moves"`
	Pools domain.Pools       `json:"pools"`

	mode Mode // the game's, which says how its entries are made
}

// FreeCard is one card's uncrossed boxes.
type FreeCard struct {
	Card  string    `json:"card"`
	Boxes []FreeBox `json:"boxes"`
}

// FreeBox is an uncrossed box and what crossing it does.
type FreeBox struct {
	Box    Pos    `json:"box"`
	Symbol string `json:"symbol"` // "blank", "coin", "palm" or "cross" (a red cross: one more extra box owed)
}

// symbol names what box bit of c shows.
func (c *Card) symbol(bit Mask) string {
	switch {
	case c.Crosses&bit != 0:
		return "cross"
	case c.Coins&bit != 0:
		return "coin"
	case c.Palms&bit != 0:
		return "palm"
	}
	return "blank"
}

// PlacementMask is a placement in the compact form bots use.
type PlacementMask struct {
	Hand  int  // index into the player's hand
	Boxes Mask // the boxes covered
}

// crossBase returns the crossed masks a seat's crossing is checked against:
// the state before this turn's crossing if it has crossed already.
func (g *Game) crossBase(p *Player, i int) Mask {
	if p.Crossed && p.Undo != nil {
		return p.Undo.Crossed[i]
	}
	return p.Hand[i].Crossed
}

// AppendPlacements appends to dst every distinct placement of the revealed
// pattern on the seat's cards, in hand order, and returns it. It allocates
// nothing when dst has room.
func (g *Game) AppendPlacements(dst []PlacementMask, seat int) []PlacementMask {
	pat, ok := g.Current()
	if !ok || g.Phase != PhaseCrossing || seat < 0 || seat >= len(g.Players) {
		return dst
	}
	p := &g.Players[seat]
	for i := range p.Hand {
		free := crossable(&g.cat.Cards[p.Hand[i].Card], g.crossBase(p, i))
		for _, m := range g.cat.derived.placements[p.Hand[i].Card][pat] {
			if m&^free == 0 {
				dst = append(dst, PlacementMask{Hand: i, Boxes: m})
			}
		}
	}
	return dst
}

// LegalMoves lists what seat may do now.
func (g *Game) LegalMoves(seat int) Legal {
	l := g.legalMoves(seat)
	l.entries()
	return l
}

// newLegal is seat's listing when nothing is asked of it.
func (g *Game) newLegal(seat int) Legal {
	return Legal{Ruleset: RulesetName, Seat: seat, Action: "wait", Placements: []Placement{}, Singles: []Placement{},
		Free: []FreeCard{}, Keep: []string{}, TakeFrom: []string{}, DeckCards: []string{}, RevealFrom: []string{},
		mode: g.Mode}
}

// crossing says whether seat is asked to cross now.
func (g *Game) crossing(seat int) bool {
	return seat >= 0 && seat < len(g.Players) && g.Phase == PhaseCrossing && g.crossOpen(seat) == nil
}

// crossHead sets the members of l, seat's listing, that AppendJSON writes
// before its tail (Legal.appendTail) while seat crosses (crossing): all of
// its listing that changes with its crossing.
func (g *Game) crossHead(l *Legal, seat int) {
	pat, _ := g.Current()
	p := &g.Players[seat]
	l.Action, l.Count = MoveCross, 1
	l.Expedition = expeditionOf(pat)
	l.Crossed, l.Crossing = p.Crossed, p.Crossing
}

func (g *Game) legalMoves(seat int) Legal {
	l := g.newLegal(seat)
	if seat == -1 {
		g.tableMoves(&l)
		return l
	}
	if seat < 0 || seat >= len(g.Players) || g.Phase == PhaseEnded {
		return l
	}
	p := &g.Players[seat]
	// Each phase has one action a seat may be asked for; its gate says
	// whether it is open to this seat.
	switch {
	case g.Phase == PhaseSetup && g.keepOpen(seat) == nil:
		l.Action, l.Count = MoveKeep, HandSize
		candidates := p.Dealt // digital: the cards dealt; physical: every card
		if g.Mode == Physical {
			candidates = nil
			for c := range g.cat.Cards {
				candidates = append(candidates, c)
			}
		}
		for _, c := range candidates {
			if g.keepCard(seat, c) == nil {
				l.Keep = append(l.Keep, g.cardID(c))
			}
		}
	case g.crossing(seat):
		g.crossHead(&l, seat)
		// The placements' boxes are pieces of one list (appending to it
		// never changes what a piece holds), not a slice each.
		var pb [64]PlacementMask
		pms := g.AppendPlacements(pb[:0], seat)
		boxes := make([]Pos, 0, len(pms)*len(l.Expedition.Boxes)+MaxRows*MaxCols*len(p.Hand))
		l.Placements = make([]Placement, 0, len(pms))
		for _, pm := range pms {
			var pl Placement
			pl, boxes = g.placementIn(boxes, p.Hand[pm.Hand].Card, pm.Boxes)
			l.Placements = append(l.Placements, pl)
		}
		for i := range p.Hand {
			c := &g.cat.Cards[p.Hand[i].Card]
			free := crossable(c, g.crossBase(p, i))
			var fb [MaxRows * MaxCols]Pos
			fc := FreeCard{Card: c.ID, Boxes: make([]FreeBox, 0, free.Count())}
			for _, b := range free.appendPositions(fb[:0]) {
				bit, _ := b.Bit()
				var pl Placement
				pl, boxes = g.placementIn(boxes, p.Hand[i].Card, bit)
				l.Singles = append(l.Singles, pl)
				fc.Boxes = append(fc.Boxes, FreeBox{Box: b, Symbol: c.symbol(bit)})
			}
			l.Free = append(l.Free, fc)
		}
	case g.takeOwed(seat): // takeOpen, without the refusal it makes for the other seats
		l.Action, l.Count = MoveTake, p.Takes
		for _, c := range g.Display {
			if _, err := g.displayAt(c); err == nil {
				l.TakeFrom = append(l.TakeFrom, g.cardID(c))
			}
		}
		l.Deck = g.deckOpen() == nil
		if g.Mode == Physical && l.Deck {
			l.DeckCards = g.deckCards()
		}
	}
	return l
}

// tableMoves lists the reports a physical game owes now.
func (g *Game) tableMoves(l *Legal) {
	if g.Mode != Physical {
		return
	}
	switch {
	case g.Phase == PhaseReveal && g.revealOpen() == nil:
		l.Action, l.Count = MoveReveal, 1
		for p := Pattern(0); p < NumPatterns; p++ {
			if g.revealable(p) == nil {
				l.RevealFrom = append(l.RevealFrom, p.Code())
			}
		}
	case g.Phase != PhaseReveal && g.displayOpen() == nil:
		l.Action, l.Count = MoveDisplay, g.displayOwed()
		l.DeckCards = g.deckCards()
	}
}

// deckCards returns (physical) the ids of the cards that may be named as
// drawn from the deck or turned into the display.
func (g *Game) deckCards() []string {
	w := g.locate()
	out := []string{}
	for c := range w {
		if g.deckCard(w, c) == nil {
			out = append(out, g.cardID(c))
		}
	}
	return out
}

// placementIn returns the placement of the boxes m on card, its boxes
// appended to boxes, of which they are the last piece, and boxes with them.
func (g *Game) placementIn(boxes []Pos, card int, m Mask) (Placement, []Pos) {
	return cardPlacement(boxes, &g.cat.Cards[card], m)
}

// cardPlacement is placementIn on card c.
func cardPlacement(boxes []Pos, c *Card, m Mask) (Placement, []Pos) {
	start := len(boxes)
	boxes = m.appendPositions(boxes)
	return Placement{Card: c.ID, Boxes: boxes[start:len(boxes):len(boxes)], Crosses: (m & c.Crosses).Count(),
		Coins: (m & c.Coins).Count(), Palms: (m & c.Palms).Count()}, boxes
}

// Expedition describes an expedition pattern for clients.
type Expedition struct {
	Code string `json:"code"`
	Name string `json:"name"` // in English
	// NameMessage is Name as a message, which the API renders in the
	// player's language.
	NameMessage i18n.Message `json:"name_message"`
	Boxes       []Pos        `json:"boxes"`
}

func expedition(p Pattern) *Expedition {
	return &Expedition{Code: p.Code(), Name: p.Name(), NameMessage: p.Message(), Boxes: p.Cells()}
}

// expeditionOf is expedition(p) made once per pattern and shared: every
// move's status event, every reveal and every listing carries one, and no
// one changes it (BenchmarkExpedition measured it; TestExpeditionsPlain holds
// it to expedition).
func expeditionOf(p Pattern) *Expedition { return expeditions()[p] }

var expeditions = sync.OnceValue(func() (e [NumPatterns]*Expedition) {
	for p := range e {
		e[p] = expedition(Pattern(p))
	}
	return e
})

// AppendListingKey appends seat's listing key (domain.ListingKeyed): while
// the seats cross, and in a digital game's setup, what a seat may do
// follows from the phase, the expedition revealed and the seat's own state
// alone, so another seat's crossing or keep leaves its key as it was; a
// seat that only waits (a physical game's reveal, another seat taking its
// replacement cards) lists the same until it is asked for something, so
// another seat's take leaves its key as it was too. In the other phases
// (and for the table, and the seat taking) the listing may read the
// display, the deck or the other seats' cards, and it tells no key: the
// server keys such a listing by the game's version (a count of the moves
// applied would come back after a take-back, with another game behind it).
// TestListingKey holds it after every move of bot games.
func (g *Game) AppendListingKey(b []byte, seat int) []byte {
	own := seat >= 0 && seat < len(g.Players) &&
		(g.Phase == PhaseCrossing || g.Phase == PhaseSetup && g.Mode == Digital || g.Phase == PhaseEnded ||
			g.Phase == PhaseReveal || g.Phase == PhaseResolving && !g.takeOwed(seat))
	if !own {
		return b
	}
	b = append(b, g.Mode...)
	b = append(b, ' ')
	b = append(b, g.Phase...)
	b = strconv.AppendInt(append(b, ' '), int64(g.Round), 10)
	b = strconv.AppendInt(append(b, ' '), int64(g.Turn), 10)
	if pat, ok := g.Current(); ok {
		b = strconv.AppendInt(append(b, ' '), int64(pat), 10)
	}
	return g.Players[seat].appendJSON(append(b, ' '))
}
