package colorfultreasure

import (
	"fmt"
	"strings"

	"github.com/treasury-games/treasury/domain"
)

// entries fills l.Moves and l.Pools, the listing in the table language
// (domain.LegalMove): collects, thefts, tokens and the end of a turn ready to
// send; flips and peeks completed with cards from a pool.
func (g *Game) entries(l *Legal) {
	seat := &l.Seat
	if l.Flip != nil {
		var parts []domain.Part
		for _, c := range l.Flip.Cells {
			where := g.place(c.Pos)
			if g.Mode == Digital {
				parts = append(parts, domain.NewPart(where, "cards", c.Pos))
				continue
			}
			for _, k := range c.Shows {
				p := domain.NewPart(fmt.Sprintf("%s shows %s", where, k), "cards", c.Pos, "shows", k)
				// A card is turned over once; no wonder has two cards of a kind.
				p.Excludes = []string{fmt.Sprintf("card %d,%d", c.Column, c.Row), fmt.Sprintf("%s %s", g.wonder(c.Column), k)}
				parts = append(parts, p)
			}
		}
		l.Pools["flip"] = parts
		e := domain.NewLegalMove(Move{Type: MoveFlip, Seat: seat}, fmt.Sprintf("Turn over %s", plural(l.Flip.Count, "card")))
		if g.Mode == Physical {
			e.Label = fmt.Sprintf("Turn over %s and report what each shows", plural(l.Flip.Count, "card"))
		}
		e.Choose = &domain.Choose{Pool: "flip", Min: l.Flip.Count, Max: l.Flip.Count}
		l.Moves = append(l.Moves, e)
	}
	for _, take := range l.Collect {
		l.Moves = append(l.Moves, domain.NewLegalMove(Move{Type: MoveCollect, Seat: seat, Take: take}, collectLabel(take)))
	}
	for _, r := range l.Rob {
		m := Move{Type: MoveRob, Seat: seat, Target: &r.Target, Card: r.Card, DiamondToken: r.DiamondToken}
		what := fmt.Sprintf("the diamond token of %s", r.DiamondToken)
		if r.Card != nil {
			what = fmt.Sprintf("the %s card of %s", r.Card.Kind, r.Card.Wonder)
		}
		l.Moves = append(l.Moves, domain.NewLegalMove(m, fmt.Sprintf("Steal %s from %s", what, g.Players[r.Target].Name)))
	}
	for _, t := range l.UseToken {
		m := Move{Type: MoveUseToken, Seat: seat, Token: t.Token}
		label := fmt.Sprintf("Use action token %d (%s)", t.Token, t.Effect)
		switch {
		case t.DifferentWonders:
			var parts []domain.Part
			for _, c := range t.Cells {
				p := domain.NewPart(g.place(c), "cards", c)
				p.Excludes = []string{g.wonder(c.Column)}
				parts = append(parts, p)
			}
			pool := fmt.Sprintf("peek %d", t.Token)
			l.Pools[pool] = parts
			e := domain.NewLegalMove(m, label+": look at cards of different wonders")
			e.Choose = &domain.Choose{Pool: pool, Min: t.Min, Max: t.Max}
			l.Moves = append(l.Moves, e)
		case t.SameWonder:
			byWonder := map[int][]domain.Part{}
			var order []int
			for _, c := range t.Cells {
				if _, ok := byWonder[c.Column]; !ok {
					order = append(order, c.Column)
				}
				byWonder[c.Column] = append(byWonder[c.Column], domain.NewPart(g.place(c), "cards", c))
			}
			for _, col := range order {
				pool := fmt.Sprintf("peek %d %s", t.Token, g.wonder(col))
				l.Pools[pool] = byWonder[col]
				e := domain.NewLegalMove(m, fmt.Sprintf("%s: look at cards of %s", label, g.wonder(col)))
				e.Choose = &domain.Choose{Pool: pool, Min: t.Min, Max: min(t.Max, len(byWonder[col]))}
				l.Moves = append(l.Moves, e)
			}
		default:
			l.Moves = append(l.Moves, domain.NewLegalMove(m, label))
		}
	}
	for _, t := range l.Claim {
		l.Moves = append(l.Moves, domain.NewLegalMove(Move{Type: MoveClaim, Seat: seat, Token: t}, fmt.Sprintf("Take action token %d", t)))
	}
	if l.End {
		l.Moves = append(l.Moves, domain.NewLegalMove(Move{Type: MoveEnd, Seat: seat}, "End the turn"))
	}
}

// place names a card of the grid for people: its wonder and row.
func (g *Game) place(p Pos) string { return fmt.Sprintf("%s row %d", g.wonder(p.Column), p.Row+1) }

func collectLabel(take []string) string {
	if len(take) == 0 {
		return "Collect nothing"
	}
	names := make([]string, len(take))
	for i, t := range take {
		names[i] = t
		if t == TakeLocks {
			names[i] = "keys and chests"
		}
	}
	return "Collect the " + strings.Join(names, " and ") + " cards"
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// Table tells where the game stands in the table language: the seat on
// turn is awaited for its phase's move.
func (g *Game) Table() domain.TableStatus {
	st := domain.TableStatus{Awaiting: []domain.Await{}}
	for _, p := range g.Players {
		st.TurnNumber += p.Turns
	}
	if g.Phase == PhaseEnded {
		return st
	}
	st.TurnNumber++
	turn := g.Turn
	st.OnTurn = &turn
	action := map[Phase]string{PhaseReveal: MoveFlip, PhaseChoose: MoveCollect, PhaseRob: MoveRob, PhaseClaim: MoveClaim}[g.Phase]
	st.Awaiting = append(st.Awaiting, domain.SeatAwait(g.Turn, action, 1))
	return st
}
