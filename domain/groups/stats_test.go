package groups_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/groups"
)

var t0 = time.Date(2026, 11, 2, 19, 0, 0, 0, time.UTC)

// result is one player's line of a fixed play: member, score, rank.
type result struct {
	member      string
	score, rank int
}

func play(id string, day int, ruleset string, rs ...result) domain.Play {
	p := domain.Play{ID: id, Source: domain.PlayFromSheet, Ruleset: ruleset, Mode: domain.Physical,
		Options: json.RawMessage(`{}`), PlayedAt: t0.Add(time.Duration(day) * 24 * time.Hour)}
	for i, r := range rs {
		p.Players = append(p.Players, domain.PlayPlayer{Member: r.member, Name: r.member, Seat: i, Score: r.score,
			Rank: r.rank, Winner: r.rank == 1, Start: i == 0,
			Lines: []domain.ScoreLine{{Line: "coins", Value: r.score / 5}, {Line: "cups", Value: 1}}})
	}
	return p
}

// fixedPlays are five plays whose statistics are worked out by hand below.
//
//	p1 S&G  A 50 (1)  B 40 (2)  C 30 (3)
//	p2 S&G  A 45 (1)  B 45 (1)  C 20 (3)   a shared first place: A and B both win
//	p3 S&G  B 60 (1)  A 30 (2)
//	p4 CT   C 12 (1)  A 10 (2)
//	p5 S&G  A 55 (1)  C 50 (2)
func fixedPlays() ([]domain.Member, []domain.Play) {
	members := []domain.Member{{ID: "A", Name: "Ann"}, {ID: "B", Name: "Ben"}, {ID: "C", Name: "Cid"}}
	return members, []domain.Play{
		play("p1", 0, "silver-and-gold", result{"A", 50, 1}, result{"B", 40, 2}, result{"C", 30, 3}),
		play("p2", 1, "silver-and-gold", result{"A", 45, 1}, result{"B", 45, 1}, result{"C", 20, 3}),
		play("p3", 2, "silver-and-gold", result{"B", 60, 1}, result{"A", 30, 2}),
		play("p4", 3, "colorful-treasure", result{"C", 12, 1}, result{"A", 10, 2}),
		play("p5", 4, "silver-and-gold", result{"A", 55, 1}, result{"C", 50, 2}),
	}
}

