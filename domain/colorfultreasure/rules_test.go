package colorfultreasure

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
)

func TestNewGame(t *testing.T) {
	g, err := New(Standard(), Setup{Mode: Digital, Players: []string{"Ann", "Bob"}, Seed: "s"})
	require.NoError(t, err)
	assert.Equal(t, 50, g.Left())
	for c := range g.Grid {
		assert.True(t, g.DiamondTokens[c])
		assert.True(t, g.LockTokens[c])
		var kinds []Kind
		for _, cell := range g.Grid[c] {
			kinds = append(kinds, Kind(cell.Kind))
		}
		assert.ElementsMatch(t, g.cat.Wonders[c].Cards(false), kinds, "column %d holds its wonder's 5 cards", c)
	}
	other, _ := New(Standard(), Setup{Mode: Digital, Players: []string{"Ann", "Bob"}, Seed: "t"})
	assert.NotEqual(t, g.Grid, other.Grid, "another seed lays out another grid")
	again, _ := New(Standard(), Setup{Mode: Digital, Players: []string{"Ann", "Bob"}, Seed: "s"})
	assert.Equal(t, g.Grid, again.Grid, "a seed lays out one grid")

	j, err := New(Standard(), Setup{Mode: Digital, Players: []string{"Ann", "Bob"}, Seed: "s", Variant: VariantJunior})
	require.NoError(t, err)
	assert.Equal(t, 40, j.Left(), "junior plays without keys and chests")
	for c := range j.Grid {
		assert.False(t, j.LockTokens[c])
		for _, cell := range j.Grid[c] {
			assert.False(t, Kind(cell.Kind).IsLock())
		}
	}

	bad := []struct {
		name string
		s    Setup
	}{
		{"one player", Setup{Mode: Digital, Players: []string{"Ann"}, Seed: "s"}},
		{"five players", Setup{Mode: Digital, Players: []string{"A", "B", "C", "D", "E"}, Seed: "s"}},
		{"same name", Setup{Mode: Digital, Players: []string{"Ann", "ann"}, Seed: "s"}},
		{"no seed", Setup{Mode: Digital, Players: []string{"Ann", "Bob"}}},
		{"physical seed", Setup{Mode: Physical, Players: []string{"Ann", "Bob"}, Seed: "s"}},
		{"start off the table", Setup{Mode: Physical, Players: []string{"Ann", "Bob"}, Start: 2}},
		{"variant", Setup{Mode: Physical, Players: []string{"Ann", "Bob"}, Variant: "expert"}},
		{"token side", Setup{Mode: Physical, Players: []string{"Ann", "Bob"}, Sides: [NumTokens]string{"c"}}},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(Standard(), tc.s)
			assert.Equal(t, domain.Invalid, domain.ErrorCode(err), "%v", err)
		})
	}
}

func TestRevealing(t *testing.T) {
	t.Run("two together, then a third after seeing them", func(t *testing.T) {
		g := newGame(t, Digital, VariantStandard, 2, sorted)
		refused(t, g, flipMove(0, "0.0"), "reveal-two")
		refused(t, g, flipMove(0, "0.0 1.0 2.0"), "reveal-two")
		refused(t, g, collectMove(0), "reveal-first")
		mustPlay(t, g, flipMove(0, "0.0 1.0"))
		ev := g.Events()
		require.Len(t, ev, 1)
		assert.Equal(t, "cards_revealed", ev[0].Type)
		assert.True(t, ev[0].Live, "a reveal is told live only: the cards turn face down again")
		assert.Nil(t, ev[0].For)
		assert.Equal(t, PhaseChoose, g.Phase)
		legal := g.LegalMoves(0)
		require.NotNil(t, legal.Flip)
		assert.Equal(t, 1, legal.Flip.Count, "one more card may be revealed")
		assert.Equal(t, [][]string{{}, {"diamond"}}, legal.Collect)
		refused(t, g, flipMove(0, "2.0 3.0"), "reveal-one-more")
		refused(t, g, flipMove(0, "0.0"), "card-face-down")
		mustPlay(t, g, flipMove(0, "2.0"))
		refused(t, g, flipMove(0, "3.0"), "third-card")
		assert.Nil(t, g.LegalMoves(0).Flip)
		mustPlay(t, g, collectMove(0, "diamond"))
		assert.Equal(t, "0:diamond 1:diamond 2:diamond", hand(g, 0))
		assert.Equal(t, []int{0, 1, 2}, g.Players[0].DiamondTokens, "each diamond comes with its column's token")
		assert.Equal(t, 1, g.Turn)
		assert.Equal(t, 47, g.Left())
	})
	t.Run("off the grid, taken, twice", func(t *testing.T) {
		g := newGame(t, Digital, VariantStandard, 2, sorted)
		assert.Equal(t, domain.Invalid, refused(t, g, flipMove(0, "10.0 1.0"), "").Code)
		assert.Equal(t, domain.Invalid, refused(t, g, flipMove(0, "0.5 1.0"), "").Code)
		refused(t, g, flipMove(0, "1.0 1.0"), "distinct-cards")
		g.Grid[1][0].State = CellGone
		refused(t, g, flipMove(0, "1.0 2.0"), "card-in-grid")
		assert.Equal(t, domain.Invalid, refused(t, g, flipMove(0, "0.0 2.0", Diamond, Diamond), "").Code, "a digital flip reports nothing")
	})
	t.Run("turn and seat", func(t *testing.T) {
		g := newGame(t, Digital, VariantStandard, 2, sorted)
		refused(t, g, flipMove(1, "0.0 1.0"), "not-your-turn")
		m := flipMove(0, "0.0 1.0")
		err := g.Play(domain.Actor{Seat: 1}, &m)
		assert.Equal(t, domain.Forbidden, domain.ErrorCode(err))
		require.NoError(t, g.Play(domain.Actor{Host: true}, &m), "the host acts for every seat")
		m = Move{Type: MoveCollect, Seat: SeatPtr(0), Token: 2}
		assert.Equal(t, domain.Invalid, domain.ErrorCode(g.Play(domain.Actor{Seat: 0}, &m)))
		m = Move{Type: "dance", Seat: SeatPtr(0)}
		assert.Equal(t, domain.Invalid, domain.ErrorCode(g.Play(domain.Actor{Seat: 0}, &m)))
	})
	t.Run("the last card alone", func(t *testing.T) {
		g := newGame(t, Digital, VariantJunior, 2, `
			d . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .`)
		refused(t, g, flipMove(0, "0.0 1.0"), "")
		assert.Equal(t, 1, g.LegalMoves(0).Flip.Count)
		mustPlay(t, g, flipMove(0, "0.0"))
		mustPlay(t, g, collectMove(0, "diamond"))
		assert.Equal(t, PhaseEnded, g.Phase, "a junior game ends when the grid is empty")
	})
}

