package colorfultreasure

import (
	"encoding/json"

	"github.com/treasury-games/treasury/domain/gamekit"
	"github.com/treasury-games/treasury/domain/i18n"
)

// gemPoints is what n gems of one colour score (standard; advanced scores 6
// gems 23).
var gemPoints = [...]int{0, 1, 3, 6, 10, 15, 21}

// GemPoints returns what n gem cards of one colour score.
func GemPoints(n int, advanced bool) int {
	switch {
	case n <= 0:
		return 0
	case n >= 6 && advanced:
		return 23
	case n >= 6:
		return gemPoints[6]
	}
	return gemPoints[n]
}

// DiamondTokenPoints returns what a diamond token scores.
func DiamondTokenPoints(advanced bool) int {
	if advanced {
		return 3
	}
	return 2
}

// Token points of the advanced rules.
const (
	SixthColourPoints = 1
	FourPointsPoints  = 4
)

// Gems counts gem cards by colour.
type Gems struct {
	Red    int `json:"red"`
	Yellow int `json:"yellow"`
	Green  int `json:"green"`
	Blue   int `json:"blue"`
	Purple int `json:"purple"`
}

func gemsOf(n [NumColours]int) Gems { return Gems{n[0], n[1], n[2], n[3], n[4]} }

func (g Gems) counts() [NumColours]int {
	return [NumColours]int{g.Red, g.Yellow, g.Green, g.Blue, g.Purple}
}

// Tally is what a player has at the end, the input of scoring.
type Tally struct {
	DiamondCards  int
	DiamondTokens int
	Gems          [NumColours]int
	LockCards     int
	Wonders       int
	Tokens        []Effect // permanent tokens held that score (sixth colour, 4 VP)
	Awards        []AwardLine
}

// Lines are the lines of a player's score.
type Lines struct {
	DiamondCards  int `json:"diamond_cards"`
	DiamondTokens int `json:"diamond_tokens"`
	Gems          int `json:"gems"`
	ActionTokens  int `json:"action_tokens"`
	Awards        int `json:"awards"`
}

// Sum is the total of the lines.
func (l Lines) Sum() int {
	return l.DiamondCards + l.DiamondTokens + l.Gems + l.ActionTokens + l.Awards
}

// AwardLine is an award a player scores.
type AwardLine struct {
	Award  string `json:"award"`
	Points int    `json:"points"`
}

// MarshalJSON writes the award line with the award's name beside its code:
// "name" in English and "name_message", for the API to render.
func (a AwardLine) MarshalJSON() ([]byte, error) {
	type line AwardLine
	out := struct {
		line
		Name        string        `json:"name,omitempty"`
		NameMessage *i18n.Message `json:"name_message,omitempty"`
	}{line: line(a)}
	if m, ok := awardTerm(a.Award).(i18n.Message); ok {
		out.Name, out.NameMessage = i18n.Text(m), &m
	}
	return json.Marshal(out)
}

// PlayerScore is one player's score, line by line.
type PlayerScore struct {
	Seat          int         `json:"seat"`
	Name          string      `json:"name"`
	Lines         Lines       `json:"lines"`
	Total         int         `json:"total"`
	DiamondCards  int         `json:"diamond_cards"`
	DiamondTokens int         `json:"diamond_tokens"`
	Gems          Gems        `json:"gems"`
	LockCards     int         `json:"key_and_chest_cards"`
	Wonders       int         `json:"wonders"`
	Awards        []AwardLine `json:"awards"`
}

// Place is one player's place in the ranking: players with equal totals
// share a rank. DecidedBy is "total", or "shared" (the rulebook has no
// tie-break); its label reads "a lower total".
type Place = gamekit.Place

// TieBreak is what the ranking says about equal totals.
const TieBreak = "none: the rulebook gives no tie-break, so equal totals share the place"

// tieBreakMessage is TieBreak as a message.
var tieBreakMessage = i18n.M("ct.tie-break")

// Score is every player's score and the ranking.
type Score struct {
	Ruleset  string        `json:"ruleset"`
	Final    bool          `json:"final"`
	Players  []PlayerScore `json:"players"`
	Ranking  []Place       `json:"ranking"`
	TieBreak string        `json:"tie_break"`
	// TieBreakMessage is TieBreak as a message.
	TieBreakMessage i18n.Message `json:"tie_break_message"`
}

