package luckytreasurehunter

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRanking(t *testing.T) {
	type player struct {
		sets []int
		used bool
	}
	type place struct {
		seat, rank int
		by         string
		at         int
	}
	for _, c := range []struct {
		name    string
		players []player
		want    []place
	}{
		{"total decides", []player{{[]int{3}, true}, {[]int{2, 2}, false}},
			[]place{{1, 1, "", 0}, {0, 2, "total", 0}}},
		{"the captain's point counts", []player{{[]int{4}, true}, {[]int{4}, false}},
			[]place{{1, 1, "", 0}, {0, 2, "total", 0}}},
		{"rulebook: 5,5,1,1 with the captain beats 5,4,3,1 without", []player{{[]int{5, 4, 3, 1}, true}, {[]int{1, 5, 1, 5}, false}},
			[]place{{1, 1, "", 0}, {0, 2, "set_sizes", 2}}},
		{"the largest set decides first", []player{{[]int{4, 4, 4}, true}, {[]int{5, 5, 2}, true}},
			[]place{{1, 1, "", 0}, {0, 2, "set_sizes", 1}}},
		{"a later set decides", []player{{[]int{5, 3, 1, 1}, true}, {[]int{5, 3, 2}, true}},
			[]place{{1, 1, "", 0}, {0, 2, "set_sizes", 3}}},
		{"the second largest set decides", []player{{[]int{5, 5}, false}, {[]int{5, 4, 1}, false}},
			[]place{{0, 1, "", 0}, {1, 2, "set_sizes", 2}}},
		{"a set more beats a missing one", []player{{[]int{5, 5}, false}, {[]int{5, 5, 1}, true}},
			[]place{{1, 1, "", 0}, {0, 2, "set_sizes", 3}}},
		{"same sizes: a shared win", []player{{[]int{5, 2}, false}, {[]int{2, 5}, false}, {[]int{1}, true}},
			[]place{{0, 1, "", 0}, {1, 1, "shared", 0}, {2, 3, "total", 0}}},
		{"nothing collected, captains unused: all share", []player{{nil, false}, {nil, false}},
			[]place{{0, 1, "", 0}, {1, 1, "shared", 0}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var ps []PlayerScore
			for i, p := range c.players {
				ps = append(ps, ScoreOf(i, botNames[i], p.sets, p.used))
			}
			var got []place
			for _, pl := range Rank(ps) {
				got = append(got, place{pl.Seat, pl.Rank, pl.DecidedBy, pl.DecidingSet})
			}
			assert.Equal(t, c.want, got)
		})
	}
}

func TestScoreOfGame(t *testing.T) {
	g := position(t, `
		0: hand sssss; sets r5 r2 g1; captain used
		1: hand ggggg; sets p5 p3
		2: hand jjjjj`)
	s := g.Score()
	assert.Equal(t, RulesetName, s.Ruleset)
	assert.False(t, s.Final)
	assert.Equal(t, []int{8, 9, 1}, []int{s.Players[0].Total, s.Players[1].Total, s.Players[2].Total})
	assert.Equal(t, []int{5, 2, 1}, s.Players[0].SetSizes)
	assert.Equal(t, 1, s.Ranking[0].Seat)
}
