package colorfultreasure

import (
	"math/rand/v2"
	"slices"

	"github.com/treasury-games/treasury/domain"
)

// Bot plays one seat with legal moves, remembering only what that seat has
// seen: cards revealed while it watched and its own peeks. Tests, benchmarks
// and load runs use it; it never reads a face-down card from the game.
type Bot struct {
	R    *rand.Rand
	Seat int
	mem  map[Pos]Kind // face-down cards it has seen, by place
}

// NewBot returns a bot for seat drawing its choices from r.
func NewBot(seat int, r *rand.Rand) *Bot { return &Bot{R: r, Seat: seat, mem: map[Pos]Kind{}} }

// Observe remembers what the last accepted move of g showed the bot's seat
// (every seat watches the table as it happens).
func (b *Bot) Observe(g *Game) {
	for _, e := range g.events {
		if e.forSeat != none && e.forSeat != b.Seat {
			continue
		}
		switch d := e.data.(type) {
		case revealEvent:
			for _, c := range d.Cards {
				b.mem[c.Pos] = c.Kind
			}
		case collectEvent:
			for _, c := range d.Cards {
				delete(b.mem, c.Pos)
			}
		}
	}
}

// Move returns a legal move for the bot's seat, false when it is not its turn.
func (b *Bot) Move(g *Game) (Move, bool) {
	if g.Phase == PhaseEnded || g.Turn != b.Seat {
		return Move{}, false
	}
	m := Move{Seat: SeatPtr(b.Seat)}
	if t, ok := b.token(g); ok {
		m.Type, m.Token = MoveUseToken, t.Token
		if t.Cells != nil {
			m.Cards = b.peekCells(g, t)
		}
		return m, true
	}
	switch g.Phase {
	case PhaseReveal:
		m.Type = MoveFlip
		m.Cards = b.pick(g, min(2, g.Left()))
	case PhaseChoose:
		if n, err := g.flipCount(); err == nil && n == 1 && b.wantMore(g) {
			m.Type = MoveFlip
			m.Cards = b.pick(g, 1)
		} else {
			m.Type, m.Take = MoveCollect, b.take(g)
		}
	case PhaseRob:
		opts := g.robOptions(b.Seat)
		o := opts[b.R.IntN(len(opts))]
		m.Type, m.Target, m.Card, m.DiamondToken = MoveRob, SeatPtr(o.Target), o.Card, o.DiamondToken
	case PhaseClaim:
		if c := g.claims(); len(c) > 0 {
			m.Type, m.Token = MoveClaim, c[0]
		} else {
			m.Type = MoveEnd
		}
	}
	if g.Mode == Physical && m.Type == MoveFlip {
		m.Shows = b.report(g, m.Cards)
	}
	return m, true
}

// token returns an action token worth using now.
func (b *Bot) token(g *Game) (TokenOption, bool) {
	if g.Variant != VariantAdvanced || len(g.Players[b.Seat].Actions) == 0 {
		return TokenOption{}, false
	}
	for _, t := range g.tokenOptions(b.Seat) {
		switch Effect(effectIndex(t.Effect)) {
		case PeekTwo, PeekThree:
			if g.Phase == PhaseReveal {
				return t, true
			}
		case FourthCard, TwoTypes, WildPair:
			return t, true
		}
	}
	return TokenOption{}, false
}

func effectIndex(name string) int {
	for i, n := range effectNames {
		if n == name {
			return i
		}
	}
	return -1
}

func (b *Bot) peekCells(g *Game, t TokenOption) []Pos {
	var unseen []Pos
	for _, p := range t.Cells {
		if _, ok := b.mem[p]; !ok {
			unseen = append(unseen, p)
		}
	}
	if len(unseen) < 3 {
		unseen = t.Cells
	}
	first := unseen[b.R.IntN(len(unseen))]
	out := []Pos{first}
	for _, p := range unseen {
		if len(out) == t.Max {
			break
		}
		if p != first && (p.Column == first.Column) == t.SameWonder {
			out = append(out, p)
		}
	}
	if len(out) < t.Min { // PeekTwo among seen cards only
		for _, p := range t.Cells {
			if p.Column != first.Column {
				return []Pos{first, p}
			}
		}
	}
	return out
}

