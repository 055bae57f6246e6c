package luckytreasurehunter

import (
	"math/rand/v2"
	"testing"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/rulesettest"
)

// BenchmarkGame plays a whole 6-player digital game of bots, from setup to
// the ranking. Target: under 1 ms.
func BenchmarkGame(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		g, err := New(Setup{Mode: Digital, Players: botNames, Seed: "bench"})
		if err != nil {
			b.Fatal(err)
		}
		for {
			a, m, ok := Step(g, Bot{R: r}, Table{R: r})
			if !ok {
				break
			}
			if err := g.Play(a, &m); err != nil {
				b.Fatal(err)
			}
		}
		_ = g.Score()
	}
}

// BenchmarkMove applies one move (a place, or a steal with its roll) to a
// 6-player game in play. Target: under 5 µs.
func BenchmarkMove(b *testing.B) {
	g, err := New(Setup{Mode: Digital, Players: botNames, Seed: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	// Collect positions and the bot's move in each.
	type step struct {
		state []byte
		actor domain.Actor
		move  Move
	}
	var steps []step
	for {
		a, m, ok := Step(g, Bot{R: r}, Table{R: r})
		if !ok {
			break
		}
		s, _ := g.Snapshot()
		steps = append(steps, step{s, a, m})
		if err := g.Play(a, &m); err != nil {
			b.Fatal(err)
		}
	}
	games := make([]*Game, len(steps))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % len(steps)
		if k == 0 {
			b.StopTimer()
			for j := range steps {
				games[j], _ = Restore(steps[j].state)
			}
			b.StartTimer()
		}
		m := steps[k].move
		if err := games[k].Play(steps[k].actor, &m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLegalMovesJSON builds and encodes the listing of the seat on
// turn as the server answers it, one position after another of recorded
// 4-player games in both modes.
func BenchmarkLegalMovesJSON(b *testing.B) {
	var positions []*game
	for i := range 6 {
		mode := []Mode{Digital, Physical}[i%2]
		_, log := randomGame(b, uint64(i), 4, mode, nil)
		g, err := New(randomSetup(uint64(i), 4, mode))
		if err != nil {
			b.Fatal(err)
		}
		for _, pm := range log {
			positions = append(positions, wrap(g.Clone()))
			if err := g.Play(pm.actor, &pm.move); err != nil {
				b.Fatal(err)
			}
		}
	}
	rulesettest.BenchmarkListings(b, positions, func(w *game) int { return w.G.Turn })
}
