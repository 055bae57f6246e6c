package luckytreasurehunter

import (
	"cmp"
	"slices"

	"github.com/treasury-games/treasury/domain/gamekit"
	"github.com/treasury-games/treasury/domain/i18n"
)

// PlayerScore is one player's score: a point per collected card and one for
// an unused captain.
type PlayerScore struct {
	Seat        int    `json:"seat"`
	Name        string `json:"name"`
	Cards       int    `json:"cards"`   // collected treasure cards
	Captain     int    `json:"captain"` // 1 while the captain is unused
	Total       int    `json:"total"`
	CaptainUsed bool   `json:"captain_used"`
	// SetSizes are the sizes of the player's sets, largest first: the
	// tie-break compares them in this order.
	SetSizes []int `json:"set_sizes"`
}

// Place is one player's place in the ranking. DecidedBy is "total",
// "set_sizes" (equal totals; the first differing set size, from the largest
// down, was smaller or missing), or "shared"; its label reads "fewer
// points: 7 against 9".
type Place struct {
	gamekit.Place
	// DecidingSet is, for "set_sizes", the 1-based position (largest first)
	// of the set that decided.
	DecidingSet int `json:"deciding_set,omitempty"`
}

// Score is the scores of every player and the ranking.
type Score struct {
	Ruleset string        `json:"ruleset"` // "lucky-treasure-hunter"
	Final   bool          `json:"final"`   // the game has ended; otherwise the scores as they stand
	Players []PlayerScore `json:"players"`
	Ranking []Place       `json:"ranking"`
}

// ScoreOf computes a player's score from their sets and captain.
func ScoreOf(seat int, name string, sets []int, captainUsed bool) PlayerScore {
	ps := PlayerScore{Seat: seat, Name: name, CaptainUsed: captainUsed, SetSizes: slices.Clone(sets)}
	if ps.SetSizes == nil {
		ps.SetSizes = []int{}
	}
	slices.SortFunc(ps.SetSizes, func(a, b int) int { return cmp.Compare(b, a) })
	for _, s := range sets {
		ps.Cards += s
	}
	if !captainUsed {
		ps.Captain = 1
	}
	ps.Total = ps.Cards + ps.Captain
	return ps
}

// compareSets compares set sizes from the largest down; a missing set is
// smaller than any. It returns a negative number when a ranks above b, and
// the 1-based position that decided (0 when equal).
func compareSets(a, b []int) (int, int) {
	for i := 0; i < max(len(a), len(b)); i++ {
		x, y := 0, 0
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			return y - x, i + 1
		}
	}
	return 0, 0
}

// Rank orders players by total, then by set sizes from the largest down,
// and says for each place what decided it.
func Rank(players []PlayerScore) []Place {
	type why struct {
		m   i18n.Message
		set int
	}
	ranked := gamekit.Rank(players, func(a, b *PlayerScore) int {
		if a.Total != b.Total {
			return b.Total - a.Total
		}
		d, _ := compareSets(a.SetSizes, b.SetSizes)
		return d
	}, func(above, p *PlayerScore) (string, why) {
		if above.Total != p.Total {
			return "total", why{m: i18n.M("lth.decided.total", "total", p.Total, "above", above.Total)}
		}
		if _, at := compareSets(above.SetSizes, p.SetSizes); at > 0 {
			return "set_sizes", why{m: i18n.M("lth.decided.set-sizes", "set", at,
				"count", sizeAt(p.SetSizes, at), "above", sizeAt(above.SetSizes, at)), set: at}
		}
		return gamekit.Shared, why{m: i18n.M("lth.decided.shared")}
	})
	shared := gamekit.Places(players, ranked, func(p *PlayerScore) (int, string, int) { return p.Seat, p.Name, p.Total },
		func(_ string, w why) i18n.Message { return w.m })
	places := make([]Place, len(shared))
	for i, p := range shared {
		places[i] = Place{Place: p, DecidingSet: ranked[i].Why.set}
	}
	return places
}

// sizeAt is the size of the set at 1-based position at, 0 when there is none.
func sizeAt(sizes []int, at int) int {
	if at <= len(sizes) {
		return sizes[at-1]
	}
	return 0
}

// Score returns every player's score as it stands and the ranking; Final is
// set once the game has ended.
func (g *Game) Score() Score {
	s := Score{Ruleset: RulesetName, Final: g.Phase == PhaseEnded}
	for i := range g.Players {
		p := &g.Players[i]
		sizes := make([]int, len(p.Sets))
		for j, st := range p.Sets {
			sizes[j] = st.Size
		}
		s.Players = append(s.Players, ScoreOf(i, p.Name, sizes, p.CaptainUsed))
	}
	s.Ranking = Rank(s.Players)
	return s
}
