package colorfultreasure

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/gamekit"
	"github.com/treasury-games/treasury/domain/i18n"
)

// RulesetName is the identifier of Colorful Treasure on the server.
const RulesetName = "colorful-treasure"

// Rules is Colorful Treasure as a domain.Ruleset.
type Rules struct {
	gamekit.CatalogRules[*Catalog, *Game, Move]
}

var (
	_ domain.Ruleset   = (*Rules)(nil)
	_ domain.Cataloger = (*Rules)(nil)
)

// kind is what Colorful Treasure tells the rules every catalogued game
// shares. A digital game replayed re-deals its grid from the seed.
var kind = &gamekit.Catalogued[*Catalog, *Game, Move]{
	Parse: ParseCatalog, View: func(c *Catalog) any { return NewCatalogView(c) },
	Blob: func(c *Catalog) domain.CatalogBlob {
		return domain.CatalogBlob{Name: c.Name, Hash: c.Hash, Content: c.Content}
	},
	New: createGame, Restore: Restore, Wrap: func(g *Game) domain.Game { return wrap(g) },
	Decode: DecodeMove, Replay: (*Game).Play, ReplaySeed: "ct.invalid.replay-seed",
}

// NewRules offers the standard catalog and any others given; a catalog named
// "standard" replaces the built-in one.
func NewRules(extra ...*Catalog) *Rules {
	return &Rules{gamekit.NewCatalogRules(kind, append([]*Catalog{Standard()}, extra...)...)}
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

// createGame makes a game of cat from req.
func createGame(cat *Catalog, req domain.CreateRequest) (*Game, error) {
	s, err := setup(req)
	if err != nil {
		return nil, err
	}
	return New(cat, s)
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

// game adapts *Game to domain.Game.
type game struct {
	gamekit.Adapter[*Game, Score]
}

// wrap returns g's adapter.
func wrap(g *Game) *game { return &game{gamekit.Adapter[*Game, Score]{G: g}} }

// Clone copies the game (domain.Cloner).
func (w *game) Clone() domain.Game { return wrap(w.G.Clone()) }

// Unwrap returns the Colorful Treasure game behind a domain.Game.
func Unwrap(dg domain.Game) (*Game, bool) { return gamekit.Unwrap[*Game](dg) }

// Wrap returns g as a domain.Game.
func Wrap(g *Game) domain.Game { return wrap(g) }

func (w *game) Apply(actor domain.Actor, move []byte) (domain.Logged, error) {
	m, err := gamekit.Apply(w.G, actor, move, DecodeMove)
	if err != nil {
		return domain.Logged{}, err
	}
	// No move read while the game runs names a face-down card's identity:
	// a digital flip names places only (its cards_revealed event is told
	// live). A physical flip is the table's report of what everyone at the
	// table saw, told live too; the log keeps it from everyone, the host
	// included, until the game ends (the places only), so that it does not
	// remember for the players what a card turned back showed.
	b, err := m.AppendJSON(make([]byte, 0, 128))
	if err != nil || m.Type != MoveFlip || len(m.Shows) == 0 {
		return domain.Logged{Move: b}, err
	}
	m.Shows = nil
	pub, err := m.AppendJSON(nil)
	return domain.Logged{Move: b, Public: pub, For: -1, NotHost: true}, err
}

func (w *game) AppendView(b []byte, v domain.Viewer) ([]byte, error) {
	j, err := json.Marshal(w.G.View(v))
	return append(b, j...), err
}

// AppendListingKey is Game.AppendListingKey (domain.ListingKeyed).
func (w *game) AppendListingKey(b []byte, seat int) []byte { return w.G.AppendListingKey(b, seat) }

func (w *game) LegalMoves(_ domain.Viewer, seat int) ([]byte, error) {
	return gamekit.Listing(seat, len(w.G.Players), w.G.LegalMoves)
}

func (w *game) Setup() domain.CreateRequest {
	o := gameOptions{Variant: w.G.Variant, Start: w.G.Start, Token1: w.G.Sides[0], Token2: w.G.Sides[1], Token3: w.G.Sides[2],
		Token4: w.G.Sides[3], Token5: w.G.Sides[4]}
	opts, _ := json.Marshal(o) // plain struct
	return domain.CreateRequest{Mode: string(w.G.Mode), Seed: w.G.Seed, Salt: w.G.Salt, Catalog: w.G.Catalog, Options: opts,
		Players: gamekit.Names(w.G.Players, func(p *Player) string { return p.Name })}
}

// Head is where g stands, for the adapter every game shares.
func (g *Game) Head() gamekit.Head {
	return gamekit.Head{Phase: string(g.Phase), Ended: g.Phase == PhaseEnded, Players: len(g.Players)}
}

// MoveTypes names the types of Colorful Treasure's moves.
func (r *Rules) MoveTypes() []string {
	return []string{MoveFlip, MoveCollect, MoveRob, MoveUseToken, MoveClaim, MoveEnd}
}
