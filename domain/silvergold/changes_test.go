package silvergold

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
)

// TestChangeLimit: a seat may replace its keep, or this turn's crossing,
// MaxChanges times; the next change is refused with change-limit, legal
// moves no longer offer one, and the next turn starts afresh.
func TestChangeLimit(t *testing.T) {
	t.Run("keep during setup", func(t *testing.T) {
		g, err := New(Standard(), Setup{Mode: Digital, Players: []string{"Ann", "Bob"}, Seed: "changes"})
		require.NoError(t, err)
		d := g.Players[0].Dealt
		keep := func(i int) Move {
			return Move{Type: MoveKeep, Seat: SeatPtr(0), Cards: []string{g.cardID(d[i%2*2]), g.cardID(d[i%2*2+1])}}
		}
		for i := range MaxChanges + 1 { // the first keep, then MaxChanges changes
			ok(t, g, seat(0), keep(i))
		}
		bad(t, g, seat(0), keep(MaxChanges+1), domain.IllegalMove, "change-limit", "seat 0", "20 times", "cap is reached")
		assert.Equal(t, "wait", g.LegalMoves(0).Action, "legal moves offer no further change")
		assert.Equal(t, MoveKeep, g.LegalMoves(1).Action, "the other seat still keeps")
		ok(t, g, seat(1), Move{Type: MoveKeep, Seat: SeatPtr(1), Cards: []string{g.cardID(g.Players[1].Dealt[0]), g.cardID(g.Players[1].Dealt[1])}})
		assert.Equal(t, PhaseCrossing, g.Phase, "the capped keep stands and the game goes on")
		assert.Zero(t, g.Players[0].Changes, "a new turn starts without changes")
	})
	t.Run("crossing during a turn", func(t *testing.T) {
		cat := mkCatalog(12, mkCard("big", Grey, "oooo", "oooo"), mkCard("two", Grey, "oo"))
		g := table(t, cat, [][2]string{{"big", "two"}, {"f05", "f06"}}, "f01", "f02", "f03", "f04")
		reveal(t, g, "D2")
		ok(t, g, seat(0), cross(0, "big", boxes(0, 0, 0, 1)))
		for i := range MaxChanges {
			ok(t, g, seat(0), cross(0, "big", boxes(i%2, 2, i%2, 3)))
		}
		bad(t, g, seat(0), cross(0, "big", boxes(1, 0, 1, 1)), domain.IllegalMove, "change-limit", "crossing", "cap is reached")
		assert.Equal(t, "wait", g.LegalMoves(0).Action)
		requireViewJSON(t, g, "after the changes")
		snap, err := g.Snapshot()
		require.NoError(t, err)
		again, err := Restore(cat, snap)
		require.NoError(t, err)
		assert.Equal(t, MaxChanges, again.Players[0].Changes, "the count survives a restart")
	})
}
