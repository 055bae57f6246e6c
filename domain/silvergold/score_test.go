package silvergold_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	sg "github.com/treasury-games/treasury/domain/silvergold"
)

func TestScoreLines(t *testing.T) {
	t.Run("the rulebook's worked example: Sarah scores 95", func(t *testing.T) {
		cards := []sg.CardLine{
			{Colour: sg.Grey, Value: 8},
			{Colour: sg.Grey, Value: 8},
			{Colour: sg.Orange, Value: 12},
			{Colour: sg.Orange, Value: 12},
			{Colour: sg.Green, Value: 10, Seal: &sg.Seal{Colour: sg.Grey, Points: 1}},
			{Colour: sg.Purple, Value: 14, Seal: &sg.Seal{Colour: sg.Orange, Points: 2}},
		}
		s := sg.ScoreLines(cards, 9, []int{6, 2}, []int{2, 3, 3})
		assert.Equal(t, sg.Lines{Coins: 9, Cups: 8, Palms: 8, Cards: 64, Seals: 6}, s.Lines)
		assert.Equal(t, 95, s.Total)
		require.Len(t, s.Seals, 2)
		assert.Equal(t, sg.SealLine{Colour: sg.Grey, Points: 1, Cards: 2, Value: 2}, s.Seals[0])
		assert.Equal(t, sg.SealLine{Colour: sg.Orange, Points: 2, Cards: 2, Value: 4}, s.Seals[1])
		assert.Equal(t, sg.ByColour{Grey: 2, Green: 1, Orange: 2, Purple: 1}, s.Completed)
	})
	t.Run("a seal counts the sealed card itself when it has the seal's colour", func(t *testing.T) {
		// Not in a real deck (seals name other colours), but a written-out sheet may say so.
		s := sg.ScoreLines([]sg.CardLine{{Colour: sg.Grey, Value: 8, Seal: &sg.Seal{Colour: sg.Grey, Points: 1}}}, 0, nil, nil)
		assert.Equal(t, 1, s.Lines.Seals)
	})
	t.Run("every seal counts on its own", func(t *testing.T) {
		seal := &sg.Seal{Colour: sg.Purple, Points: 2}
		cards := []sg.CardLine{
			{Colour: sg.Grey, Value: 8, Seal: seal}, {Colour: sg.Green, Value: 10, Seal: seal},
			{Colour: sg.Purple, Value: 14}, {Colour: sg.Purple, Value: 14}, {Colour: sg.Purple, Value: 14},
		}
		s := sg.ScoreLines(cards, 0, nil, nil)
		assert.Equal(t, 12, s.Lines.Seals, "two seals × 2 points × 3 purple cards")
	})
	t.Run("nothing completed", func(t *testing.T) {
		s := sg.ScoreLines(nil, 0, nil, nil)
		assert.Zero(t, s.Total)
		assert.NotNil(t, s.Cards)
	})
}

func TestRank(t *testing.T) {
	player := func(seat, total int, c sg.ByColour) sg.PlayerScore {
		return sg.PlayerScore{Seat: seat, Name: string(rune('A' + seat)), Total: total, Completed: c}
	}
	tests := []struct {
		name    string
		players []sg.PlayerScore
		order   []int    // seats, best first
		ranks   []int    // rank of each place
		decided []string // decided_by of each place
	}{
		{"by total", []sg.PlayerScore{player(0, 50, sg.ByColour{}), player(1, 60, sg.ByColour{})},
			[]int{1, 0}, []int{1, 2}, []string{"", "total"}},
		{"tie broken by grey", []sg.PlayerScore{player(0, 50, sg.ByColour{Grey: 1, Purple: 3}), player(1, 50, sg.ByColour{Grey: 2})},
			[]int{1, 0}, []int{1, 2}, []string{"", "grey"}},
		{"tie broken by green", []sg.PlayerScore{player(0, 50, sg.ByColour{Grey: 1, Green: 1}), player(1, 50, sg.ByColour{Grey: 1, Green: 2})},
			[]int{1, 0}, []int{1, 2}, []string{"", "green"}},
		{"tie broken by orange", []sg.PlayerScore{player(0, 50, sg.ByColour{Orange: 3}), player(1, 50, sg.ByColour{Orange: 2, Purple: 4})},
			[]int{0, 1}, []int{1, 2}, []string{"", "orange"}},
		{"tie broken by purple", []sg.PlayerScore{player(0, 50, sg.ByColour{Grey: 1, Purple: 1}), player(1, 50, sg.ByColour{Grey: 1, Purple: 2})},
			[]int{1, 0}, []int{1, 2}, []string{"", "purple"}},
		{"fully shared first place", []sg.PlayerScore{player(0, 50, sg.ByColour{Grey: 1}), player(1, 50, sg.ByColour{Grey: 1}), player(2, 40, sg.ByColour{})},
			[]int{0, 1, 2}, []int{1, 1, 3}, []string{"", "shared", "total"}},
		{"shared in the middle", []sg.PlayerScore{player(0, 30, sg.ByColour{}), player(1, 40, sg.ByColour{Green: 1}), player(2, 40, sg.ByColour{Green: 1}), player(3, 70, sg.ByColour{})},
			[]int{3, 1, 2, 0}, []int{1, 2, 2, 4}, []string{"", "total", "shared", "total"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			places := sg.Rank(tc.players)
			require.Len(t, places, len(tc.order))
			for i, p := range places {
				assert.Equal(t, tc.order[i], p.Seat, "place %d", i)
				assert.Equal(t, tc.ranks[i], p.Rank, "rank of place %d", i)
				assert.Equal(t, tc.decided[i], p.DecidedBy, "decided_by of place %d", i)
			}
		})
	}
}
