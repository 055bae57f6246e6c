package colorfultreasure

import (
	"testing"

	"github.com/treasury-games/treasury/domain/rulesettest"
)

// TestSnapshotJSONPlain holds Snapshot to json.Marshal of the game after
// every move of bot games of every variant in both modes, with names that
// JSON escapes, and the snapshot read back to the same game.
func TestSnapshotJSONPlain(t *testing.T) {
	playEscaped(t, func(at string, g *Game) {
		rulesettest.SamePlainSnapshot(t, at, g, func(b []byte) (*Game, error) { return Restore(Standard(), b) })
	})
}

// TestSnapshotForeignKind: a collected card of a kind none of the game's
// fails the snapshot as json.Marshal fails it.
func TestSnapshotForeignKind(t *testing.T) {
	g, err := New(Standard(), randomSetup(1, 4, Digital, variants[0]))
	if err != nil {
		t.Fatal(err)
	}
	g.Players[2].Cards = append(g.Players[2].Cards, Card{Wonder: 0, Kind: NumKinds})
	if _, err := g.Snapshot(); err == nil {
		t.Fatal("a snapshot with a card of a foreign kind was written")
	}
}

// BenchmarkSnapshot writes the snapshot the service stores after a move,
// one position after another of recorded 4-player games in both modes.
func BenchmarkSnapshot(b *testing.B) {
	var positions []*Game
	for i := range 2 {
		s := randomSetup(uint64(i), 4, []Mode{Digital, Physical}[i%2], variants[(i+2)%3])
		randomGame(b, s, uint64(i), func(g *Game) { positions = append(positions, g.Clone()) })
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := positions[i%len(positions)].Snapshot(); err != nil {
			b.Fatal(err)
		}
	}
}
