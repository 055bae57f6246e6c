package colorfultreasure

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
)

// The standard catalog's columns, left to right, for reading the grids below:
//
//	0 great-wall      key   g b p
//	1 pyramids        chest y b p
//	2 colosseum       key   y g p
//	3 taj-mahal       chest y g b
//	4 petra           key   r b p
//	5 machu-picchu    chest r g p
//	6 chichen-itza    key   r g b
//	7 christ-redeemer chest r y p
//	8 stonehenge      key   r y b
//	9 angkor-wat      chest r y g

// sorted is the grid with every column in catalog order: diamond, key or
// chest, then its three gems.
const sorted = `
	d d d d d d d d d d
	k c k c k c k c k c
	g y y y r r r r r r
	b b g g b g g y y y
	p p p b p p b p b g`

// juniorSorted is sorted without keys and chests.
const juniorSorted = `
	d d d d d d d d d d
	g y y y r r r r r r
	b b g g b g g y y y
	p p p b p p b p b g`

var letters = map[byte]Kind{'d': Diamond, 'k': Key, 'c': Chest, 'r': Red, 'y': Yellow, 'g': Green, 'b': Blue, 'p': Purple}

// newGame creates a game of the variant for players seats (start player 0)
// with its grid drawn in text: one line per row, one letter per column
// (d k c r y g b p; '.' for a place already taken). Each column holds only
// its wonder's cards, each once. A physical game is set up the same way and
// then forgets the face-down cards (the table has not reported them).
func newGame(t *testing.T, mode Mode, variant Variant, players int, grid string, sides ...string) *Game {
	t.Helper()
	s := Setup{Mode: mode, Players: []string{"Ann", "Bob", "Cid", "Dee"}[:players], Variant: variant}
	if mode == Digital {
		s.Seed = "test-seed"
	}
	for i, side := range sides {
		s.Sides[i] = side
	}
	g, err := New(Standard(), s)
	require.NoError(t, err)
	setGrid(t, g, grid)
	if mode == Physical {
		for c := range g.Grid {
			for r := range g.Grid[c] {
				if g.Grid[c][r].State != CellGone {
					g.Grid[c][r].Kind = unknown
				}
			}
		}
	}
	return g
}

func setGrid(t *testing.T, g *Game, grid string) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(grid), "\n")
	require.Len(t, lines, g.Rows(), "the grid has %d rows", g.Rows())
	for r, line := range lines {
		f := strings.Fields(line)
		require.Len(t, f, NumWonders, "row %d", r)
		for c, tok := range f {
			if tok == "." {
				g.Grid[c][r] = Cell{Kind: unknown, State: CellGone}
				continue
			}
			k, ok := letters[tok[0]]
			require.True(t, ok, "row %d column %d: %q", r, c, tok)
			require.True(t, g.cat.Wonders[c].Has(k, g.Junior()), "column %d (%s) has no %s", c, g.wonder(c), k)
			for _, o := range g.Grid[c][:r] {
				require.False(t, o.Kind == int8(k) && o.State != CellGone, "column %d has %s twice", c, k)
			}
			g.Grid[c][r] = Cell{Kind: int8(k)}
		}
	}
}

// give puts cards in front of seat, written "column:kind" ("4:r 0:d").
func give(t *testing.T, g *Game, seat int, cards string) {
	t.Helper()
	for _, f := range strings.Fields(cards) {
		col, k, ok := strings.Cut(f, ":")
		require.True(t, ok, f)
		c, err := strconv.Atoi(col)
		require.NoError(t, err)
		kind, ok := letters[k[0]]
		require.True(t, ok, f)
		g.Players[seat].Cards = append(g.Players[seat].Cards, Card{Wonder: c, Kind: kind})
	}
}

// at reads places written "column.row" ("0.1 3.2").
func at(s string) []Pos {
	var out []Pos
	for _, f := range strings.Fields(s) {
		c, r, _ := strings.Cut(f, ".")
		ci, _ := strconv.Atoi(c)
		ri, _ := strconv.Atoi(r)
		out = append(out, Pos{Column: ci, Row: ri})
	}
	return out
}

func flipMove(seat int, cards string, shows ...Kind) Move {
	return Move{Type: MoveFlip, Seat: SeatPtr(seat), Cards: at(cards), Shows: shows}
}

func collectMove(seat int, take ...string) Move {
	return Move{Type: MoveCollect, Seat: SeatPtr(seat), Take: take}
}

func robCard(seat, target int, wonder string, k Kind) Move {
	return Move{Type: MoveRob, Seat: SeatPtr(seat), Target: SeatPtr(target), Card: &CardRef{Wonder: wonder, Kind: k}}
}

func tokenMove(seat, token int, cards string) Move {
	return Move{Type: MoveUseToken, Seat: SeatPtr(seat), Token: token, Cards: at(cards)}
}

// mustPlay plays m for its seat and fails the test if it is refused.
func mustPlay(t *testing.T, g *Game, m Move) {
	t.Helper()
	require.NoError(t, g.Play(domain.Actor{Seat: *m.Seat}, &m), "%+v", m)
}

// refused plays m and checks it is refused with rule (or code, for a rule
// "" ), says why in every language and changes nothing.
func refused(t *testing.T, g *Game, m Move, rule string) *domain.Error {
	t.Helper()
	before, _ := g.Snapshot()
	err := g.Play(domain.Actor{Seat: *m.Seat}, &m)
	require.Error(t, err, "%+v was accepted", m)
	var de *domain.Error
	require.ErrorAs(t, err, &de)
	if rule != "" {
		require.Equal(t, rule, de.Rule, "%v", err)
	}
	require.NotEmpty(t, de.Reason)
	speaks(t, de.Msg, de.Reason)
	after, _ := g.Snapshot()
	require.JSONEq(t, string(before), string(after), "a refused move changed the game")
	return de
}

// eventTypes returns the types of the last move's events.
func eventTypes(g *Game) []string {
	var out []string
	for _, e := range g.Events() {
		out = append(out, e.Type)
	}
	return out
}

// hand writes seat's cards as "wonder:kind" in order.
func hand(g *Game, seat int) string {
	var s []string
	for _, c := range g.Players[seat].Cards {
		s = append(s, strconv.Itoa(c.Wonder)+":"+c.Kind.String())
	}
	return strings.Join(s, " ")
}
