package silvergold

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
)

// The rule tests play physical games on small hand-made catalogs, so that each
// test decides exactly which cards lie where and which pattern comes up.

var host = domain.Actor{Host: true}

func seat(i int) domain.Actor { return domain.Actor{Seat: i} }

// mkCard draws a card from its grid rows in catalog notation ("xo.", "ooc").
func mkCard(id string, col Colour, rows ...string) Card {
	c := Card{ID: id, Colour: col, Rows: len(rows), Cols: len(rows[0])}
	for r, row := range rows {
		for k, ch := range row {
			bit := Mask(1) << (r*GridStride + k)
			switch ch {
			case 'o':
				c.Cells[r][k] = Blank
			case 'c':
				c.Cells[r][k], c.Coins = Coin, c.Coins|bit
			case 'p':
				c.Cells[r][k], c.Palms = Palm, c.Palms|bit
			case 'x':
				c.Cells[r][k], c.Crosses = Cross, c.Crosses|bit
			default:
				continue
			}
			c.Boxes |= bit
		}
	}
	c.Value = c.Boxes.Count()
	return c
}

func sealed(c Card, col Colour, points int) Card {
	c.Seal = &Seal{Colour: col, Points: points}
	return c
}

// mkCatalog makes a catalog of the given cards plus blank two-box fillers
// f01…fNN, so that there is a deck to draw from.
func mkCatalog(fillers int, cards ...Card) *Catalog {
	for i := 1; i <= fillers; i++ {
		cards = append(cards, mkCard(fmt.Sprintf("f%02d", i), Grey, "oo"))
	}
	c := &Catalog{Name: "test", Hash: "test", Cards: cards, byID: map[string]int{}}
	for i, card := range cards {
		c.byID[card.ID] = i
	}
	c.derive()
	return c
}

// table sets up a physical game: each seat keeps hands[i], the table lays out
// display, and round 1 waits for its first reveal.
func table(t *testing.T, cat *Catalog, hands [][2]string, display ...string) *Game {
	t.Helper()
	names := []string{"Ann", "Bob", "Cid", "Dee"}[:len(hands)]
	g, err := New(cat, Setup{Mode: Physical, Players: names})
	require.NoError(t, err)
	for i, h := range hands {
		ok(t, g, seat(i), Move{Type: MoveKeep, Seat: SeatPtr(i), Cards: []string{h[0], h[1]}})
	}
	for _, d := range display {
		ok(t, g, host, Move{Type: MoveDisplay, Card: d})
	}
	require.Equal(t, PhaseReveal, g.Phase, "after setup the table reveals")
	return g
}

func ok(t *testing.T, g *Game, a domain.Actor, m Move) {
	t.Helper()
	require.NoError(t, g.Play(a, &m))
}

// bad asserts that m is rejected with code and (for illegal moves) rule, that
// the reason mentions each of words, and that the game did not change.
func bad(t *testing.T, g *Game, a domain.Actor, m Move, code domain.Code, rule string, words ...string) {
	t.Helper()
	before, _ := g.Snapshot()
	err := g.Play(a, &m)
	require.Error(t, err)
	refusalSaysInGerman(t, err)
	assert.Equal(t, code, domain.ErrorCode(err), "code of %v", err)
	if rule != "" {
		assert.Equal(t, rule, domain.ErrorRule(err), "rule of %v", err)
	}
	for _, w := range words {
		assert.Contains(t, domain.ErrorReason(err), w)
	}
	after, _ := g.Snapshot()
	require.Equal(t, string(before), string(after), "a rejected move changed the game")
}

func reveal(t *testing.T, g *Game, code string) {
	t.Helper()
	ok(t, g, host, Move{Type: MoveReveal, Expedition: code})
}

// cross builds a cross move; extras are "card@r,c".
func cross(s int, card string, boxes []Pos, extras ...string) Move {
	m := Move{Type: MoveCross, Seat: SeatPtr(s), Card: card, Boxes: boxes}
	for _, e := range extras {
		id, at, _ := strings.Cut(e, "@")
		var p Pos
		fmt.Sscanf(at, "%d,%d", &p.Row, &p.Col)
		m.Extra = append(m.Extra, Extra{Card: id, Box: p})
	}
	return m
}

func boxes(rc ...int) []Pos {
	var out []Pos
	for i := 0; i+1 < len(rc); i += 2 {
		out = append(out, Pos{rc[i], rc[i+1]})
	}
	return out
}

func hand(g *Game, s int, id string) HandCard {
	p := &g.Players[s]
	return p.Hand[g.handIndex(p, id)]
}