func TestCollecting(t *testing.T) {
	t.Run("one type, or nothing", func(t *testing.T) {
		g := newGame(t, Digital, VariantStandard, 2, sorted)
		mustPlay(t, g, flipMove(0, "4.2 0.2"))
		refused(t, g, collectMove(0, "red", "green"), "take-one-type")
		refused(t, g, collectMove(0, "blue"), "take-revealed")
		refused(t, g, collectMove(0, TakeLocks), "take-revealed")
		refused(t, g, collectMove(0, "red", "red"), "take-one-type")
		assert.Equal(t, domain.Invalid, refused(t, g, collectMove(0, "key"), "").Code)
		mustPlay(t, g, collectMove(0))
		assert.Empty(t, g.Players[0].Cards)
		assert.Equal(t, "down", g.View(domain.Public).Columns[4].Cells[2], "a card not taken is face down again")
		assert.Empty(t, g.View(domain.Public).Revealed)
		assert.Equal(t, 1, g.Turn)
	})
	t.Run("every revealed card of the type", func(t *testing.T) {
		g := newGame(t, Digital, VariantStandard, 2, sorted)
		mustPlay(t, g, flipMove(0, "4.2 5.2"))
		mustPlay(t, g, flipMove(0, "0.2"))
		mustPlay(t, g, collectMove(0, "red"))
		assert.Equal(t, "4:red 5:red", hand(g, 0))
		assert.Equal(t, []string{"gone", "gone", "down"}, []string{g.View(domain.Public).Columns[4].Cells[2],
			g.View(domain.Public).Columns[5].Cells[2], g.View(domain.Public).Columns[0].Cells[2]})
	})
	t.Run("diamond tokens where still there", func(t *testing.T) {
		g := newGame(t, Digital, VariantStandard, 2, sorted)
		g.DiamondTokens[0] = false
		g.Players[1].DiamondTokens = []int{0}
		mustPlay(t, g, flipMove(0, "0.0 1.0"))
		mustPlay(t, g, collectMove(0, "diamond"))
		assert.Equal(t, []int{1}, g.Players[0].DiamondTokens)
	})
	t.Run("keys and chests, all of them and only them", func(t *testing.T) {
		g := newGame(t, Digital, VariantStandard, 2, sorted)
		mustPlay(t, g, flipMove(0, "0.1 4.2"))
		assert.Equal(t, [][]string{{TakeLocks}}, g.LegalMoves(0).Collect)
		refused(t, g, collectMove(0, "red"), "take-locks")
		refused(t, g, collectMove(0), "take-locks")
		refused(t, g, collectMove(0, TakeLocks, "red"), "take-locks")
		mustPlay(t, g, collectMove(0, TakeLocks))
		assert.Equal(t, "0:key", hand(g, 0))
		assert.Equal(t, 1, g.Players[0].KeyTokens, "an unpaired key token stays")
		assert.False(t, g.LockTokens[0])
		assert.Equal(t, 1, g.Turn)
	})
}

