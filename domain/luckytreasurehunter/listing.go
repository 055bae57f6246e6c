package luckytreasurehunter

import (
	"fmt"

	"github.com/treasury-games/treasury/domain"
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
			o.LegalMove = domain.NewLegalMove(m, fmt.Sprintf("Place %s", cards(o.Count, o.Treasure)))
		case MoveSteal:
			m.Owner, m.Set = o.Owner, o.Set
			whose := "the middle's"
			if o.Owner != nil {
				whose = g.Players[*o.Owner].Name + "'s"
			}
			o.LegalMove = domain.NewLegalMove(m, fmt.Sprintf("Steal %s set of %s", whose, cards(o.Size, o.Treasure)))
		case MoveReroll:
			m.Dice = o.Dice
			o.LegalMove = domain.NewLegalMove(m, fmt.Sprintf("Discard %s to re-roll %s", cards(o.Dice, g.Steal.Treasure.String()), dice(o.Dice)))
		case MoveCaptain:
			o.LegalMove = domain.NewLegalMove(m, "Turn the captain over to re-roll every failed die")
		case MoveStop:
			o.LegalMove = domain.NewLegalMove(m, "Stop: give up the steal")
		case MoveMiddle:
			unseen := g.Unseen()
			var parts []domain.Part
			for t := Treasure(0); t < NumTreasures; t++ {
				for range min(unseen[t], o.Cards) {
					parts = append(parts, domain.NewPart(t.String(), "cards", t.String()))
				}
			}
			l.Pools["middle"] = parts
			o.LegalMove = domain.NewLegalMove(m, fmt.Sprintf("Report the %d cards turned into the middle", o.Cards))
			o.Choose = &domain.Choose{Pool: "middle", Min: o.Cards, Max: o.Cards}
		case MoveMisdraw:
			// A correction: offered whenever the table may need it, owed never.
			l.Pools["corrections"] = g.misdrawParts()
			o.LegalMove = domain.NewLegalMove(m, "Correct: report a mis-draw (a player holds more or fewer cards than counted)")
			o.Choose = &domain.Choose{Pool: "corrections", Min: 1, Max: 1}
			o.Correction = true
		case MoveRoll:
			var parts []domain.Part
			for d := range o.Dice {
				for _, f := range []string{FacePirate, FaceBlank} {
					p := domain.NewPart(fmt.Sprintf("die %d shows %s", d+1, f), "faces", f)
					p.Excludes = []string{fmt.Sprintf("die %d", d+1)}
					parts = append(parts, p)
				}
			}
			l.Pools["faces"] = parts
			o.LegalMove = domain.NewLegalMove(m, fmt.Sprintf("Report how the %s fell", dice(o.Dice)))
			o.Choose = &domain.Choose{Pool: "faces", Min: o.Dice, Max: o.Dice}
		}
	}
}

func cards(n int, treasure string) string {
	if n == 1 {
		return "1 " + treasure
	}
	return fmt.Sprintf("%d %ss", n, treasure)
}

func dice(n int) string {
	if n == 1 {
		return "1 die"
	}
	return fmt.Sprintf("%d dice", n)
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
	st.OnTurn = Ptr(g.Turn)
	return st
}

// misdrawParts are the mis-draws the table may report now, one card each
// way (a report of several cards is the same move with a larger count).
func (g *Game) misdrawParts() []domain.Part {
	var parts []domain.Part
	pile := g.PileSize()
	for seat := range g.Players {
		p := &g.Players[seat]
		if pile > 0 {
			parts = append(parts, domain.NewPart(p.Name+" drew one card too many", "corrections", Misdraw{Seat: seat, Count: 1}))
		}
		if p.HandSize > 0 && !g.LastRound {
			parts = append(parts, domain.NewPart(p.Name+" drew one card too few", "corrections", Misdraw{Seat: seat, Count: -1}))
		}
	}
	return parts
}
