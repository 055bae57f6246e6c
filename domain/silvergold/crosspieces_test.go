package silvergold

import (
	"encoding/json"
	"sync"
	"testing"

	"github.com/treasury-games/treasury/domain"
)

// TestCrossPiecesShared lists the crossing seats of a game on a catalog
// whose pieces are not made yet from several goroutines at once, as the
// server's streams do: each gets the plain listing (run it with -race too).
func TestCrossPiecesShared(t *testing.T) {
	cat, err := ParseCatalog(standardCards)
	if err != nil {
		t.Fatal(err)
	}
	g, err := New(cat, Setup{Mode: Digital, Players: []string{"Ann", "Bob", "Cid", "Dee"}, Seed: "pieces"})
	if err != nil {
		t.Fatal(err)
	}
	bot := Bot{R: newRand(5)}
	for g.Phase != PhaseCrossing {
		a, m, ok := Step(g, bot, nil)
		if !ok {
			t.Fatal("the game ended before a crossing")
		}
		if err := g.Play(a, &m); err != nil {
			t.Fatal(err)
		}
	}
	want := make([][]byte, len(g.Players))
	for seat := range g.Players {
		if want[seat], err = json.Marshal(g.LegalMoves(seat)); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			w := wrap(g.Clone())
			for seat := range g.Players {
				got, err := w.LegalMoves(domain.Public, seat)
				if err != nil {
					t.Error(err)
					return
				}
				if string(got) != string(want[seat]) {
					t.Errorf("seat %d: the server's listing\n%s\njson.Marshal\n%s", seat, got, want[seat])
				}
			}
		})
	}
	wg.Wait()
}
