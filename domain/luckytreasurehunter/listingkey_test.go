package luckytreasurehunter

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/treasury-games/treasury/domain/rulesettest"
)

// TestListingKey plays bot games and holds AppendListingKey to its promise
// after every move (rulesettest.ListingKeys); the seats waiting for their
// turn keep their keys, or the server would build every listing after
// every move again.
func TestListingKey(t *testing.T) {
	kept, checked := rulesettest.KeptListingKeys(func(mode string, n uint64, seed string, keys *rulesettest.ListingKeys) {
		g, err := New(Setup{Mode: Mode(mode), Players: []string{"Ann", "Bob", "Cid", "Dee"}, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		bot, table := Bot{R: rand.New(rand.NewPCG(n, 1))}, Table{R: rand.New(rand.NewPCG(n, 2))}
		for step := 0; ; step++ {
			keys.Check(t, wrap(g), fmt.Sprintf("%s game %d, step %d", mode, n, step))
			a, m, ok := Step(g, bot, table)
			if !ok {
				return
			}
			if err := g.Play(a, &m); err != nil {
				t.Fatalf("%s game %d step %d: %v", mode, n, step, err)
			}
		}
	})
	for mode := range kept {
		t.Logf("%s: %d of %d listing keys kept across a move", mode, kept[mode], checked[mode])
		if kept[mode] < checked[mode]/3 {
			t.Errorf("%s: %d of %d listing keys kept across a move; want the waiting seats' kept", mode, kept[mode], checked[mode])
		}
	}
}