func TestTheft(t *testing.T) {
	t.Run("a key and a chest in one turn pair at once", func(t *testing.T) {
		g := newGame(t, Digital, VariantStandard, 3, sorted)
		give(t, g, 1, "9:r")
		g.Players[2].DiamondTokens = []int{}
		mustPlay(t, g, flipMove(0, "0.1 1.1"))
		mustPlay(t, g, collectMove(0, TakeLocks))
		assert.Contains(t, eventTypes(g), "tokens_paired")
		assert.Equal(t, PhaseRob, g.Phase)
		assert.Zero(t, g.Players[0].KeyTokens+g.Players[0].ChestTokens, "the pair is discarded")
		assert.Equal(t, []RobOption{{Target: 1, Card: &CardRef{"angkor-wat", Red}}}, g.LegalMoves(0).Rob)
		refused(t, g, robCard(0, 0, "great-wall", Key), "rob-opponent")
		refused(t, g, robCard(0, 2, "angkor-wat", Red), "rob-nothing")
		refused(t, g, robCard(0, 1, "angkor-wat", Yellow), "rob-held")
		refused(t, g, flipMove(0, "2.0 3.0"), "steal-first")
		refused(t, g, collectMove(0), "steal-first")
		mustPlay(t, g, robCard(0, 1, "angkor-wat", Red))
		assert.Equal(t, "0:key 1:chest 9:red", hand(g, 0))
		assert.Empty(t, g.Players[1].Cards)
		assert.Equal(t, 1, g.Turn)
	})
	t.Run("a diamond token", func(t *testing.T) {
		g := newGame(t, Digital, VariantStandard, 2, sorted)
		g.Players[1].DiamondTokens = []int{5}
		g.Players[0].ChestTokens = 1
		mustPlay(t, g, flipMove(0, "0.1 0.0"))
		mustPlay(t, g, collectMove(0, TakeLocks))
		mustPlay(t, g, Move{Type: MoveRob, Seat: SeatPtr(0), Target: SeatPtr(1), DiamondToken: "machu-picchu"})
		assert.Equal(t, []int{5}, g.Players[0].DiamondTokens)
		assert.Empty(t, g.Players[1].DiamondTokens)
	})
	t.Run("nobody has anything", func(t *testing.T) {
		g := newGame(t, Digital, VariantStandard, 2, sorted)
		mustPlay(t, g, flipMove(0, "0.1 1.1"))
		mustPlay(t, g, collectMove(0, TakeLocks))
		assert.Contains(t, eventTypes(g), "theft_skipped")
		assert.Equal(t, 1, g.Turn, "the pair is discarded without a theft")
		assert.Zero(t, g.Players[0].KeyTokens+g.Players[0].ChestTokens)
	})
	t.Run("two pairs, two thefts", func(t *testing.T) {
		g := newGame(t, Digital, VariantStandard, 2, sorted)
		give(t, g, 1, "9:r 9:y")
		g.Players[0].KeyTokens = 1
		mustPlay(t, g, flipMove(0, "0.1 1.1"))
		mustPlay(t, g, flipMove(0, "3.1"))
		mustPlay(t, g, collectMove(0, TakeLocks))
		assert.Equal(t, 2, g.Thefts, "the key token held and a key and two chests taken make two pairs")
		assert.Zero(t, g.Players[0].ChestTokens+g.Players[0].KeyTokens)
		mustPlay(t, g, robCard(0, 1, "angkor-wat", Red))
		assert.Equal(t, PhaseRob, g.Phase)
		mustPlay(t, g, robCard(0, 1, "angkor-wat", Yellow))
		assert.Equal(t, 1, g.Turn)
		assert.Empty(t, g.Players[1].Cards)
	})
}

