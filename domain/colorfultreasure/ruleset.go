package colorfultreasure

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/catalogset"
	"github.com/treasury-games/treasury/domain/gamekit"
	"github.com/treasury-games/treasury/domain/i18n"
)

// RulesetName is the identifier of Colorful Treasure on the server.
const RulesetName = "colorful-treasure"

const defaultCatalog = "standard"

// Rules is Colorful Treasure as a domain.Ruleset.
type Rules struct {
	catalogs *catalogset.Set[*Catalog] // offered for new games, and those stored games were created with
}

var (
	_ domain.Ruleset   = (*Rules)(nil)
	_ domain.Cataloger = (*Rules)(nil)
)

// NewRules offers the standard catalog and any others given; a catalog named
// "standard" replaces the built-in one.
func NewRules(extra ...*Catalog) *Rules {
	return &Rules{catalogs: catalogset.New(ParseCatalog, catalogID, append([]*Catalog{Standard()}, extra...)...)}
}

// Name returns "colorful-treasure".
func (r *Rules) Name() string { return RulesetName }

func intPtr(n int) *int { return &n }

// options are what a game is created with besides its players.
var options = func() []domain.Option {
	o := []domain.Option{
		domain.Option{Name: "variant", Type: "string",
			Default: json.RawMessage(`"standard"`), Enum: []string{string(VariantStandard), string(VariantJunior), string(VariantAdvanced)}}.
			Described(i18n.M("ct.option.variant")),
		domain.Option{Name: "start_player", Type: "integer",
			Default: json.RawMessage(`0`), Minimum: intPtr(0), Maximum: intPtr(MaxPlayers - 1), Seat: true}.
			Described(i18n.M("ct.option.start-player")),
	}
	for i := range NumTokens {
		o = append(o, domain.Option{Name: fmt.Sprintf("token_%d", i+1), Type: "string",
			Default: json.RawMessage(`"a"`), Enum: []string{"a", "b"}}.
			Described(i18n.M("ct.option.token-side", "token", i+1, "sides", i18n.M("ct.option.token-sides."+strconv.Itoa(i+1)))))
	}
	return o
}()

// Info describes Colorful Treasure: 2 to 4 players, both modes, its options.
func (r *Rules) Info() domain.RulesetInfo {
	return domain.RulesetInfo{
		Name: RulesetName, Title: "Colorful Treasure",
		MinPlayers: MinPlayers, MaxPlayers: MaxPlayers, Modes: []string{domain.Digital, domain.Physical},
		Options: options,
	}.Summarized(i18n.M("ct.info.summary"))
}

// CatalogNames lists the catalogs offered for new games.
func (r *Rules) CatalogNames() []string {
	return r.catalogs.Names()
}

// catalogID is a catalog's name and content hash, for catalogset.
func catalogID(c *Catalog) (string, string) { return c.Name, c.Hash }

// gameOptions is a game's options as Setup returns them.
type gameOptions struct {
	Start   int     `json:"start_player"`
	Token1  string  `json:"token_1"`
	Token2  string  `json:"token_2"`
	Token3  string  `json:"token_3"`
	Token4  string  `json:"token_4"`
	Token5  string  `json:"token_5"`
	Variant Variant `json:"variant"` // members in name order, as domain.ResolveOptions writes them
}

// setup reads a creation request into a Setup.
func setup(req domain.CreateRequest) (Setup, error) {
	raw, err := domain.ResolveOptions(options, req.Options, len(req.Players))
	if err != nil {
		return Setup{}, err
	}
	var o gameOptions
	if err := json.Unmarshal(raw, &o); err != nil {
		return Setup{}, domain.Fail(domain.Invalid, "ct.invalid.options", "error", err.Error())
	}
	return Setup{Mode: Mode(req.Mode), Players: req.Players, Seed: req.Seed, Salt: req.Salt, Variant: o.Variant, Start: o.Start,
		Sides: [NumTokens]string{o.Token1, o.Token2, o.Token3, o.Token4, o.Token5}}, nil
}

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
	s, err := setup(req)
	if err != nil {
		return nil, domain.CatalogBlob{}, err
	}
	g, err := New(cat, s)
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

// Replay creates a game from req and applies moves in order, stopping at the
// first one the rules reject. A digital game re-deals its grid from the seed.
func (r *Rules) Replay(req domain.CreateRequest, blob domain.CatalogBlob, moves []domain.ReplayMove) (domain.Game, int, error) {
	cat, err := r.catalog(blob)
	if err != nil {
		return nil, 0, err
	}
	if Mode(req.Mode) == Digital && req.Seed == "" {
		return nil, 0, domain.Fail(domain.Invalid, "ct.invalid.replay-seed")
	}
	s, err := setup(req)
	if err != nil {
		return nil, 0, err
	}
	g, err := New(cat, s)
	if err != nil {
		return nil, 0, err
	}
	bad, err := gamekit.Replay(moves, DecodeMove, g.Play)
	return &game{g}, bad, err
}

