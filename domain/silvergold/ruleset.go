package silvergold

import (
	"encoding/json"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/gamekit"
	"github.com/treasury-games/treasury/domain/i18n"
)

// RulesetName is the identifier of Silver & Gold on the server.
const RulesetName = "silver-and-gold"

// Rules is Silver & Gold as a domain.Ruleset: it creates games with one of its
// catalogs and restores stored games with the catalog they were created with.
type Rules struct {
	gamekit.CatalogRules[*Catalog, *Game, Move]
}

var (
	_ domain.Ruleset         = (*Rules)(nil)
	_ domain.CatalogExtender = (*Rules)(nil)
)

// kind is what Silver & Gold tells the rules every catalogued game shares.
// A replayed move's deck draws must be the cards the seed deals.
var kind = &gamekit.Catalogued[*Catalog, *Game, Move]{
	Parse: ParseCatalog, View: func(c *Catalog) any { return NewCatalogView(c) },
	Blob: func(c *Catalog) domain.CatalogBlob {
		return domain.CatalogBlob{Name: c.Name, Hash: c.Hash, Content: c.Content}
	},
	New: createGame, Restore: Restore, Wrap: func(g *Game) domain.Game { return wrap(g) },
	Decode: DecodeMove, Replay: func(g *Game, a domain.Actor, m *Move) error { return g.play(a, m, true) }, ReplaySeed: "sg.invalid.replay-seed",
}

// NewRules offers the standard catalog and any others given; a catalog named
// "standard" replaces the built-in one.
func NewRules(extra ...*Catalog) *Rules {
	return &Rules{gamekit.NewCatalogRules(kind, append([]*Catalog{Standard()}, extra...)...)}
}

// Name returns "silver-and-gold".
func (r *Rules) Name() string { return RulesetName }

// Info describes Silver & Gold: 1 to 4 players, both modes, no options.
func (r *Rules) Info() domain.RulesetInfo {
	return domain.RulesetInfo{
		Name: RulesetName, Title: "Silver & Gold",
		MinPlayers: MinPlayers, MaxPlayers: MaxPlayers, Modes: []string{domain.Digital, domain.Physical},
		Options: []domain.Option{},
	}.Summarized(i18n.M("sg.info.summary"))
}

// noOptions is the options of every Silver & Gold game: it has none.
var noOptions = json.RawMessage(`{}`)

// createGame makes a game of cat from req: Silver & Gold has no options.
func createGame(cat *Catalog, req domain.CreateRequest) (*Game, error) {
	if _, err := domain.ResolveOptions(nil, req.Options, len(req.Players)); err != nil {
		return nil, err
	}
	return New(cat, Setup{Mode: Mode(req.Mode), Players: req.Players, Seed: req.Seed, Salt: req.Salt})
}

// VerifySheet checks a paper score sheet (JSON of Sheet) with the catalog it names.
func (r *Rules) VerifySheet(b []byte) ([]byte, error) {
	return gamekit.VerifyCatalogSheet(r.CatalogRules, b, "sg.sheet.json", func(s *Sheet) string { return s.Catalog }, VerifySheet)
}

// CatalogCard is a treasure card as clients draw it.
type CatalogCard struct {
	ID string `json:"id"`
	// Name is the card's name for people, in English; NameMessage is it
	// as a message, which the API renders in the player's language.
	Name        string       `json:"name"`
	NameMessage i18n.Message `json:"name_message"`
	Colour      Colour       `json:"colour"`
	Value       int          `json:"value"`
	Seal        *Seal        `json:"seal"`
	Grid        []string     `json:"grid"`
}

// ExpeditionCard is one pattern with its number of copies.
type ExpeditionCard struct {
	Expedition
	Copies       int     `json:"copies"`
	Orientations [][]Pos `json:"orientations"`
}

// CatalogView is a catalog as clients see it.
type CatalogView struct {
	Ruleset     string           `json:"ruleset"`
	Name        string           `json:"name"`
	Hash        string           `json:"hash"`
	Cards       []CatalogCard    `json:"cards"`
	Expeditions []ExpeditionCard `json:"expeditions"`
}

