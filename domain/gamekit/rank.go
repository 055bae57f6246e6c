package gamekit

import (
	"slices"

	"github.com/treasury-games/treasury/domain/i18n"
)

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

// Place is one player's place in a game's ranking, as every game reports it.
type Place struct {
	Rank  int    `json:"rank"` // 1-based; players who share a place share the rank
	Seat  int    `json:"seat"`
	Name  string `json:"name"`
	Total int    `json:"total"`
	// DecidedBy is the game's decided_by code for what put this player
	// below the one ranked just above ("total", Shared, or the game's own
	// tie-breaks); empty for the first.
	DecidedBy string `json:"decided_by,omitempty"`
	// DecidedByLabel says DecidedBy as a line a player reads, in English;
	// DecidedByLabelMessage is it as a message, which the API renders in
	// the player's language. Empty for the first.
	DecidedByLabel        string        `json:"decided_by_label,omitempty"`
	DecidedByLabelMessage *i18n.Message `json:"decided_by_label_message,omitempty"`
}

// Places turns a ranking of players into places: score reads a player's
// seat, name and total, and label says what put a place below the one
// above (by is the game's code, why its account from Rank).
func Places[P, D any](players []P, ranked []Ranked[D], score func(*P) (seat int, name string, total int), label func(by string, why D) i18n.Message) []Place {
	places := make([]Place, len(ranked))
	for i, r := range ranked {
		p := &places[i]
		p.Rank = r.Rank
		p.Seat, p.Name, p.Total = score(&players[r.Index])
		if i > 0 {
			m := label(r.By, r.Why)
			p.DecidedBy, p.DecidedByLabel, p.DecidedByLabelMessage = r.By, i18n.Text(m), &m
		}
	}
	return places
}
