package silvergold

import (
	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/i18n"
)

// The rules of what may be done, each written once. Play applies a move only
// when these accept it, and LegalMoves lists what they accept: it asks the
// gates whether an action is open to a seat, and enumerates candidates (cards,
// boxes, patterns) keeping those the item rules accept. Each returns nil, or
// the refusal a player reads; the gates allocate nothing when they accept.
// The conformance suite holds the two paths together from outside.

// keepOpen says whether seat may keep (or replace its keep) now.
func (g *Game) keepOpen(seat int) error {
	p := &g.Players[seat]
	switch {
	case g.Phase != PhaseSetup:
		return domain.Refuse("keep-in-setup", "sg.refuse.keep-after-setup", "round", g.Round)
	case g.Mode == Physical && g.allKept():
		return domain.Refuse("keep-in-setup", "sg.refuse.all-kept")
	case p.Kept && p.Changes >= MaxChanges:
		return changeLimit(seat, i18n.M("sg.term.keep"))
	}
	return nil
}

// keepCard says whether seat may keep card c: in a digital game one of the
// cards dealt to it, in a physical one a card no other seat holds.
func (g *Game) keepCard(seat, c int) error {
	p := &g.Players[seat]
	if g.Mode == Digital {
		if !containsInt(p.Dealt, c) {
			return domain.Refuse("keep-dealt", "sg.refuse.keep-dealt", "card", g.cardID(c), "seat", seat, "dealt", g.idList(p.Dealt))
		}
		return nil
	}
	for i := range g.Players {
		if other := &g.Players[i]; i != seat && g.inHand(other, c) {
			return domain.Refuse("card-in-play", "sg.refuse.kept-by-other", "card", g.cardID(c), "seat", i, "name", other.Name)
		}
	}
	return nil
}

// crossOpen says whether seat may cross (or replace this turn's crossing) now.
func (g *Game) crossOpen(seat int) error {
	p := &g.Players[seat]
	switch {
	case g.Phase == PhaseResolving && p.Crossed:
		return domain.Refuse("crossing-locked", "sg.refuse.own-crossing-locked", "waiting", g.waitingFor())
	case g.Phase == PhaseResolving:
		return domain.Refuse("crossing-locked", "sg.refuse.crossing-locked", "waiting", g.waitingFor())
	case g.Phase == PhaseReveal:
		return domain.Refuse("cross-in-action-2", "sg.refuse.cross-before-reveal")
	case g.Phase == PhaseSetup:
		return domain.Refuse("cross-in-action-2", "sg.refuse.cross-in-setup", "waiting", g.waitingFor())
	case g.Phase != PhaseCrossing:
		return domain.Refuse("game-ended", "sg.refuse.game-ended", "round", Rounds)
	case p.Passed:
		return domain.Refuse("pass", "sg.refuse.passes", "seat", seat)
	case p.Crossed && p.Changes >= MaxChanges:
		return changeLimit(seat, i18n.M("sg.term.crossing"))
	}
	return nil
}

// crossable is the boxes of card c that may be crossed when crossed are:
// every box of the card not crossed yet. The listing's placements, single
// boxes and free boxes are read from it, and boxRule judges a named box by it.
func crossable(c *Card, crossed Mask) Mask { return c.Boxes &^ crossed }

// boxRule returns the bit of box b on card c if it can be crossed (it is in
// crossable), or the refusal saying why not.
func boxRule(c *Card, crossed Mask, b Pos) (Mask, error) {
	bit, ok := b.Bit()
	if ok && b.Row < c.Rows && b.Col < c.Cols && crossable(c, crossed)&bit != 0 {
		return bit, nil
	}
	switch {
	case !ok || b.Row >= c.Rows || b.Col >= c.Cols:
		return 0, domain.Refuse("box-on-card", "sg.refuse.box-off-card", "box", b.String(), "card", c.ID, "rows", c.Rows, "cols", c.Cols)
	case c.Boxes&bit == 0:
		return 0, domain.Refuse("box-on-card", "sg.refuse.no-box", "card", c.ID, "box", b.String())
	}
	return 0, domain.Refuse("box-once", "sg.refuse.box-crossed", "box", b.String(), "card", c.ID)
}

