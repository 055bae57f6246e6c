package silvergold

import (
	"testing"

	"github.com/treasury-games/treasury/domain"
)

// midGame returns a 4-player digital game in the crossing phase of round 2.
func midGame(b *testing.B) *Game {
	g, err := New(Standard(), Setup{Mode: Digital, Players: []string{"Ann", "Bob", "Cid", "Dee"}, Seed: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	bot := Bot{R: newRand(9)}
	for g.Round < 2 || g.Phase != PhaseCrossing || g.Players[0].Crossed || len(g.AppendPlacements(nil, 0)) < 4 {
		a, m, _ := Step(g, bot, nil)
		if err := g.Play(a, &m); err != nil {
			b.Fatal(err)
		}
	}
	return g
}

// BenchmarkLegalPlacements lists every placement of the revealed pattern on a
// player's cards, as a bot does every turn.
func BenchmarkLegalPlacements(b *testing.B) {
	g := midGame(b)
	buf := make([]PlacementMask, 0, 64)
	b.ReportAllocs()
	for b.Loop() {
		buf = g.AppendPlacements(buf[:0], 0)
	}
	b.ReportMetric(float64(len(buf)), "placements")
}

// BenchmarkLegalMoves builds the full legal-move listing a frontend asks for.
func BenchmarkLegalMoves(b *testing.B) {
	g := midGame(b)
	b.ReportAllocs()
	for b.Loop() {
		_ = g.LegalMoves(0)
	}
}

// BenchmarkCross applies one crossing (a placement of the pattern, with its
// red-cross chain) to a game in the middle of round 2.
func BenchmarkCross(b *testing.B) {
	g := midGame(b)
	bot := Bot{R: newRand(3)}
	m, _ := bot.Move(g, 0)
	snap, _ := g.Snapshot()
	base, _ := Restore(g.cat, snap)
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		*g = *base
		g.Players = append([]Player(nil), base.Players...)
		for i := range g.Players {
			g.Players[i].Hand = append([]HandCard(nil), base.Players[i].Hand...)
		}
		mv := m
		b.StartTimer()
		if err := g.Play(domain.Actor{Seat: 0}, &mv); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGame plays a whole random 4-player digital game from setup to the
// final ranking, listing legal placements before every crossing.
func BenchmarkGame(b *testing.B) {
	b.ReportAllocs()
	seed := uint64(0)
	for b.Loop() {
		seed++
		g, err := New(Standard(), Setup{Mode: Digital, Players: []string{"Ann", "Bob", "Cid", "Dee"}, Seed: "bench"})
		if err != nil {
			b.Fatal(err)
		}
		bot := Bot{R: newRand(seed)}
		for {
			a, m, ok := Step(g, bot, nil)
			if !ok {
				break
			}
			if err := g.Play(a, &m); err != nil {
				b.Fatal(err)
			}
		}
		if s := g.Score(); len(s.Ranking) != 4 {
			b.Fatal("no ranking")
		}
	}
}

// BenchmarkLegalMovesJSON builds and encodes the listing as the server
// answers it (GET .../legal-moves and the legal_moves event).
func BenchmarkLegalMovesJSON(b *testing.B) {
	g := midGame(b)
	w := wrap(g)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := w.LegalMoves(domain.Public, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCrossingListings builds and encodes, as the server answers
// them, the listing of a seat before its crossing and the one after it:
// the listings of a turn but the table's.
func BenchmarkCrossingListings(b *testing.B) {
	g := midGame(b)
	m, _ := Bot{R: newRand(3)}.Move(g, 0)
	after := g.Clone()
	if err := after.Play(domain.Actor{Seat: 0}, &m); err != nil {
		b.Fatal(err)
	}
	before, crossed := wrap(g), wrap(after)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := before.LegalMoves(domain.Public, 0); err != nil {
			b.Fatal(err)
		}
		if _, err := crossed.LegalMoves(domain.Public, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkListingKey makes a seat's listing key, which the server makes
// for every listing read to know whether the one it keeps still holds.
func BenchmarkListingKey(b *testing.B) {
	g := midGame(b)
	buf := make([]byte, 0, 256)
	b.ReportAllocs()
	for b.Loop() {
		buf = g.AppendListingKey(buf[:0], 0)
	}
}

// BenchmarkCopy makes the copy of a game the server reads listings from
// while the game's next moves are on their way to the store: restored from
// its snapshot, as it was, and cloned (domain.Cloner), as it is.
func BenchmarkCopy(b *testing.B) {
	g := midGame(b)
	snap, err := g.Snapshot()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("restore", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Restore(g.cat, snap); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("clone", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = g.Clone()
		}
	})
}
