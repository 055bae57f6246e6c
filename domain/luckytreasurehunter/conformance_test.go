package luckytreasurehunter

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/rulesettest"
)

// TestConformance runs the ruleset conformance suite on Lucky Treasure Hunter.
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
	n := MinPlayers + r.IntN(MaxPlayers-MinPlayers+1)
	return domain.CreateRequest{Players: botNames[:n],
		Options: json.RawMessage(fmt.Sprintf(`{"captain_heart":%d,"pirate_faces":%d}`, r.IntN(n), 1+r.IntN(5)))}
}

// conformanceCandidates offers the bot's move, a move picked at random from
// the listing, the same by the host and by another seat, and near misses of
// every kind; and the table's report with a near miss when one is owed.
func conformanceCandidates(dg domain.Game, r *rand.Rand) []rulesettest.Candidate {
	g, _ := Unwrap(dg)
	var out []rulesettest.Candidate
	add := func(actor domain.Actor, seat int, m Move) {
		out = append(out, rulesettest.Candidate{Actor: actor, Seat: seat, Move: m.AppendJSON(nil)})
	}
	if g.Phase == PhaseEnded {
		add(domain.Actor{Seat: 0}, 0, Move{Type: MoveStop, Seat: SeatPtr(0)})
		return out
	}
	hostA := domain.Actor{Host: true}
	if m, ok := (Table{R: r}).Report(g); ok {
		add(hostA, -1, m)
		miss := m
		if m.Type == MoveRoll {
			miss.Faces = append(append([]string(nil), m.Faces...), FacePirate)
		} else {
			miss.Cards = m.Cards[:2]
		}
		add(hostA, -1, miss)
		add(domain.Actor{Seat: g.Turn}, -1, m)
		add(domain.Actor{Seat: g.Turn}, g.Turn, Move{Type: MoveStop, Seat: SeatPtr(g.Turn)})
		return out
	}
	seat := g.Turn
	own := domain.Actor{Seat: seat}
	m, ok := Bot{R: r}.Move(g, seat)
	if ok {
		add(own, seat, m)
		add(hostA, seat, m)
		add(domain.Actor{Seat: (seat + 1) % len(g.Players)}, seat, m)
	}
	if l := g.LegalMoves(domain.SeatViewer(seat), seat); len(l.Moves) > 0 {
		o := l.Moves[r.IntN(len(l.Moves))]
		add(own, seat, o.move())
	}
	// Near misses.
	s := SeatPtr(seat)
	tr := Treasure(r.IntN(int(NumTreasures))).String()
	owner := r.IntN(len(g.Players)+1) - 1
	for _, miss := range []Move{
		{Type: MovePlace, Seat: s, Treasure: tr, Count: 1 + r.IntN(6)},
		{Type: MovePlace, Seat: s, Treasure: tr, Count: 1, Dice: 1},
		{Type: MoveSteal, Seat: s, Owner: ownerPtr(owner), Set: new(r.IntN(4))},
		{Type: MoveReroll, Seat: s, Dice: 1 + r.IntN(5)},
		{Type: MoveCaptain, Seat: s},
		{Type: MoveStop, Seat: s},
	} {
		if r.IntN(2) == 0 {
			add(own, seat, miss)
		} else {
			add(hostA, seat, miss)
		}
	}
	if r.IntN(8) == 0 {
		out = append(out, rulesettest.Candidate{Actor: own, Seat: seat, Move: []byte(`{"type":"dance","seat":0}`)})
	}
	return out
}

// conformanceOffered says whether the listing offers exactly move c.
func conformanceOffered(legalJSON []byte, c rulesettest.Candidate) bool {
	var l Legal
	if err := json.Unmarshal(legalJSON, &l); err != nil {
		return false
	}
	m, err := DecodeMove(c.Move)
	if err != nil || l.Seat != c.Seat {
		return false
	}
	for i := range l.Moves {
		o := &l.Moves[i]
		if o.Type != m.Type {
			continue
		}
		switch o.Type {
		case MoveRoll:
			if c.Actor.Host && len(m.Faces) == o.Dice && m.Seat == nil && allIn(m.Faces, FacePirate, FaceBlank) &&
				reflect.DeepEqual(Move{Type: MoveRoll, Faces: m.Faces}, m) {
				return true
			}
		case MoveMiddle:
			if c.Actor.Host && len(m.Cards) == o.Cards && allIn(m.Cards, treasureNames[:]...) &&
				reflect.DeepEqual(Move{Type: MoveMiddle, Cards: m.Cards}, m) {
				return true
			}
		default:
			if (c.Actor.Host || c.Actor.Seat == c.Seat) && reflect.DeepEqual(o.move(), m) {
				return true
			}
		}
	}
	return false
}

func allIn(s []string, of ...string) bool {
	for _, x := range s {
		found := false
		for _, y := range of {
			found = found || x == y
		}
		if !found {
			return false
		}
	}
	return true
}

// conformanceSecrets are, while the game runs: every other seat's hand in
// the form a view would show it, the cards it drew in the form the event and
// the log would show them, and (digital) the draw pile's order.
func conformanceSecrets(dg domain.Game, v domain.Viewer) [][]byte {
	g, _ := Unwrap(dg)
	if g.Phase == PhaseEnded {
		return nil
	}
	var out [][]byte
	for i := range g.Players {
		if !v.Host && v.Seat == i {
			continue
		}
		p := &g.Players[i]
		name, _ := json.Marshal(p.Name)
		out = append(out,
			[]byte(fmt.Sprintf(`"name":%s,"hand_size":%d,"hand":`, name, p.HandSize)),
			[]byte(fmt.Sprintf(`{"seat":%d,"cards":[`, i)),
			[]byte(fmt.Sprintf(`"seat":%d,"drawn":`, i)))
	}
	if g.Mode == Digital && len(g.Pile) > HandSize {
		pile, _ := json.Marshal(g.Pile)
		out = append(out, pile[:len(pile)-1]) // longer than any hand or draw
	}
	return out
}

// conformanceRehide deals anew the cards viewer v may not know: the pile and
// every hand but v's own, each hand keeping its size.
func conformanceRehide(dg domain.Game, v domain.Viewer, r *rand.Rand) domain.Game {
	g, _ := Unwrap(dg)
	snap, _ := g.Snapshot()
	c, err := Restore(snap)
	if err != nil {
		panic(err)
	}
	if c.Mode != Digital {
		return wrap(c)
	}
	cards := append([]Treasure(nil), c.Pile...)
	for i := range c.Players {
		if !v.Host && v.Seat == i {
			continue
		}
		for t, n := range c.Players[i].Hand {
			for range n {
				cards = append(cards, Treasure(t))
			}
		}
	}
	r.Shuffle(len(cards), func(i, j int) { cards[i], cards[j] = cards[j], cards[i] })
	for i := range c.Players {
		p := &c.Players[i]
		if !v.Host && v.Seat == i {
			continue
		}
		p.Hand = Counts{}
		for range p.HandSize {
			p.Hand[cards[0]]++
			cards = cards[1:]
		}
	}
	c.Pile = cards
	return wrap(c)
}
