package silvergold

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
)

// fromLegal builds a move from the legal-move listing alone, as a client that
// knows no rule would: a random choice among what is listed, and for a
// crossing the extra boxes its red crosses owe, taken from free_boxes (a
// red cross among them owes one more).
func fromLegal(l Legal, r *rand.Rand) (Move, bool) {
	pick := func(ids []string) string { return ids[r.IntN(len(ids))] }
	switch l.Action {
	case MoveKeep:
		i := r.Perm(len(l.Keep))
		return Move{Type: MoveKeep, Seat: SeatPtr(l.Seat), Cards: []string{l.Keep[i[0]], l.Keep[i[1]]}}, true
	case MoveCross:
		all := append(append([]Placement(nil), l.Placements...), l.Singles...)
		p := all[r.IntN(len(all))]
		m := Move{Type: MoveCross, Seat: SeatPtr(l.Seat), Card: p.Card, Boxes: p.Boxes}
		used := map[Extra]bool{}
		for _, b := range p.Boxes {
			used[Extra{p.Card, b}] = true
		}
		var pool []Extra
		symbol := map[Extra]string{}
		for _, fc := range l.Free {
			for _, fb := range fc.Boxes {
				if e := (Extra{fc.Card, fb.Box}); !used[e] {
					pool, symbol[e] = append(pool, e), fb.Symbol
				}
			}
		}
		for owed := p.Crosses; owed > 0 && len(pool) > 0; owed-- {
			i := r.IntN(len(pool))
			e := pool[i]
			pool = append(pool[:i], pool[i+1:]...)
			m.Extra = append(m.Extra, e)
			if symbol[e] == "cross" {
				owed++
			}
		}
		return m, true
	case MoveTake:
		if len(l.TakeFrom) > 0 && (!l.Deck || r.IntN(2) == 0) {
			return Move{Type: MoveTake, Seat: SeatPtr(l.Seat), From: FromDisplay, Card: pick(l.TakeFrom)}, true
		}
		m := Move{Type: MoveTake, Seat: SeatPtr(l.Seat), From: FromDeck}
		if len(l.DeckCards) > 0 {
			m.Card = pick(l.DeckCards)
		}
		return m, true
	case MoveReveal:
		return Move{Type: MoveReveal, Expedition: pick(l.RevealFrom)}, true
	case MoveDisplay:
		return Move{Type: MoveDisplay, Card: pick(l.DeckCards)}, true
	}
	return Move{}, false
}

// TestLegalMovesSuffice plays random games and, at every position, builds
// moves for every seat and for the table from the legal-move listing alone:
// each must be accepted. Every seat and report the game awaits must be
// listed, and nothing else.
func TestLegalMovesSuffice(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	built := 0
	for seed := uint64(1); seed <= 8; seed++ {
		for _, mode := range []Mode{Digital, Physical} {
			players := 1 + int(seed%4)
			randomGame(t, seed, players, mode, func(g *Game) {
				snap, err := g.Snapshot()
				require.NoError(t, err)
				asked := 0
				for seat := -1; seat < len(g.Players); seat++ {
					l := g.LegalMoves(seat)
					if l.Action == "wait" {
						continue
					}
					// A seat that has kept or crossed may change its mind
					// until everyone has: listed, but not awaited.
					if !l.Crossed && !(l.Action == MoveKeep && g.Players[seat].Kept) {
						asked++
					}
					for try := 0; try < 3; try++ {
						m, ok := fromLegal(l, r)
						require.True(t, ok)
						c, err := Restore(g.cat, snap)
						require.NoError(t, err)
						actor := domain.Actor{Seat: seat}
						if seat < 0 {
							actor = domain.Actor{Host: true}
						}
						if err := c.Play(actor, &m); err != nil {
							t.Fatalf("seed %d %s, seat %d: the move %+v built from the legal moves %+v was refused: %v", seed, mode, seat, m, l, err)
						}
						built++
					}
				}
				if want := len(g.Awaiting()); asked != want {
					t.Fatalf("seed %d %s: legal moves ask %d seats or reports, the game awaits %v", seed, mode, asked, g.Awaiting())
				}
			})
		}
	}
	t.Logf("%d moves built from legal moves alone, all accepted", built)
}

// TestDigitalDeckTakeNamesNoCard: naming the card of a digital deck draw is
// understood, but the rules leave the draw to the server (422, not 400).
func TestDigitalDeckTakeNamesNoCard(t *testing.T) {
	for seed := uint64(1); seed < 50; seed++ {
		var found *Game
		randomGame(t, seed, 2, Digital, func(g *Game) {
			if found == nil && g.Phase == PhaseResolving && g.Resolving >= 0 && g.Players[g.Resolving].Takes > 0 && g.DeckSize() > 0 {
				snap, _ := g.Snapshot()
				found, _ = Restore(g.cat, snap)
			}
		})
		if found != nil {
			bad(t, found, seat(found.Resolving), Move{Type: MoveTake, Seat: SeatPtr(found.Resolving), From: FromDeck, Card: "grey-01"},
				domain.IllegalMove, "digital-draws", "leave out card")
			return
		}
	}
	t.Fatal("no digital game reached a take")
}
