package luckytreasurehunter

import (
	"fmt"
	"sync"

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
			t, _ := ParseTreasure(o.Treasure)
			*o = placeOptions()[*o.Seat][t][o.Count-1]
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

// placeOptions are the options of placing cards, complete and written
// (Option.json), by seat, treasure and count less one: they follow from
// those alone, and a seat's listing at the start of its turn, up to 25 of
// them, is built after every move that starts a turn (their labels rendered
// and their messages encoded were most of BenchmarkLegalMovesJSON, issue
// 27). Their moves, labels and messages are shared, read only.
var placeOptions = sync.OnceValue(func() *[MaxPlayers][NumTreasures][SetSize]Option {
	var out [MaxPlayers][NumTreasures][SetSize]Option
	for seat := range MaxPlayers {
		for t := range NumTreasures {
			for n := 1; n <= SetSize; n++ {
				o := Option{Type: MovePlace, Seat: SeatPtr(seat), Treasure: t.String(), Count: n}
				m := Move{Type: MovePlace, Seat: o.Seat, Treasure: o.Treasure, Count: n}
				o.LegalMove = entry(m, i18n.M("lth.label.place", "cards", cardsOf(n, t)))
				o.json = appendOption(nil, o)
				out[seat][t][n-1] = o
			}
		}
	}
	return &out
})

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
