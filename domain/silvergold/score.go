package silvergold

import (
	"github.com/treasury-games/treasury/domain/gamekit"
	"github.com/treasury-games/treasury/domain/i18n"
)

// CardLine is one completed treasure card on a score.
type CardLine struct {
	Card   string `json:"card,omitempty"` // catalog id; empty for a card written out on a paper sheet
	Colour Colour `json:"colour"`
	Value  int    `json:"value"`
	Seal   *Seal  `json:"seal,omitempty"`
}

// SealLine is what one seal on a completed card earned.
type SealLine struct {
	Card   string `json:"card,omitempty"`
	Colour Colour `json:"colour"` // the colour the seal names
	Points int    `json:"points"` // per completed card of that colour
	Cards  int    `json:"cards"`  // completed cards of that colour
	Value  int    `json:"value"`  // Points × Cards
}

// Lines are the five lines of the score card.
type Lines struct {
	Coins int `json:"coins"`
	Cups  int `json:"cups"`
	Palms int `json:"palms"`
	Cards int `json:"cards"`
	Seals int `json:"seals"`
}

// Sum is the total of the lines.
func (l Lines) Sum() int { return l.Coins + l.Cups + l.Palms + l.Cards + l.Seals }

// ByColour counts completed cards per colour.
type ByColour struct {
	Grey   int `json:"grey"`
	Green  int `json:"green"`
	Orange int `json:"orange"`
	Purple int `json:"purple"`
}

// Get returns the count of colour c.
func (b ByColour) Get(c Colour) int { return [NumColours]int{b.Grey, b.Green, b.Orange, b.Purple}[c] }

func (b *ByColour) add(c Colour) {
	switch c {
	case Grey:
		b.Grey++
	case Green:
		b.Green++
	case Orange:
		b.Orange++
	default:
		b.Purple++
	}
}

// PlayerScore is one player's final (or running) score, line by line.
type PlayerScore struct {
	Seat      int        `json:"seat"`
	Name      string     `json:"name"`
	Lines     Lines      `json:"lines"`
	Total     int        `json:"total"`
	Completed ByColour   `json:"completed"`
	Coins     int        `json:"coins"`
	CupValues []int      `json:"cup_values"`
	PalmBoxes []int      `json:"palm_values"`
	Cards     []CardLine `json:"cards"`
	Seals     []SealLine `json:"seals"`
}

// Place is one player's place in the ranking. DecidedBy is "total", a
// colour (more completed cards of it, in the order grey, green, orange,
// purple), or "shared"; its label names the player above ("fewer completed
// grey cards than Sarah").
type Place = gamekit.Place

// Score is the scores of every player and the ranking.
type Score struct {
	Ruleset string        `json:"ruleset"` // "silver-and-gold"
	Final   bool          `json:"final"`   // the game has ended; otherwise the scores as they stand
	Players []PlayerScore `json:"players"`
	Ranking []Place       `json:"ranking"`
}

// ScoreLines computes a player's lines from their completed cards, coins, cups
// and palm values, by the rules page's table.
func ScoreLines(cards []CardLine, coins int, cups, palms []int) PlayerScore {
	ps := PlayerScore{Coins: coins, CupValues: cups, PalmBoxes: palms, Cards: cards, Seals: []SealLine{}}
	if ps.Cards == nil {
		ps.Cards = []CardLine{}
	}
	ps.Lines.Coins = coins
	for _, c := range cups {
		ps.Lines.Cups += c
	}
	for _, p := range palms {
		ps.Lines.Palms += p
	}
	for _, c := range cards {
		ps.Lines.Cards += c.Value
		ps.Completed.add(c.Colour)
	}
	for _, c := range cards {
		if c.Seal == nil {
			continue
		}
		n := ps.Completed.Get(c.Seal.Colour)
		sl := SealLine{Card: c.Card, Colour: c.Seal.Colour, Points: c.Seal.Points, Cards: n, Value: c.Seal.Points * n}
		ps.Seals = append(ps.Seals, sl)
		ps.Lines.Seals += sl.Value
	}
	ps.Total = ps.Lines.Sum()
	return ps
}

// Rank orders players by total, then by completed grey, green, orange and
// purple cards, and says for each place what decided it.
func Rank(players []PlayerScore) []Place {
	ranked := gamekit.Rank(players, decide, func(above, p *PlayerScore) (string, string) {
		if above.Total != p.Total {
			return "total", above.Name
		}
		for _, c := range Colours {
			if above.Completed.Get(c) != p.Completed.Get(c) {
				return c.String(), above.Name
			}
		}
		return gamekit.Shared, above.Name
	})
	return gamekit.Places(players, ranked, scoreLine, func(by, above string) i18n.Message { return i18n.M("sg.decided."+by, "above", above) })
}

// scoreLine is what a place shows of a player's score.
func scoreLine(p *PlayerScore) (int, string, int) { return p.Seat, p.Name, p.Total }

// decide is negative when a ranks above b, positive when below, 0 when equal.
func decide(a, b *PlayerScore) int {
	if a.Total != b.Total {
		return b.Total - a.Total
	}
	for _, c := range Colours {
		if d := b.Completed.Get(c) - a.Completed.Get(c); d != 0 {
			return d
		}
	}
	return 0
}

// Score returns every player's score as it stands and the ranking; Final is
// set once the game has ended. Unfinished cards score nothing.
func (g *Game) Score() Score {
	s := Score{Ruleset: RulesetName, Final: g.Phase == PhaseEnded}
	for i, p := range g.Players {
		cards := make([]CardLine, len(p.Pile))
		for j, ci := range p.Pile {
			c := &g.cat.Cards[ci]
			cards[j] = CardLine{Card: c.ID, Colour: c.Colour, Value: c.Value, Seal: c.Seal}
		}
		ps := ScoreLines(cards, p.Coins, append([]int{}, p.Cups...), append([]int{}, p.Palms...))
		ps.Seat, ps.Name = i, p.Name
		s.Players = append(s.Players, ps)
	}
	s.Ranking = Rank(s.Players)
	return s
}
