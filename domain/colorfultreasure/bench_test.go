package colorfultreasure

import (
	"math/rand/v2"
	"testing"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/rulesettest"
)

// BenchmarkGame plays a whole random 4-player game with bots (target: under
// 1 ms).
func BenchmarkGame(b *testing.B) {
	for _, v := range variants {
		b.Run(string(v), func(b *testing.B) {
			moves := 0
			for i := 0; b.Loop(); i++ {
				s := randomSetup(uint64(i), 4, Digital, v)
				g, _ := New(Standard(), s)
				r := rand.New(rand.NewPCG(uint64(i), 3))
				bots := []*Bot{NewBot(0, r), NewBot(1, r), NewBot(2, r), NewBot(3, r)}
				for {
					actor, m, ok := Step(g, bots)
					if !ok {
						break
					}
					if err := g.Play(actor, &m); err != nil {
						b.Fatal(err)
					}
					Observe(g, bots)
					moves++
				}
			}
			b.ReportMetric(float64(moves)/float64(b.N), "moves/game")
		})
	}
}

// BenchmarkMove applies the moves of recorded 4-player games one by one
// (target: under 5 µs a move).
func BenchmarkMove(b *testing.B) {
	type game struct {
		s   Setup
		log []playedMove
	}
	var games []game
	for i := range 20 {
		s := randomSetup(uint64(i), 4, Digital, variants[i%3])
		_, log := randomGame(b, s, uint64(i), nil)
		games = append(games, game{s, log})
	}
	b.ResetTimer()
	moves := 0
	for i := 0; b.Loop(); i++ {
		gm := games[i%len(games)]
		b.StopTimer()
		g, _ := New(Standard(), gm.s)
		ms := make([]Move, len(gm.log))
		for j := range gm.log {
			ms[j] = gm.log[j].move
		}
		b.StartTimer()
		for j := range ms {
			if err := g.Play(gm.log[j].actor, &ms[j]); err != nil {
				b.Fatal(err)
			}
		}
		moves += len(ms)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(moves), "ns/move")
}

// BenchmarkApply is one move through the domain adapter, JSON in, the
// logged move and events out, and the view the move's answer carries: turns
// that reveal two cards and take nothing, so the game never ends.
func BenchmarkApply(b *testing.B) {
	s := randomSetup(1, 4, Digital, VariantStandard)
	g, _ := New(Standard(), s)
	for c := range g.Grid { // the diamonds on top: row 0
		for r, k := range g.cat.Wonders[c].Cards(false) {
			g.Grid[c][r].Kind = int8(k)
		}
	}
	w := Wrap(g)
	host := domain.Actor{Host: true}
	var flips, collects [4][]byte
	for seat := range 4 {
		flips[seat] = []byte(`{"type":"flip","seat":` + string(rune('0'+seat)) + `,"cards":[{"column":0,"row":0},{"column":1,"row":0}]}`)
		collects[seat] = []byte(`{"type":"collect","seat":` + string(rune('0'+seat)) + `}`)
	}
	var buf []byte
	for i := 0; b.Loop(); i++ {
		m := flips[g.Turn]
		if i%2 == 1 {
			m = collects[g.Turn]
		}
		if _, err := w.Apply(host, m); err != nil {
			b.Fatal(err)
		}
		_ = w.Events()
		buf, _ = w.AppendView(buf[:0], domain.SeatViewer(0))
	}
}

// BenchmarkLegalMovesJSON builds and encodes the listing of the seat on
// turn as the server answers it (GET .../legal-moves and the legal_moves
// event), one position after another of recorded 4-player games in both
// modes, each mode on its own (the load run plays digital games).
func BenchmarkLegalMovesJSON(b *testing.B) {
	for _, mode := range []Mode{Digital, Physical} {
		b.Run(string(mode), func(b *testing.B) {
			var positions []*game
			for i := range 6 {
				s := randomSetup(uint64(i), 4, mode, variants[i%3])
				_, log := randomGame(b, s, uint64(i), nil)
				g, _ := New(Standard(), s)
				for _, pm := range log {
					positions = append(positions, wrap(g.Clone()))
					if err := g.Play(pm.actor, &pm.move); err != nil {
						b.Fatal(err)
					}
				}
			}
			rulesettest.BenchmarkListings(b, positions, func(w *game) int { return w.G.Turn })
		})
	}
}