func TestCrossPattern(t *testing.T) {
	cat := mkCatalog(12,
		mkCard("wide", Grey, "oooo", "oo.o", "oooo"),
		mkCard("other", Green, "oo", "oo"),
		mkCard("far", Green, "ooo"),
	)
	newGame := func(t *testing.T, pattern string) *Game {
		g := table(t, cat, [][2]string{{"wide", "other"}}, "f01", "f02", "f03", "f04")
		reveal(t, g, pattern)
		return g
	}
	tests := []struct {
		name    string
		pattern string
		move    Move
		code    domain.Code
		rule    string
		words   []string
	}{
		{name: "straight three across", pattern: "I3", move: cross(0, "wide", boxes(0, 0, 0, 1, 0, 2))},
		{name: "straight three down", pattern: "I3", move: cross(0, "wide", boxes(0, 0, 1, 0, 2, 0))},
		{name: "L-four turned and mirrored", pattern: "L4", move: cross(0, "wide", boxes(0, 3, 1, 3, 2, 3, 2, 2))},
		{name: "T-four upside down", pattern: "T4", move: cross(0, "wide", boxes(1, 1, 2, 0, 2, 1, 2, 2))},
		{name: "an L is not a T", pattern: "T4", move: cross(0, "wide", boxes(1, 0, 2, 0, 2, 1, 2, 2)), code: domain.IllegalMove, rule: "pattern-shape", words: []string{"T-four (T4)"}},
		{name: "T-four fits", pattern: "T4", move: cross(0, "wide", boxes(2, 0, 2, 1, 2, 2, 1, 1))},
		{name: "single box instead of the pattern", pattern: "O4", move: cross(0, "other", boxes(1, 1))},
		{name: "square where it fits", pattern: "O4", move: cross(0, "wide", boxes(0, 0, 0, 1, 1, 0, 1, 1))},
		{name: "square over a hole", pattern: "O4", move: cross(0, "wide", boxes(0, 1, 0, 2, 1, 1, 1, 2)), code: domain.IllegalMove, rule: "box-on-card", words: []string{"wide has no box at (1,2)"}},
		{name: "box off the grid", pattern: "D2", move: cross(0, "wide", boxes(2, 3, 2, 4)), code: domain.IllegalMove, rule: "box-on-card", words: []string{"off wide"}},
		{name: "negative box", pattern: "D2", move: cross(0, "wide", boxes(-1, 0, 0, 0)), code: domain.IllegalMove, rule: "box-on-card"},
		{name: "too few boxes", pattern: "I3", move: cross(0, "wide", boxes(0, 0, 0, 1)), code: domain.IllegalMove, rule: "pattern-shape", words: []string{"covers 3 boxes and you named 2"}},
		{name: "wrong shape", pattern: "I3", move: cross(0, "wide", boxes(0, 0, 0, 1, 1, 1)), code: domain.IllegalMove, rule: "pattern-shape", words: []string{"straight three"}},
		{name: "box named twice", pattern: "I3", move: cross(0, "wide", boxes(0, 0, 0, 0, 0, 1)), code: domain.IllegalMove, rule: "box-once"},
		{name: "pattern split over two cards is not allowed", pattern: "D2", move: Move{Type: MoveCross, Seat: SeatPtr(0), Card: "wide", Boxes: boxes(0, 0), Extra: []Extra{{Card: "other", Box: Pos{0, 0}}}}, code: domain.IllegalMove, rule: "red-cross-chain"},
		{name: "a card the player does not hold", pattern: "D2", move: cross(0, "far", boxes(0, 0, 0, 1)), code: domain.IllegalMove, rule: "own-card", words: []string{"far is not one of seat 0's cards", "wide and other"}},
		{name: "a card that does not exist", pattern: "D2", move: cross(0, "nope", boxes(0, 0, 0, 1)), code: domain.Invalid, words: []string{`"nope"`}},
		{name: "nothing named", pattern: "D2", move: cross(0, "wide", nil), code: domain.IllegalMove, rule: "cross-something"},
		{name: "seat that does not exist", pattern: "D2", move: cross(3, "wide", boxes(0, 0)), code: domain.Invalid, words: []string{"seat 3 does not exist"}},
		{name: "no seat", pattern: "D2", move: Move{Type: MoveCross, Card: "wide", Boxes: boxes(0, 0)}, code: domain.Invalid},
		{name: "field of another move", pattern: "D2", move: Move{Type: MoveCross, Seat: SeatPtr(0), Card: "wide", Boxes: boxes(0, 0), From: "deck"}, code: domain.Invalid},
		{name: "unknown move type", pattern: "D2", move: Move{Type: "flip"}, code: domain.Invalid, words: []string{`"flip"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := newGame(t, tc.pattern)
			if tc.code == "" {
				ok(t, g, seat(0), tc.move)
				set := Mask(0)
				for _, b := range tc.move.Boxes {
					bit, _ := b.Bit()
					set |= bit
				}
				// Solo game: the turn resolved and the next reveal is owed.
				assert.Equal(t, set, hand(g, 0, tc.move.Card).Crossed)
				assert.Equal(t, PhaseReveal, g.Phase)
				return
			}
			bad(t, g, seat(0), tc.move, tc.code, tc.rule, tc.words...)
		})
	}
	t.Run("crossed box cannot be crossed again", func(t *testing.T) {
		g := newGame(t, "D2")
		ok(t, g, seat(0), cross(0, "other", boxes(0, 0, 0, 1)))
		reveal(t, g, "I3")
		bad(t, g, seat(0), cross(0, "other", boxes(0, 1)), domain.IllegalMove, "box-once", "(0,1) of other is already crossed")
	})
}

func TestRedCrossChain(t *testing.T) {
	cat := mkCatalog(12,
		mkCard("red", Grey, "xxo", "ooo"),
		mkCard("blue", Green, "xo", "co"),
		mkCard("tiny", Grey, "xo"),
		mkCard("last", Grey, "o"),
	)
	t.Run("chain into the other card", func(t *testing.T) {
		g := table(t, cat, [][2]string{{"red", "blue"}}, "f01", "f02", "f03", "f04")
		reveal(t, g, "D2")
		// (0,0) and (0,1) are red crosses: two extra boxes; blue (0,0) is a red cross too: a third.
		ok(t, g, seat(0), cross(0, "red", boxes(0, 0, 0, 1), "blue@0,0", "blue@1,0", "red@1,2"))
		assert.Equal(t, Mask(0x43), hand(g, 0, "red").Crossed, "red (0,0), (0,1) and (1,2)")
		assert.True(t, hand(g, 0, "blue").Crossed.Has(Pos{1, 0}))
		assert.Equal(t, 1, g.Players[0].Coins, "the coin crossed in the chain counts")
	})
	t.Run("extras in any order", func(t *testing.T) {
		g := table(t, cat, [][2]string{{"red", "blue"}}, "f01", "f02", "f03", "f04")
		reveal(t, g, "D2")
		ok(t, g, seat(0), cross(0, "red", boxes(0, 0, 0, 1), "red@1,2", "blue@1,0", "blue@0,0"))
	})
	for _, tc := range []struct {
		name   string
		move   Move
		words  []string
		rule   string
		wanted domain.Code
	}{
		{"one extra short", cross(0, "red", boxes(0, 0, 0, 1), "blue@1,0"), []string{"demand 2 extra boxes, and you named 1", "add 1 more box anywhere"}, "red-cross-chain", domain.IllegalMove},
		{"chain forgotten", cross(0, "red", boxes(0, 0, 0, 1)), []string{"demand 2"}, "red-cross-chain", domain.IllegalMove},
		{"one extra too many", cross(0, "red", boxes(1, 0, 1, 1), "blue@1,0"), []string{"only when a red cross demands"}, "red-cross-chain", domain.IllegalMove},
		{"extra not demanded after the chain ends", cross(0, "red", boxes(0, 1, 1, 1), "blue@1,0", "blue@1,1"), []string{"demand 1 extra box, and you named 2"}, "red-cross-chain", domain.IllegalMove},
		{"extra on a crossed box of the move", cross(0, "red", boxes(0, 0, 0, 1), "red@0,0", "blue@1,0"), []string{"you named box (0,0) of red twice (in boxes and in extra)"}, "box-once", domain.IllegalMove},
		{"extra named twice", cross(0, "red", boxes(0, 0, 0, 1), "blue@1,0", "blue@1,0"), []string{"you named box (1,0) of blue twice (in extra)"}, "box-once", domain.IllegalMove},
		{"extra off the card", cross(0, "red", boxes(0, 1, 1, 1), "blue@2,0"), []string{"off blue"}, "box-on-card", domain.IllegalMove},
		{"extra on a card not held", cross(0, "red", boxes(0, 1, 1, 1), "tiny@0,1"), []string{"tiny"}, "own-card", domain.IllegalMove},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := table(t, cat, [][2]string{{"red", "blue"}}, "f01", "f02", "f03", "f04")
			reveal(t, g, "D2")
			bad(t, g, seat(0), tc.move, tc.wanted, tc.rule, tc.words...)
		})
	}
	t.Run("chain that runs out of boxes stops", func(t *testing.T) {
		g := table(t, cat, [][2]string{{"tiny", "last"}}, "f01", "f02", "f03", "f04")
		reveal(t, g, "D2")
		// tiny's red cross demands one box: "last" (0,0) is the only one left.
		bad(t, g, seat(0), cross(0, "tiny", boxes(0, 0, 0, 1)), domain.IllegalMove, "red-cross-chain", "add 1 more")
		ok(t, g, seat(0), cross(0, "tiny", boxes(0, 0, 0, 1), "last@0,0"))
		assert.Equal(t, PhaseResolving, g.Phase, "both cards completed: replacements are owed")
	})
	t.Run("chain with no box left at all ends early", func(t *testing.T) {
		cat := mkCatalog(12, mkCard("xx", Grey, "xx"), mkCard("single", Grey, "o"))
		g := table(t, cat, [][2]string{{"xx", "single"}}, "f01", "f02", "f03", "f04")
		reveal(t, g, "D2")
		// Two red crosses demand two boxes; only one is left anywhere.
		ok(t, g, seat(0), cross(0, "xx", boxes(0, 0, 0, 1), "single@0,0"))
	})
}

func TestCoinsAndCups(t *testing.T) {
	cat := mkCatalog(16,
		mkCard("c4", Grey, "cc", "cc"),
		mkCard("c4b", Grey, "cc", "cc"),
		mkCard("c4c", Grey, "cc", "cc"),
		mkCard("big1", Orange, "oooo", "oooo", "oooo"),
		mkCard("big2", Orange, "oooo", "oooo", "oooo"),
		mkCard("big3", Orange, "oooo", "oooo", "oooo"),
	)
	t.Run("a completed row earns the highest cup at resolution", func(t *testing.T) {
		g := table(t, cat, [][2]string{{"c4", "big1"}}, "f01", "f02", "f03", "f04")
		reveal(t, g, "O4")
		ok(t, g, seat(0), cross(0, "c4", boxes(0, 0, 0, 1, 1, 0, 1, 1)))
		assert.Equal(t, 4, g.Players[0].Coins)
		assert.Equal(t, []int{6}, g.Players[0].Cups)
		assert.Equal(t, []int{5, 4, 3, 2, 1}, g.Cups)
	})
	t.Run("the 13th coin is forfeited", func(t *testing.T) {
		g := table(t, cat, [][2]string{{"c4", "big1"}}, "f01", "f02", "f03", "f04")
		g.Players[0].Coins = 11
		g.Players[0].Cups = []int{6, 5}
		g.Cups = []int{4, 3, 2, 1}
		reveal(t, g, "O4")
		ok(t, g, seat(0), cross(0, "c4", boxes(0, 0, 0, 1, 1, 0, 1, 1)))
		assert.Equal(t, 12, g.Players[0].Coins)
		assert.Equal(t, []int{6, 5, 4}, g.Players[0].Cups, "the third row completes once")
	})
	t.Run("a row completed when the cups are gone earns nothing", func(t *testing.T) {
		g := table(t, cat, [][2]string{{"c4", "big1"}, {"big2", "big3"}}, "f01", "f02", "f03", "f04")
		g.Players[1].Cups = []int{6, 5, 4}
		g.Players[0].Cups = []int{3, 2, 1}
		g.Players[0].Coins = 4 // shown on the sheet: only the ones that matter here
		g.Cups = []int{}
		reveal(t, g, "O4")
		ok(t, g, seat(0), cross(0, "c4", boxes(0, 0, 0, 1, 1, 0, 1, 1)))
		ok(t, g, seat(1), cross(1, "big2", boxes(0, 0)))
		assert.Equal(t, 8, g.Players[0].Coins)
		assert.Equal(t, []int{3, 2, 1}, g.Players[0].Cups)
		assert.Empty(t, g.Cups)
	})
	t.Run("resolution order from the start player decides who gets the 6", func(t *testing.T) {
		for start := 0; start < 2; start++ {
			g := table(t, cat, [][2]string{{"c4", "big1"}, {"c4b", "big2"}}, "f01", "f02", "f03", "f04")
			g.Start = start
			reveal(t, g, "O4")
			ok(t, g, seat(1), cross(1, "c4b", boxes(0, 0, 0, 1, 1, 0, 1, 1)))
			ok(t, g, seat(0), cross(0, "c4", boxes(0, 0, 0, 1, 1, 0, 1, 1)))
			// Both completed a row and a card; the start player resolves first.
			require.Equal(t, []Awaited{{Actor: "seat", Seat: SeatPtr(start), Action: MoveTake, Count: 1}}, g.Awaiting())
			assert.Equal(t, []int{6}, g.Players[start].Cups, "start %d", start)
			assert.Empty(t, g.Players[1-start].Cups, "the other player has not resolved yet")
			ok(t, g, seat(start), Move{Type: MoveTake, Seat: SeatPtr(start), From: FromDeck, Card: "f05"})
			ok(t, g, seat(1-start), Move{Type: MoveTake, Seat: SeatPtr(1 - start), From: FromDeck, Card: "f06"})
			assert.Equal(t, []int{5}, g.Players[1-start].Cups)
		}
	})
	t.Run("two rows completed in one turn by two players", func(t *testing.T) {
		g := table(t, cat, [][2]string{{"big1", "c4"}, {"big2", "c4b"}, {"big3", "c4c"}}, "f01", "f02", "f03", "f04")
		g.Start = 2
		for i := range g.Players {
			g.Players[i].Coins = 4 * i // seat 0 starts its first row, seat 1 its second, seat 2 its third
		}
		reveal(t, g, "O4")
		for i, c := range []string{"c4", "c4b", "c4c"} {
			ok(t, g, seat(i), cross(i, c, boxes(0, 0, 0, 1, 1, 0, 1, 1)))
		}
		// Resolution: seat 2, then 0, then 1. One coin row each: cups 6, 5, 4.
		for _, s := range []int{2, 0, 1} {
			ok(t, g, seat(s), Move{Type: MoveTake, Seat: SeatPtr(s), From: FromDeck, Card: fmt.Sprintf("f%02d", 5+s)})
		}
		assert.Equal(t, []int{5}, g.Players[0].Cups)
		assert.Equal(t, []int{4}, g.Players[1].Cups)
		assert.Equal(t, []int{6}, g.Players[2].Cups)
		assert.Equal(t, []int{4, 8, 12}, []int{g.Players[0].Coins, g.Players[1].Coins, g.Players[2].Coins})
	})
}

func TestPalms(t *testing.T) {
	cat := mkCatalog(12,
		mkCard("palmy", Grey, "pp", "oo"),
		mkCard("palm2", Grey, "po"),
		mkCard("d1", Green, "po"), mkCard("d2", Green, "po"), mkCard("d3", Green, "oo"), mkCard("d4", Green, "po"),
	)
	t.Run("palm scores one plus the palms of the display, not the hands", func(t *testing.T) {
		g := table(t, cat, [][2]string{{"palmy", "palm2"}}, "d1", "d2", "d3", "d4")
		reveal(t, g, "D2")
		ok(t, g, seat(0), cross(0, "palmy", boxes(0, 0, 0, 1)))
		assert.Equal(t, []int{4, 4}, g.Players[0].Palms, "1 + 3 display palms each; palm2 in hand does not count")
	})
	t.Run("the fifth palm scores nothing", func(t *testing.T) {
		g := table(t, cat, [][2]string{{"palmy", "palm2"}}, "d1", "d2", "d3", "f01")
		g.Players[0].Palms = []int{1, 1, 1}
		reveal(t, g, "D2")
		ok(t, g, seat(0), cross(0, "palmy", boxes(0, 0, 0, 1)))
		assert.Equal(t, []int{1, 1, 1, 3}, g.Players[0].Palms)
	})
	t.Run("replacing a crossing gives its palms back", func(t *testing.T) {
		g := table(t, cat, [][2]string{{"palmy", "palm2"}, {"f05", "f06"}}, "d1", "d2", "d3", "f01")
		reveal(t, g, "D2")
		ok(t, g, seat(0), cross(0, "palmy", boxes(0, 0, 0, 1)))
		require.Equal(t, []int{3, 3}, g.Players[0].Palms)
		ok(t, g, seat(0), cross(0, "palmy", boxes(1, 0, 1, 1)))
		assert.Equal(t, []int{}, g.Players[0].Palms)
		assert.Equal(t, Mask(0b11_0000), hand(g, 0, "palmy").Crossed)
		assert.Equal(t, PhaseCrossing, g.Phase, "seat 1 has not crossed: still action 2")
	})
}

func TestResolution(t *testing.T) {
	cat := mkCatalog(12,
		mkCard("g1", Grey, "oo"), mkCard("g2", Grey, "oo"),
		mkCard("h1", Green, "ooo"), mkCard("h2", Green, "ooo"),
		mkCard("d1", Orange, "o"), mkCard("d2", Orange, "o"), mkCard("d3", Orange, "o"), mkCard("d4", Orange, "o"),
	)
	t.Run("both cards completed in one turn: two replacements", func(t *testing.T) {
		cat := mkCatalog(12, mkCard("x1", Grey, "xo"), mkCard("o1", Grey, "o"))
		g := table(t, cat, [][2]string{{"x1", "o1"}}, "f01", "f02", "f03", "f04")
		reveal(t, g, "D2")
		ok(t, g, seat(0), cross(0, "x1", boxes(0, 0, 0, 1), "o1@0,0"))
		assert.Equal(t, []Awaited{{Actor: "seat", Seat: SeatPtr(0), Action: MoveTake, Count: 2}}, g.Awaiting())
		assert.Len(t, g.Players[0].Pile, 2)
		ok(t, g, seat(0), Move{Type: MoveTake, Seat: SeatPtr(0), From: FromDisplay, Card: "f02"})
		ok(t, g, seat(0), Move{Type: MoveTake, Seat: SeatPtr(0), From: FromDisplay, Card: "f03"})
		// Only now is the display refilled: the table owes two cards.
		assert.Equal(t, []Awaited{{Actor: domain.ActorHost, Action: MoveDisplay, Count: 2}}, g.Awaiting())
	})
	t.Run("display refilled after each player and not before", func(t *testing.T) {
		g := table(t, cat, [][2]string{{"g1", "h1"}, {"g2", "h2"}}, "d1", "d2", "d3", "d4")
		reveal(t, g, "D2")
		ok(t, g, seat(0), cross(0, "g1", boxes(0, 0, 0, 1)))
		ok(t, g, seat(1), cross(1, "g2", boxes(0, 0, 0, 1)))
		bad(t, g, seat(0), cross(0, "h1", boxes(0, 0)), domain.IllegalMove, "crossing-locked", "your crossing is locked: everyone has crossed and the turn has resolved")
		ok(t, g, seat(0), Move{Type: MoveTake, Seat: SeatPtr(0), From: FromDisplay, Card: "d1"})
		// Seat 1 may not take before the display is topped up.
		bad(t, g, seat(1), Move{Type: MoveTake, Seat: SeatPtr(1), From: FromDisplay, Card: "d2"}, domain.IllegalMove, "take-when-owed", "the table to report 1 display card")
		ok(t, g, host, Move{Type: MoveDisplay, Card: "f01"})
		bad(t, g, host, Move{Type: MoveDisplay, Card: "f02"}, domain.IllegalMove, "display-when-owed", "no display card is owed now")
		ok(t, g, seat(1), Move{Type: MoveTake, Seat: SeatPtr(1), From: FromDisplay, Card: "f01"})
		ok(t, g, host, Move{Type: MoveDisplay, Card: "f02"})
		assert.Equal(t, PhaseReveal, g.Phase)
		assert.Equal(t, 1, g.Start, "the start player moved on")
		assert.Equal(t, 2, g.Turn)
	})
	t.Run("take only what is owed and only from where it is", func(t *testing.T) {
		g := table(t, cat, [][2]string{{"g1", "h1"}, {"g2", "h2"}}, "d1", "d2", "d3", "d4")
		reveal(t, g, "D2")
		bad(t, g, seat(0), Move{Type: MoveTake, Seat: SeatPtr(0), From: FromDeck, Card: "f01"}, domain.IllegalMove, "take-when-owed")
		ok(t, g, seat(0), cross(0, "g1", boxes(0, 0, 0, 1)))
		ok(t, g, seat(1), cross(1, "h2", boxes(0, 0, 0, 1)))
		bad(t, g, seat(1), Move{Type: MoveTake, Seat: SeatPtr(1), From: FromDeck, Card: "f01"}, domain.IllegalMove, "take-when-owed", "seat 1 owes no replacement")
		bad(t, g, seat(0), Move{Type: MoveTake, Seat: SeatPtr(0), From: FromDisplay, Card: "f01"}, domain.IllegalMove, "take-from-display", "f01 is not in the display")
		bad(t, g, seat(0), Move{Type: MoveTake, Seat: SeatPtr(0), From: FromDeck, Card: "d1"}, domain.IllegalMove, "card-in-play", "display")
		bad(t, g, seat(0), Move{Type: MoveTake, Seat: SeatPtr(0), From: FromDeck, Card: "h2"}, domain.IllegalMove, "card-in-play", "in front of a player")
		bad(t, g, seat(0), Move{Type: MoveTake, Seat: SeatPtr(0), From: FromDeck, Card: "g1"}, domain.IllegalMove, "card-in-play", "completed")
		bad(t, g, seat(0), Move{Type: MoveTake, Seat: SeatPtr(0), From: FromDeck}, domain.Invalid, "", "name the card drawn")
		bad(t, g, seat(0), Move{Type: MoveTake, Seat: SeatPtr(0), From: "pocket"}, domain.Invalid, "", `"pocket"`)
		bad(t, g, seat(1), Move{Type: MoveTake, Seat: SeatPtr(0), From: FromDeck, Card: "f01"}, domain.Forbidden, "", "acts for seat 1, not seat 0")
		ok(t, g, host, Move{Type: MoveTake, Seat: SeatPtr(0), From: FromDeck, Card: "f01"})
	})
	t.Run("deck and display run out", func(t *testing.T) {
		// 2 players keep 4 cards and the other 4 make the display: the deck is empty.
		cat := mkCatalog(0, mkCard("a", Grey, "oo"), mkCard("b", Grey, "o"), mkCard("c", Grey, "o"), mkCard("d", Grey, "oooo"),
			mkCard("e", Grey, "o"), mkCard("f", Grey, "ooo"), mkCard("g", Grey, "o"), mkCard("h", Grey, "o"))
		g := table(t, cat, [][2]string{{"a", "b"}, {"c", "d"}}, "e", "f", "g", "h")
		assert.Equal(t, 0, g.DeckSize())
		reveal(t, g, "D2")
		ok(t, g, seat(0), cross(0, "a", boxes(0, 0, 0, 1)))
		ok(t, g, seat(1), cross(1, "c", boxes(0, 0)))
		bad(t, g, seat(0), Move{Type: MoveTake, Seat: SeatPtr(0), From: FromDeck, Card: "e"}, domain.IllegalMove, "take-from-deck", "deck is empty")
		ok(t, g, seat(0), Move{Type: MoveTake, Seat: SeatPtr(0), From: FromDisplay, Card: "e"})
		// The deck is empty: no refill is owed, and seat 1 resolves at once.
		assert.Equal(t, []Awaited{{Actor: "seat", Seat: SeatPtr(1), Action: MoveTake, Count: 1}}, g.Awaiting())
		ok(t, g, seat(1), Move{Type: MoveTake, Seat: SeatPtr(1), From: FromDisplay, Card: "f"})
		assert.Equal(t, []string{"g", "h"}, []string{g.cardID(g.Display[0]), g.cardID(g.Display[1])})
		require.Equal(t, PhaseReveal, g.Phase)
		turn := func(pattern string, m0, m1 Move, takes ...string) {
			t.Helper()
			reveal(t, g, pattern)
			ok(t, g, seat(0), m0)
			ok(t, g, seat(1), m1)
			for _, c := range takes {
				ok(t, g, seat(0), Move{Type: MoveTake, Seat: SeatPtr(0), From: FromDisplay, Card: c})
			}
		}
		turn("L3", cross(0, "e", boxes(0, 0)), cross(1, "f", boxes(0, 0)), "g")
		turn("I3", cross(0, "g", boxes(0, 0)), cross(1, "f", boxes(0, 1)), "h")
		assert.Empty(t, g.Display)
		// Seat 0 completes h and seat 1 completes f, and there is no card anywhere to replace them.
		turn("T4", cross(0, "h", boxes(0, 0)), cross(1, "f", boxes(0, 2)))
		assert.Equal(t, PhaseReveal, g.Phase)
		assert.Len(t, g.Players[0].Hand, 1, "seat 0 plays on with one card")
		assert.Len(t, g.Players[1].Hand, 1)
		turn("L3", cross(0, "b", boxes(0, 0)), cross(1, "d", boxes(0, 0)))
		// Seat 0 has no box left: this turn it passes, and the game waits only for seat 1.
		reveal(t, g, "L4")
		assert.True(t, g.Players[0].Passed)
		assert.Equal(t, []Awaited{{Actor: "seat", Seat: SeatPtr(1), Action: MoveCross, Count: 1}}, g.Awaiting())
		bad(t, g, seat(0), cross(0, "b", boxes(0, 0)), domain.IllegalMove, "pass")
		ok(t, g, seat(1), cross(1, "d", boxes(0, 2)))
		assert.Equal(t, PhaseReveal, g.Phase)
		assert.Equal(t, 7, g.Turn, "six turns played; the seventh waits for its reveal")
	})
}

func TestStartPlayerAcrossRounds(t *testing.T) {
	for players := 1; players <= 4; players++ {
		g, _ := randomGame(t, uint64(100+players), players, Digital, nil)
		require.Equal(t, PhaseEnded, g.Phase)
		assert.Equal(t, (Rounds*TurnsPerRound)%players, g.Start, "%d players", players)
	}
	// And turn by turn: the start player moves one seat after every turn's action 3.
	g, err := New(Standard(), Setup{Mode: Digital, Players: []string{"Ann", "Bob", "Cid"}, Seed: "start"})
	require.NoError(t, err)
	bot := Bot{R: newRand(1)}
	turns := 0
	lastRound, lastTurn := 0, 0
	for g.Phase != PhaseEnded {
		if g.Round != lastRound || g.Turn != lastTurn {
			if g.Round > 0 {
				require.Equal(t, turns%3, g.Start, "round %d turn %d", g.Round, g.Turn)
				turns++
			}
			lastRound, lastTurn = g.Round, g.Turn
		}
		a, m, _ := Step(g, bot, &Table{R: bot.R})
		require.NoError(t, g.Play(a, &m))
	}
	assert.Equal(t, Rounds*TurnsPerRound, turns)
}

func TestPhysicalReports(t *testing.T) {
	cat := mkCatalog(12, mkCard("a", Grey, "oo"), mkCard("b", Grey, "oo"), mkCard("c", Grey, "oo"), mkCard("d", Grey, "oo"))
	t.Run("setup", func(t *testing.T) {
		g, err := New(cat, Setup{Mode: Physical, Players: []string{"Ann", "Bob"}})
		require.NoError(t, err)
		bad(t, g, host, Move{Type: MoveDisplay, Card: "f01"}, domain.IllegalMove, "display-when-owed", "seat 0 to keep 2 cards")
		bad(t, g, host, Move{Type: MoveReveal, Expedition: "D2"}, domain.IllegalMove, "reveal-when-owed")
		ok(t, g, seat(0), Move{Type: MoveKeep, Seat: SeatPtr(0), Cards: []string{"a", "b"}})
		bad(t, g, seat(1), Move{Type: MoveKeep, Seat: SeatPtr(1), Cards: []string{"b", "c"}}, domain.IllegalMove, "card-in-play", "b is already kept by seat 0")
		bad(t, g, seat(1), Move{Type: MoveKeep, Seat: SeatPtr(1), Cards: []string{"c"}}, domain.IllegalMove, "keep-two")
		bad(t, g, seat(1), Move{Type: MoveKeep, Seat: SeatPtr(1), Cards: []string{"c", "c"}}, domain.IllegalMove, "keep-two")
		bad(t, g, seat(1), Move{Type: MoveKeep, Seat: SeatPtr(1), Cards: []string{"c", "zz"}}, domain.Invalid, "", `"zz"`)
		bad(t, g, seat(0), Move{Type: MoveKeep, Seat: SeatPtr(1), Cards: []string{"c", "d"}}, domain.Forbidden, "")
		ok(t, g, seat(0), Move{Type: MoveKeep, Seat: SeatPtr(0), Cards: []string{"a", "c"}}) // a change of mind before everyone chose
		ok(t, g, seat(1), Move{Type: MoveKeep, Seat: SeatPtr(1), Cards: []string{"b", "d"}})
		bad(t, g, seat(1), Move{Type: MoveKeep, Seat: SeatPtr(1), Cards: []string{"f01", "f02"}}, domain.IllegalMove, "keep-in-setup")
		assert.Equal(t, []Awaited{{Actor: domain.ActorHost, Action: MoveDisplay, Count: 4}}, g.Awaiting())
		bad(t, g, seat(0), Move{Type: MoveDisplay, Card: "f01"}, domain.Forbidden, "", "host")
		bad(t, g, host, Move{Type: MoveDisplay, Card: "nope"}, domain.Invalid, "", `"nope"`)
		bad(t, g, host, Move{Type: MoveDisplay, Card: "a"}, domain.IllegalMove, "card-in-play", "in front of a player")
		ok(t, g, host, Move{Type: MoveDisplay, Card: "f01"})
		bad(t, g, host, Move{Type: MoveDisplay, Card: "f01"}, domain.IllegalMove, "card-in-play", "display")
		for _, c := range []string{"f02", "f03", "f04"} {
			ok(t, g, host, Move{Type: MoveDisplay, Card: c})
		}
		bad(t, g, host, Move{Type: MoveDisplay, Card: "f05"}, domain.IllegalMove, "display-when-owed", "no display card is owed now")
		assert.Equal(t, PhaseReveal, g.Phase)
	})
	t.Run("reveals", func(t *testing.T) {
		cat := mkCatalog(12, mkCard("a", Purple, "oooo", "oooo", "oooo"), mkCard("b", Purple, "oooo", "oooo", "oooo"))
		g := table(t, cat, [][2]string{{"a", "b"}}, "f01", "f02", "f03", "f04")
		bad(t, g, host, Move{Type: MoveReveal, Expedition: "Z9"}, domain.Invalid, "", `"Z9"`)
		bad(t, g, seat(0), Move{Type: MoveReveal, Expedition: "D2"}, domain.Forbidden, "")
		reveal(t, g, "I3")
		bad(t, g, host, Move{Type: MoveReveal, Expedition: "L3"}, domain.IllegalMove, "reveal-when-owed", "seat 0 to cross")
		ok(t, g, seat(0), cross(0, "a", boxes(0, 0)))
		reveal(t, g, "I3")
		ok(t, g, seat(0), cross(0, "a", boxes(0, 1)))
		bad(t, g, host, Move{Type: MoveReveal, Expedition: "I3"}, domain.IllegalMove, "expedition-copies", "all were revealed this round")
		for i, p := range []string{"D2", "L3", "L3", "T4", "O4"} {
			reveal(t, g, p)
			if i < 4 {
				ok(t, g, seat(0), cross(0, g.cardID(g.Players[0].Hand[0].Card), g.Players[0].Hand[0].Crossed.complement(g, 0)[:1]))
			}
		}
		// Turn 7 of round 1: the 8th expedition card (L4) stays face down.
		require.Equal(t, 7, g.Turn)
		bad(t, g, host, Move{Type: MoveReveal, Expedition: "L4"}, domain.IllegalMove, "seven-reveals", "the 8th stays face down")
		ok(t, g, seat(0), cross(0, g.cardID(g.Players[0].Hand[0].Card), g.Players[0].Hand[0].Crossed.complement(g, 0)[:1]))
		assert.Equal(t, 2, g.Round)
		reveal(t, g, "L4")
	})
	t.Run("digital games take no reports", func(t *testing.T) {
		g, err := New(Standard(), Setup{Mode: Digital, Players: []string{"Ann"}, Seed: "x"})
		require.NoError(t, err)
		bad(t, g, host, Move{Type: MoveReveal, Expedition: "D2"}, domain.IllegalMove, "digital-draws")
		bad(t, g, host, Move{Type: MoveDisplay, Card: "grey-01"}, domain.IllegalMove, "digital-draws")
	})
}

// complement lists the uncrossed boxes of a hand card (test helper).
func (m Mask) complement(g *Game, seatIdx int) []Pos {
	for _, h := range g.Players[seatIdx].Hand {
		if h.Crossed == m {
			return (g.cat.Cards[h.Card].Boxes &^ m).Positions()
		}
	}
	return nil
}

func TestDigitalKeep(t *testing.T) {
	g, err := New(Standard(), Setup{Mode: Digital, Players: []string{"Ann", "Bob"}, Seed: "keep"})
	require.NoError(t, err)
	d0, d1 := g.Players[0].Dealt, g.Players[1].Dealt
	require.Len(t, d0, 4)
	bad(t, g, seat(0), Move{Type: MoveKeep, Seat: SeatPtr(0), Cards: []string{g.cardID(d0[0]), g.cardID(d1[0])}}, domain.IllegalMove, "keep-dealt", "was not dealt to seat 0")
	bad(t, g, seat(0), Move{Type: MoveCross, Seat: SeatPtr(0), Card: g.cardID(d0[0]), Boxes: boxes(0, 0)}, domain.IllegalMove, "cross-in-action-2", "the game is still in setup")
	ok(t, g, seat(0), Move{Type: MoveKeep, Seat: SeatPtr(0), Cards: []string{g.cardID(d0[0]), g.cardID(d0[1])}})
	ok(t, g, seat(1), Move{Type: MoveKeep, Seat: SeatPtr(1), Cards: []string{g.cardID(d1[2]), g.cardID(d1[3])}})
	assert.Equal(t, PhaseCrossing, g.Phase)
	assert.Len(t, g.Display, 4)
	assert.Equal(t, 47-4-4, g.DeckSize())
	assert.Equal(t, 1, g.Round)
	assert.Len(t, g.Revealed, 1)
	// The same seed deals the same game.
	again, _ := New(Standard(), Setup{Mode: Digital, Players: []string{"Ann", "Bob"}, Seed: "keep"})
	assert.Equal(t, d0, again.Players[0].Dealt)
	other, _ := New(Standard(), Setup{Mode: Digital, Players: []string{"Ann", "Bob"}, Seed: "keep2"})
	assert.NotEqual(t, d0, other.Players[0].Dealt)
}

func TestNewGame(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup Setup
		words string
	}{
		{"no players", Setup{Mode: Physical}, "1 to 4 players"},
		{"five players", Setup{Mode: Physical, Players: []string{"a", "b", "c", "d", "e"}}, "1 to 4 players"},
		{"empty name", Setup{Mode: Physical, Players: []string{"a", " "}}, "player 2's name (players[1].name) is blank"},
		{"same name", Setup{Mode: Physical, Players: []string{"Ann", "ann"}}, "the same as player 1's"},
		{"bad mode", Setup{Mode: "online", Players: []string{"a"}}, `"online"`},
		{"seed in a physical game", Setup{Mode: Physical, Players: []string{"a"}, Seed: "s"}, "physical game has no seed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(Standard(), tc.setup)
			require.Error(t, err)
			assert.Equal(t, domain.Invalid, domain.ErrorCode(err))
			assert.Contains(t, domain.ErrorReason(err), tc.words)
		})
	}
}

func TestEndedGameTakesNoMoves(t *testing.T) {
	g, _ := randomGame(t, 5, 2, Digital, nil)
	bad(t, g, host, Move{Type: MoveCross, Seat: SeatPtr(0), Card: "grey-01", Boxes: boxes(0, 0)}, domain.IllegalMove, "game-ended")
	assert.Empty(t, g.Awaiting())
}

func TestEvents(t *testing.T) {
	cat := mkCatalog(12, mkCard("c4", Grey, "cc", "cc"), mkCard("big", Orange, "oooo", "oooo", "oooo"),
		mkCard("c4b", Grey, "cc", "cc"), mkCard("big2", Orange, "oooo", "oooo", "oooo"))
	g := table(t, cat, [][2]string{{"c4", "big"}, {"c4b", "big2"}}, "f01", "f02", "f03", "f04")
	g.Start = 1
	reveal(t, g, "O4")
	types := func() []string {
		var out []string
		for _, e := range g.Events() {
			out = append(out, e.Type)
		}
		return out
	}
	assert.Equal(t, []string{"expedition_revealed", "status"}, types())
	ok(t, g, seat(0), cross(0, "c4", boxes(0, 0, 0, 1, 1, 0, 1, 1)))
	assert.Equal(t, []string{"crossed", "status"}, types())
	assert.JSONEq(t, `{"seat":0,"replaced":false,"boxes":[{"card":"c4","box":[0,0],"symbol":"coin","extra":false},
		{"card":"c4","box":[0,1],"symbol":"coin","extra":false},{"card":"c4","box":[1,0],"symbol":"coin","extra":false},
		{"card":"c4","box":[1,1],"symbol":"coin","extra":false}],"red_crosses":0,"coins_gained":4,"coins":4,
		"palms_gained":[],"palms":[],"coin_rows_completed":1,
		"cards":[{"card":"c4","crossed":[[0,0],[0,1],[1,0],[1,1]],"boxes_left":0},{"card":"big","crossed":[],"boxes_left":12}]}`,
		string(g.Events()[0].Data))
	ok(t, g, seat(1), cross(1, "big2", boxes(0, 0)))
	// Seat 1 starts and has nothing to resolve; seat 0 takes the 6-cup and owes a card.
	assert.Equal(t, []string{"crossed", "crossing_closed", "resolving", "cup_taken", "card_completed", "status"}, types())
	assert.JSONEq(t, `{"seat":0,"value":6}`, string(g.Events()[3].Data))
	ok(t, g, seat(0), Move{Type: MoveTake, Seat: SeatPtr(0), From: FromDisplay, Card: "f01"})
	assert.Equal(t, []string{"card_taken", "status"}, types())
	ok(t, g, host, Move{Type: MoveDisplay, Card: "f05"})
	assert.Equal(t, []string{"display_card", "turn_resolved", "status"}, types())
	assert.JSONEq(t, `{"phase":"reveal","round":1,"turn":2,"start_player":0,"expedition":null,"revealed_this_round":["O4"],
		"deck_size":`+strconv.Itoa(g.DeckSize())+`,"resolving":null,"awaiting":[{"actor":"host","action":"reveal","count":1}],"on_turn":null,"turn_number":2}`,
		string(g.Events()[2].Data))
	bad(t, g, host, Move{Type: MoveDisplay, Card: "f06"}, domain.IllegalMove, "display-when-owed")
	assert.Empty(t, g.Events(), "a rejected move causes nothing")
}