// CatalogWonder is a wonder as clients read it.
type CatalogWonder struct {
	ID string `json:"id"`
	// Name is the wonder's name (its id for a wonder of a catalog whose
	// wonders have no names), NameMessage the name as a message.
	Name        string        `json:"name"`
	NameMessage *i18n.Message `json:"name_message,omitempty"`
	Lock        string        `json:"lock"`
	Colours     []Kind        `json:"colours"`
}

// CatalogView is a catalog as clients read it.
type CatalogView struct {
	Ruleset string          `json:"ruleset"`
	Name    string          `json:"name"`
	Hash    string          `json:"hash"`
	Wonders []CatalogWonder `json:"wonders"`
}

// NewCatalogView describes cat for clients.
func NewCatalogView(cat *Catalog) CatalogView {
	v := CatalogView{Ruleset: RulesetName, Name: cat.Name, Hash: cat.Hash}
	for _, w := range cat.Wonders {
		cw := CatalogWonder{ID: w.ID, Lock: w.Lock.String(), Colours: append([]Kind{}, w.Colours[:]...)}
		cw.Name, cw.NameMessage = wonderNamed(w.ID)
		v.Wonders = append(v.Wonders, cw)
	}
	return v
}

// CatalogView encodes catalog name for clients: the wonders, column by column.
func (r *Rules) CatalogView(name string) (domain.CatalogInfo, []byte, error) {
	cat, err := r.catalogs.Offered(name, domain.NotFound)
	if err != nil {
		return domain.CatalogInfo{}, nil, err
	}
	b, err := json.Marshal(NewCatalogView(cat))
	return domain.CatalogInfo{Name: cat.Name, Hash: cat.Hash}, b, err
}

// game adapts *Game to domain.Game.
type game struct{ g *Game }

// Unwrap returns the Colorful Treasure game behind a domain.Game.
func Unwrap(dg domain.Game) (*Game, bool) {
	w, ok := dg.(*game)
	if !ok {
		return nil, false
	}
	return w.g, true
}

// Wrap returns g as a domain.Game.
func Wrap(g *Game) domain.Game { return &game{g} }

func (w *game) Apply(actor domain.Actor, move []byte) (domain.Logged, error) {
	m, err := DecodeMove(move)
	if err != nil {
		return domain.Logged{}, err
	}
	if err := w.g.Play(actor, &m); err != nil {
		return domain.Logged{}, err
	}
	// No move read while the game runs names a face-down card's identity:
	// a digital flip names places only (its cards_revealed event is told
	// live). A physical flip is the table's report of what everyone at the
	// table saw, told live too; the log keeps it from everyone, the host
	// included, until the game ends (the places only), so that it does not
	// remember for the players what a card turned back showed.
	b, err := json.Marshal(&m)
	if err != nil || m.Type != MoveFlip || len(m.Shows) == 0 {
		return domain.Logged{Move: b}, err
	}
	m.Shows = nil
	pub, err := json.Marshal(&m)
	return domain.Logged{Move: b, Public: pub, For: -1, NotHost: true}, err
}

func (w *game) Snapshot() ([]byte, error) { return w.g.Snapshot() }
func (w *game) Phase() string             { return string(w.g.Phase) }
func (w *game) Ended() bool               { return w.g.Phase == PhaseEnded }
func (w *game) Players() int              { return len(w.g.Players) }
func (w *game) AppendView(b []byte, v domain.Viewer) ([]byte, error) {
	j, err := json.Marshal(w.g.View(v))
	return append(b, j...), err
}
func (w *game) LegalMoves(_ domain.Viewer, seat int) ([]byte, error) {
	if err := gamekit.CheckListingSeat(seat, len(w.g.Players)); err != nil {
		return nil, err
	}
	return json.Marshal(w.g.LegalMoves(seat))
}
func (w *game) Score() ([]byte, error) { return json.Marshal(w.g.Score()) }
func (w *game) Events() []domain.Event { return w.g.Events() }
func (w *game) Setup() domain.CreateRequest {
	o := gameOptions{Variant: w.g.Variant, Start: w.g.Start, Token1: w.g.Sides[0], Token2: w.g.Sides[1], Token3: w.g.Sides[2],
		Token4: w.g.Sides[3], Token5: w.g.Sides[4]}
	opts, _ := json.Marshal(o) // plain struct
	req := domain.CreateRequest{Mode: string(w.g.Mode), Seed: w.g.Seed, Salt: w.g.Salt, Catalog: w.g.Catalog, Options: opts}
	for _, p := range w.g.Players {
		req.Players = append(req.Players, p.Name)
	}
	return req
}

func (w *game) Table() domain.TableStatus { return w.g.Table() }

// MoveTypes names the types of Colorful Treasure's moves.
func (r *Rules) MoveTypes() []string {
	return []string{MoveFlip, MoveCollect, MoveRob, MoveUseToken, MoveClaim, MoveEnd}
}
