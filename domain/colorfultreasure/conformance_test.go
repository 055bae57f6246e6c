package colorfultreasure

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/rulesettest"
)

// TestConformance runs the ruleset conformance suite on Colorful Treasure.
func TestConformance(t *testing.T) {
	rulesettest.Run(t, rulesettest.Harness{
		Ruleset:    NewRules(),
		NewGame:    conformanceGame,
		Candidates: conformanceCandidates,
		Offered:    conformanceOffered,
		Secrets:    func(domain.Game, domain.Viewer) [][]byte { return nil }, // the seed, planted by the suite; Rehide covers the grid
		Rehide:     conformanceRehide,
		Games:      100,
	})
}

// conformanceGame is a random game: 2 to 4 players, any variant, start
// player and token sides.
func conformanceGame(r *rand.Rand, _ string) domain.CreateRequest {
	n := MinPlayers + r.IntN(MaxPlayers-MinPlayers+1)
	opts := map[string]any{"variant": variants[r.IntN(len(variants))], "start_player": r.IntN(n)}
	for i := 1; i <= NumTokens; i++ {
		if r.IntN(2) == 0 {
			opts[fmt.Sprintf("token_%d", i)] = "b"
		}
	}
	b, _ := json.Marshal(opts)
	return domain.CreateRequest{Players: []string{"Ann", "Bob", "Cid", "Dee"}[:n], Options: b}
}

// conformanceCandidates offers moves of every kind the listing of the seat
// on turn holds (a random pick of each), the same by another seat, and near
// misses: cards off the grid or face up, a wrong report, a take or theft
// that is not listed, a token not held, a move of another step.
func conformanceCandidates(dg domain.Game, r *rand.Rand) []rulesettest.Candidate {
	g, _ := Unwrap(dg)
	var out []rulesettest.Candidate
	seat := g.Turn
	add := func(actor domain.Actor, m Move) {
		b, _ := json.Marshal(&m)
		out = append(out, rulesettest.Candidate{Actor: actor, Seat: *m.Seat, Move: b})
	}
	me := domain.Actor{Seat: seat}
	other := domain.Actor{Seat: (seat + 1) % len(g.Players)}
	host := domain.Actor{Host: true}
	l := g.LegalMoves(seat)
	base := func(typ string) Move { return Move{Type: typ, Seat: SeatPtr(seat)} }
	randomPos := func() Pos { return Pos{Column: r.IntN(NumWonders + 1), Row: r.IntN(CardsPerWonder + 1)} }
	if l.Flip != nil {
		bot := NewBot(seat, r)
		m := base(MoveFlip)
		m.Cards = bot.pick(g, l.Flip.Count)
		if g.Mode == Physical {
			m.Shows = bot.report(g, m.Cards)
		}
		add(me, m)
		add(host, m)
		add(other, m)
		miss := m
		miss.Cards = slices.Clone(m.Cards)
		miss.Shows = slices.Clone(m.Shows)
		switch r.IntN(4) {
		case 0:
			miss.Cards[0] = randomPos()
		case 1:
			if len(g.Revealed) > 0 {
				miss.Cards[0] = g.Revealed[0]
			} else {
				miss.Cards = append(miss.Cards, randomPos())
			}
		case 2:
			if g.Mode == Physical {
				miss.Shows[0] = Kind(r.IntN(int(NumKinds)))
			} else {
				miss.Shows = []Kind{Red}
			}
		default:
			miss.Cards = miss.Cards[:len(miss.Cards)-1]
		}
		add(me, miss)
	} else {
		m := base(MoveFlip)
		m.Cards = []Pos{randomPos(), randomPos()}
		add(me, m)
	}
	if len(l.Collect) > 0 {
		// Taking nothing is listed but rarely tried, so that games end.
		var pick []string
		for tries := 0; tries < 4; tries++ {
			pick = l.Collect[r.IntN(len(l.Collect))]
			if len(pick) > 0 {
				break
			}
		}
		m := base(MoveCollect)
		m.Take = pick
		add(me, m)
		add(other, m)
	}
	miss := base(MoveCollect)
	miss.Take = []string{[]string{"red", "diamond", TakeLocks, "blue", "purple"}[r.IntN(5)]}
	add(me, miss)
	if len(l.Rob) > 0 {
		o := l.Rob[r.IntN(len(l.Rob))]
		m := base(MoveRob)
		m.Target, m.Card, m.DiamondToken = SeatPtr(o.Target), o.Card, o.DiamondToken
		add(me, m)
		add(host, m)
	}
	rob := base(MoveRob)
	rob.Target = SeatPtr(r.IntN(len(g.Players)))
	if r.IntN(2) == 0 {
		rob.Card = &CardRef{Wonder: g.wonder(r.IntN(NumWonders)), Kind: Kind(r.IntN(int(NumKinds)))}
	} else {
		rob.DiamondToken = g.wonder(r.IntN(NumWonders))
	}
	add(me, rob)
	for _, o := range l.UseToken {
		m := base(MoveUseToken)
		m.Token = o.Token
		if o.Cells != nil {
			m.Cards = NewBot(seat, r).peekCells(g, o)
		}
		add(me, m)
		if o.Cells != nil {
			miss := m
			miss.Cards = append(slices.Clone(m.Cards), o.Cells[r.IntN(len(o.Cells))])
			add(me, miss)
		}
	}
	tok := base(MoveUseToken)
	tok.Token = 1 + r.IntN(NumTokens)
	add(me, tok)
	claim := base(MoveClaim)
	claim.Token = 1 + r.IntN(NumTokens)
	add(me, claim)
	if len(l.Claim) > 0 {
		claim.Token = l.Claim[r.IntN(len(l.Claim))]
		add(me, claim)
	}
	add(me, base(MoveEnd))
	if r.IntN(8) == 0 {
		out = append(out, rulesettest.Candidate{Actor: me, Seat: seat, Move: []byte(`{"type":"dance","seat":0}`)})
	}
	return out
}