func TestAwards(t *testing.T) {
	t.Run("colorful gems once, kept after theft", func(t *testing.T) {
		g := newGame(t, Digital, VariantStandard, 3, sorted)
		give(t, g, 0, "4:r 1:y 0:g 0:b")
		give(t, g, 1, "6:g 6:b 8:y 7:p")
		mustPlay(t, g, flipMove(0, "1.4 2.4"))
		mustPlay(t, g, collectMove(0, "purple"))
		assert.Contains(t, eventTypes(g), "award_taken")
		assert.Equal(t, 0, g.Colorful)
		g.Players[1].KeyTokens = 1
		mustPlay(t, g, flipMove(1, "1.1 3.2"))
		mustPlay(t, g, collectMove(1, TakeLocks))
		mustPlay(t, g, robCard(1, 0, "petra", Red))
		assert.Equal(t, 0, g.Colorful, "an award taken is kept when the cards go")
		assert.Equal(t, 5, g.colours(1))
		assert.NotContains(t, eventTypes(g), "award_taken", "the award is taken once")
		s := g.Score()
		assert.Equal(t, []AwardLine{{AwardColorful, 9}}, s.Players[0].Awards)
	})
	t.Run("colorful gems with 4 players: 4 colours for 6", func(t *testing.T) {
		g := newGame(t, Digital, VariantStandard, 4, sorted)
		give(t, g, 0, "4:r 1:y 0:g")
		mustPlay(t, g, flipMove(0, "1.4 2.4"))
		mustPlay(t, g, collectMove(0, "purple"))
		assert.Equal(t, 0, g.Colorful)
		assert.Equal(t, []AwardLine{{AwardColorful, 6}}, g.Score().Players[0].Awards)
	})
	t.Run("explorer at 8 wonders", func(t *testing.T) {
		g := newGame(t, Digital, VariantStandard, 2, sorted)
		give(t, g, 0, "0:g 1:y 2:y 3:y 4:r 5:r 6:r")
		mustPlay(t, g, flipMove(0, "9.2 8.2"))
		mustPlay(t, g, collectMove(0, "red"))
		assert.Equal(t, 0, g.Explorer)
		assert.Contains(t, g.Score().Players[0].Awards, AwardLine{AwardExplorer, 5})
	})
	t.Run("chest split", func(t *testing.T) {
		assert.Equal(t, []int{7, 0}, ChestShares([]int{3, 1}))
		assert.Equal(t, []int{3, 3, 0}, ChestShares([]int{2, 2, 1}), "two tied split 7 rounded down")
		assert.Equal(t, []int{2, 2, 2, 0}, ChestShares([]int{1, 1, 1, 0}), "three tied split 7 rounded down")
		assert.Equal(t, []int{1, 1, 1, 1}, ChestShares([]int{2, 2, 2, 2}))
		assert.Equal(t, []int{0, 0}, ChestShares([]int{0, 0}), "nobody scores it without a key or chest card")
	})
	t.Run("chest at the end", func(t *testing.T) {
		g := newGame(t, Digital, VariantStandard, 3, `
			d d . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .`)
		give(t, g, 0, "0:k 1:c")
		give(t, g, 1, "2:k 3:c")
		give(t, g, 2, "4:k")
		assert.Empty(t, g.Score().Players[0].Awards, "the Chest is scored at the end")
		mustPlay(t, g, flipMove(0, "0.0 1.0"))
		mustPlay(t, g, collectMove(0))
		mustPlay(t, g, flipMove(1, "0.0 1.0"))
		mustPlay(t, g, collectMove(1))
		mustPlay(t, g, flipMove(2, "0.0 1.0"))
		mustPlay(t, g, collectMove(2))
		require.Equal(t, PhaseEnded, g.Phase)
		s := g.Score()
		assert.True(t, s.Final)
		assert.Equal(t, []AwardLine{{AwardChest, 3}}, s.Players[0].Awards)
		assert.Equal(t, []AwardLine{{AwardChest, 3}}, s.Players[1].Awards)
		assert.Empty(t, s.Players[2].Awards)
		assert.Equal(t, 1, s.Ranking[0].Rank)
		assert.Equal(t, 1, s.Ranking[1].Rank, "equal totals share the place")
		assert.Equal(t, "shared", s.Ranking[1].DecidedBy)
		assert.Equal(t, "total", s.Ranking[2].DecidedBy)
	})
	t.Run("no awards in junior", func(t *testing.T) {
		g := newGame(t, Digital, VariantJunior, 2, juniorSorted)
		give(t, g, 0, "4:r 1:y 0:g 0:b 0:d 1:d 2:d 3:d")
		mustPlay(t, g, flipMove(0, "1.3 2.3"))
		mustPlay(t, g, collectMove(0, "purple"))
		assert.Equal(t, none, g.Colorful)
		assert.Equal(t, none, g.Explorer)
	})
}

// takeNothing plays a turn that leaves the grid as it is: two diamonds
// revealed and turned back.
func takeNothing(t *testing.T, g *Game) {
	t.Helper()
	var diamonds []Pos
	for _, p := range g.faceDown() {
		if g.cell(p).Kind == int8(Diamond) {
			diamonds = append(diamonds, p)
		}
	}
	mustPlay(t, g, Move{Type: MoveFlip, Seat: SeatPtr(g.Turn), Cards: diamonds[:2]})
	mustPlay(t, g, collectMove(g.Turn))
}

