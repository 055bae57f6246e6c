package colorfultreasure

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
)

// TestFinalViewShowsEveryCard: once a digital game has ended, the view says
// what every place of the grid shows, the cards left face down included (a
// player's final screen shows the whole grid, since nothing is secret then);
// before the end, and in a physical game, it says nothing of them.
func TestFinalViewShowsEveryCard(t *testing.T) {
	down := 0
	for i, variant := range variants {
		s := randomSetup(uint64(70+i), 2+i%3, Digital, variant)
		g, _ := randomGame(t, s, uint64(70+i), func(g *Game) {
			if g.Phase == PhaseEnded {
				return
			}
			for _, c := range g.View(domain.Public).Columns {
				require.Nil(t, c.Faces, "the faces of %s before the end", c.Wonder)
			}
		})
		require.Equal(t, PhaseEnded, g.Phase)
		for ci, c := range g.View(domain.HostViewer).Columns {
			require.Len(t, c.Faces, len(c.Cells), c.Wonder)
			for r, cell := range g.Grid[ci] {
				want := "gone"
				if cell.State != CellGone {
					want = Kind(cell.Kind).String()
				}
				if cell.State == CellDown {
					down++
				}
				require.Equal(t, want, c.Faces[r], "%s row %d", c.Wonder, r+1)
			}
		}
	}
	require.Positive(t, down, "games that end with no card face down test nothing")
	g, _ := randomGame(t, randomSetup(80, 2, Physical, VariantStandard), 80, nil)
	require.Equal(t, PhaseEnded, g.Phase)
	for _, c := range g.View(domain.Public).Columns {
		require.Nil(t, c.Faces, "a physical game's faces")
	}
}