// conformanceOffered says whether listing legal offers move c, reading only
// the listing.
func conformanceOffered(legalJSON []byte, c rulesettest.Candidate) bool {
	var l Legal
	if err := json.Unmarshal(legalJSON, &l); err != nil {
		return false
	}
	m, err := DecodeMove(c.Move)
	if err != nil || m.Seat == nil || *m.Seat != c.Seat || l.Seat != c.Seat || !(c.Actor.Host || c.Actor.Seat == c.Seat) {
		return false
	}
	t := m.Type
	if (len(m.Cards) > 0 && t != MoveFlip && t != MoveUseToken) || (len(m.Shows) > 0 && t != MoveFlip) ||
		(len(m.Take) > 0 && t != MoveCollect) || ((m.Target != nil || m.Card != nil || m.DiamondToken != "") && t != MoveRob) ||
		(m.Token != 0 && t != MoveUseToken && t != MoveClaim) {
		return false
	}
	switch t {
	case MoveFlip:
		return flipOffered(l.Flip, m)
	case MoveCollect:
		take := m.Take
		if take == nil {
			take = []string{}
		}
		return slices.ContainsFunc(l.Collect, func(o []string) bool {
			return len(o) == len(take) && !slices.ContainsFunc(take, func(s string) bool { return !slices.Contains(o, s) }) &&
				(len(take) < 2 || take[0] != take[1])
		})
	case MoveRob:
		return m.Target != nil && slices.ContainsFunc(l.Rob, func(o RobOption) bool {
			return o.Target == *m.Target && o.DiamondToken == m.DiamondToken && (o.Card == nil) == (m.Card == nil) &&
				(o.Card == nil || *o.Card == *m.Card)
		})
	case MoveUseToken:
		i := slices.IndexFunc(l.UseToken, func(o TokenOption) bool { return o.Token == m.Token })
		if i < 0 {
			return false
		}
		o := l.UseToken[i]
		if o.Cells == nil {
			return len(m.Cards) == 0
		}
		if len(m.Cards) < o.Min || len(m.Cards) > o.Max {
			return false
		}
		for j, p := range m.Cards {
			if !slices.Contains(o.Cells, p) || slices.Contains(m.Cards[:j], p) {
				return false
			}
			if j > 0 && o.SameWonder && p.Column != m.Cards[0].Column {
				return false
			}
			if j > 0 && o.DifferentWonders && slices.ContainsFunc(m.Cards[:j], func(q Pos) bool { return q.Column == p.Column }) {
				return false
			}
		}
		return true
	case MoveClaim:
		return slices.Contains(l.Claim, m.Token)
	case MoveEnd:
		return l.End
	}
	return false
}

func flipOffered(f *FlipOption, m Move) bool {
	if f == nil || len(m.Cards) != f.Count {
		return false
	}
	physical := len(f.Cells) > 0 && f.Cells[0].Shows != nil
	if physical != (len(m.Shows) > 0) || (physical && len(m.Shows) != len(m.Cards)) {
		return false
	}
	for i, p := range m.Cards {
		j := slices.IndexFunc(f.Cells, func(c FlipCell) bool { return c.Pos == p })
		if j < 0 || slices.Contains(m.Cards[:i], p) {
			return false
		}
		if physical {
			if !slices.Contains(f.Cells[j].Shows, m.Shows[i]) {
				return false
			}
			for k := range i {
				if m.Cards[k].Column == p.Column && m.Shows[k] == m.Shows[i] {
					return false
				}
			}
		}
	}
	return true
}

// conformanceRehide deals the face-down cards of every column anew among
// their places: nobody may know a face-down card in a digital game. In a
// physical game the table saw every report, so there is nothing to re-deal.
func conformanceRehide(dg domain.Game, _ domain.Viewer, r *rand.Rand) domain.Game {
	g, _ := Unwrap(dg)
	c := g.Clone()
	if c.Mode == Physical {
		return Wrap(c)
	}
	for col := range c.Grid {
		var places []int
		for row, cell := range c.Grid[col] {
			if cell.State == CellDown {
				places = append(places, row)
			}
		}
		r.Shuffle(len(places), func(i, j int) {
			a, b := &c.Grid[col][places[i]], &c.Grid[col][places[j]]
			a.Kind, b.Kind = b.Kind, a.Kind
		})
	}
	return Wrap(c)
}