func TestEndRound(t *testing.T) {
	// 12 cards: the ten diamonds and two gems.
	const twelve = `
		d d d d d d d d d d
		. . . . . . . . . .
		g . . . . . . . . .
		b . . . . . . . . .
		. . . . . . . . . .`
	for _, players := range []int{2, 3, 4} {
		for start := range players {
			g := newGame(t, Digital, VariantStandard, players, twelve)
			g.Start, g.Turn = start, start
			// The start player takes two diamonds: 10 left, the last round begins.
			mustPlay(t, g, flipMove(start, "0.0 1.0"))
			mustPlay(t, g, collectMove(start, "diamond"))
			assert.True(t, g.LastRound)
			for i := 1; i < players; i++ {
				require.NotEqual(t, PhaseEnded, g.Phase, "%d players, start %d: ended after %d turns", players, start, i)
				takeNothing(t, g)
			}
			require.Equal(t, PhaseEnded, g.Phase, "%d players, start %d: the round is finished", players, start)
			for _, p := range g.Players {
				assert.Equal(t, 1, p.Turns, "%d players: everyone has had the same number of turns", players)
			}
		}
	}
	t.Run("on the last seat's turn the game ends at once", func(t *testing.T) {
		g := newGame(t, Digital, VariantStandard, 2, twelve)
		takeNothing(t, g)
		mustPlay(t, g, flipMove(1, "0.0 1.0"))
		mustPlay(t, g, collectMove(1, "diamond"))
		assert.Equal(t, PhaseEnded, g.Phase)
		refused(t, g, flipMove(0, "2.0 3.0"), "game-ended")
	})
	t.Run("the grid runs out in the last round", func(t *testing.T) {
		g := newGame(t, Digital, VariantStandard, 3, `
			d d d . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .
			. . . . . . . . . .`)
		g.LastRound = true
		mustPlay(t, g, flipMove(0, "0.0 1.0"))
		mustPlay(t, g, flipMove(0, "2.0"))
		mustPlay(t, g, collectMove(0, "diamond"))
		assert.Equal(t, PhaseEnded, g.Phase, "nobody can reveal a card: the game ends")
	})
}

func TestAdvancedScoring(t *testing.T) {
	tally := Tally{DiamondCards: 1, DiamondTokens: 2, Gems: [NumColours]int{6, 1}}
	std := ScoreTally(tally, false)
	adv := ScoreTally(tally, true)
	assert.Equal(t, Lines{DiamondCards: 1, DiamondTokens: 4, Gems: 22}, std.Lines)
	assert.Equal(t, Lines{DiamondCards: 1, DiamondTokens: 6, Gems: 24}, adv.Lines, "advanced: token 3, six gems 23")
	for n, want := range []int{0, 1, 3, 6, 10, 15, 21} {
		assert.Equal(t, want, GemPoints(n, false))
	}
	assert.Equal(t, 27, std.Total)
	assert.Equal(t, 31, adv.Total)
}

// advanced returns an advanced game in which seat 0 holds token (1..5) with
// the given side.
func advanced(t *testing.T, token int, side string, players int) *Game {
	sides := []string{"a", "a", "a", "a", "a"}
	sides[token-1] = side
	g := newGame(t, Digital, VariantAdvanced, players, sorted, sides...)
	g.Players[0].Actions = []int{token - 1}
	g.Actions[token-1] = 0
	return g
}

