package silvergold

import (
	"strconv"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/i18n"
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
					l.Moves = append(l.Moves, entry(Move{Type: MoveKeep, Seat: seat, Cards: []string{a, b}},
						i18n.M("sg.label.keep-pair", "a", a, "b", b)))
				}
			}
			return
		}
		parts := make([]domain.Part, len(l.Keep))
		for i, c := range l.Keep {
			parts[i] = domain.Choice(i18n.M("sg.label.card", "card", c), "cards", c)
		}
		l.Pools["cards"] = parts
		e := entry(Move{Type: MoveKeep, Seat: seat}, i18n.M("sg.label.keep", "count", HandSize))
		e.Choose = &domain.Choose{Pool: "cards", Min: HandSize, Max: HandSize}
		l.Moves = append(l.Moves, e)
	case MoveCross:
		var extra []domain.Part
		for _, fc := range l.Free {
			for _, fb := range fc.Boxes {
				p := domain.Choice(i18n.M("sg.label.extra-box", "box", fb.Box.String(), "card", fc.Card, "symbol", symbolTerm(fb.Symbol)),
					"extra", Extra{Card: fc.Card, Box: fb.Box})
				p.Excludes = []string{boxToken(fc.Card, fb.Box)}
				if fb.Symbol == "cross" {
					p.Owes = 1
				}
				extra = append(extra, p)
			}
		}
		l.Pools["extra"] = extra
		add := func(pl Placement, label i18n.Message) {
			e := entry(Move{Type: MoveCross, Seat: seat, Card: pl.Card, Boxes: pl.Boxes}, label)
			for _, b := range pl.Boxes {
				e.Holds = append(e.Holds, boxToken(pl.Card, b))
			}
			if pl.Crosses > 0 {
				e.Choose = &domain.Choose{Pool: "extra", Min: pl.Crosses, Max: pl.Crosses}
			}
			l.Moves = append(l.Moves, e)
		}
		pat, _ := ParsePattern(l.Expedition.Code)
		for _, pl := range l.Placements {
			if g := gains(pl); g != nil {
				add(pl, i18n.M("sg.label.cross-pattern-gains", "pattern", pat.Message(), "boxes", posList(pl.Boxes), "card", pl.Card, "gains", g))
			} else {
				add(pl, i18n.M("sg.label.cross-pattern", "pattern", pat.Message(), "boxes", posList(pl.Boxes), "card", pl.Card))
			}
		}
		for _, pl := range l.Singles {
			if g := gains(pl); g != nil {
				add(pl, i18n.M("sg.label.cross-box-gains", "box", pl.Boxes[0].String(), "card", pl.Card, "gains", g))
			} else {
				add(pl, i18n.M("sg.label.cross-box", "box", pl.Boxes[0].String(), "card", pl.Card))
			}
		}
	case MoveTake:
		for _, c := range l.TakeFrom {
			l.Moves = append(l.Moves, entry(Move{Type: MoveTake, Seat: seat, From: FromDisplay, Card: c}, i18n.M("sg.label.take-display", "card", c)))
		}
		if l.Deck && g.Mode == Digital {
			l.Moves = append(l.Moves, entry(Move{Type: MoveTake, Seat: seat, From: FromDeck}, i18n.M("sg.label.take-deck")))
		}
		for _, c := range l.DeckCards {
			l.Moves = append(l.Moves, entry(Move{Type: MoveTake, Seat: seat, From: FromDeck, Card: c}, i18n.M("sg.label.drew", "card", c)))
		}
	case MoveReveal:
		for _, code := range l.RevealFrom {
			p, _ := ParsePattern(code)
			l.Moves = append(l.Moves, entry(Move{Type: MoveReveal, Expedition: code}, i18n.M("sg.label.revealed", "pattern", p.Message(), "code", code)))
		}
	case MoveDisplay:
		for _, c := range l.DeckCards {
			l.Moves = append(l.Moves, entry(Move{Type: MoveDisplay, Card: c}, i18n.M("sg.label.displayed", "card", c)))
		}
	}
}

// entry is domain.Entry for a move of this game, encoded without
// reflection (Move.AppendJSON).
func entry(m Move, label i18n.Message) domain.LegalMove {
	return domain.LegalMove{Move: m.AppendJSON(make([]byte, 0, 64)), Label: i18n.Text(label), LabelMessage: &label}
}

func boxToken(card string, b Pos) string {
	return card + ":" + strconv.Itoa(b.Row) + "," + strconv.Itoa(b.Col)
}

// gains says what a placement brings and owes, for its label; nil when
// nothing.
func gains(pl Placement) []i18n.Message {
	var s []i18n.Message
	if pl.Coins > 0 {
		s = append(s, i18n.M("sg.gain.coins", "count", pl.Coins))
	}
	if pl.Palms > 0 {
		s = append(s, i18n.M("sg.gain.palms", "count", pl.Palms))
	}
	if pl.Crosses > 0 {
		s = append(s, i18n.M("sg.gain.crosses", "count", pl.Crosses))
	}
	return s
}

// symbolTerm names a box's symbol ("blank", "coin", "palm", "cross") as a
// term.
func symbolTerm(symbol string) i18n.Message { return i18n.M(symbolKeys[symbol]) }

// symbolKeys are the symbols' message keys, written out so that a label
// does not build one.
var symbolKeys = map[string]string{
	"blank": "sg.symbol.blank", "coin": "sg.symbol.coin", "palm": "sg.symbol.palm", "cross": "sg.symbol.cross",
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
