package silvergold

import (
	"fmt"
	"slices"
	"testing"

	"github.com/treasury-games/treasury/domain"
)

// TestListingIsWhatPlayAccepts: the listing and Play read the same rules
// (rules.go). After every move of whole random games in both modes, every
// expedition card reported revealed, every card of the catalog reported
// turned up, taken from the display or named as drawn, and every single box
// of the grid crossed on each card in hand (red crosses aside: they owe
// extra boxes) is accepted by Play exactly when the listing offers it.
func TestListingIsWhatPlayAccepts(t *testing.T) {
	games := 4
	if testing.Short() || raceEnabled {
		games = 2
	}
	for i := range games {
		mode := []Mode{Digital, Physical}[i%2]
		step := 0
		randomGame(t, uint64(500+i), 2+i%3, mode, func(g *Game) {
			step++
			snap, err := g.Snapshot()
			if err != nil {
				t.Fatal(err)
			}
			check := func(actor domain.Actor, m Move, offered bool) {
				t.Helper()
				c, err := Restore(g.cat, snap)
				if err != nil {
					t.Fatal(err)
				}
				if err := c.Play(actor, &m); (err == nil) != offered {
					t.Fatalf("%s game %d, step %d: %+v by %+v: offered %v, Play says %v", mode, i, step, m, actor, offered, err)
				}
			}
			host := domain.Actor{Host: true}
			l := g.LegalMoves(-1)
			for p := Pattern(0); p < NumPatterns; p++ {
				check(host, Move{Type: MoveReveal, Expedition: p.Code()}, l.Action == MoveReveal && slices.Contains(l.RevealFrom, p.Code()))
			}
			for _, card := range g.cat.Cards {
				check(host, Move{Type: MoveDisplay, Card: card.ID}, l.Action == MoveDisplay && slices.Contains(l.DeckCards, card.ID))
			}
			for seat := range g.Players {
				l := g.LegalMoves(seat)
				actor := domain.Actor{Seat: seat}
				for _, card := range g.cat.Cards {
					check(actor, Move{Type: MoveTake, Seat: SeatPtr(seat), From: FromDisplay, Card: card.ID},
						l.Action == MoveTake && slices.Contains(l.TakeFrom, card.ID))
					if mode == Physical {
						check(actor, Move{Type: MoveTake, Seat: SeatPtr(seat), From: FromDeck, Card: card.ID},
							l.Action == MoveTake && l.Deck && slices.Contains(l.DeckCards, card.ID))
					}
				}
				if mode == Digital {
					check(actor, Move{Type: MoveTake, Seat: SeatPtr(seat), From: FromDeck}, l.Action == MoveTake && l.Deck)
				}
				for _, h := range g.Players[seat].Hand {
					card := &g.cat.Cards[h.Card]
					for r := range MaxRows {
						for c := range MaxCols {
							b := Pos{Row: r, Col: c}
							if card.Crosses.Has(b) {
								continue
							}
							offered := l.Action == MoveCross && slices.ContainsFunc(l.Singles, func(p Placement) bool {
								return p.Card == card.ID && fmt.Sprint(p.Boxes) == fmt.Sprint([]Pos{b})
							})
							check(actor, Move{Type: MoveCross, Seat: SeatPtr(seat), Card: card.ID, Boxes: []Pos{b}}, offered)
						}
					}
				}
			}
		})
	}
}
