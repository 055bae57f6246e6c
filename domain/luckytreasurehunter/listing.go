package luckytreasurehunter

import (
	"fmt"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/i18n"
)

// entries gives every option of l its move in the table language
// (domain.LegalMove) and fills l.Pools: the host's reports are completed
// from parts (the treasures of the middle, the face of each die).
func (g *Game) entries(l *Legal) {
	for i := range l.Moves {
		o := &l.Moves[i]
		m := Move{Type: o.Type, Seat: o.Seat}
		switch o.Type {
		case MovePlace:
			m.Treasure, m.Count = o.Treasure, o.Count
			t, _ := ParseTreasure(o.Treasure)
			o.LegalMove = entry(m, i18n.M("lth.label.place", "cards", cardsOf(o.Count, t)))
		case MoveSteal:
			m.Owner, m.Set = o.Owner, o.Set
			t, _ := ParseTreasure(o.Treasure)
			if o.Owner != nil {
				o.LegalMove = entry(m, i18n.M("lth.label.steal.seat", "name", g.Players[*o.Owner].Name, "cards", cardsOf(o.Size, t)))
			} else {
				o.LegalMove = entry(m, i18n.M("lth.label.steal.middle", "cards", cardsOf(o.Size, t)))
			}
		case MoveReroll:
			m.Dice = o.Dice
			o.LegalMove = entry(m, i18n.M("lth.label.reroll", "cards", cardsOf(o.Dice, g.Steal.Treasure), "count", o.Dice))
		case MoveCaptain:
			o.LegalMove = entry(m, i18n.M("lth.label.captain"))
		case MoveStop:
			o.LegalMove = entry(m, i18n.M("lth.label.stop"))
		case MoveMiddle:
			unseen := g.Unseen()
			var parts []domain.Part
			for t := Treasure(0); t < NumTreasures; t++ {
				for range min(unseen[t], o.Cards) {
					parts = append(parts, domain.Choice(t.Name(), "cards", t.String()))
				}
			}
			l.Pools["middle"] = parts
			o.LegalMove = entry(m, i18n.M("lth.label.middle", "count", o.Cards))
			o.Choose = &domain.Choose{Pool: "middle", Min: o.Cards, Max: o.Cards}
		case MoveMisdraw:
			// A correction: offered whenever the table may need it, owed never.
			l.Pools["corrections"] = g.misdrawParts()
			o.LegalMove = entry(m, i18n.M("lth.label.misdraw"))
			o.Choose = &domain.Choose{Pool: "corrections", Min: 1, Max: 1}
			o.Correction = true
		case MoveRoll:
			var parts []domain.Part
			for d := range o.Dice {
				for _, f := range []string{FacePirate, FaceBlank} {
					p := domain.Choice(i18n.M("lth.part.die."+f, "die", d+1), "faces", f)
					p.Excludes = []string{fmt.Sprintf("die %d", d+1)}
					parts = append(parts, p)
				}
			}
			l.Pools["faces"] = parts
			o.LegalMove = entry(m, i18n.M("lth.label.roll", "count", o.Dice))
			o.Choose = &domain.Choose{Pool: "faces", Min: o.Dice, Max: o.Dice}
		}
	}
}

// entry is domain.Entry(m, label), the move written by Move.AppendJSON.
func entry(m Move, label i18n.Message) domain.LegalMove {
	return domain.LegalMove{Move: m.AppendJSON(make([]byte, 0, 64)), Label: i18n.Text(label), LabelMessage: &label}
}

// Table tells where the game stands in the table language.
func (g *Game) Table() domain.TableStatus {
	st := domain.TableStatus{Awaiting: []domain.Await{}, TurnNumber: g.Turns}
	switch g.Phase {
	case PhaseEnded:
		return st
	case PhaseSetup:
		st.Awaiting = append(st.Awaiting, domain.HostAwait(MoveMiddle, MiddleAtStart))
		return st
	case PhaseRoll:
		st.Awaiting = append(st.Awaiting, domain.HostAwait(MoveRoll, g.Steal.Pending))
	case PhasePlace:
		st.Awaiting = append(st.Awaiting, domain.SeatAwait(g.Turn, MovePlace, 1))
	case PhaseSteal:
		st.Awaiting = append(st.Awaiting, domain.SeatAwait(g.Turn, MoveSteal, 1))
	case PhaseDecide:
		st.Awaiting = append(st.Awaiting, domain.SeatAwait(g.Turn, "decide", 1))
	}
	st.OnTurn = SeatPtr(g.Turn)
	return st
}

// misdrawParts are the mis-draws the table may report now, one card each
// way (a report of several cards is the same move with a larger count).
func (g *Game) misdrawParts() []domain.Part {
	var parts []domain.Part
	for seat := range g.Players {
		name := g.Players[seat].Name
		if c := (Misdraw{Seat: seat, Count: 1}); g.checkMisdraw(c) == nil {
			parts = append(parts, domain.Choice(i18n.M("lth.part.misdraw.too-many", "name", name), "corrections", c))
		}
		if c := (Misdraw{Seat: seat, Count: -1}); g.checkMisdraw(c) == nil {
			parts = append(parts, domain.Choice(i18n.M("lth.part.misdraw.too-few", "name", name), "corrections", c))
		}
	}
	return parts
}
