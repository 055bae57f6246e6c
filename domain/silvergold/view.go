package silvergold

import (
	"net/url"

	"github.com/treasury-games/treasury/domain"
)

// CatalogRef names the catalog a game was created with, and where its cards
// are read.
type CatalogRef struct {
	Name string `json:"name"`
	Hash string `json:"hash"`
	Href string `json:"href"` // GET /v1/catalogs/{name} with the hash: cacheable for good
}

// catalogHref is the API path of a catalog's cards, with its hash.
func catalogHref(name, hash string) string {
	return "/v1/catalogs/" + url.PathEscape(name) + "?ruleset=" + RulesetName + "&hash=" + hash
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
	Ruleset     string       `json:"ruleset"`
	Mode        Mode         `json:"mode"`
	Catalog     CatalogRef   `json:"catalog"`
	Phase       Phase        `json:"phase"`
	Round       int          `json:"round"`
	Turn        int          `json:"turn"`
	StartPlayer int          `json:"start_player"`
	Expedition  *Expedition  `json:"expedition"`
	Revealed    []string     `json:"revealed_this_round"`
	Display     []string     `json:"display"`
	DeckSize    int          `json:"deck_size"`
	CupsLeft    []int        `json:"cups_left"`
	Resolving   *int         `json:"resolving"`
	Players     []PlayerView `json:"players"`
	Awaiting    []Awaited    `json:"awaiting"`
}

// View returns the game as v may see it. The deck order, the expedition deck
// and the seed are never in it; a seat's dealt cards only reach that seat and
// the host. Kept cards lie face up, as at the table, once every player has
// chosen: players keep at the same time, so until then a seat's kept cards
// reach only that seat and the host. (The game's head carries the seed's
// commitment, and the seed once the game has ended.)
func (g *Game) View(v domain.Viewer) View {
	out := View{
		Ruleset: RulesetName, Mode: g.Mode, Catalog: CatalogRef{Name: g.Catalog, Hash: g.Hash, Href: catalogHref(g.Catalog, g.Hash)},
		Phase: g.Phase, Round: g.Round, Turn: g.Turn, StartPlayer: g.Start,
		Revealed: make([]string, len(g.Revealed)), Display: make([]string, len(g.Display)),
		DeckSize: g.DeckSize(), CupsLeft: append([]int{}, g.Cups...), Awaiting: g.Awaiting(),
	}
	if out.Awaiting == nil {
		out.Awaiting = []Awaited{}
	}
	if pat, ok := g.Current(); ok {
		out.Expedition = expeditionOf(pat)
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
		mine := g.sees(v, i)
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
			for _, h := range g.shownHand(i, mine) {
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

// sees reports whether viewer v may see seat i's private cards: the seat
// itself and the host (which acts for every seat).
func (g *Game) sees(v domain.Viewer, i int) bool { return v.Host || v.Seat == i }

// shownHand returns the cards in front of seat i as a viewer sees them: in a
// digital game none while players are still choosing which to keep, unless
// mine. (In a physical game the kept cards lie face up at the table as each
// is reported: a report comes after the choice, and a card held by one
// player cannot be reported by another.)
func (g *Game) shownHand(i int, mine bool) []HandCard {
	if !mine && g.Mode == Digital && g.Phase == PhaseSetup && !g.allKept() {
		return nil
	}
	return g.Players[i].Hand
}
