package service_test

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/rulesets"
	"github.com/treasury-games/treasury/domain/service"
	"github.com/treasury-games/treasury/storage/sqlite"
)

// TestListingsKept: the listings a service keeps between moves (a seat's is
// built again only when its listing key changed) are those a server that
// never saw the game builds from the store, for every seat after every move
// of whole digital Silver & Gold games of four, seats taking back and
// replacing their crossings on the way; and one seat's listing is kept
// across another seat's crossing.
func TestListingsKept(t *testing.T) {
	ctx := t.Context()
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "treasury.db"))
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	s := service.New(store, rulesets.All()...)
	r := rand.New(rand.NewPCG(27, 2))
	kept := 0
	for game := range 2 {
		c, err := s.Create(ctx, "silver-and-gold", domain.CreateRequest{Mode: domain.Digital, Players: []string{"Ann", "Bob", "Cid", "Dee"}})
		require.NoError(t, err)
		id := c.Game.ID
		last := make([][]byte, 4)
		for move := 0; ; move++ {
			fresh := service.New(store, rulesets.All()...) // reads everything from the store
			for seat := range 4 {
				v := domain.SeatViewer(seat)
				_, got, err := s.LegalMoves(ctx, id, v, seat)
				require.NoError(t, err)
				_, want, err := fresh.LegalMoves(ctx, id, v, seat)
				require.NoError(t, err)
				require.JSONEq(t, string(want), string(got), "game %d, move %d, seat %d", game, move, seat)
				if len(last[seat]) > 0 && len(got) > 0 && &last[seat][0] == &got[0] {
					kept++
				}
				last[seat] = got
			}
			g, err := s.Game(ctx, id, domain.Public)
			require.NoError(t, err)
			if g.Ended {
				break
			}
			// Now and then a seat takes back its latest move, when its
			// listing offers that.
			if r.IntN(4) == 0 {
				seat := r.IntN(4)
				if tb := takeBacks(listed(t, s, id, domain.SeatViewer(seat), seat)); len(tb) > 0 {
					_, err := s.Play(ctx, id, domain.Actor{Seat: seat}, tb[0].Move, domain.PlayOptions{})
					require.NoError(t, err)
					continue
				}
			}
			playFirst(t, s, id, r)
		}
	}
	require.NotZero(t, kept, "no listing was kept from one move to the next")
}