// pick chooses n face-down cards to reveal: a remembered match for what is
// face up or remembered, else cards it has not seen.
func (b *Bot) pick(g *Game, n int) []Pos {
	down := g.faceDown()
	var want [NumKinds]int
	for _, p := range g.Revealed {
		want[g.cell(p).Kind]++
	}
	var out []Pos
	taken := func(p Pos) bool {
		for _, q := range out {
			if q == p {
				return true
			}
		}
		return false
	}
	// A remembered card of a kind face up, or two remembered of one kind.
	for _, p := range down {
		if k, ok := b.mem[p]; ok && !k.IsLock() && want[k] > 0 && len(out) < n {
			out = append(out, p)
		}
	}
	if len(out) < n {
		var seen [NumKinds][]Pos
		for _, p := range down {
			if k, ok := b.mem[p]; ok && !k.IsLock() && !taken(p) {
				seen[k] = append(seen[k], p)
			}
		}
		for k := range seen {
			if len(seen[k]) >= 2 && n-len(out) >= 2 {
				out = append(out, seen[k][0], seen[k][1])
			}
		}
	}
	for tries := 0; len(out) < n; tries++ {
		p := down[b.R.IntN(len(down))]
		if _, known := b.mem[p]; (known && tries < 8) || taken(p) {
			continue
		}
		out = append(out, p)
	}
	return out
}

// wantMore says whether to reveal one more card.
func (b *Bot) wantMore(g *Game) bool {
	if g.locksUp() {
		return b.R.IntN(3) == 0
	}
	return b.R.IntN(2) == 0
}

// take chooses the collect that takes the most cards.
func (b *Bot) take(g *Game) []string {
	opts := g.takes(b.Seat)
	var count [NumKinds]int
	for _, p := range g.Revealed {
		count[g.cell(p).Kind]++
	}
	best, bestN := opts[0], -1
	for _, o := range opts {
		n := 0
		for _, s := range o {
			if s == TakeLocks {
				n += count[Key] + count[Chest]
			} else {
				k, _ := ParseKind(s)
				n += count[k]
			}
		}
		if n > bestN || (n == bestN && b.R.IntN(2) == 0) {
			best, bestN = o, n
		}
	}
	return best
}

// report is what the table says the cards show in a physical game: what
// the bot remembers a card showed while that is still possible (real cards
// do not change), else a possible kind; never one kind twice in a column.
func (b *Bot) report(g *Game, cards []Pos) []Kind {
	out := make([]Kind, len(cards))
	for i, p := range cards {
		opts := g.possible(p)
		if k, ok := b.mem[p]; ok && slices.Contains(opts, k) && !slices.ContainsFunc(cards[:i], func(q Pos) bool {
			return q.Column == p.Column && out[slices.Index(cards, q)] == k
		}) {
			out[i] = k
			continue
		}
		for {
			k := opts[b.R.IntN(len(opts))]
			dup := false
			for j := range i {
				dup = dup || (cards[j].Column == p.Column && out[j] == k)
			}
			if !dup {
				out[i] = k
				break
			}
		}
	}
	return out
}

// Step asks the bot of the seat on turn for its move; false once the game
// has ended.
func Step(g *Game, bots []*Bot) (domain.Actor, Move, bool) {
	if g.Phase == PhaseEnded {
		return domain.Actor{}, Move{}, false
	}
	m, ok := bots[g.Turn].Move(g)
	return domain.Actor{Seat: g.Turn}, m, ok
}

// Observe tells every bot what the last move showed.
func Observe(g *Game, bots []*Bot) {
	for _, b := range bots {
		b.Observe(g)
	}
}
