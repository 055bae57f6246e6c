package silvergold

import (
	"fmt"
	"strings"

	"github.com/treasury-games/treasury/domain"
)

// entries fills l.Moves and l.Pools, the table language's form of the
// listing: every move ready to send, or completed from the pools' parts.
func (g *Game) entries(l *Legal) {
	seat := SeatPtr(l.Seat)
	switch l.Action {
	case MoveKeep:
		if g.Mode == Digital {
			for i, a := range l.Keep {
				for _, b := range l.Keep[i+1:] {
					l.Moves = append(l.Moves, domain.NewLegalMove(Move{Type: MoveKeep, Seat: seat, Cards: []string{a, b}},
						fmt.Sprintf("Keep %s and %s", a, b)))
				}
			}
			return
		}
		parts := make([]domain.Part, len(l.Keep))
		for i, c := range l.Keep {
			parts[i] = domain.NewPart(c, "cards", c)
		}
		l.Pools["cards"] = parts
		e := domain.NewLegalMove(Move{Type: MoveKeep, Seat: seat}, "Keep 2 of the cards you were dealt")
		e.Choose = &domain.Choose{Pool: "cards", Min: HandSize, Max: HandSize}
		l.Moves = append(l.Moves, e)
	case MoveCross:
		var extra []domain.Part
		for _, fc := range l.Free {
			for _, fb := range fc.Boxes {
				p := domain.NewPart(fmt.Sprintf("box %s of %s (%s)", fb.Box, fc.Card, fb.Symbol), "extra", Extra{Card: fc.Card, Box: fb.Box})
				p.Excludes = []string{boxToken(fc.Card, fb.Box)}
				if fb.Symbol == "cross" {
					p.Owes = 1
				}
				extra = append(extra, p)
			}
		}
		l.Pools["extra"] = extra
		add := func(pl Placement, what string) {
			e := domain.NewLegalMove(Move{Type: MoveCross, Seat: seat, Card: pl.Card, Boxes: pl.Boxes},
				fmt.Sprintf("Cross %s on %s%s", what, pl.Card, gains(pl)))
			for _, b := range pl.Boxes {
				e.Holds = append(e.Holds, boxToken(pl.Card, b))
			}
			if pl.Crosses > 0 {
				e.Choose = &domain.Choose{Pool: "extra", Min: pl.Crosses, Max: pl.Crosses}
			}
			l.Moves = append(l.Moves, e)
		}
		for _, pl := range l.Placements {
			add(pl, fmt.Sprintf("the %s at %s", l.Expedition.Name, posWords(pl.Boxes)))
		}
		for _, pl := range l.Singles {
			add(pl, "box "+pl.Boxes[0].String())
		}
	case MoveTake:
		for _, c := range l.TakeFrom {
			l.Moves = append(l.Moves, domain.NewLegalMove(Move{Type: MoveTake, Seat: seat, From: FromDisplay, Card: c}, "Take "+c+" from the display"))
		}
		if l.Deck && g.Mode == Digital {
			l.Moves = append(l.Moves, domain.NewLegalMove(Move{Type: MoveTake, Seat: seat, From: FromDeck}, "Draw the top card of the deck"))
		}
		for _, c := range l.DeckCards {
			l.Moves = append(l.Moves, domain.NewLegalMove(Move{Type: MoveTake, Seat: seat, From: FromDeck, Card: c}, "Drew "+c+" from the deck"))
		}
	case MoveReveal:
		for _, code := range l.RevealFrom {
			p, _ := ParsePattern(code)
			l.Moves = append(l.Moves, domain.NewLegalMove(Move{Type: MoveReveal, Expedition: code}, fmt.Sprintf("The %s (%s) was revealed", p.Name(), code)))
		}
	case MoveDisplay:
		for _, c := range l.DeckCards {
			l.Moves = append(l.Moves, domain.NewLegalMove(Move{Type: MoveDisplay, Card: c}, c+" was turned into the display"))
		}
	}
}

func boxToken(card string, b Pos) string { return fmt.Sprintf("%s:%d,%d", card, b.Row, b.Col) }

func posWords(ps []Pos) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.String()
	}
	return strings.Join(s, " ")
}

// gains says what a placement brings and owes, for its label.
func gains(pl Placement) string {
	var s []string
	if pl.Coins > 0 {
		s = append(s, plural(pl.Coins, "coin"))
	}
	if pl.Palms > 0 {
		s = append(s, plural(pl.Palms, "palm tree"))
	}
	if pl.Crosses > 0 {
		s = append(s, plural(pl.Crosses, "red cross")+": as many more boxes")
	}
	if len(s) == 0 {
		return ""
	}
	return " (" + strings.Join(s, ", ") + ")"
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	if strings.HasSuffix(what, "s") {
		return fmt.Sprintf("%d %ses", n, what)
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// Table tells where the game stands in the table language. The seats cross
// together, so no seat is on turn but the one taking replacement cards.
func (g *Game) Table() domain.TableStatus {
	st := domain.TableStatus{Awaiting: []domain.Await{}}
	for _, a := range g.Awaiting() {
		if a.Actor == domain.ActorHost {
			st.Awaiting = append(st.Awaiting, domain.HostAwait(a.Action, a.Count))
		} else {
			st.Awaiting = append(st.Awaiting, domain.SeatAwait(*a.Seat, a.Action, a.Count))
		}
	}
	st.OnTurn, st.TurnNumber = g.onTurn(), g.turnNumber()
	return st
}

// onTurn is the seat on turn in the table language: the one taking
// replacement cards; nil while the seats cross together.
func (g *Game) onTurn() *int {
	if g.Phase == PhaseResolving && g.Resolving >= 0 {
		return SeatPtr(g.Resolving)
	}
	return nil
}

// turnNumber counts the turns of the whole game, from 1 (0 before the first).
func (g *Game) turnNumber() int {
	if g.Round > 0 {
		return (g.Round-1)*TurnsPerRound + g.Turn
	}
	return 0
}
