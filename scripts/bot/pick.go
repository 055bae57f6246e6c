package main

import (
	"math/rand/v2"

	"github.com/treasury-games/treasury/api/client"
	"github.com/treasury-games/treasury/api/models"
)

// A picker chooses one of the moves a legal-moves answer lists, or none when
// it asks for nothing now.
type picker func(l models.LegalMoves, r *rand.Rand) (move any, ok bool, err error)

// pickListed plays any ruleset from its listing alone, in the table language
// every ruleset speaks (client.Table): it knows no rule of any game and
// builds no move of its own. When the listed seat (or the host) is awaited,
// it takes one of the listed moves at random and completes it, where the
// entry asks, with parts of the listing's pools chosen at random: the boxes
// a red cross owes, the cards to flip and what each shows, the faces of the
// dice the table rolled. Moves that are listed but not owed (replacing a
// crossing already made) it leaves alone, and it makes no correction (a
// take-back, a mis-draw report).
func pickListed(l models.LegalMoves, r *rand.Rand) (any, bool, error) {
	t, err := client.ReadTable(l)
	if err != nil {
		return nil, false, err
	}
	moves := t.Forward()
	if !t.Owed() || len(moves) == 0 {
		return nil, false, nil
	}
	e := moves[r.IntN(len(moves))]
	return t.Complete(e, func(n int) int {
		if r.IntN(2) == 0 {
			return -1 // stop once the minimum is met
		}
		return r.IntN(n)
	}), true, nil
}
