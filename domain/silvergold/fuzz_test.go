package silvergold

import (
	"encoding/json"
	"testing"

	"github.com/treasury-games/treasury/domain"
)

// FuzzApply plays a seeded random game for a while to reach some state, then
// applies an arbitrary move by an arbitrary actor: no panic, and a rejected
// move changes nothing.
func FuzzApply(f *testing.F) {
	f.Add(uint64(1), uint8(3), uint16(10), true, int8(0), []byte(`{"type":"cross","seat":0,"card":"grey-01","boxes":[[0,0]]}`))
	f.Add(uint64(2), uint8(1), uint16(0), false, int8(-1), []byte(`{"type":"keep","seat":0,"cards":["grey-01","grey-02"]}`))
	f.Add(uint64(3), uint8(2), uint16(40), false, int8(-1), []byte(`{"type":"reveal","expedition":"T4"}`))
	f.Add(uint64(4), uint8(4), uint16(90), true, int8(2), []byte(`{"type":"take","seat":2,"from":"deck"}`))
	f.Add(uint64(5), uint8(2), uint16(7), false, int8(-1), []byte(`{"type":"display","card":"purple-12"}`))
	f.Add(uint64(6), uint8(2), uint16(30), true, int8(1), []byte(`{"type":"cross","seat":1,"card":"green-03","boxes":[[0,0],[0,1]],"extra":[{"card":"green-03","box":[1,1]}]}`))
	f.Add(uint64(7), uint8(1), uint16(5), true, int8(0), []byte(`{"type":"cross","seat":0,"card":"","boxes":[[9,-9]]}`))
	f.Fuzz(func(t *testing.T, seed uint64, players uint8, steps uint16, digital bool, actorSeat int8, move []byte) {
		n := 1 + int(players)%MaxPlayers
		mode := Physical
		if digital {
			mode = Digital
		}
		names := []string{"Ann", "Bob", "Cid", "Dee"}[:n]
		s := Setup{Mode: mode, Players: names}
		if digital {
			s.Seed = "fuzz"
		}
		g, err := New(Standard(), s)
		if err != nil {
			t.Fatal(err)
		}
		bot := Bot{R: newRand(seed)}
		table := &Table{R: bot.R}
		for i := 0; i < int(steps)%200; i++ {
			a, m, ok := Step(g, bot, table)
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
		// An accepted move leaves a game that still satisfies the invariants and replays.
		checkInvariants(t, g)
		if _, err := json.Marshal(g.View(domain.Public)); err != nil {
			t.Fatal(err)
		}
	})
}
