package luckytreasurehunter

import (
	"math/rand/v2"

	"github.com/treasury-games/treasury/domain"
)

// Bot plays one seat from its legal moves: it places a random choice of its
// cards, steals the set worth the most by size times chance, and goes on
// after a failed roll only while the chance left is worth it (Nerve, default
// 0.3), stopping otherwise.
type Bot struct {
	R     *rand.Rand
	Nerve float64 // the least chance worth re-rolling for; 0 = 0.3
}

// Table reports what a physical table reveals: the middle at setup and the
// dice, rolled at random with the game's pirate faces.
type Table struct {
	R *rand.Rand
}

func (o *Option) bestChance() float64 {
	switch {
	case o.Chance != nil:
		return *o.Chance
	case o.ChanceWithoutCards != nil:
		return *o.ChanceWithoutCards
	}
	return 0
}

func (o *Option) move() Move {
	m := Move{Type: o.Type, Seat: o.Seat, Owner: o.Owner, Set: o.Set}
	switch o.Type {
	case MovePlace:
		m.Treasure, m.Count = o.Treasure, o.Count
	case MoveReroll:
		m.Dice = o.Dice
	}
	return m
}

// Move chooses seat's move; ok is false when the seat has nothing to do.
func (b Bot) Move(g *Game, seat int) (Move, bool) {
	l := g.LegalMoves(domain.SeatViewer(seat), seat)
	if len(l.Moves) == 0 {
		return Move{}, false
	}
	nerve := b.Nerve
	if nerve == 0 {
		nerve = 0.3
	}
	switch l.Step {
	case string(PhasePlace):
		o := l.Moves[b.R.IntN(len(l.Moves))]
		return o.move(), true
	case string(PhaseSteal):
		best, val := 0, -1.0
		for i := range l.Moves {
			o := &l.Moves[i]
			if v := o.bestChance() * float64(o.Size); v > val {
				best, val = i, v
			}
		}
		return l.Moves[best].move(), true
	}
	// Decide: the best way on, if it is worth it; re-rolls with cards are
	// preferred to the captain when they are as good (the captain is a point).
	best, val := -1, 0.0
	for i := range l.Moves {
		o := &l.Moves[i]
		if o.Type == MoveStop {
			continue
		}
		v := o.bestChance()
		if o.Type == MoveCaptain {
			v -= 0.05
		}
		if v > val {
			best, val = i, v
		}
	}
	if best < 0 || val < nerve {
		return Move{Type: MoveStop, Seat: SeatPtr(seat)}, true
	}
	return l.Moves[best].move(), true
}

// Report chooses the table's report; ok is false when none is owed.
func (t Table) Report(g *Game) (Move, bool) {
	l := g.LegalMoves(domain.HostViewer, -1)
	if len(l.Moves) == 0 || l.Moves[0].Correction {
		return Move{}, false // a mis-draw report is a correction, never owed
	}
	o := l.Moves[0]
	switch o.Type {
	case MoveMiddle:
		u := g.Unseen()
		m := Move{Type: MoveMiddle}
		for len(m.Cards) < o.Cards {
			tr := Treasure(t.R.IntN(int(NumTreasures)))
			if u[tr] > 0 {
				u[tr]--
				m.Cards = append(m.Cards, tr.String())
			}
		}
		return m, true
	default:
		m := Move{Type: MoveRoll}
		for range o.Dice {
			f := FaceBlank
			if t.R.IntN(6) < g.PirateFaces {
				f = FacePirate
			}
			m.Faces = append(m.Faces, f)
		}
		return m, true
	}
}

// Step returns the next move of a game played by bots: the table's report
// when one is owed, else the move of the seat on turn, with the actor making
// it. ok is false once the game has ended.
func Step(g *Game, b Bot, t Table) (domain.Actor, Move, bool) {
	if g.Phase == PhaseEnded {
		return domain.Actor{}, Move{}, false
	}
	if m, ok := t.Report(g); ok {
		return domain.Actor{Host: true}, m, true
	}
	m, ok := b.Move(g, g.Turn)
	return domain.Actor{Seat: g.Turn}, m, ok
}