func TestActionTokens(t *testing.T) {
	t.Run("1a peek at 2 cards of different wonders", func(t *testing.T) {
		g := advanced(t, 1, "a", 2)
		refused(t, g, tokenMove(0, 1, "4.2 4.3"), "peek-cards")
		refused(t, g, tokenMove(0, 1, "4.2"), "peek-cards")
		mustPlay(t, g, tokenMove(0, 1, "4.2 5.2"))
		ev := g.Events()
		require.Len(t, ev, 2)
		assert.Equal(t, "token_used", ev[0].Type)
		assert.NotContains(t, string(ev[0].Data), "red", "the public learns which cards, not what they show")
		assert.Equal(t, "peeked", ev[1].Type)
		require.NotNil(t, ev[1].For)
		assert.Equal(t, 0, *ev[1].For)
		assert.True(t, ev[1].NotHost && ev[1].Live, "a peek is for the peeking seat's eyes only, once")
		assert.Contains(t, string(ev[1].Data), `"kind":"red"`)
		assert.Empty(t, g.Players[0].Actions, "one-time: discarded")
		assert.Equal(t, spent, g.Actions[0])
		refused(t, g, tokenMove(0, 1, "4.2 5.2"), "token-held")
	})
	t.Run("1b peek at up to 3 cards of one wonder", func(t *testing.T) {
		g := advanced(t, 1, "b", 2)
		refused(t, g, tokenMove(0, 1, "4.2 5.2"), "peek-cards")
		refused(t, g, tokenMove(0, 1, "4.0 4.1 4.2 4.3"), "peek-cards")
		mustPlay(t, g, flipMove(0, "4.0 0.0"))
		refused(t, g, tokenMove(0, 1, "4.0 4.1"), "card-face-down")
		mustPlay(t, g, tokenMove(0, 1, "4.1 4.2 4.3"))
		assert.Equal(t, PhaseChoose, g.Phase, "tokens are used any time in one's turn")
	})
	t.Run("2a a fourth card", func(t *testing.T) {
		g := advanced(t, 2, "a", 2)
		mustPlay(t, g, flipMove(0, "4.2 5.2"))
		refused(t, g, tokenMove(0, 2, ""), "token-when")
		mustPlay(t, g, flipMove(0, "6.2"))
		refused(t, g, flipMove(0, "7.2"), "third-card")
		mustPlay(t, g, tokenMove(0, 2, ""))
		mustPlay(t, g, flipMove(0, "7.2"))
		refused(t, g, flipMove(0, "8.2"), "third-card")
		mustPlay(t, g, collectMove(0, "red"))
		assert.Equal(t, "4:red 5:red 6:red 7:red", hand(g, 0))
	})
	t.Run("2b gems or diamonds instead of keys and chests", func(t *testing.T) {
		g := advanced(t, 2, "b", 2)
		refused(t, g, tokenMove(0, 2, ""), "token-permanent")
		mustPlay(t, g, flipMove(0, "0.1 4.2"))
		assert.Equal(t, [][]string{{TakeLocks}, {"red"}}, g.LegalMoves(0).Collect)
		refused(t, g, collectMove(0), "take-locks")
		mustPlay(t, g, collectMove(0, "red"))
		assert.Equal(t, "4:red", hand(g, 0))
		assert.Equal(t, "down", g.View(domain.Public).Columns[0].Cells[1])
		assert.Equal(t, []int{1}, g.Players[0].Actions, "permanent: kept")
	})
	t.Run("3a two types", func(t *testing.T) {
		g := advanced(t, 3, "a", 2)
		mustPlay(t, g, flipMove(0, "4.2 0.2"))
		refused(t, g, collectMove(0, "red", "green"), "take-one-type")
		mustPlay(t, g, tokenMove(0, 3, ""))
		assert.Contains(t, g.LegalMoves(0).Collect, []string{"red", "green"})
		mustPlay(t, g, collectMove(0, "green", "red"))
		assert.Equal(t, "4:red 0:green", hand(g, 0))
		assert.Empty(t, g.Players[0].Actions)
	})
	t.Run("3a not with keys or chests revealed", func(t *testing.T) {
		g := advanced(t, 3, "a", 2)
		mustPlay(t, g, flipMove(0, "4.2 0.1"))
		refused(t, g, tokenMove(0, 3, ""), "token-when")
	})
	t.Run("3b a sixth colour for 1 VP that counts for Colorful Gems", func(t *testing.T) {
		g := advanced(t, 3, "b", 3)
		give(t, g, 0, "4:r 1:y 0:g")
		mustPlay(t, g, flipMove(0, "0.3 1.3"))
		mustPlay(t, g, collectMove(0, "blue"))
		assert.Equal(t, 0, g.Colorful, "4 colours and the token make 5")
		assert.Equal(t, 1, g.Score().Players[0].Lines.ActionTokens)
	})
	t.Run("4a no stealing from or by the holder", func(t *testing.T) {
		g := advanced(t, 4, "a", 2)
		give(t, g, 1, "9:r")
		mustPlay(t, g, flipMove(0, "0.1 1.1"))
		mustPlay(t, g, collectMove(0, TakeLocks))
		assert.Contains(t, eventTypes(g), "theft_skipped", "the holder steals from nobody")
		// Now Bob pairs; Ann holds cards but the token protects her.
		give(t, g, 0, "9:y")
		mustPlay(t, g, flipMove(1, "2.1 3.1"))
		mustPlay(t, g, collectMove(1, TakeLocks))
		assert.Contains(t, eventTypes(g), "theft_skipped", "nobody steals from the holder")
	})
	t.Run("4b nobody steals the holder's cards", func(t *testing.T) {
		g := advanced(t, 4, "b", 2)
		g.Turn = 1
		give(t, g, 0, "9:r")
		g.Players[0].DiamondTokens = []int{9}
		mustPlay(t, g, flipMove(1, "0.1 1.1"))
		mustPlay(t, g, collectMove(1, TakeLocks))
		refused(t, g, robCard(1, 0, "angkor-wat", Red), "rob-protected")
		assert.Equal(t, []RobOption{{Target: 0, DiamondToken: "angkor-wat"}}, g.LegalMoves(1).Rob)
		mustPlay(t, g, Move{Type: MoveRob, Seat: SeatPtr(1), Target: SeatPtr(0), DiamondToken: "angkor-wat"})
	})
	t.Run("5a 4 VP", func(t *testing.T) {
		g := advanced(t, 5, "a", 2)
		assert.Equal(t, 4, g.Score().Players[0].Total)
		refused(t, g, tokenMove(0, 5, ""), "token-permanent")
	})
	t.Run("5b a key or chest token to make a pair", func(t *testing.T) {
		g := advanced(t, 5, "b", 2)
		refused(t, g, tokenMove(0, 5, ""), "token-when")
		give(t, g, 1, "9:r")
		mustPlay(t, g, flipMove(0, "0.1 4.2"))
		mustPlay(t, g, collectMove(0, TakeLocks))
		assert.Equal(t, PhaseClaim, g.Phase, "the turn waits while the wild token can pair")
		assert.True(t, g.LegalMoves(0).End)
		mustPlay(t, g, tokenMove(0, 5, ""))
		assert.Equal(t, PhaseRob, g.Phase)
		mustPlay(t, g, robCard(0, 1, "angkor-wat", Red))
		assert.Zero(t, g.Players[0].KeyTokens)
		assert.Equal(t, 1, g.Turn, "with nothing left to do the turn ends")
	})
	t.Run("taking a token with 3 gems of a colour", func(t *testing.T) {
		g := newGame(t, Digital, VariantAdvanced, 2, sorted)
		give(t, g, 0, "7:r")
		mustPlay(t, g, flipMove(0, "4.2 5.2"))
		mustPlay(t, g, collectMove(0, "red"))
		assert.Equal(t, PhaseClaim, g.Phase)
		assert.Equal(t, []int{1, 2, 3, 4, 5}, g.LegalMoves(0).Claim)
		refused(t, g, Move{Type: MoveClaim, Seat: SeatPtr(0), Token: 6}, "")
		mustPlay(t, g, Move{Type: MoveClaim, Seat: SeatPtr(0), Token: 4})
		assert.Equal(t, []int{3}, g.Players[0].Actions)
		assert.Equal(t, 1, g.Turn)
		// A fourth red earns nothing more; a theft below three and back does.
		takeNothing(t, g)
		mustPlay(t, g, flipMove(0, "6.2 0.0"))
		mustPlay(t, g, collectMove(0, "red"))
		assert.Equal(t, 1, g.Turn, "the colour has earned its token")
		g.Players[0].Cards = g.Players[0].Cards[:2]
		g.Players[0].Claimed[0] = false // as a theft below three does
		give(t, g, 0, "6:r")
		takeNothing(t, g)
		mustPlay(t, g, flipMove(0, "8.2 0.0"))
		mustPlay(t, g, collectMove(0, "red"))
		assert.Equal(t, PhaseClaim, g.Phase)
		mustPlay(t, g, Move{Type: MoveEnd, Seat: SeatPtr(0)})
		assert.Equal(t, 1, g.Turn, "a token may be declined")
	})
	t.Run("a token taken may be used on the same turn", func(t *testing.T) {
		for _, mode := range []Mode{Digital, Physical} {
			g := newGame(t, mode, VariantAdvanced, 2, sorted)
			give(t, g, 0, "7:r")
			var shows []Kind
			if mode == Physical {
				shows = []Kind{Red, Red}
			}
			mustPlay(t, g, flipMove(0, "4.2 5.2", shows...))
			mustPlay(t, g, collectMove(0, "red"))
			mustPlay(t, g, Move{Type: MoveClaim, Seat: SeatPtr(0), Token: 1})
			assert.Equal(t, PhaseClaim, g.Phase, "%s: the turn waits: the peek token may be used now", mode)
			assert.Equal(t, 0, g.Turn)
			l := g.LegalMoves(0)
			require.Len(t, l.UseToken, 1, "%s", mode)
			assert.Equal(t, "peek_two", l.UseToken[0].Effect)
			assert.True(t, l.End)
			assert.Empty(t, l.Claim, "one token a turn")
			mustPlay(t, g, tokenMove(0, 1, "0.0 1.0"))
			assert.Contains(t, eventTypes(g), "token_used")
			assert.Equal(t, 1, g.Turn, "%s: with nothing left to do the turn passes", mode)
		}
	})
	t.Run("a token taken and kept for later", func(t *testing.T) {
		g := newGame(t, Digital, VariantAdvanced, 2, sorted)
		give(t, g, 0, "7:r")
		mustPlay(t, g, flipMove(0, "4.2 5.2"))
		mustPlay(t, g, collectMove(0, "red"))
		mustPlay(t, g, Move{Type: MoveClaim, Seat: SeatPtr(0), Token: 1})
		mustPlay(t, g, Move{Type: MoveEnd, Seat: SeatPtr(0)})
		assert.Equal(t, 1, g.Turn)
		assert.Equal(t, []int{0}, g.Players[0].Actions, "the peek token is kept")
	})
	t.Run("a peek token held waits for the end of the turn", func(t *testing.T) {
		g := advanced(t, 1, "b", 2)
		takeNothing(t, g)
		assert.Equal(t, PhaseClaim, g.Phase, "the peek may still be used this turn")
		assert.Equal(t, 0, g.Turn)
		mustPlay(t, g, Move{Type: MoveEnd, Seat: SeatPtr(0)})
		assert.Equal(t, 1, g.Turn)
	})
	t.Run("a token taken with no use left this turn", func(t *testing.T) {
		g := newGame(t, Digital, VariantAdvanced, 2, sorted)
		give(t, g, 0, "7:r")
		mustPlay(t, g, flipMove(0, "4.2 5.2"))
		mustPlay(t, g, collectMove(0, "red"))
		mustPlay(t, g, Move{Type: MoveClaim, Seat: SeatPtr(0), Token: 2})
		assert.Equal(t, 1, g.Turn, "a fourth card cannot be turned over once the cards are collected: the turn passes")
	})
	t.Run("a theft below three gems frees the colour", func(t *testing.T) {
		g := newGame(t, Digital, VariantAdvanced, 2, sorted)
		give(t, g, 1, "4:r 5:r 6:r")
		g.Players[1].Claimed[0] = true
		mustPlay(t, g, flipMove(0, "0.1 1.1"))
		mustPlay(t, g, collectMove(0, TakeLocks))
		mustPlay(t, g, robCard(0, 1, "petra", Red))
		assert.False(t, g.Players[1].Claimed[0])
	})
	t.Run("not in the standard game", func(t *testing.T) {
		g := newGame(t, Digital, VariantStandard, 2, sorted)
		refused(t, g, tokenMove(0, 1, "0.0 1.0"), "advanced-only")
	})
}