func TestComputeByHand(t *testing.T) {
	members, plays := fixedPlays()
	st := groups.Compute(domain.Group{ID: "g", Revision: 9}, members, plays)

	assert.Equal(t, 5, st.Plays)
	assert.Equal(t, int64(9), st.Revision)
	assert.Equal(t, []groups.MonthlyPlays{{Month: "2026-11", Plays: 5}}, st.ByMonth)
	assert.Equal(t, "/v1/groups/g/plays", st.PlaysHref)

	require.Len(t, st.Members, 3)
	a, b, c := st.Members[0], st.Members[1], st.Members[2]
	// Ann: W W L L W.
	assert.Equal(t, groups.MemberStats{Member: "A", Name: "Ann", Plays: 5, Wins: 3, WinRate: 0.6,
		LongestWinStreak: groups.Streak{Length: 2, From: "p1", To: "p2"},
		CurrentWinStreak: groups.Streak{Length: 1, From: "p5", To: "p5"},
		PlaysHref:        "/v1/groups/g/plays?member=A"}, a)
	// Ben: L W W (p2's shared first place is a win).
	assert.Equal(t, 3, b.Plays)
	assert.Equal(t, 2, b.Wins)
	assert.Equal(t, 0.667, b.WinRate)
	assert.Equal(t, groups.Streak{Length: 2, From: "p2", To: "p3"}, b.LongestWinStreak)
	assert.Equal(t, groups.Streak{Length: 2, From: "p2", To: "p3"}, b.CurrentWinStreak)
	// Cid: L L W L.
	assert.Equal(t, 4, c.Plays)
	assert.Equal(t, 1, c.Wins)
	assert.Equal(t, 0.25, c.WinRate)
	assert.Equal(t, groups.Streak{Length: 1, From: "p4", To: "p4"}, c.LongestWinStreak)
	assert.Equal(t, groups.Streak{}, c.CurrentWinStreak)

	require.Len(t, st.Games, 2)
	sg, ct := st.Games[0], st.Games[1]
	assert.Equal(t, "silver-and-gold", sg.Ruleset)
	assert.Equal(t, 4, sg.Plays)
	assert.Equal(t, []string{"coins", "cups"}, sg.Lines)
	require.Len(t, sg.Members, 3)
	// Ann in S&G: 50, 45, 30, 55; margins +10, 0, -30, +5.
	assert.Equal(t, groups.GameMemberStats{Member: "A", Name: "Ann", Plays: 4, Wins: 3, WinRate: 0.75,
		AverageScore: 45, BestScore: groups.Figure{Value: 55, Play: "p5"},
		AverageMargin: -3.75, BestMargin: groups.Figure{Value: 10, Play: "p1"},
		Lines: []groups.LineStats{{Line: "coins", Average: 9, Best: groups.Figure{Value: 11, Play: "p5"}},
			{Line: "cups", Average: 1, Best: groups.Figure{Value: 1, Play: "p1"}}},
		Recent:    []groups.Figure{{Value: 50, Play: "p1"}, {Value: 45, Play: "p2"}, {Value: 30, Play: "p3"}, {Value: 55, Play: "p5"}},
		PlaysHref: "/v1/groups/g/plays?member=A&ruleset=silver-and-gold"}, sg.Members[0])
	// Ben in S&G: 40, 45, 60; margins -10, 0, +30.
	assert.Equal(t, 48.333, sg.Members[1].AverageScore)
	assert.Equal(t, groups.Figure{Value: 60, Play: "p3"}, sg.Members[1].BestScore)
	assert.Equal(t, 6.667, sg.Members[1].AverageMargin)
	assert.Equal(t, groups.Figure{Value: 30, Play: "p3"}, sg.Members[1].BestMargin)
	// Cid in S&G: 30, 20, 50; margins -20, -25, -5.
	assert.Equal(t, 0, sg.Members[2].Wins)
	assert.Equal(t, 33.333, sg.Members[2].AverageScore)
	assert.Equal(t, -16.667, sg.Members[2].AverageMargin)
	assert.Equal(t, groups.Figure{Value: -5, Play: "p5"}, sg.Members[2].BestMargin)

	assert.Equal(t, "colorful-treasure", ct.Ruleset)
	require.Len(t, ct.Members, 2)
	assert.Equal(t, "A", ct.Members[0].Member)
	assert.Equal(t, -2.0, ct.Members[0].AverageMargin)
	assert.Equal(t, "C", ct.Members[1].Member)
	assert.Equal(t, 1.0, ct.Members[1].WinRate)
	assert.Equal(t, groups.Figure{Value: 2, Play: "p4"}, ct.Members[1].BestMargin)

	assert.Equal(t, []groups.HeadToHead{
		{Member: "A", Opponent: "B", Plays: 3, Wins: 1, Losses: 1, Ties: 1},
		{Member: "A", Opponent: "C", Plays: 4, Wins: 3, Losses: 1},
		{Member: "B", Opponent: "A", Plays: 3, Wins: 1, Losses: 1, Ties: 1},
		{Member: "B", Opponent: "C", Plays: 2, Wins: 2},
		{Member: "C", Opponent: "A", Plays: 4, Wins: 1, Losses: 3},
		{Member: "C", Opponent: "B", Plays: 2, Losses: 2},
	}, st.HeadToHead)
}

func TestComputeLeavesOutFormerMembers(t *testing.T) {
	members, plays := fixedPlays()
	st := groups.Compute(domain.Group{ID: "g"}, members[:2], plays) // Cid left
	assert.Equal(t, 5, st.Plays)
	require.Len(t, st.Members, 2)
	for _, h := range st.HeadToHead {
		assert.NotEqual(t, "C", h.Opponent)
	}
	assert.Len(t, st.Games, 2)
	assert.Len(t, st.Games[1].Members, 1, "only Ann of the members played Colorful Treasure")
}

func TestComputeEmpty(t *testing.T) {
	st := groups.Compute(domain.Group{ID: "g"}, nil, nil)
	b, err := json.Marshal(st)
	require.NoError(t, err)
	assert.JSONEq(t, `{"group":"g","revision":0,"plays":0,"first_played":null,"last_played":null,"members":[],"games":[],
		"head_to_head":[],"plays_href":"/v1/groups/g/plays","by_month":[]}`, string(b))
}

// BenchmarkCompute is the statistics of 10 members' 10,000 plays of four
// players, from plays in memory (the service keeps a group's plays between
// changes; see storage/sqlite BenchmarkGroupStats for the store's part).
func BenchmarkCompute(b *testing.B) {
	var members []domain.Member
	for i := range 10 {
		members = append(members, domain.Member{ID: string(rune('a' + i)), Name: string(rune('A' + i))})
	}
	plays := make([]domain.Play, 10000)
	for i := range plays {
		var rs []result
		for seat := range 4 {
			rs = append(rs, result{members[(i+seat*3)%10].ID, 40 + (i*7+seat*13)%50, seat + 1})
		}
		plays[i] = play("p"+string(rune(i)), i, "silver-and-gold", rs...)
	}
	for b.Loop() {
		if st := groups.Compute(domain.Group{ID: "g"}, members, plays); st.Plays != len(plays) {
			b.Fatal(st.Plays)
		}
	}
}
