package gamekit

import "slices"

// Shared is the decision of two players nothing put apart: they share the
// place (and its rank).
const Shared = "shared"

// Ranked is one place of a ranking: the index of the player in the slice
// ranked, its 1-based rank (players who share a place share the rank), and,
// but for the first, what put it below the player ranked just above (By is
// the game's decided_by code, Shared when nothing did).
type Ranked[D any] struct {
	Index int
	Rank  int
	By    string
	// Why is the game's account of By (a message, a deciding position…);
	// its zero value for the first.
	Why D
}

// Rank orders players by compare (negative when a ranks above b; players
// it finds equal keep their order) and says for each place after the first
// what decided it: decide(above, p) returns the game's code and account of
// what put p below above, Shared when nothing did, in which case p shares
// above's rank.
func Rank[P, D any](players []P, compare func(a, b *P) int, decide func(above, p *P) (string, D)) []Ranked[D] {
	order := make([]int, len(players))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int { return compare(&players[i], &players[j]) })
	out := make([]Ranked[D], len(order))
	for i, idx := range order {
		out[i] = Ranked[D]{Index: idx, Rank: i + 1}
		if i == 0 {
			continue
		}
		out[i].By, out[i].Why = decide(&players[order[i-1]], &players[idx])
		if out[i].By == Shared {
			out[i].Rank = out[i-1].Rank
		}
	}
	return out
}
