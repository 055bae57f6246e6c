package groups

import (
	"math"
	"net/url"
	"time"

	"github.com/treasury-games/treasury/domain"
)

// Stats are a group's statistics, computed from its plays. Every figure
// names the plays behind it: a best score or margin its play, a streak its
// first and last play, a count the query of the plays it counts.
type Stats struct {
	Group       string         `json:"group"`
	Revision    int64          `json:"revision"` // the group's revision they were computed at
	Plays       int            `json:"plays"`
	FirstPlayed *time.Time     `json:"first_played"`
	LastPlayed  *time.Time     `json:"last_played"`
	Members     []MemberStats  `json:"members"`
	Games       []GameStats    `json:"games"`
	HeadToHead  []HeadToHead   `json:"head_to_head"`
	PlaysHref   string         `json:"plays_href"`
	ByMonth     []MonthlyPlays `json:"by_month"` // plays per month, earliest first
}

// MonthlyPlays is how many plays a month saw.
type MonthlyPlays struct {
	Month string `json:"month"` // "2026-11"
	Plays int    `json:"plays"`
}

// MemberStats are one member's figures over every game.
type MemberStats struct {
	Member  string  `json:"member"`
	Name    string  `json:"name"`
	Plays   int     `json:"plays"`
	Wins    int     `json:"wins"` // a shared first place counts for everyone in it
	WinRate float64 `json:"win_rate"`
	// LongestWinStreak is the most plays won one after another;
	// CurrentWinStreak those won since the last play not won.
	LongestWinStreak Streak `json:"longest_win_streak"`
	CurrentWinStreak Streak `json:"current_win_streak"`
	PlaysHref        string `json:"plays_href"`
}

// Streak is a run of plays won one after another.
type Streak struct {
	Length int    `json:"length"`
	From   string `json:"from,omitempty"` // the first play of the run
	To     string `json:"to,omitempty"`   // the last
}

// GameStats are the figures of one game (ruleset).
type GameStats struct {
	Ruleset   string            `json:"ruleset"`
	Plays     int               `json:"plays"`
	Lines     []string          `json:"lines"` // the game's score lines, in score card order
	Members   []GameMemberStats `json:"members"`
	PlaysHref string            `json:"plays_href"`
}

// GameMemberStats are one member's figures in one game.
type GameMemberStats struct {
	Member        string      `json:"member"`
	Name          string      `json:"name"`
	Plays         int         `json:"plays"`
	Wins          int         `json:"wins"`
	WinRate       float64     `json:"win_rate"`
	AverageScore  float64     `json:"average_score"`
	BestScore     Figure      `json:"best_score"`
	AverageMargin float64     `json:"average_margin"` // score less the best other score, averaged
	BestMargin    Figure      `json:"best_margin"`
	Lines         []LineStats `json:"lines"`
	// Recent are the member's last scores in this game, earliest first
	// (at most RecentScores), for a chart of how they go.
	Recent    []Figure `json:"recent"`
	PlaysHref string   `json:"plays_href"`
}

// RecentScores is how many recent scores GameMemberStats keep.
const RecentScores = 20

// Figure is a number and the play it comes from.
type Figure struct {
	Value int    `json:"value"`
	Play  string `json:"play"`
}

// LineStats are one member's figures on one score line of a game.
type LineStats struct {
	Line    string  `json:"line"`
	Average float64 `json:"average"`
	Best    Figure  `json:"best"`
}

// HeadToHead is how a member fared against another in the plays both were in.
type HeadToHead struct {
	Member   string `json:"member"`
	Opponent string `json:"opponent"`
	Plays    int    `json:"plays"`
	Wins     int    `json:"wins"`   // plays the member placed above the opponent
	Losses   int    `json:"losses"` // below
	Ties     int    `json:"ties"`   // the same place
}

// round3 rounds to 3 decimals, so that figures read the same everywhere.
func round3(f float64) float64 { return math.Round(f*1000) / 1000 }

