package silvergold

import "github.com/treasury-games/treasury/domain"

// CatalogRef names the catalog a game was created with.
type CatalogRef struct {
	Name string `json:"name"`
	Hash string `json:"hash"`
}

// CardView is a treasure card in front of a player.
type CardView struct {
	Card    string   `json:"card"`
	Colour  Colour   `json:"colour"`
	Value   int      `json:"value"`
	Seal    *Seal    `json:"seal"`
	Grid    []string `json:"grid"`    // catalog notation, one row per string
	Crossed []Pos    `json:"crossed"` // crossed boxes, [row, col]
	Left    int      `json:"boxes_left"`
}

// PlayerView is one seat as a viewer may see it.
type PlayerView struct {
	Seat  int        `json:"seat"`
	Name  string     `json:"name"`
	Kept  bool       `json:"kept"`
	Dealt []string   `json:"dealt,omitempty"` // setup: the 4 cards dealt; only to that seat and the host
	Cards []CardView `json:"cards"`
	Pile  []string   `json:"scoring_pile"`
	Coins int        `json:"coins"`
	Cups  []int      `json:"cups"`
	Palms []int      `json:"palms"`
	// This turn.
	CrossedThisTurn bool  `json:"crossed_this_turn"`
	Passed          bool  `json:"passed"`
	Crossing        *Move `json:"crossing"`
	RowsToClaim     int   `json:"coin_rows_completed"`
	Takes           int   `json:"takes_owed"`
}

// View is a game as its players see it: everything on the table, and nothing
// face down.
type View struct {
	Mode           Mode         `json:"mode"`
	Catalog        CatalogRef   `json:"catalog"`
	SeedCommitment string       `json:"seed_commitment,omitempty"` // digital: SHA-256 of the seed
	Seed           string       `json:"seed,omitempty"`            // digital, once the game has ended
	Phase          Phase        `json:"phase"`
	Round          int          `json:"round"`
	Turn           int          `json:"turn"`
	StartPlayer    int          `json:"start_player"`
	Expedition     *Expedition  `json:"expedition"`
	Revealed       []string     `json:"revealed_this_round"`
	Display        []string     `json:"display"`
	DeckSize       int          `json:"deck_size"`
	CupsLeft       []int        `json:"cups_left"`
	Resolving      *int         `json:"resolving"`
	Players        []PlayerView `json:"players"`
	Awaiting       []Awaited    `json:"awaiting"`
}

// View returns the game as v may see it. The deck order, the expedition deck
// and (until the end) the seed are never in it; a seat's dealt cards only
// reach that seat and the host. Kept cards lie face up, as at the table.
func (g *Game) View(v domain.Viewer) View {
	out := View{
		Mode: g.Mode, Catalog: CatalogRef{Name: g.Catalog, Hash: g.Hash},
		Phase: g.Phase, Round: g.Round, Turn: g.Turn, StartPlayer: g.Start,
		Revealed: make([]string, len(g.Revealed)), Display: make([]string, len(g.Display)),
		DeckSize: g.DeckSize(), CupsLeft: append([]int{}, g.Cups...), Awaiting: g.Awaiting(),
	}
	if out.Awaiting == nil {
		out.Awaiting = []Awaited{}
	}
	if g.Mode == Digital {
		out.SeedCommitment = domain.SeedCommitment(g.Seed)
		if g.Phase == PhaseEnded {
			out.Seed = g.Seed
		}
	}
	if pat, ok := g.Current(); ok {
		out.Expedition = expedition(pat)
	}
	for i, p := range g.Revealed {
		out.Revealed[i] = p.Code()
	}
	for i, c := range g.Display {
		out.Display[i] = g.cardID(c)
	}
	if g.Resolving >= 0 {
		out.Resolving = SeatPtr(g.Resolving)
	}
	for i := range g.Players {
		p := &g.Players[i]
		mine := v.Host || v.Seat == i
		pv := PlayerView{
			Seat: i, Name: p.Name, Kept: p.Kept, Cards: []CardView{}, Pile: make([]string, len(p.Pile)),
			Coins: p.Coins, Cups: append([]int{}, p.Cups...), Palms: append([]int{}, p.Palms...),
			CrossedThisTurn: p.Crossed, Passed: p.Passed, Crossing: p.Crossing, RowsToClaim: p.Rows, Takes: p.Takes,
		}
		if mine && g.Phase == PhaseSetup && !p.Kept {
			for _, c := range p.Dealt {
				pv.Dealt = append(pv.Dealt, g.cardID(c))
			}
		}
		{
			for _, h := range p.Hand {
				c := &g.cat.Cards[h.Card]
				pv.Cards = append(pv.Cards, CardView{
					Card: c.ID, Colour: c.Colour, Value: c.Value, Seal: c.Seal, Grid: g.cat.derived.grids[h.Card],
					Crossed: h.Crossed.Positions(), Left: (c.Boxes &^ h.Crossed).Count(),
				})
			}
		}
		for j, c := range p.Pile {
			pv.Pile[j] = g.cardID(c)
		}
		out.Players = append(out.Players, pv)
	}
	return out
}
