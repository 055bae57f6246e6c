package silvergold

import (
	"bytes"
	"encoding/json"
	"sync"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/catalogset"
	"github.com/treasury-games/treasury/domain/gamekit"
	"github.com/treasury-games/treasury/domain/i18n"
)

// RulesetName is the identifier of Silver & Gold on the server.
const RulesetName = "silver-and-gold"

// Rules is Silver & Gold as a domain.Ruleset: it creates games with one of its
// catalogs and restores stored games with the catalog they were created with.
type Rules struct {
	catalogs *catalogset.Set[*Catalog] // offered for new games, and those stored games were created with
}

var (
	_ domain.Ruleset         = (*Rules)(nil)
	_ domain.CatalogExtender = (*Rules)(nil)
)

// NewRules offers the standard catalog and any others given; a catalog named
// "standard" replaces the built-in one.
func NewRules(extra ...*Catalog) *Rules {
	return &Rules{catalogs: catalogset.New(ParseCatalog, catalogID, append([]*Catalog{Standard()}, extra...)...)}
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

// CatalogNames lists the catalogs offered for new games.
func (r *Rules) CatalogNames() []string {
	return r.catalogs.Names()
}

// catalogID is a catalog's name and content hash, for catalogset.
func catalogID(c *Catalog) (string, string) { return c.Name, c.Hash }

// Create makes a new game; the service has chosen a digital game's seed.
func (r *Rules) Create(req domain.CreateRequest) (domain.Game, domain.CatalogBlob, error) {
	name := req.Catalog
	if name == "" {
		name = defaultCatalog
	}
	cat, err := r.catalogs.Offered(name, domain.Invalid)
	if err != nil {
		return nil, domain.CatalogBlob{}, err
	}
	if _, err := domain.ResolveOptions(nil, req.Options, len(req.Players)); err != nil {
		return nil, domain.CatalogBlob{}, err
	}
	g, err := New(cat, Setup{Mode: Mode(req.Mode), Players: req.Players, Seed: req.Seed, Salt: req.Salt})
	if err != nil {
		return nil, domain.CatalogBlob{}, err
	}
	return &game{g}, domain.CatalogBlob{Name: cat.Name, Hash: cat.Hash, Content: cat.Content}, nil
}

// catalog returns the catalog a stored game was created with.
func (r *Rules) catalog(blob domain.CatalogBlob) (*Catalog, error) { return r.catalogs.Stored(blob) }

// Restore rebuilds a stored game from its snapshot.
func (r *Rules) Restore(state []byte, blob domain.CatalogBlob) (domain.Game, error) {
	cat, err := r.catalog(blob)
	if err != nil {
		return nil, err
	}
	g, err := Restore(cat, state)
	if err != nil {
		return nil, err
	}
	return &game{g}, nil
}

// Replay creates a game from req with the given catalog and applies moves in
// order, stopping at the first one the rules reject. Deck draws named in a
// digital game's moves must be the cards the seed deals.
func (r *Rules) Replay(req domain.CreateRequest, blob domain.CatalogBlob, moves []domain.ReplayMove) (domain.Game, int, error) {
	cat, err := r.catalog(blob)
	if err != nil {
		return nil, 0, err
	}
	if Mode(req.Mode) == Digital && req.Seed == "" {
		return nil, 0, domain.Fail(domain.Invalid, "sg.invalid.replay-seed")
	}
	if _, err := domain.ResolveOptions(nil, req.Options, len(req.Players)); err != nil {
		return nil, 0, err
	}
	g, err := New(cat, Setup{Mode: Mode(req.Mode), Players: req.Players, Seed: req.Seed, Salt: req.Salt})
	if err != nil {
		return nil, 0, err
	}
	bad, err := gamekit.Replay(moves, DecodeMove, func(a domain.Actor, m *Move) error { return g.play(a, m, true) })
	return &game{g}, bad, err
}

// CatalogView encodes catalog name for clients: every treasure card and the
// expedition cards.
func (r *Rules) CatalogView(name string) (domain.CatalogInfo, []byte, error) {
	cat, err := r.catalogs.Offered(name, domain.NotFound)
	if err != nil {
		return domain.CatalogInfo{}, nil, err
	}
	b, err := json.Marshal(NewCatalogView(cat))
	return domain.CatalogInfo{Name: cat.Name, Hash: cat.Hash}, b, err
}

// VerifySheet checks a paper score sheet (JSON of Sheet) with the catalog it names.
func (r *Rules) VerifySheet(b []byte) ([]byte, error) {
	var s Sheet
	if err := gamekit.DecodeSheet(b, &s, "sg.sheet.json"); err != nil {
		return nil, err
	}
	name := s.Catalog
	if name == "" {
		name = defaultCatalog
	}
	cat, err := r.catalogs.Offered(name, domain.Invalid)
	if err != nil {
		return nil, err
	}
	res, err := VerifySheet(cat, s)
	if err != nil {
		return nil, err
	}
	return json.Marshal(res)
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
type game struct{ g *Game }

// Unwrap returns the Silver & Gold game behind a domain.Game, for tests and
// tools in this package's own terms.
func Unwrap(dg domain.Game) (*Game, bool) {
	w, ok := dg.(*game)
	if !ok {
		return nil, false
	}
	return w.g, true
}

func (w *game) Apply(actor domain.Actor, move []byte) (domain.Logged, error) {
	m, err := DecodeMove(move)
	if err != nil {
		return domain.Logged{}, err
	}
	if err := w.g.Play(actor, &m); err != nil {
		return domain.Logged{}, err
	}
	l := domain.Logged{Move: m.AppendJSON(make([]byte, 0, 128))}
	if m.Type == MoveKeep && w.g.Mode == Digital && !w.g.allKept() {
		// Players keep at the same time: the others learn what a seat kept
		// once every seat has chosen (the cards_kept events tell them).
		l.Public = (&Move{Type: MoveKeep, Seat: m.Seat}).AppendJSON(nil)
		l.For = *m.Seat
	}
	return l, nil
}

func (w *game) Snapshot() ([]byte, error) { return w.g.Snapshot() }
func (w *game) Phase() string             { return string(w.g.Phase) }
func (w *game) Ended() bool               { return w.g.Phase == PhaseEnded }
func (w *game) Players() int              { return len(w.g.Players) }
func (w *game) AppendView(b []byte, v domain.Viewer) ([]byte, error) {
	return w.g.AppendView(b, v), nil
}
func (w *game) LegalMoves(_ domain.Viewer, seat int) ([]byte, error) {
	if err := gamekit.CheckListingSeat(seat, len(w.g.Players)); err != nil {
		return nil, err
	}
	// Whoever may ask for a seat's moves (the seat, the host) may see all
	// they show.
	l := w.g.LegalMoves(seat)
	buf := listingBuffers.Get().(*[]byte)
	*buf = l.AppendJSON((*buf)[:0])
	out := bytes.Clone(*buf)
	listingBuffers.Put(buf)
	return out, nil
}

// listingBuffers hold listings while they are encoded: the listing kept is
// a copy of its exact size (a Silver & Gold listing is up to tens of KB,
// and grows by doubling while it is written).
var listingBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 32<<10); return &b }}

func (w *game) Score() ([]byte, error) { return json.Marshal(w.g.Score()) }
func (w *game) Events() []domain.Event { return w.g.Events() }
func (w *game) Setup() domain.CreateRequest {
	req := domain.CreateRequest{Mode: string(w.g.Mode), Seed: w.g.Seed, Salt: w.g.Salt, Catalog: w.g.Catalog, Options: noOptions}
	for _, p := range w.g.Players {
		req.Players = append(req.Players, p.Name)
	}
	return req
}

func (w *game) Table() domain.TableStatus { return w.g.Table() }

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
	return &Rules{catalogs: r.catalogs.With(cat)}, nil
}

// AppendListingKey is Game.AppendListingKey (domain.ListingKeyed).
func (w *game) AppendListingKey(b []byte, seat int) []byte { return w.g.AppendListingKey(b, seat) }
