package silvergold

import (
	"math/rand/v2"

	"github.com/treasury-games/treasury/domain"
)

// Bot picks legal moves at random. Tests, benchmarks and load runs use it to
// play whole games; it never needs to see hidden information.
type Bot struct {
	R *rand.Rand
}

// Move returns a legal move for what the game waits for from seat, and false
// when nothing is asked of the seat.
func (b Bot) Move(g *Game, seat int) (Move, bool) {
	var w [MaxPlayers]await
	for _, a := range w[:g.awaits(&w)] {
		if a.seat == seat {
			return b.move(g, a)
		}
	}
	return Move{}, false
}

// move returns a legal move for a, something the game waits for from a seat.
func (b Bot) move(g *Game, a await) (Move, bool) {
	switch a.action {
	case MoveKeep:
		return b.keep(g, a.seat), true
	case MoveCross:
		return b.cross(g, a.seat), true
	case MoveTake:
		return b.take(g, a.seat), true
	}
	return Move{}, false
}

func (b Bot) keep(g *Game, seat int) Move {
	p := &g.Players[seat]
	m := Move{Type: MoveKeep, Seat: SeatPtr(seat)}
	if len(p.Dealt) >= 2 {
		perm := b.R.Perm(len(p.Dealt))
		m.Cards = []string{g.cardID(p.Dealt[perm[0]]), g.cardID(p.Dealt[perm[1]])}
		return m
	}
	// Physical: any two cards nobody else holds.
	w := g.locate()
	var free []int
	for i := range w {
		if w[i] == inDeck && !g.inHand(p, i) {
			free = append(free, i)
		}
	}
	for _, o := range g.Players {
		for _, h := range o.Hand {
			free = removeInt(free, h.Card)
		}
	}
	perm := b.R.Perm(len(free))
	m.Cards = []string{g.cardID(free[perm[0]]), g.cardID(free[perm[1]])}
	return m
}

func removeInt(s []int, v int) []int {
	if i := indexInt(s, v); i >= 0 {
		return append(s[:i:i], s[i+1:]...)
	}
	return s
}

func (b Bot) cross(g *Game, seat int) Move {
	p := &g.Players[seat]
	// free[i] is what may still be crossed on hand card i as the move grows.
	var freeBuf [8]Mask
	free := freeBuf[:0]
	for i := range p.Hand {
		free = append(free, crossable(&g.cat.Cards[p.Hand[i].Card], g.crossBase(p, i)))
	}
	m := Move{Type: MoveCross, Seat: SeatPtr(seat)}
	var hand int
	var set Mask
	var plBuf [64]PlacementMask
	if pl := g.AppendPlacements(plBuf[:0], seat); len(pl) > 0 && b.R.IntN(4) != 0 {
		pick := pl[b.R.IntN(len(pl))]
		hand, set = pick.Hand, pick.Boxes
	} else {
		hand, set = nthBox(free, b.R.IntN(countBoxes(free)))
	}
	card := &g.cat.Cards[p.Hand[hand].Card]
	m.Card = card.ID
	m.Boxes = set.Positions()
	free[hand] &^= set
	owed := (set & card.Crosses).Count()
	for ; owed > 0; owed-- {
		n := countBoxes(free)
		if n == 0 {
			break
		}
		i, bit := nthBox(free, b.R.IntN(n))
		c := &g.cat.Cards[p.Hand[i].Card]
		m.Extra = append(m.Extra, Extra{Card: c.ID, Box: bitPos(bit)})
		free[i] &^= bit
		if c.Crosses&bit != 0 {
			owed++
		}
	}
	return m
}

// countBoxes counts the boxes of every card's mask.
func countBoxes(free []Mask) int {
	n := 0
	for _, f := range free {
		n += f.Count()
	}
	return n
}

// nthBox returns the card and bit of the k-th box of free, counting the
// boxes of card 0 in reading order, then card 1's, ….
func nthBox(free []Mask, k int) (int, Mask) {
	for i, f := range free {
		if n := f.Count(); k >= n {
			k -= n
			continue
		}
		for v := f; ; v &= v - 1 {
			if k == 0 {
				return i, v & -v
			}
			k--
		}
	}
	return -1, 0
}

func (b Bot) take(g *Game, seat int) Move {
	m := Move{Type: MoveTake, Seat: SeatPtr(seat)}
	if len(g.Display) > 0 && (g.DeckSize() == 0 || b.R.IntN(2) == 0) {
		m.From = FromDisplay
		m.Card = g.cardID(g.Display[b.R.IntN(len(g.Display))])
		return m
	}
	m.From = FromDeck
	return m
}

// Table stands in for the real cards of a physical game: it shuffles a deck
// and the expedition cards with R, and reports what a table would report.
// Moves it makes are made with the host credential.
type Table struct {
	R    *rand.Rand
	deck []int // shuffled at first use; cards not in the game's deck are skipped
	exp  []Pattern
	rnd  int
}

// Report returns the table's next report, and false when none is owed.
func (t *Table) Report(g *Game) (Move, bool) {
	var w [MaxPlayers]await
	for _, a := range w[:g.awaits(&w)] {
		if a.seat >= 0 {
			continue
		}
		if a.action == MoveReveal {
			if t.rnd != g.Round || len(t.exp) == 0 {
				t.rnd = g.Round
				t.exp = append([]Pattern(nil), ExpeditionDeck...)
				t.R.Shuffle(len(t.exp), func(i, j int) { t.exp[i], t.exp[j] = t.exp[j], t.exp[i] })
			}
			p := t.exp[0]
			t.exp = t.exp[1:]
			return Move{Type: MoveReveal, Expedition: p.Code()}, true
		}
		return Move{Type: MoveDisplay, Card: t.DrawID(g)}, true
	}
	return Move{}, false
}

// DrawID returns the id of the top card of the simulated deck that the game
// still counts as being in the deck.
func (t *Table) DrawID(g *Game) string {
	if t.deck == nil {
		t.deck = t.R.Perm(len(g.cat.Cards))
	}
	w := g.locate()
	for len(t.deck) > 0 {
		c := t.deck[0]
		t.deck = t.deck[1:]
		if w[c] == inDeck {
			return g.cardID(c)
		}
	}
	return ""
}

// Step picks the next move of a random game: the report of the table or the
// move of a seat the game waits for (chosen at random among them). It returns
// the actor and the move for the caller to play, and false when the game has
// ended.
func Step(g *Game, bot Bot, table *Table) (domain.Actor, Move, bool) {
	var w [MaxPlayers]await
	n := g.awaits(&w)
	if n == 0 {
		return domain.Actor{}, Move{}, false
	}
	a := w[bot.R.IntN(n)]
	if a.seat < 0 {
		m, _ := table.Report(g)
		return domain.Actor{Host: true}, m, true
	}
	m, _ := bot.move(g, a)
	if m.Type == MoveTake && m.From == FromDeck && g.Mode == Physical {
		m.Card = table.DrawID(g)
	}
	return domain.Actor{Seat: a.seat}, m, true
}
