package silvergold

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/rulesettest"
)

// TestConformance runs the ruleset conformance suite on Silver & Gold.
func TestConformance(t *testing.T) {
	rulesettest.Run(t, rulesettest.Harness{
		Ruleset:    NewRules(),
		NewGame:    conformanceGame,
		Candidates: conformanceCandidates,
		Offered:    conformanceOffered,
		Secrets:    conformanceSecrets,
		Rehide:     conformanceRehide,
		Games:      100,
	})
}

func conformanceGame(r *rand.Rand, _ string) domain.CreateRequest {
	names := []string{"Ann", "Bob", "Cid", "Dee"}[:1+r.IntN(MaxPlayers)]
	return domain.CreateRequest{Players: names}
}

// conformanceCandidates offers, for everything the game waits for, the move
// the bot or the table would make, the same move by someone who may not make
// it, and a near miss.
func conformanceCandidates(dg domain.Game, r *rand.Rand) []rulesettest.Candidate {
	g, _ := Unwrap(dg)
	var out []rulesettest.Candidate
	add := func(actor domain.Actor, seat int, m Move) {
		out = append(out, rulesettest.Candidate{Actor: actor, Seat: seat, Move: m.AppendJSON(nil)})
	}
	bot := Bot{R: r}
	for _, a := range g.Awaiting() {
		if a.Actor == domain.ActorHost {
			l := g.LegalMoves(-1)
			switch a.Action {
			case MoveReveal:
				add(domain.Actor{Host: true}, -1, Move{Type: MoveReveal, Expedition: l.RevealFrom[r.IntN(len(l.RevealFrom))]})
				add(domain.Actor{Host: true}, -1, Move{Type: MoveReveal, Expedition: Pattern(r.IntN(int(NumPatterns))).Code()})
			case MoveDisplay:
				add(domain.Actor{Host: true}, -1, Move{Type: MoveDisplay, Card: l.DeckCards[r.IntN(len(l.DeckCards))]})
				add(domain.Actor{Host: true}, -1, Move{Type: MoveDisplay, Card: g.cardID(r.IntN(len(g.cat.Cards)))})
			}
			if len(g.Players) > 0 {
				add(domain.Actor{Seat: 0}, -1, Move{Type: MoveReveal, Expedition: "D2"})
			}
			continue
		}
		seat := *a.Seat
		m, ok := bot.Move(g, seat)
		if !ok {
			continue
		}
		if m.Type == MoveTake && m.From == FromDeck && g.Mode == Physical {
			cards := g.LegalMoves(seat).DeckCards
			m.Card = cards[r.IntN(len(cards))]
		}
		add(domain.Actor{Seat: seat}, seat, m)
		add(domain.Actor{Host: true}, seat, m)
		add(domain.Actor{Seat: (seat + 1) % len(g.Players)}, seat, m)
		add(domain.Actor{Seat: seat}, seat, nearMiss(g, m, r))
	}
	if r.IntN(8) == 0 {
		out = append(out, rulesettest.Candidate{Actor: domain.Actor{Seat: 0}, Seat: 0, Move: []byte(`{"type":"dance","seat":0}`)})
	}
	return out
}

// nearMiss changes one thing of a legal move.
func nearMiss(g *Game, m Move, r *rand.Rand) Move {
	m.Cards = slices.Clone(m.Cards)
	m.Boxes = slices.Clone(m.Boxes)
	m.Extra = slices.Clone(m.Extra)
	anyCard := func() string { return g.cardID(r.IntN(len(g.cat.Cards))) }
	switch m.Type {
	case MoveKeep:
		m.Cards[r.IntN(2)] = anyCard()
	case MoveCross:
		switch r.IntN(3) {
		case 0:
			i := r.IntN(len(m.Boxes))
			m.Boxes[i] = Pos{Row: r.IntN(4), Col: r.IntN(4)}
		case 1:
			if len(m.Extra) > 0 {
				m.Extra = m.Extra[:len(m.Extra)-1]
			} else {
				m.Extra = append(m.Extra, Extra{Card: m.Card, Box: Pos{Row: r.IntN(4), Col: r.IntN(4)}})
			}
		default:
			m.Card = anyCard()
		}
	case MoveTake:
		if r.IntN(2) == 0 {
			m.From, m.Card = FromDisplay, anyCard()
		} else {
			m.From = FromDeck
			m.Card = ""
			if g.Mode == Physical {
				m.Card = anyCard()
			}
		}
	}
	return m
}

