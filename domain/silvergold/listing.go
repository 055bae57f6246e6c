package silvergold

import (
	"strconv"
	"strings"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/i18n"
)

// A listing's entries and pools are walked once per use: by entries, which
// builds them as domain.LegalMove and domain.Part (the plain form, for the
// package's callers and TestLegalJSONPlain), and by Legal.AppendJSON, which
// writes them straight into the listing's bytes, labels rendered in place
// (i18n.Compact), with no message map, label string or move bytes of their
// own: the server lists after every move for every seat whose listing
// changed (issue 27).

// listEntry is one entry of a listing (see eachEntry).
type listEntry struct {
	move   Move
	label  i18n.Compact
	choose domain.Choose // its Pool empty when the move is ready to send
	cards  [2]string     // the digital keep's pair, which move.Cards is
	gains  [3]i18n.Compact
	// boxes holds the placements' boxes as their labels write them, each
	// label's a piece of it: a builder only appends, so a piece of what it
	// held stays as it was (one allocation or two per listing, not one per
	// placement).
	boxes strings.Builder
}

// listPart is one part of a listing's pool (see eachPart).
type listPart struct {
	label i18n.Compact
	card  string // the card the part adds (poolCards), or the card of its box (poolExtra)
	box   Pos    // poolExtra: the box the part adds and excludes
	owes  int
}

// The pools a listing's entries choose from.
const (
	poolCards = "cards" // physical keep: the cards to keep
	poolExtra = "extra" // cross: the boxes red crosses may demand
)

// pool names the pool of l's entries; ok is false when they have none.
func (l *Legal) pool() (name string, ok bool) {
	switch {
	case l.Action == MoveKeep && l.mode != Digital:
		return poolCards, true
	case l.Action == MoveCross:
		return poolExtra, true
	}
	return "", false
}

// nullWhenEmpty says whether pool name without parts is null rather than
// an empty list, as the plain form has always had it.
func nullWhenEmpty(name string) bool { return name == poolExtra }

// entries fills l.Moves and l.Pools, the table language's form of the
// listing: every move ready to send, or completed from the pools' parts.
func (l *Legal) entries() {
	l.Moves, l.Pools = []domain.LegalMove{}, domain.Pools{}
	l.eachEntry(func(e *listEntry) {
		msg := e.label.Message()
		m := domain.LegalMove{Move: e.move.AppendJSON(make([]byte, 0, 64)), Label: i18n.Text(msg), LabelMessage: &msg}
		if e.choose.Pool != "" {
			c := e.choose
			m.Choose = &c
		}
		for _, b := range e.move.Boxes {
			m.Holds = append(m.Holds, boxToken(e.move.Card, b))
		}
		l.Moves = append(l.Moves, m)
	})
	name, ok := l.pool()
	if !ok {
		return
	}
	var parts []domain.Part
	if !nullWhenEmpty(name) {
		parts = []domain.Part{}
	}
	l.eachPart(func(p *listPart) {
		msg := p.label.Message()
		var part domain.Part
		if name == poolExtra {
			part = domain.Choice(msg, name, Extra{Card: p.card, Box: p.box})
			part.Excludes = []string{boxToken(p.card, p.box)}
		} else {
			part = domain.Choice(msg, name, p.card)
		}
		part.Owes = p.owes
		parts = append(parts, part)
	})
	l.Pools[name] = parts
}