// NewCatalogView describes cat for clients.
func NewCatalogView(cat *Catalog) CatalogView {
	v := CatalogView{Ruleset: RulesetName, Name: cat.Name, Hash: cat.Hash}
	for i := range cat.Cards {
		c := &cat.Cards[i]
		name := i18n.M("sg.card", "id", c.ID, "colour", c.Colour.Message())
		v.Cards = append(v.Cards, CatalogCard{ID: c.ID, Name: i18n.Text(name), NameMessage: name, Colour: c.Colour, Value: c.Value, Seal: c.Seal, Grid: c.GridRows()})
	}
	for p := Pattern(0); p < NumPatterns; p++ {
		e := ExpeditionCard{Expedition: *expedition(p), Copies: p.Copies()}
		for _, o := range orientations[p] {
			e.Orientations = append(e.Orientations, o.Positions())
		}
		v.Expeditions = append(v.Expeditions, e)
	}
	return v
}

// game adapts *Game to domain.Game.
type game struct {
	gamekit.Adapter[*Game, Score]
}

// wrap returns g's adapter.
func wrap(g *Game) *game { return &game{gamekit.Adapter[*Game, Score]{G: g}} }

// Clone copies the game (domain.Cloner).
func (w *game) Clone() domain.Game { return wrap(w.G.Clone()) }

// LegalMoves lists seat's moves: whoever may ask for them (the seat, the
// host) may see all they show. The listing is encoded without reflection
// (Legal.AppendJSON), a crossing listing put together from the catalog's
// pieces (Game.appendCrossListing): the server lists every seat's moves at
// the start of every turn and a seat's again after its crossing, and that
// was nearly all it spent on listings (BenchmarkLegalMovesJSON,
// BenchmarkCrossingListings).
func (w *game) LegalMoves(_ domain.Viewer, seat int) ([]byte, error) {
	if err := gamekit.CheckListingSeat(seat, len(w.G.Players)); err != nil {
		return nil, err
	}
	g := w.G
	if g.crossing(seat) {
		return g.appendCrossListing(nil, seat), nil
	}
	l := g.legalMoves(seat) // its entries written, not built (Legal.AppendJSON)
	return gamekit.Pooled(func(b []byte) ([]byte, error) { return l.AppendJSON(b), nil })
}

// Unwrap returns the Silver & Gold game behind a domain.Game, for tests and
// tools in this package's own terms.
func Unwrap(dg domain.Game) (*Game, bool) { return gamekit.Unwrap[*Game](dg) }

func (w *game) Apply(actor domain.Actor, move []byte) (domain.Logged, error) {
	m, err := gamekit.Apply(w.G, actor, move, DecodeMove)
	if err != nil {
		return domain.Logged{}, err
	}
	l := domain.Logged{Move: m.AppendJSON(make([]byte, 0, 128))}
	if m.Type == MoveKeep && w.G.Mode == Digital && !w.G.allKept() {
		// Players keep at the same time: the others learn what a seat kept
		// once every seat has chosen (the cards_kept events tell them).
		l.Public = (&Move{Type: MoveKeep, Seat: m.Seat}).AppendJSON(nil)
		l.For = *m.Seat
	}
	return l, nil
}

func (w *game) AppendView(b []byte, v domain.Viewer) ([]byte, error) {
	return w.G.AppendView(b, v), nil
}

func (w *game) Setup() domain.CreateRequest {
	return domain.CreateRequest{Mode: string(w.G.Mode), Seed: w.G.Seed, Salt: w.G.Salt, Catalog: w.G.Catalog, Options: noOptions,
		Players: gamekit.Names(w.G.Players, func(p *Player) string { return p.Name })}
}

// Head is where g stands, for the adapter every game shares.
func (g *Game) Head() gamekit.Head {
	return gamekit.Head{Phase: string(g.Phase), Ended: g.Phase == PhaseEnded, Players: len(g.Players)}
}

// MoveTypes names the types of Silver & Gold's moves.
func (r *Rules) MoveTypes() []string {
	return []string{MoveKeep, MoveCross, MoveTake, MoveReveal, MoveDisplay}
}

// WithCatalog returns the rules offering also the catalog content holds (a
// catalog named like an offered one replaces it).
func (r *Rules) WithCatalog(content []byte) (domain.Ruleset, error) {
	cat, err := ParseCatalog(content)
	if err != nil {
		return nil, err
	}
	return &Rules{r.With(cat)}, nil
}

// AppendListingKey is Game.AppendListingKey (domain.ListingKeyed).
func (w *game) AppendListingKey(b []byte, seat int) []byte { return w.G.AppendListingKey(b, seat) }
