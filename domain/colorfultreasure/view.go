package colorfultreasure

import (
	"net/url"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/i18n"
)

// CatalogRef names the catalog a game was created with, and where to read it.
type CatalogRef struct {
	Name string `json:"name"`
	Hash string `json:"hash"`
	Href string `json:"href"` // GET /v1/catalogs/{name} with the ruleset and hash: cacheable for good
}

// catalogHref is the API path of a catalog, with its hash.
func catalogHref(name, hash string) string {
	return "/v1/catalogs/" + url.PathEscape(name) + "?ruleset=" + RulesetName + "&hash=" + hash
}

// ColumnView is one column of the grid as everyone sees it: the wonder, its
// tokens, and each place from the top as "down" (a face-down card), "gone"
// (taken) or, for a card revealed this turn, what it shows.
type ColumnView struct {
	Wonder string `json:"wonder"`
	// Name is the wonder's name (its id for a wonder of a catalog whose
	// wonders have no names), NameMessage the name as a message.
	Name         string        `json:"name"`
	NameMessage  *i18n.Message `json:"name_message,omitempty"`
	Lock         string        `json:"lock,omitempty"` // key or chest; absent in junior
	Colours      []Kind        `json:"colours"`
	DiamondToken bool          `json:"diamond_token"`
	LockToken    bool          `json:"lock_token"`
	Cells        []string      `json:"cells"`
	// Faces says, once a digital game has ended, what every place shows,
	// the cards left face down included: everything is public at the end.
	// A physical game's face-down cards are unknown to the server.
	Faces []string `json:"faces,omitempty"`
}

// PlayerView is one seat: everything in front of a player is face up.
type PlayerView struct {
	Seat          int       `json:"seat"`
	Name          string    `json:"name"`
	Cards         []CardRef `json:"cards"`
	DiamondTokens []string  `json:"diamond_tokens"`
	KeyTokens     int       `json:"key_tokens"`
	ChestTokens   int       `json:"chest_tokens"`
	ActionTokens  []int     `json:"action_tokens"`
	Turns         int       `json:"turns"`
}

// TokenView is one action token (advanced).
type TokenView struct {
	Token  int    `json:"token"`
	Side   string `json:"side"`
	Effect string `json:"effect"`
	// Name says what the token's side does, NameMessage as a message.
	Name        string       `json:"name"`
	NameMessage i18n.Message `json:"name_message"`
	Holder      *int         `json:"holder"` // the seat holding it; null while on offer or once spent
	Spent       bool         `json:"spent"`
}

// Awards says who holds the awards taken during the game.
type Awards struct {
	ColorfulGems *int `json:"colorful_gems"`
	Explorer     *int `json:"explorer"`
}

// View is a game as everyone sees it. A memory game hides the same from
// everyone: no face-down card is in it, whoever asks.
type View struct {
	Ruleset string     `json:"ruleset"`
	Mode    Mode       `json:"mode"`
	Variant Variant    `json:"variant"`
	Catalog CatalogRef `json:"catalog"`
	Phase   Phase      `json:"phase"`
	// PhaseLabel says in a line what the phase waits for, PhaseLabelMessage
	// as a message.
	PhaseLabel        string       `json:"phase_label"`
	PhaseLabelMessage i18n.Message `json:"phase_label_message"`
	Round             int          `json:"round"`
	Turn              int          `json:"turn"`
	StartPlayer       int          `json:"start_player"`
	LastRound         bool         `json:"last_round"`
	CardsLeft         int          `json:"cards_left"`
	Columns           []ColumnView `json:"columns"`
	Revealed          []Pos        `json:"revealed"`
	Thefts            int          `json:"thefts_owed"`
	Players           []PlayerView `json:"players"`
	ActionTokens      []TokenView  `json:"action_tokens"`
	Awards            Awards       `json:"awards"`
}

// View returns the game as viewer v sees it: the same for every viewer.
func (g *Game) View(_ domain.Viewer) View {
	v := View{Ruleset: RulesetName, Mode: g.Mode, Variant: g.Variant, Catalog: CatalogRef{g.Catalog, g.Hash, catalogHref(g.Catalog, g.Hash)},
		Phase: g.Phase, Round: g.Round, Turn: g.Turn, StartPlayer: g.Start, LastRound: g.LastRound, CardsLeft: g.Left(),
		Revealed: append([]Pos{}, g.Revealed...), Thefts: g.Thefts, ActionTokens: []TokenView{}}
	v.PhaseLabelMessage = i18n.M("ct.phase." + string(g.Phase))
	v.PhaseLabel = i18n.Text(v.PhaseLabelMessage)
	for c := range g.Grid {
		w := &g.cat.Wonders[c]
		cv := ColumnView{Wonder: w.ID, Colours: w.Colours[:], DiamondToken: g.DiamondTokens[c], LockToken: g.LockTokens[c]}
		cv.Name, cv.NameMessage = wonderNamed(w.ID)
		if !g.Junior() {
			cv.Lock = w.Lock.String()
		}
		ended := g.Phase == PhaseEnded && g.Mode == Digital
		for _, cell := range g.Grid[c] {
			if ended {
				if cell.State == CellGone || cell.Kind == unknown {
					cv.Faces = append(cv.Faces, "gone")
				} else {
					cv.Faces = append(cv.Faces, Kind(cell.Kind).String())
				}
			}
			switch cell.State {
			case CellDown:
				cv.Cells = append(cv.Cells, "down")
			case CellGone:
				cv.Cells = append(cv.Cells, "gone")
			default:
				cv.Cells = append(cv.Cells, Kind(cell.Kind).String())
			}
		}
		v.Columns = append(v.Columns, cv)
	}
	for i := range g.Players {
		p := &g.Players[i]
		pv := PlayerView{Seat: i, Name: p.Name, Cards: []CardRef{}, DiamondTokens: []string{}, KeyTokens: p.KeyTokens,
			ChestTokens: p.ChestTokens, ActionTokens: []int{}, Turns: p.Turns}
		for _, c := range p.Cards {
			pv.Cards = append(pv.Cards, g.ref(c))
		}
		for _, c := range p.DiamondTokens {
			pv.DiamondTokens = append(pv.DiamondTokens, g.wonder(c))
		}
		for _, t := range p.Actions {
			pv.ActionTokens = append(pv.ActionTokens, t+1)
		}
		v.Players = append(v.Players, pv)
	}
	if g.Variant == VariantAdvanced {
		for t, h := range g.Actions {
			tv := TokenView{Token: t + 1, Side: g.Sides[t], Effect: g.effect(t).String(), Spent: h == spent, NameMessage: effectTerm(g.effect(t))}
			tv.Name = i18n.Text(tv.NameMessage)

			if h >= 0 {
				s := h
				tv.Holder = &s
			}
			v.ActionTokens = append(v.ActionTokens, tv)
		}
	}
	if g.Colorful != none {
		s := g.Colorful
		v.Awards.ColorfulGems = &s
	}
	if g.Explorer != none {
		s := g.Explorer
		v.Awards.Explorer = &s
	}
	return v
}
