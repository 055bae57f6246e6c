package colorfultreasure

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
)

// sheetOf writes the paper tally of an ended game, totals included.
func sheetOf(g *Game) Sheet {
	s := Sheet{Ruleset: RulesetName, Variant: g.Variant}
	score := g.Score()
	for i, p := range g.Players {
		sp := SheetPlayer{Name: p.Name, Cards: []CardRef{}, DiamondTokens: []string{}}
		for _, c := range p.Cards {
			sp.Cards = append(sp.Cards, g.ref(c))
		}
		for _, c := range p.DiamondTokens {
			sp.DiamondTokens = append(sp.DiamondTokens, g.wonder(c))
		}
		for _, t := range p.Actions {
			sp.ActionTokens = append(sp.ActionTokens, g.effect(t).String())
		}
		for _, a := range score.Players[i].Awards {
			sp.Awards = append(sp.Awards, a.Award)
		}
		total := score.Players[i].Total
		sp.Total = &total
		s.Players = append(s.Players, sp)
	}
	return s
}

func TestSheetOfPlayedGames(t *testing.T) {
	for i := range 60 {
		s := randomSetup(uint64(300+i), 2+i%3, Physical, variants[i%3])
		g, _ := randomGame(t, s, uint64(300+i), nil)
		res, err := VerifySheet(Standard(), sheetOf(g))
		require.NoError(t, err)
		require.True(t, res.Valid, "game %d: %+v", i, res.Findings)
		for j, p := range g.Score().Players {
			assert.Equal(t, p.Total, res.Players[j].Total)
		}
	}
}

func TestSheetFindings(t *testing.T) {
	total := func(n int) *int { return &n }
	base := func() Sheet {
		return Sheet{Players: []SheetPlayer{
			{Name: "Ann", Cards: []CardRef{{"petra", Red}, {"petra", Key}, {"angkor-wat", Red}, {"petra", Diamond}},
				DiamondTokens: []string{"petra"}, Awards: []string{AwardChest}, Total: total(1 + 2 + 3 + 7)},
			{Name: "Bob", Cards: []CardRef{{"great-wall", Green}}, DiamondTokens: []string{}, Total: total(1)},
		}}
	}
	res, err := VerifySheet(Standard(), base())
	require.NoError(t, err)
	require.True(t, res.Valid, "%+v", res.Findings)
	assert.Equal(t, 13, res.Players[0].Total)

	cases := []struct {
		name   string
		change func(s *Sheet)
		code   string
		player int
	}{
		{"total", func(s *Sheet) { s.Players[1].Total = total(3) }, FindingTotalMismatch, 1},
		{"not in wonder", func(s *Sheet) { s.Players[1].Cards = append(s.Players[1].Cards, CardRef{"great-wall", Red}) }, FindingNotInWonder, 1},
		{"repeated", func(s *Sheet) { s.Players[1].Cards = append(s.Players[1].Cards, CardRef{"great-wall", Green}) }, FindingCardRepeated, 1},
		{"shared", func(s *Sheet) { s.Players[1].Cards = append(s.Players[1].Cards, CardRef{"petra", Red}) }, FindingCardShared, 1},
		{"token shared", func(s *Sheet) { s.Players[1].DiamondTokens = []string{"petra"} }, FindingTokenShared, 1},
		{"award twice", func(s *Sheet) {
			s.Players[0].Awards = append(s.Players[0].Awards, AwardExplorer)
			s.Players[1].Awards = []string{AwardExplorer}
		}, FindingAwardShared, 1},
		{"the chest written three times", func(s *Sheet) { s.Players[0].Awards = []string{AwardChest, AwardChest, AwardChest} }, FindingAwardRepeated, 0},
		{"explorer written twice by one player", func(s *Sheet) {
			s.Players[1].Awards = []string{AwardExplorer, AwardExplorer}
		}, FindingAwardRepeated, 1},
		{"one action token twice by one player", func(s *Sheet) {
			s.Variant = VariantAdvanced
			s.Players[1].ActionTokens = []string{"four_points", "wild_pair"}
		}, FindingActionRepeated, 1},
		{"chest not the most", func(s *Sheet) { s.Players[1].Awards = []string{AwardChest} }, FindingChestAward, 1},
		{"chest left out", func(s *Sheet) { s.Players[0].Awards = nil }, FindingChestAward, 0},
		{"action token outside advanced", func(s *Sheet) { s.Players[1].ActionTokens = []string{"four_points"} }, FindingTokenVariant, 1},
		{"both sides of a token", func(s *Sheet) {
			s.Variant = VariantAdvanced
			s.Players[0].ActionTokens = []string{"four_points"}
			s.Players[1].ActionTokens = []string{"wild_pair"}
		}, FindingActionRepeated, 1},
		{"junior award", func(s *Sheet) {
			s.Variant = VariantJunior
			s.Players[0].Cards = s.Players[0].Cards[:1]
		}, FindingAwardJunior, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := base()
			tc.change(&s)
			res, err := VerifySheet(Standard(), s)
			require.NoError(t, err)
			assert.False(t, res.Valid)
			var codes []string
			for _, f := range res.Findings {
				codes = append(codes, f.Code)
				if f.Code == tc.code {
					require.NotNil(t, f.Player)
					assert.Equal(t, tc.player, *f.Player)
					assert.NotEmpty(t, f.Reason)
					name := s.Players[*f.Player].Name
					assert.NotContains(t, f.Reason, name+" and "+name, "a player's own repeat is not shared with another")
				}
			}
			assert.Contains(t, codes, tc.code)
		})
	}
	bad := []string{`{"players":[{"name":"A","cards":[{"wonder":"atlantis","kind":"red"}],"diamond_tokens":[]},{"name":"B","cards":[],"diamond_tokens":[]}]}`,
		`{"players":[{"name":"A","cards":[],"diamond_tokens":[]}]}`,
		`{"players":[{"name":"A","cards":[],"diamond_tokens":[],"awards":["best"]},{"name":"B","cards":[],"diamond_tokens":[]}]}`,
		`{"players":[],"colour":"red"}`}
	for _, b := range bad {
		_, err := NewRules().VerifySheet([]byte(b))
		assert.Equal(t, domain.Invalid, domain.ErrorCode(err), b)
	}
	out, err := NewRules().VerifySheet(mustJSON(t, base()))
	require.NoError(t, err)
	assert.Contains(t, string(out), `"valid":true`)
}

func mustJSON(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}
