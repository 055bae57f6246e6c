package luckytreasurehunter

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/i18n"
	"github.com/treasury-games/treasury/domain/names"
)

// Sheet is the paper tally at the end of a physical game, as the players
// counted it (the body of POST /v1/score-sheets/verify): each player's sets
// by type and size, whether the captain was used, and the total counted.
type Sheet struct {
	Ruleset string `json:"ruleset,omitempty"` // "lucky-treasure-hunter" where given
	// PlayersAtTable is how many played (it decides whether the extra pack was
	// in), 2 to 6 and at least the players listed; nil: the number of players
	// on the sheet (2 when it lists one). A 0 written is not left out.
	PlayersAtTable *int          `json:"players_at_table,omitempty"`
	Players        []SheetPlayer `json:"players"`
}

// SheetPlayer is one player's tally.
type SheetPlayer struct {
	Name        string     `json:"name"`
	Sets        []SheetSet `json:"sets"`
	CaptainUsed bool       `json:"captain_used"`
	Total       *int       `json:"total,omitempty"` // what they counted, if they did
}

// SheetSet is one set as counted: its type and its number of cards.
type SheetSet struct {
	Treasure string `json:"treasure"`
	Size     int    `json:"size"`
}

// SheetResult is what the server makes of a tally: every player's score as
// the rules compute it, the ranking, and what is wrong.
type SheetResult struct {
	Ruleset  string        `json:"ruleset"` // "lucky-treasure-hunter"
	Valid    bool          `json:"valid"`   // no findings
	Players  []PlayerScore `json:"players"` // Seat is the index into the sheet's players
	Ranking  []Place       `json:"ranking"`
	Findings []Finding     `json:"findings"` // never nil
}

// Finding is one thing on a well-formed tally that the rules say cannot be.
type Finding struct {
	Code     string `json:"code"`               // one of the Finding* codes
	Player   *int   `json:"player,omitempty"`   // index into the sheet's players; nil for the whole table
	Treasure string `json:"treasure,omitempty"` // the type concerned
	Reason   string `json:"reason"`             // a sentence a player can act on, in English
	// ReasonMessage is Reason as a message, rendered in the player's
	// language by the API.
	ReasonMessage i18n.Message `json:"reason_message"`
}

// finding returns f with its reason said by m.
func finding(f Finding, m i18n.Message) Finding {
	f.Reason, f.ReasonMessage = i18n.Text(m), m
	return f
}

// The finding codes. They are stable: clients branch on them.
const (
	FindingSetSize        = "set_size"        // a set of fewer than 1 or more than 5 cards
	FindingIncompleteSets = "incomplete_sets" // two sets of one type under 5 in front of one player: they combine
	FindingTooManyCards   = "too_many_cards"  // more cards of a type on the sheet than the packs hold
	FindingTotalMismatch  = "total_mismatch"  // the counted total is not the cards plus the unused captain
)

// VerifySheet checks a tally. A tally that cannot be read (an unknown
// treasure, no players, an impossible table size) is an Invalid error; what
// the rules say cannot be is a finding.
func VerifySheet(s Sheet) (SheetResult, error) {
	if s.Ruleset != "" && s.Ruleset != RulesetName {
		return SheetResult{}, domain.Fail(domain.Invalid, "lth.invalid.sheet-ruleset", "given", strconv.Quote(s.Ruleset))
	}
	n := len(s.Players)
	if n == 0 {
		return SheetResult{}, domain.Fail(domain.Invalid, "lth.invalid.sheet-no-players")
	}
	written := make([]string, n)
	for i, p := range s.Players {
		written[i] = p.Name
	}
	if err := names.Check(written); err != nil {
		return SheetResult{}, err
	}
	table := max(n, MinPlayers)
	if s.PlayersAtTable != nil {
		table = *s.PlayersAtTable
	}
	switch {
	case table < MinPlayers || table > MaxPlayers:
		return SheetResult{}, domain.Fail(domain.Invalid, "lth.invalid.sheet-table", "given", table)
	case table < n:
		return SheetResult{}, domain.Fail(domain.Invalid, "lth.invalid.sheet-table-listed", "table", table, "listed", n)
	}
	res := SheetResult{Ruleset: RulesetName, Players: []PlayerScore{}, Findings: []Finding{}}
	var onSheet Counts
	for i, p := range s.Players {
		p.Name = strings.TrimSpace(p.Name)
		sizes := make([]int, 0, len(p.Sets))
		incomplete := map[Treasure]int{}
		for j, st := range p.Sets {
			t, ok := ParseTreasure(st.Treasure)
			if !ok {
				return SheetResult{}, domain.Fail(domain.Invalid, "lth.invalid.sheet-treasure", "player", i, "set", j, "given", strconv.Quote(st.Treasure), "treasures", TreasureNames())
			}
			if st.Size < 1 || st.Size > SetSize {
				res.Findings = append(res.Findings, finding(Finding{Code: FindingSetSize, Player: SeatPtr(i), Treasure: t.String()},
					i18n.M("lth.finding.set-size", "name", p.Name, "size", st.Size, "treasure", t.Term())))
			}
			if st.Size < SetSize {
				incomplete[t]++
				if incomplete[t] == 2 {
					res.Findings = append(res.Findings, finding(Finding{Code: FindingIncompleteSets, Player: SeatPtr(i), Treasure: t.String()},
						i18n.M("lth.finding.incomplete-sets", "name", p.Name, "treasure", t.Term())))
				}
			}
			onSheet[t] += max(st.Size, 0)
			sizes = append(sizes, max(st.Size, 0))
		}
		ps := ScoreOf(i, p.Name, sizes, p.CaptainUsed)
		if p.Total != nil && *p.Total != ps.Total {
			res.Findings = append(res.Findings, finding(Finding{Code: FindingTotalMismatch, Player: SeatPtr(i)},
				i18n.M("lth.finding.total-mismatch", "name", p.Name, "counted", *p.Total, "cards", ps.Cards, "captain", ps.Captain, "total", ps.Total)))
		}
		res.Players = append(res.Players, ps)
	}
	deck := Deck(table)
	for t := Treasure(0); t < NumTreasures; t++ {
		if onSheet[t] > deck[t] {
			res.Findings = append(res.Findings, finding(Finding{Code: FindingTooManyCards, Treasure: t.String()},
				i18n.M("lth.finding.too-many-cards", "listed", onSheet[t], "treasure", t.Term(), "players", table, "deck", deck[t])))
		}
	}
	slices.SortStableFunc(res.Findings, func(a, b Finding) int {
		pa, pb := -1, -1
		if a.Player != nil {
			pa = *a.Player
		}
		if b.Player != nil {
			pb = *b.Player
		}
		return cmp.Compare(pa, pb)
	})
	res.Ranking = Rank(res.Players)
	res.Valid = len(res.Findings) == 0
	return res, nil
}
