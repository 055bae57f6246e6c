package colorfultreasure

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/i18n"
)

// entries fills l.Moves and l.Pools, the listing in the table language
// (domain.LegalMove): collects, thefts, tokens and the end of a turn ready to
// send; flips and peeks completed with cards from a pool.
func (g *Game) entries(l *Legal) {
	seat := &l.Seat
	if l.Flip != nil {
		size := len(l.Flip.Cells) // a part is large: the pool is made at its size, not grown by doubling
		if g.Mode == Physical {
			size = 0
			for _, c := range l.Flip.Cells {
				size += len(c.Shows)
			}
		}
		var parts []domain.Part
		if size > 0 {
			parts = make([]domain.Part, 0, size)
			l.cardPools = map[string][][]byte{"flip": make([][]byte, 0, size)}
		}
		for _, c := range l.Flip.Cells {
			n := &g.cat.places[c.Column][c.Row]
			if g.Mode == Digital {
				parts = append(parts, n.part)
				l.cardPool("flip", n.json)
				continue
			}
			for _, k := range c.Shows {
				if k < 0 || int(k) >= len(n.shows) || n.shows[k] == nil {
					// Not a kind of the wonder's cards (possible names only
					// those): the part is made here, and the pool is then
					// written by domain.AppendPools (its parts and the
					// catalog's no longer match in number).
					parts = append(parts, flipShowsPart(n.msg, g.wonder(c.Column), c.Pos, k))
					continue
				}
				sp := n.shows[k] // the wonder has a card of kind k
				parts = append(parts, sp.part)
				l.cardPool("flip", sp.json)
			}
		}
		l.Pools["flip"] = parts
		label := i18n.M("ct.label.flip", "count", l.Flip.Count)
		if g.Mode == Physical {
			label = i18n.M("ct.label.flip-report", "count", l.Flip.Count)
		}
		e := entry(Move{Type: MoveFlip, Seat: seat}, label)
		e.Choose = &domain.Choose{Pool: "flip", Min: l.Flip.Count, Max: l.Flip.Count}
		l.Moves = append(l.Moves, e)
	}
	for _, take := range l.Collect {
		l.Moves = append(l.Moves, entry(Move{Type: MoveCollect, Seat: seat, Take: take}, collectLabel(take)))
	}
	for _, r := range l.Rob {
		m := Move{Type: MoveRob, Seat: seat, Target: &r.Target, Card: r.Card, DiamondToken: r.DiamondToken}
		label := i18n.M("ct.label.rob-token", "wonder", wonderTerm(r.DiamondToken), "name", g.Players[r.Target].Name)
		if r.Card != nil {
			label = i18n.M("ct.label.rob-card", "kind", kindTerm(r.Card.Kind), "wonder", wonderTerm(r.Card.Wonder), "name", g.Players[r.Target].Name)
		}
		l.Moves = append(l.Moves, entry(m, label))
	}
	for _, t := range l.UseToken {
		m := Move{Type: MoveUseToken, Seat: seat, Token: t.Token}
		effect := effectTerm(g.effect(t.Token - 1))
		switch {
		case t.DifferentWonders:
			var parts []domain.Part
			pool := fmt.Sprintf("peek %d", t.Token)
			for _, c := range t.Cells {
				n := &g.cat.places[c.Column][c.Row]
				parts = append(parts, n.apart)
				l.cardPool(pool, n.ajson)
			}
			l.Pools[pool] = parts
			e := entry(m, i18n.M("ct.label.peek-different", "token", t.Token, "effect", effect))
			e.Choose = &domain.Choose{Pool: pool, Min: t.Min, Max: t.Max}
			l.Moves = append(l.Moves, e)
		case t.SameWonder:
			byWonder := map[int][]domain.Part{}
			var order []int
			for _, c := range t.Cells {
				if _, ok := byWonder[c.Column]; !ok {
					order = append(order, c.Column)
				}
				byWonder[c.Column] = append(byWonder[c.Column], g.cardPart(c))
			}
			for _, col := range order {
				pool := fmt.Sprintf("peek %d %s", t.Token, g.wonder(col))
				l.Pools[pool] = byWonder[col]
				for _, c := range t.Cells {
					if c.Column == col {
						l.cardPool(pool, g.cat.places[c.Column][c.Row].json)
					}
				}
				e := entry(m, i18n.M("ct.label.peek-same", "token", t.Token, "effect", effect, "wonder", wonderTerm(g.wonder(col))))
				e.Choose = &domain.Choose{Pool: pool, Min: t.Min, Max: min(t.Max, len(byWonder[col]))}
				l.Moves = append(l.Moves, e)
			}
		default:
			l.Moves = append(l.Moves, entry(m, i18n.M("ct.label.use-token", "token", t.Token, "effect", effect)))
		}
	}
	for _, t := range l.Claim {
		l.Moves = append(l.Moves, entry(Move{Type: MoveClaim, Seat: seat, Token: t}, i18n.M("ct.label.claim", "token", t, "effect", effectTerm(g.effect(t-1)))))
	}
	if l.End {
		l.Moves = append(l.Moves, entry(Move{Type: MoveEnd, Seat: seat}, i18n.M("ct.label.end")))
	}
}