// shapeRule says whether the boxes set (named as boxes) may be crossed
// together under pattern pat: a single box, or the pattern in some
// orientation. The listing's placements are the catalog's placements of the
// pattern (Catalog.Placements, made from the orientations Matches reads)
// whose boxes are all crossable.
func shapeRule(pat Pattern, set Mask, boxes []Pos) error {
	switch {
	case len(boxes) == 1:
		return nil
	case len(boxes) != pat.Size():
		return domain.Refuse("pattern-shape", "sg.refuse.pattern-size", "pattern", pat.Message(), "code", pat.Code(), "size", pat.Size(), "count", len(boxes))
	case !pat.Matches(set):
		return domain.Refuse("pattern-shape", "sg.refuse.pattern-shape", "boxes", posList(boxes), "pattern", pat.Message(), "code", pat.Code())
	}
	return nil
}

// takeOwed says whether seat is to take replacement cards now.
func (g *Game) takeOwed(seat int) bool {
	return g.Phase == PhaseResolving && g.Resolving == seat && g.Players[seat].Takes != 0
}

// takeOpen says whether seat may take a replacement card now (takeOwed).
func (g *Game) takeOpen(seat int) error {
	if !g.takeOwed(seat) {
		return domain.Refuse("take-when-owed", "sg.refuse.take-not-owed", "seat", seat, "waiting", g.waitingFor())
	}
	return nil
}

// displayAt returns where card c lies in the display, or the refusal of
// taking it from there.
func (g *Game) displayAt(c int) (int, error) {
	if at := indexInt(g.Display, c); at >= 0 {
		return at, nil
	}
	return -1, domain.Refuse("take-from-display", "sg.refuse.not-in-display", "card", g.cardID(c), "display", g.idList(g.Display))
}

// deckOpen says whether a card can be drawn from the deck.
func (g *Game) deckOpen() error {
	if g.DeckSize() == 0 {
		return domain.Refuse("take-from-deck", "sg.refuse.deck-empty")
	}
	return nil
}

// deckCard says (physical) whether card c may be named as drawn from the
// deck or turned into the display: it lies nowhere else (w is g.locate()).
func (g *Game) deckCard(w []where, c int) error {
	switch w[c] {
	case inDisplay:
		return domain.Refuse("card-in-play", "sg.refuse.card-in-display", "card", g.cardID(c))
	case inHand:
		return domain.Refuse("card-in-play", "sg.refuse.card-in-hand", "card", g.cardID(c))
	case inPile:
		return domain.Refuse("card-in-play", "sg.refuse.card-in-pile", "card", g.cardID(c))
	}
	return nil
}

// revealOpen says (physical) whether the table owes the report of the
// expedition card revealed.
func (g *Game) revealOpen() error {
	if g.Phase != PhaseReveal {
		if g.Phase != PhaseSetup && len(g.Revealed) == TurnsPerRound {
			return domain.Refuse("seven-reveals", "sg.refuse.seven-reveals", "round", g.Round)
		}
		return domain.Refuse("reveal-when-owed", "sg.refuse.reveal-not-owed", "waiting", g.waitingFor())
	}
	return nil
}

// revealable says whether expedition card p can be revealed: a copy of it is
// left face down this round.
func (g *Game) revealable(p Pattern) error {
	seen := 0
	for _, r := range g.Revealed {
		if r == p {
			seen++
		}
	}
	if seen >= p.Copies() {
		return domain.Refuse("expedition-copies", "sg.refuse.expedition-copies", "pattern", p.Message(), "code", p.Code(), "count", p.Copies())
	}
	return nil
}

// displayOpen says (physical) whether the table owes the report of a card
// turned into the display.
func (g *Game) displayOpen() error {
	setupOwes := g.Phase == PhaseSetup && g.allKept()
	resolvingOwes := g.Phase == PhaseResolving && g.Started && g.Players[g.Resolving].Takes == 0
	if !setupOwes && !resolvingOwes {
		return domain.Refuse("display-when-owed", "sg.refuse.display-not-owed", "waiting", g.waitingFor())
	}
	if len(g.Display) >= DisplaySize {
		return domain.Refuse("display-full", "sg.refuse.display-full", "count", DisplaySize, "display", g.idList(g.Display))
	}
	return nil
}