func TestPhysicalReports(t *testing.T) {
	g := newGame(t, Physical, VariantStandard, 2, sorted)
	cases := []struct {
		name string
		m    Move
		rule string
		code domain.Code
	}{
		{"nothing reported", flipMove(0, "4.2 5.2"), "", domain.Invalid},
		{"one report short", flipMove(0, "4.2 5.2", Red), "", domain.Invalid},
		{"a kind the wonder lacks", flipMove(0, "0.2 5.2", Red, Red), "report-possible", domain.IllegalMove},
		{"a key in a chest wonder", flipMove(0, "1.1 5.2", Key, Red), "report-possible", domain.IllegalMove},
		{"one card twice", flipMove(0, "4.2 4.3", Red, Red), "report-possible", domain.IllegalMove},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := refused(t, g, tc.m, tc.rule)
			assert.Equal(t, tc.code, err.Code)
		})
	}
	mustPlay(t, g, flipMove(0, "4.2 0.0", Red, Diamond))
	e := refused(t, g, flipMove(0, "4.3", Red), "report-possible")
	assert.Contains(t, e.Reason, "face up")
	mustPlay(t, g, collectMove(0))
	// Both cards are face down again. The server does not remember for the
	// players what they showed: the listing offers every kind petra can
	// still hold, and a report contradicting the first is taken (the first
	// may have been a mis-report).
	assert.Equal(t, []Kind{Diamond, Key, Red, Blue, Purple}, canShow(g, 1, "4.2"), "what petra's card reported red may show once face down")
	mustPlay(t, g, flipMove(1, "4.2 0.0", Blue, Diamond))
	mustPlay(t, g, collectMove(1))
	mustPlay(t, g, flipMove(0, "4.2 5.2", Red, Red))
	mustPlay(t, g, collectMove(0, "red"))
	e = refused(t, g, flipMove(1, "4.3 1.0", Red, Diamond), "report-possible")
	assert.Contains(t, e.Reason, "was taken")
	assert.Equal(t, []Kind{Diamond, Key, Blue, Purple}, canShow(g, 1, "4.3"), "what petra's face-down card may show")
	// A game stored when face-down reports were kept forgets them too.
	g.Grid[4][3].Kind = int8(Blue)
	state, err := g.Snapshot()
	require.NoError(t, err)
	old, err := Restore(g.CatalogData(), state)
	require.NoError(t, err)
	assert.Equal(t, []Kind{Diamond, Key, Blue, Purple}, canShow(old, 1, "4.3"), "a restored game's face-down card")
	j := newGame(t, Physical, VariantJunior, 2, juniorSorted)
	refused(t, j, flipMove(0, "0.1 1.1", Key, Chest), "report-possible")
}

