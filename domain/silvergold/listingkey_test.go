package silvergold

import (
	"fmt"
	"testing"

	"github.com/treasury-games/treasury/domain"
)

// TestListingKey plays bot games of both modes, some seats replacing their
// crossings, and holds AppendListingKey to its promise after every move:
// two states of a game with equal keys for a seat list the same moves for
// it. It also asserts that keys are kept across another seat's crossing,
// or the server would build every listing after every move again.
func TestListingKey(t *testing.T) {
	for _, mode := range []Mode{Digital, Physical} {
		kept := 0
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
				seen := map[string]string{} // seat and key -> the listing
				last := make([]string, players+1)
				r := newRand(seed + 7)
				bot, table := Bot{R: newRand(seed)}, &Table{R: newRand(seed + 100)}
				check := func(step int) {
					for seat := -1; seat < players; seat++ {
						key := string(w.AppendListingKey(nil, seat))
						l, err := w.LegalMoves(domain.SeatViewer(seat), seat)
						if err != nil {
							t.Fatal(err)
						}
						k := fmt.Sprint(seat, " ", key)
						if prev, ok := seen[k]; ok && prev != string(l) {
							t.Fatalf("%s, %d players, step %d, seat %d: key %q listed\n%s\nand now\n%s", mode, players, step, seat, key, prev, l)
						}
						seen[k] = string(l)
						if last[seat+1] == key {
							kept++
						}
						last[seat+1] = key
					}
				}
				for step := 0; ; step++ {
					check(step)
					a, m, ok := Step(g, bot, table)
					if !ok {
						break
					}
					if err := g.Play(a, &m); err != nil {
						t.Fatalf("%s step %d: %v", mode, step, err)
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
			}
		}
		if kept == 0 {
			t.Errorf("%s: no listing key was kept from one move to the next", mode)
		}
	}
}
