package luckytreasurehunter

import (
	"fmt"
	"testing"

	"github.com/treasury-games/treasury/domain/rulesettest"
)

// TestSnapshotJSONPlain holds Snapshot to json.Marshal of the game after
// every move of bot games in both modes, with names that JSON escapes, and
// the snapshot read back to the same game.
func TestSnapshotJSONPlain(t *testing.T) {
	playEscaped(t, func(at string, g *Game) { rulesettest.SamePlainSnapshot(t, at, g, Restore) })
}

// TestSnapshotForeignTreasure: a treasure none of the game's fails the
// snapshot as json.Marshal fails it, instead of writing a name it has not.
func TestSnapshotForeignTreasure(t *testing.T) {
	g := position(t, "pile: rrg\n0: hand g\n1: hand r")
	g.Pile[1] = NumTreasures
	if _, err := g.Snapshot(); err == nil {
		t.Fatal("a snapshot with a foreign treasure in the pile was written")
	}
}

// BenchmarkSnapshot writes the snapshot the service stores after a move,
// one position after another of recorded 4-player games in both modes.
func BenchmarkSnapshot(b *testing.B) {
	var positions []*Game
	for i := range 2 {
		randomGame(b, uint64(i), 4, []Mode{Digital, Physical}[i%2], func(g *Game) { positions = append(positions, g.Clone()) })
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := positions[i%len(positions)].Snapshot(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSetupOptionsPlain holds the options Setup writes to json.Marshal of
// optionValues, for games of every Captain Heart and number of pirate
// faces, and a game created from them to the same options.
func TestSetupOptionsPlain(t *testing.T) {
	for heart := range 4 {
		for faces := 1; faces <= 5; faces++ {
			s := randomSetup(1, 4, Digital)
			s.CaptainHeart, s.PirateFaces = heart, faces
			g, err := New(s)
			if err != nil {
				t.Fatal(err)
			}
			req := wrap(g).Setup()
			rulesettest.SamePlainJSON(t, fmt.Sprintf("heart %d faces %d", heart, faces), req.Options, optionValues{CaptainHeart: heart, PirateFaces: faces})
			dg, _, err := NewRules().Create(req)
			if err != nil {
				t.Fatal(err)
			}
			if again := dg.Setup(); string(again.Options) != string(req.Options) {
				t.Fatalf("created from options %s, the game has %s", req.Options, again.Options)
			}
		}
	}
}