// Compute returns the statistics of a group's plays (earliest first) for
// its members (in the order they joined). Players who are no longer members
// are left out of every figure but the count of plays.
func Compute(g domain.Group, members []domain.Member, plays []domain.Play) Stats {
	base := "/v1/groups/" + url.PathEscape(g.ID) + "/plays"
	st := Stats{Group: g.ID, Revision: g.Revision, Plays: len(plays), PlaysHref: base,
		Members: []MemberStats{}, Games: []GameStats{}, HeadToHead: []HeadToHead{}, ByMonth: []MonthlyPlays{}}
	index := make(map[string]int, len(members))
	for i, m := range members {
		index[m.ID] = i
		st.Members = append(st.Members, MemberStats{Member: m.ID, Name: m.Name,
			PlaysHref: base + "?member=" + url.QueryEscape(m.ID)})
	}
	if len(plays) > 0 {
		first, last := plays[0].PlayedAt, plays[len(plays)-1].PlayedAt
		st.FirstPlayed, st.LastPlayed = &first, &last
	}

	type acc struct {
		plays, wins         int
		scoreSum, marginSum int
		margins             int // plays with a margin (someone else played)
		best, bestMargin    Figure
		lineSum             map[string]int
		lineBest            map[string]Figure
		recent              []Figure
	}
	type game struct {
		stats   GameStats
		lineIdx map[string]bool
		acc     []acc
	}
	games := map[string]*game{}
	var order []string
	h2h := make([][]HeadToHead, len(members))
	for i := range h2h {
		h2h[i] = make([]HeadToHead, len(members))
	}
	run := make([]Streak, len(members))

	for pi := range plays {
		p := &plays[pi]
		month := p.PlayedAt.UTC().Format("2006-01")
		if n := len(st.ByMonth); n == 0 || st.ByMonth[n-1].Month != month {
			st.ByMonth = append(st.ByMonth, MonthlyPlays{Month: month})
		}
		st.ByMonth[len(st.ByMonth)-1].Plays++
		gm := games[p.Ruleset]
		if gm == nil {
			gm = &game{stats: GameStats{Ruleset: p.Ruleset, Lines: []string{}, Members: []GameMemberStats{},
				PlaysHref: base + "?ruleset=" + url.QueryEscape(p.Ruleset)},
				lineIdx: map[string]bool{}, acc: make([]acc, len(members))}
			games[p.Ruleset] = gm
			order = append(order, p.Ruleset)
		}
		gm.stats.Plays++
		for ai := range p.Players {
			a := &p.Players[ai]
			mi, ok := index[a.Member]
			if !ok {
				continue
			}
			ms := &st.Members[mi]
			ms.Plays++
			if a.Winner {
				ms.Wins++
				r := &run[mi]
				if r.Length == 0 {
					r.From = p.ID
				}
				r.Length++
				r.To = p.ID
				if r.Length > ms.LongestWinStreak.Length {
					ms.LongestWinStreak = *r
				}
			} else {
				run[mi] = Streak{}
			}
			c := &gm.acc[mi]
			c.plays++
			if a.Winner {
				c.wins++
			}
			c.scoreSum += a.Score
			if c.plays == 1 || a.Score > c.best.Value {
				c.best = Figure{a.Score, p.ID}
			}
			otherBest, others := 0, false
			for bi := range p.Players {
				b := &p.Players[bi]
				if bi == ai {
					continue
				}
				if !others || b.Score > otherBest {
					otherBest, others = b.Score, true
				}
				if oi, ok := index[b.Member]; ok && oi != mi {
					h := &h2h[mi][oi]
					h.Plays++
					switch {
					case a.Rank < b.Rank:
						h.Wins++
					case a.Rank > b.Rank:
						h.Losses++
					default:
						h.Ties++
					}
				}
			}
			if others {
				m := a.Score - otherBest
				if c.margins == 0 || m > c.bestMargin.Value {
					c.bestMargin = Figure{m, p.ID}
				}
				c.margins++
				c.marginSum += m
			}
			if c.lineSum == nil {
				c.lineSum, c.lineBest = map[string]int{}, map[string]Figure{}
			}
			for _, l := range a.Lines {
				if !gm.lineIdx[l.Line] {
					gm.lineIdx[l.Line] = true
					gm.stats.Lines = append(gm.stats.Lines, l.Line)
				}
				c.lineSum[l.Line] += l.Value
				if b, ok := c.lineBest[l.Line]; !ok || l.Value > b.Value {
					c.lineBest[l.Line] = Figure{l.Value, p.ID}
				}
			}
			c.recent = append(c.recent, Figure{a.Score, p.ID})
			if len(c.recent) > 2*RecentScores {
				c.recent = append(c.recent[:0], c.recent[len(c.recent)-RecentScores:]...)
			}
		}
	}
	for mi := range st.Members {
		ms := &st.Members[mi]
		ms.CurrentWinStreak = run[mi]
		if ms.Plays > 0 {
			ms.WinRate = round3(float64(ms.Wins) / float64(ms.Plays))
		}
	}
	for _, name := range order {
		gm := games[name]
		for mi, c := range gm.acc {
			if c.plays == 0 {
				continue
			}
			m := members[mi]
			gs := GameMemberStats{Member: m.ID, Name: m.Name, Plays: c.plays, Wins: c.wins,
				WinRate:      round3(float64(c.wins) / float64(c.plays)),
				AverageScore: round3(float64(c.scoreSum) / float64(c.plays)),
				BestScore:    c.best, BestMargin: c.bestMargin, Lines: []LineStats{},
				PlaysHref: base + "?member=" + url.QueryEscape(m.ID) + "&ruleset=" + url.QueryEscape(name)}
			if c.margins > 0 {
				gs.AverageMargin = round3(float64(c.marginSum) / float64(c.margins))
			}
			for _, l := range gm.stats.Lines {
				gs.Lines = append(gs.Lines, LineStats{Line: l, Average: round3(float64(c.lineSum[l]) / float64(c.plays)), Best: c.lineBest[l]})
			}
			if len(c.recent) > RecentScores {
				c.recent = c.recent[len(c.recent)-RecentScores:]
			}
			gs.Recent = append([]Figure{}, c.recent...)
			gm.stats.Members = append(gm.stats.Members, gs)
		}
		st.Games = append(st.Games, gm.stats)
	}
	for mi := range members {
		for oi := range members {
			if h := h2h[mi][oi]; h.Plays > 0 {
				h.Member, h.Opponent = members[mi].ID, members[oi].ID
				st.HeadToHead = append(st.HeadToHead, h)
			}
		}
	}
	return st
}