// ScoreTally computes a player's lines from what they have.
func ScoreTally(t Tally, advanced bool) PlayerScore {
	ps := PlayerScore{DiamondCards: t.DiamondCards, DiamondTokens: t.DiamondTokens, Gems: gemsOf(t.Gems),
		LockCards: t.LockCards, Wonders: t.Wonders, Awards: append([]AwardLine{}, t.Awards...)}
	ps.Lines.DiamondCards = t.DiamondCards
	ps.Lines.DiamondTokens = t.DiamondTokens * DiamondTokenPoints(advanced)
	for _, n := range t.Gems {
		ps.Lines.Gems += GemPoints(n, advanced)
	}
	for _, e := range t.Tokens {
		switch e {
		case SixthColour:
			ps.Lines.ActionTokens += SixthColourPoints
		case FourPoints:
			ps.Lines.ActionTokens += FourPointsPoints
		}
	}
	for _, a := range t.Awards {
		ps.Lines.Awards += a.Points
	}
	ps.Total = ps.Lines.Sum()
	return ps
}

// ChestShares returns the Chest award's points per player from their key and
// chest card counts: 7 to the most, split rounded down among equals; nobody
// scores it when nobody has one.
func ChestShares(locks []int) []int {
	best, tied := 0, 0
	for _, n := range locks {
		switch {
		case n > best:
			best, tied = n, 1
		case n == best && n > 0:
			tied++
		}
	}
	out := make([]int, len(locks))
	if best == 0 {
		return out
	}
	for i, n := range locks {
		if n == best {
			out[i] = ChestPoints / tied
		}
	}
	return out
}

// Rank orders players by total; equal totals share the place.
func Rank(players []PlayerScore) []Place {
	ranked := gamekit.Rank(players, func(a, b *PlayerScore) int { return b.Total - a.Total },
		func(above, p *PlayerScore) (string, struct{}) {
			if above.Total == p.Total {
				return gamekit.Shared, struct{}{}
			}
			return "total", struct{}{}
		})
	return gamekit.Places(players, ranked, func(p *PlayerScore) (int, string, int) { return p.Seat, p.Name, p.Total },
		func(by string, _ struct{}) i18n.Message { return i18n.M("ct.decided-by." + by) })
}

// tally returns what seat has, awards held included (the Chest only once
// the game has ended, given as chest points).
func (g *Game) tally(seat, chest int) Tally {
	p := &g.Players[seat]
	t := Tally{DiamondTokens: len(p.DiamondTokens), Gems: p.gems(), LockCards: p.locks(), Wonders: p.wonders(), Awards: []AwardLine{}}
	for _, c := range p.Cards {
		if c.Kind == Diamond {
			t.DiamondCards++
		}
	}
	for _, tk := range p.Actions {
		if e := g.effect(tk); e == SixthColour || e == FourPoints {
			t.Tokens = append(t.Tokens, e)
		}
	}
	if g.Colorful == seat {
		t.Awards = append(t.Awards, AwardLine{AwardColorful, g.colorfulPoints()})
	}
	if g.Explorer == seat {
		t.Awards = append(t.Awards, AwardLine{AwardExplorer, ExplorerPoints})
	}
	if chest > 0 {
		t.Awards = append(t.Awards, AwardLine{AwardChest, chest})
	}
	return t
}

// Score returns every player's score as it stands and the ranking; the Chest
// award is scored once the game has ended.
func (g *Game) Score() Score {
	s := Score{Ruleset: RulesetName, Final: g.Phase == PhaseEnded, TieBreak: TieBreak, TieBreakMessage: tieBreakMessage}

	chest := make([]int, len(g.Players))
	if s.Final && !g.Junior() {
		locks := make([]int, len(g.Players))
		for i := range g.Players {
			locks[i] = g.Players[i].locks()
		}
		chest = ChestShares(locks)
	}
	for i := range g.Players {
		ps := ScoreTally(g.tally(i, chest[i]), g.Variant == VariantAdvanced)
		ps.Seat, ps.Name = i, g.Players[i].Name
		s.Players = append(s.Players, ps)
	}
	s.Ranking = Rank(s.Players)
	return s
}
