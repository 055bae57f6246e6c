package colorfultreasure

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/treasury-games/treasury/domain"
)

// FuzzApply applies arbitrary bytes as a move, by any actor, to a game some
// moves into a random game: a refused move is a coded error and changes
// nothing; an accepted one leaves a game that keeps every invariant and
// restores to itself.
func FuzzApply(f *testing.F) {
	for _, s := range []string{
		`{"type":"flip","seat":0,"cards":[{"column":0,"row":0},{"column":1,"row":0}]}`,
		`{"type":"flip","seat":1,"cards":[{"column":4,"row":2}],"shows":["red"]}`,
		`{"type":"collect","seat":0,"take":["red"]}`,
		`{"type":"collect","seat":2,"take":["keys_chests"]}`,
		`{"type":"rob","seat":0,"target":1,"card":{"wonder":"petra","kind":"red"}}`,
		`{"type":"rob","seat":0,"target":1,"diamond_token":"petra"}`,
		`{"type":"use_token","seat":0,"token":1,"cards":[{"column":0,"row":0},{"column":1,"row":0}]}`,
		`{"type":"ct_claim","seat":0,"token":3}`,
		`{"type":"ct_end","seat":1}`,
		`{"type":"flip","seat":0,"cards":[{"column":-1,"row":99}]}`,
	} {
		for k := range 4 {
			f.Add([]byte(s), uint8(k*7), uint8(k))
		}
	}
	f.Fuzz(func(t *testing.T, move []byte, at uint8, pick uint8) {
		mode := []Mode{Digital, Physical}[pick%2]
		s := randomSetup(uint64(pick), 2+int(pick)%3, mode, variants[int(pick/2)%3])
		g, err := New(Standard(), s)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(uint64(at), 1))
		bots := make([]*Bot, len(s.Players))
		for i := range bots {
			bots[i] = NewBot(i, r)
		}
		for range int(at) {
			actor, m, ok := Step(g, bots)
			if !ok {
				break
			}
			if err := g.Play(actor, &m); err != nil {
				t.Fatal(err)
			}
			Observe(g, bots)
		}
		w := Wrap(g)
		before, _ := g.Snapshot()
		for _, actor := range []domain.Actor{{Host: true}, {Seat: int(pick) % len(s.Players)}} {
			_, err := w.Apply(actor, move)
			if err != nil {
				var de *domain.Error
				if !errors.As(err, &de) || de.Reason == "" {
					t.Fatalf("%s: an uncoded error: %v", move, err)
				}
				if after, _ := g.Snapshot(); !bytes.Equal(before, after) {
					t.Fatalf("%s was refused (%v) and changed the game", move, err)
				}
				continue
			}
			checkInvariants(t, g)
			snap, _ := g.Snapshot()
			again, err := Restore(Standard(), snap)
			if err != nil {
				t.Fatal(err)
			}
			if b, _ := again.Snapshot(); !bytes.Equal(b, snap) {
				t.Fatal("a restored game snapshots differently")
			}
			return
		}
	})
}