// eachEntry calls f with each entry of l, in order. f must not keep e,
// which the next entry reuses.
func (l *Legal) eachEntry(f func(e *listEntry)) {
	e := &listEntry{}
	seat := SeatPtr(l.Seat)
	put := func(m Move, label i18n.Compact) {
		e.move, e.label, e.choose = m, label, domain.Choose{}
		f(e)
	}
	switch l.Action {
	case MoveKeep:
		if l.mode == Digital {
			for i, a := range l.Keep {
				for _, b := range l.Keep[i+1:] {
					e.cards = [2]string{a, b}
					put(Move{Type: MoveKeep, Seat: seat, Cards: e.cards[:]}, i18n.C("sg.label.keep-pair", i18n.StrArg("a", a), i18n.StrArg("b", b)))
				}
			}
			return
		}
		e.move, e.label = Move{Type: MoveKeep, Seat: seat}, i18n.C("sg.label.keep", i18n.IntArg("count", HandSize))
		e.choose = domain.Choose{Pool: poolCards, Min: HandSize, Max: HandSize}
		f(e)
	case MoveCross:
		cross := func(pl Placement, label i18n.Compact) {
			e.move, e.label = Move{Type: MoveCross, Seat: seat, Card: pl.Card, Boxes: pl.Boxes}, label
			e.choose = domain.Choose{}
			if pl.Crosses > 0 {
				e.choose = domain.Choose{Pool: poolExtra, Min: pl.Crosses, Max: pl.Crosses}
			}
			f(e)
		}
		pattern := i18n.TermArg("pattern", mustPattern(l.Expedition.Code).Message().Key)
		e.boxes.Grow(len(l.Placements) * 6 * len(l.Expedition.Boxes))
		for _, pl := range l.Placements {
			start := e.boxes.Len()
			writePosList(&e.boxes, pl.Boxes)
			boxes, card := i18n.StrArg("boxes", e.boxes.String()[start:]), i18n.StrArg("card", pl.Card)
			if g := e.gainsOf(pl); g != nil {
				cross(pl, i18n.C("sg.label.cross-pattern-gains", pattern, boxes, card, i18n.ListArg("gains", g)))
			} else {
				cross(pl, i18n.C("sg.label.cross-pattern", pattern, boxes, card))
			}
		}
		for _, pl := range l.Singles {
			box, card := i18n.StrArg("box", pl.Boxes[0].String()), i18n.StrArg("card", pl.Card)
			if g := e.gainsOf(pl); g != nil {
				cross(pl, i18n.C("sg.label.cross-box-gains", box, card, i18n.ListArg("gains", g)))
			} else {
				cross(pl, i18n.C("sg.label.cross-box", box, card))
			}
		}
	case MoveTake:
		for _, c := range l.TakeFrom {
			put(Move{Type: MoveTake, Seat: seat, From: FromDisplay, Card: c}, i18n.C("sg.label.take-display", i18n.StrArg("card", c)))
		}
		if l.Deck && l.mode == Digital {
			put(Move{Type: MoveTake, Seat: seat, From: FromDeck}, i18n.C("sg.label.take-deck"))
		}
		for _, c := range l.DeckCards {
			put(Move{Type: MoveTake, Seat: seat, From: FromDeck, Card: c}, i18n.C("sg.label.drew", i18n.StrArg("card", c)))
		}
	case MoveReveal:
		for _, code := range l.RevealFrom {
			put(Move{Type: MoveReveal, Expedition: code}, i18n.C("sg.label.revealed",
				i18n.TermArg("pattern", mustPattern(code).Message().Key), i18n.StrArg("code", code)))
		}
	case MoveDisplay:
		for _, c := range l.DeckCards {
			put(Move{Type: MoveDisplay, Card: c}, i18n.C("sg.label.displayed", i18n.StrArg("card", c)))
		}
	}
}

// eachPart calls f with each part of l's pool (see pool), in order. f must
// not keep p, which the next part reuses.
func (l *Legal) eachPart(f func(p *listPart)) {
	p := &listPart{}
	switch name, _ := l.pool(); name {
	case poolCards:
		for _, c := range l.Keep {
			*p = listPart{label: i18n.C("sg.label.card", i18n.StrArg("card", c)), card: c}
			f(p)
		}
	case poolExtra:
		for _, fc := range l.Free {
			for _, fb := range fc.Boxes {
				*p = listPart{label: i18n.C("sg.label.extra-box", i18n.StrArg("box", fb.Box.String()), i18n.StrArg("card", fc.Card),
					i18n.TermArg("symbol", symbolKeys[fb.Symbol])), card: fc.Card, box: fb.Box}
				if fb.Symbol == "cross" {
					p.owes = 1
				}
				f(p)
			}
		}
	}
}

// mustPattern is the pattern of a code the listing took from the game (the
// zero pattern for any other, as its labels have always said).
func mustPattern(code string) Pattern {
	p, _ := ParsePattern(code)
	return p
}

func boxToken(card string, b Pos) string {
	return card + ":" + strconv.Itoa(b.Row) + "," + strconv.Itoa(b.Col)
}

// gainsOf says what a placement brings and owes, for its label, in e's
// room for it; nil when nothing.
func (e *listEntry) gainsOf(pl Placement) []i18n.Compact {
	g := e.gains[:0]
	if pl.Coins > 0 {
		g = append(g, i18n.C("sg.gain.coins", i18n.IntArg("count", pl.Coins)))
	}
	if pl.Palms > 0 {
		g = append(g, i18n.C("sg.gain.palms", i18n.IntArg("count", pl.Palms)))
	}
	if pl.Crosses > 0 {
		g = append(g, i18n.C("sg.gain.crosses", i18n.IntArg("count", pl.Crosses)))
	}
	if len(g) == 0 {
		return nil
	}
	return g
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
//
// The server reads it twice for every accepted move (the move's head, the
// head its streams' listings are read with), so the awaits and their seat
// numbers share one block: with four seats to cross, Awaiting's block, the
// list's growth and a seat number each were 8 allocations (TestAwaitingPlain
// holds it to plainTable).
func (g *Game) Table() domain.TableStatus {
	var w [MaxPlayers]await
	st := domain.TableStatus{Awaiting: []domain.Await{}}
	if n := g.awaits(&w); n > 0 {
		st.Awaiting = new(awaitBlock).fill(w[:n])
	}
	st.OnTurn, st.TurnNumber = g.onTurn(), g.turnNumber()
	return st
}

// awaitBlock holds a table's awaits and their seat numbers in one block.
type awaitBlock struct {
	aw    [MaxPlayers]domain.Await
	seats [MaxPlayers]int
}

// fill writes w into b as the table's awaits (domain.SeatAwait,
// domain.HostAwait) and returns them.
func (b *awaitBlock) fill(w []await) []domain.Await {
	for i, a := range w {
		b.aw[i] = domain.HostAwait(a.action, a.count)
		if a.seat >= 0 {
			b.seats[i] = a.seat
			b.aw[i].Actor, b.aw[i].Seat = domain.ActorSeat, &b.seats[i]
		}
	}
	return b.aw[:len(w):len(w)]
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