// entry is domain.Entry(m, label), the move written by Move.AppendJSON.
func entry(m Move, label i18n.Message) domain.LegalMove {
	b, err := m.AppendJSON(make([]byte, 0, 64))
	if err != nil {
		panic("colorfultreasure: " + err.Error()) // as domain.Entry: a listed move names only kinds of the game
	}
	return domain.LegalMove{Move: b, Label: i18n.Text(label), LabelMessage: &label}
}

// cardPart is the part choosing the card at p: what
// domain.Choice(g.place(p), "cards", p) returns, made once with the
// catalog (placeName), its map and message shared, read only (a flip's
// pool has a part for every face-down card, built after every move of the
// seat on turn; encoding/json and the labels were most of the listing's
// entries in the load run's profile).
func (g *Game) cardPart(p Pos) domain.Part { return g.cat.places[p.Column][p.Row].part }

// cardPool notes that the next part of pool, a pool of the catalog's
// parts only (placeName), is written as part: Legal.AppendJSON writes such
// a pool from the catalog's JSON of its parts.
func (l *Legal) cardPool(pool string, part []byte) {
	if l.cardPools == nil {
		l.cardPools = map[string][][]byte{}
	}
	l.cardPools[pool] = append(l.cardPools[pool], part)
}

// posPart is the part choosing the card at p labelled by message msg,
// whose text is text.
func posPart(text string, msg i18n.Message, p Pos) domain.Part {
	return domain.Part{Add: map[string]json.RawMessage{"cards": appendPos(make([]byte, 0, 24), p)}, Label: text, LabelMessage: &msg}
}

// appendPos appends p as json.Marshal encodes it.
func appendPos(b []byte, p Pos) []byte {
	b = strconv.AppendInt(append(b, `{"column":`...), int64(p.Column), 10)
	b = strconv.AppendInt(append(b, `,"row":`...), int64(p.Row), 10)
	return append(b, '}')
}

// showsPart is the part reporting that the card at p shows kind k, a kind
// of the game: what domain.Choice(label, "cards", p, "shows", k) returns,
// as cardPart writes it.
func showsPart(label i18n.Message, p Pos, k Kind) domain.Part {
	part := posPart(i18n.Text(label), label, p)
	part.Add["shows"] = appendKind(nil, k)
	return part
}

// flipShowsPart is the part of a physical flip reporting that the card at
// p, named place, of the wonder with id wonder, shows kind k.
func flipShowsPart(place i18n.Message, wonder string, p Pos, k Kind) domain.Part {
	part := showsPart(i18n.M("ct.label.place-shows", "place", place, "kind", kindTerm(k)), p, k)
	// A card is turned over once; no wonder has two cards of a kind.
	part.Excludes = []string{"card " + strconv.Itoa(p.Column) + "," + strconv.Itoa(p.Row), wonder + " " + k.String()}
	return part
}

// place names a card of the grid for people: its wonder and row
// ("ct.label.place", named once with the catalog).
func (g *Game) place(p Pos) i18n.Message { return g.cat.places[p.Column][p.Row].msg }

// collectLabel names a collect by the types it takes.
func collectLabel(take []string) i18n.Message {
	switch {
	case len(take) == 0:
		return i18n.M("ct.label.collect-nothing")
	case len(take) == 1 && take[0] == TakeLocks:
		return i18n.M("ct.label.collect-locks")
	}
	types := make([]i18n.Message, len(take))
	for i, t := range take {
		k, ok := ParseKind(t)
		switch {
		case t == TakeLocks:
			types[i] = i18n.M("ct.label.keys-and-chests")
		case ok:
			types[i] = kindTerm(k)
		default:
			types[i] = i18n.M("ct.kind.none")
		}
	}
	return i18n.M("ct.label.collect", "types", types, "count", len(types))
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
