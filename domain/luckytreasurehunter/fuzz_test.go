package luckytreasurehunter

import (
	"math/rand/v2"
	"testing"

	"github.com/treasury-games/treasury/domain"
)

// FuzzApply plays a seeded bot game for a while to reach some state, then
// applies an arbitrary move by an arbitrary actor: no panic, no uncoded
// error, a rejected move changes nothing, an accepted one keeps every card
// in one place.
func FuzzApply(f *testing.F) {
	f.Add(uint64(1), uint8(3), uint16(0), true, int8(0), []byte(`{"type":"place","seat":0,"treasure":"ruby","count":2}`))
	f.Add(uint64(2), uint8(1), uint16(1), true, int8(0), []byte(`{"type":"steal","seat":0,"set":0}`))
	f.Add(uint64(3), uint8(5), uint16(9), false, int8(-1), []byte(`{"type":"roll","faces":["pirate","blank"]}`))
	f.Add(uint64(4), uint8(2), uint16(0), false, int8(-1), []byte(`{"type":"lth_middle","cards":["ruby","ruby","jade"]}`))
	f.Add(uint64(5), uint8(4), uint16(30), true, int8(2), []byte(`{"type":"reroll","seat":2,"dice":9}`))
	f.Add(uint64(6), uint8(0), uint16(12), false, int8(1), []byte(`{"type":"captain","seat":1}`))
	f.Add(uint64(7), uint8(3), uint16(50), true, int8(0), []byte(`{"type":"steal","seat":0,"owner":-2,"set":99}`))
	f.Fuzz(func(t *testing.T, seed uint64, players uint8, steps uint16, digital bool, actorSeat int8, move []byte) {
		n := MinPlayers + int(players)%(MaxPlayers-MinPlayers+1)
		s := Setup{Mode: Physical, Players: botNames[:n], PirateFaces: 1 + int(seed%5)}
		if digital {
			s.Mode, s.Seed = Digital, "fuzz"
		}
		g, err := New(s)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(seed, 1))
		for i := 0; i < int(steps)%300; i++ {
			a, m, ok := Step(g, Bot{R: r}, Table{R: r})
			if !ok {
				break
			}
			if err := g.Play(a, &m); err != nil {
				t.Fatalf("bot move rejected: %v", err)
			}
		}
		actor := domain.Actor{Host: actorSeat < 0, Seat: int(actorSeat)}
		before, _ := g.Snapshot()
		w := wrap(g)
		if _, err := w.Apply(actor, move); err != nil {
			if domain.ErrorCode(err) == domain.Internal {
				t.Fatalf("uncoded error: %v", err)
			}
			after, _ := g.Snapshot()
			if string(before) != string(after) {
				t.Fatalf("rejected move %s changed the game: %v", move, err)
			}
			return
		}
		checkConservation(t, g)
		if _, err := g.AppendView(nil, domain.Public); err != nil {
			t.Fatal(err)
		}
	})
}
