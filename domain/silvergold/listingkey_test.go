package silvergold

import (
	"fmt"
	"testing"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/rulesettest"
)

// TestListingKey plays bot games of both modes, some seats replacing their
// crossings, and holds AppendListingKey to its promise after every move:
// two states of a game with equal keys for a seat list the same moves for
// it. It also asserts that keys are kept across another seat's crossing,
// and a waiting seat's across another seat's take, or the server would
// build every listing after every move again.
func TestListingKey(t *testing.T) {
	for _, mode := range []Mode{Digital, Physical} {
		kept, keptWaiting := 0, 0
		for players := 2; players <= MaxPlayers; players++ {
			for seed := range uint64(3) {
				setup := Setup{Mode: mode, Players: []string{"Ann", "Bob", "Cid", "Dee"}[:players]}
				if mode == Digital {
					setup.Seed = fmt.Sprint("listing-key-", seed)
				}
				g, err := New(Standard(), setup)
				if err != nil {
					t.Fatal(err)
				}
				w := wrap(g)
				var keys rulesettest.ListingKeys
				r := newRand(seed + 7)
				bot, table := Bot{R: newRand(seed)}, &Table{R: newRand(seed + 100)}
				check := func(step int) {
					keys.Check(t, w, fmt.Sprintf("%s, %d players, step %d", mode, players, step))
				}
				waiting := func() map[int]string { // the keys of the seats waiting while others take
					keys := map[int]string{}
					for seat := range g.Players {
						if g.Phase == PhaseResolving && !g.takeOwed(seat) {
							keys[seat] = string(g.AppendListingKey(nil, seat))
						}
					}
					return keys
				}
				for step := 0; ; step++ {
					check(step)
					before := waiting()
					a, m, ok := Step(g, bot, table)
					if !ok {
						break
					}
					if err := g.Play(a, &m); err != nil {
						t.Fatalf("%s step %d: %v", mode, step, err)
					}
					for seat, key := range waiting() {
						if key != "" && key == before[seat] {
							keptWaiting++
						}
					}
					// Now and then a seat that crossed replaces its crossing.
					if g.Phase == PhaseCrossing && r.IntN(3) == 0 {
						seat := r.IntN(players)
						if g.Players[seat].Crossed && g.crossOpen(seat) == nil {
							check(step)
							if m, ok := bot.Move(g, seat); ok {
								if err := g.Play(domain.Actor{Seat: seat}, &m); err != nil {
									t.Fatalf("%s step %d, seat %d crossing again: %v", mode, step, seat, err)
								}
							}
						}
					}
				}
				kept += keys.Kept
			}
		}
		if kept == 0 {
			t.Errorf("%s: no listing key was kept from one move to the next", mode)
		}
		if keptWaiting == 0 {
			t.Errorf("%s: no waiting seat's listing key was kept across another seat's take", mode)
		}
	}
}
