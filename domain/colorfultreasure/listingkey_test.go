package colorfultreasure

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/treasury-games/treasury/domain"
)

// TestListingKey plays bot games and, after every move, holds
// AppendListingKey to its promise (equal keys for a seat list the same for
// it) and counts the keys a move left as they were: the seats waiting for
// their turn keep theirs while the phase stays, or the server would build every listing after
// every move again.
func TestListingKey(t *testing.T) {
	for _, mode := range []Mode{Digital, Physical} {
		kept, checked := 0, 0
		for seed := range uint64(3) {
			setup := Setup{Mode: mode, Players: []string{"Ann", "Bob", "Cid", "Dee"}}
			if mode == Digital {
				setup.Seed = fmt.Sprint("listing-key-", seed)
			}
			g, err := New(Standard(), setup)
			if err != nil {
				t.Fatal(err)
			}
			w := wrap(g)
			seen := map[string]string{}
			last := map[int]string{}
			var bots []*Bot
			for seat := range g.Players {
				bots = append(bots, NewBot(seat, rand.New(rand.NewPCG(seed, uint64(seat)))))
			}
			for step := 0; ; step++ {
				for seat := -1; seat < len(g.Players); seat++ {
					key := string(w.AppendListingKey(nil, seat))
					l, err := w.LegalMoves(domain.SeatViewer(seat), seat)
					if err != nil {
						t.Fatal(err)
					}
					k := fmt.Sprint(seat, " ", key)
					if prev, ok := seen[k]; ok && prev != string(l) {
						t.Fatalf("%s game %d, step %d, seat %d: key %q listed\n%s\nand now\n%s", mode, seed, step, seat, key, prev, l)
					}
					seen[k] = string(l)
					if step > 0 && last[seat] == key {
						kept++
					}
					checked++
					last[seat] = key
				}
				a, m, ok := Step(g, bots)
				if !ok {
					break
				}
				if err := g.Play(a, &m); err != nil {
					t.Fatalf("%s game %d step %d: %v", mode, seed, step, err)
				}
				Observe(g, bots)
			}
		}
		// A waiting seat's listing tells the phase, which most moves of a
		// turn change: about one key in six is kept (one in ten or fewer
		// is a key that says less than it could).
		if kept < checked/10 {
			t.Errorf("%s: %d of %d listing keys kept across a move; want the waiting seats' kept while the phase stays", mode, kept, checked)
		}
	}
}