// conformanceOffered says whether listing legal offers move c, reading only
// the listing: every rule the move obeys must be visible there.
func conformanceOffered(legalJSON []byte, c rulesettest.Candidate) bool {
	var l Legal
	if err := json.Unmarshal(legalJSON, &l); err != nil {
		return false
	}
	m, err := DecodeMove(c.Move)
	if err != nil {
		return false
	}
	if m.Type == MoveReveal || m.Type == MoveDisplay {
		if !c.Actor.Host || c.Seat != -1 || l.Seat != -1 || l.Action != m.Type {
			return false
		}
		if m.Type == MoveReveal {
			return slices.Contains(l.RevealFrom, m.Expedition)
		}
		return slices.Contains(l.DeckCards, m.Card)
	}
	if m.Seat == nil || *m.Seat != c.Seat || l.Seat != c.Seat || l.Action != m.Type || !(c.Actor.Host || c.Actor.Seat == c.Seat) {
		return false
	}
	switch m.Type {
	case MoveKeep:
		return len(m.Cards) == 2 && m.Cards[0] != m.Cards[1] && slices.Contains(l.Keep, m.Cards[0]) && slices.Contains(l.Keep, m.Cards[1])
	case MoveTake:
		if m.From == FromDisplay {
			return slices.Contains(l.TakeFrom, m.Card)
		}
		if m.From != FromDeck || !l.Deck {
			return false
		}
		if len(l.DeckCards) == 0 { // digital: the server draws
			return m.Card == ""
		}
		return slices.Contains(l.DeckCards, m.Card)
	case MoveCross:
		return crossOffered(l, m)
	}
	return false
}

// crossOffered checks a crossing against the listing: the boxes are a listed
// placement (or one single box), and the extra boxes are distinct single
// boxes, as many as the red crosses crossed demand, or every one left.
func crossOffered(l Legal, m Move) bool {
	same := func(p Placement) bool {
		if p.Card != m.Card || len(p.Boxes) != len(m.Boxes) {
			return false
		}
		for i, b := range m.Boxes {
			if !slices.Contains(p.Boxes, b) || slices.Contains(m.Boxes[:i], b) {
				return false
			}
		}
		return true
	}
	i := slices.IndexFunc(l.Placements, same)
	base := Placement{}
	switch {
	case i >= 0:
		base = l.Placements[i]
	case len(m.Boxes) == 1 && slices.ContainsFunc(l.Singles, same):
		base = l.Singles[slices.IndexFunc(l.Singles, same)]
	default:
		return false
	}
	used := map[string]bool{}
	key := func(card string, b Pos) string { return fmt.Sprint(card, b.Row, b.Col) }
	for _, b := range base.Boxes {
		used[key(base.Card, b)] = true
	}
	owed := base.Crosses
	for _, e := range m.Extra {
		k := key(e.Card, e.Box)
		j := slices.IndexFunc(l.Singles, func(p Placement) bool { return p.Card == e.Card && p.Boxes[0] == e.Box })
		if j < 0 || used[k] || owed == 0 {
			return false
		}
		used[k] = true
		owed += l.Singles[j].Crosses - 1
	}
	if owed == 0 {
		return true
	}
	// The chain may stop early only when no box is left to cross.
	for _, p := range l.Singles {
		if !used[key(p.Card, p.Boxes[0])] {
			return false
		}
	}
	return true
}

// conformanceSecrets are the cards a viewer may not know now: the deck's
// (digital), another seat's dealt cards, and during setup the cards another
// seat has kept while others still choose.
func conformanceSecrets(dg domain.Game, v domain.Viewer) [][]byte {
	g, _ := Unwrap(dg)
	if g.Phase == PhaseEnded {
		return nil
	}
	var out [][]byte
	quoted := func(c int) { out = append(out, []byte(`"`+g.cardID(c)+`"`)) }
	for _, c := range g.Deck {
		quoted(c)
	}
	for i := range g.Players {
		if g.sees(v, i) {
			continue
		}
		p := &g.Players[i]
		if !p.Kept {
			for _, c := range p.Dealt {
				quoted(c)
			}
		}
		if g.Mode == Digital && g.Phase == PhaseSetup && !g.allKept() {
			for _, h := range p.Hand {
				quoted(h.Card)
			}
		}
	}
	return out
}

// conformanceRehide deals anew what viewer v may not know: the order of the
// deck, and the cards dealt to other seats that have not kept yet.
func conformanceRehide(dg domain.Game, v domain.Viewer, r *rand.Rand) domain.Game {
	g, _ := Unwrap(dg)
	snap, _ := g.Snapshot()
	c, err := Restore(g.cat, snap)
	if err != nil {
		panic(err)
	}
	r.Shuffle(len(c.Deck), func(i, j int) { c.Deck[i], c.Deck[j] = c.Deck[j], c.Deck[i] })
	for i := range c.Players {
		p := &c.Players[i]
		if c.sees(v, i) || p.Kept || len(p.Dealt) == 0 {
			continue
		}
		// Trade the seat's dealt cards for cards of the deck.
		for k := range p.Dealt {
			j := r.IntN(len(c.Deck))
			p.Dealt[k], c.Deck[j] = c.Deck[j], p.Dealt[k]
		}
	}
	return wrap(c)
}