// canShow returns what the listing of seat offers the face-down card at p
// (as "column.row") to show.
func canShow(g *Game, seat int, p string) []Kind {
	at := at(p)[0]
	for _, c := range g.LegalMoves(seat).Flip.Cells {
		if c.Pos == at {
			return c.Shows
		}
	}
	return nil
}

func TestViewHidesFaceDown(t *testing.T) {
	g := newGame(t, Digital, VariantStandard, 2, sorted)
	mustPlay(t, g, flipMove(0, "4.2 0.0"))
	b, _ := json.Marshal(g.View(domain.HostViewer))
	var v View
	require.NoError(t, json.Unmarshal(b, &v))
	assert.Equal(t, []string{"down", "down", "red", "down", "down"}, v.Columns[4].Cells)
	assert.Equal(t, "diamond", v.Columns[0].Cells[0])
	mustPlay(t, g, collectMove(0))
	v = g.View(domain.HostViewer)
	assert.Equal(t, []string{"down", "down", "down", "down", "down"}, v.Columns[4].Cells, "face down again for everyone, the host too")
}

func TestDecodeMove(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"type":"flip","seat":0.5}`, "seat must be a whole number"},
		{`{"type":"flip","seat":0,"colour":"red"}`, `a field "colour" that no Colorful Treasure move has`},
		{`{"type":"flip","seat":0,"cards":"4.2"}`, "cards has the wrong type"},
		{`{"type":"flip","seat":0,"shows":["gold"]}`, `unknown kind "gold"`},
		{`{"type":"flip"} {}`, "trailing data"},
	} {
		_, err := DecodeMove([]byte(c.in))
		assert.Equal(t, domain.Invalid, domain.ErrorCode(err), c.in)
		assert.Contains(t, domain.ErrorReason(err), c.want, c.in)
	}
}
