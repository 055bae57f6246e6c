package colorfultreasure

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/treasury-games/treasury/domain/rulesettest"
)

// TestListingKey plays bot games and holds AppendListingKey to its promise
// after every move (rulesettest.ListingKeys); the seats waiting for their
// turn keep their keys while the phase stays.
func TestListingKey(t *testing.T) {
	kept, checked := rulesettest.KeptListingKeys(func(mode string, n uint64, seed string, keys *rulesettest.ListingKeys) {
		g, err := New(Standard(), Setup{Mode: Mode(mode), Players: []string{"Ann", "Bob", "Cid", "Dee"}, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		var bots []*Bot
		for seat := range g.Players {
			bots = append(bots, NewBot(seat, rand.New(rand.NewPCG(n, uint64(seat)))))
		}
		for step := 0; ; step++ {
			keys.Check(t, wrap(g), fmt.Sprintf("%s game %d, step %d", mode, n, step))
			a, m, ok := Step(g, bots)
			if !ok {
				return
			}
			if err := g.Play(a, &m); err != nil {
				t.Fatalf("%s game %d step %d: %v", mode, n, step, err)
			}
			Observe(g, bots)
		}
	})
	// A waiting seat's listing tells the phase, which most moves of a turn
	// change: about one key in six is kept (one in ten or fewer is a key
	// that says less than it could).
	for mode := range kept {
		if kept[mode] < checked[mode]/10 {
			t.Errorf("%s: %d of %d listing keys kept across a move; want the waiting seats' kept while the phase stays", mode, kept[mode], checked[mode])
		}
	}
}
