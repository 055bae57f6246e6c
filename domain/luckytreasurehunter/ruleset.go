package luckytreasurehunter

import (
	"github.com/treasury-games/treasury/domain/i18n"

	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/gamekit"
)

// RulesetName is the identifier of Lucky Treasure Hunter on the server.
const RulesetName = "lucky-treasure-hunter"

// Rules is Lucky Treasure Hunter as a domain.Ruleset.
type Rules struct{}

var (
	_ domain.Ruleset       = Rules{}
	_ domain.SheetVerifier = Rules{}
)

// NewRules returns the ruleset.
func NewRules() Rules { return Rules{} }

// Name returns "lucky-treasure-hunter".
func (Rules) Name() string { return RulesetName }

func intPtr(n int) *int { return &n }

// options are what a game is created with besides mode and players.
var options = []domain.Option{
	domain.Option{Name: "captain_heart", Type: "integer", Seat: true, Default: json.RawMessage(`0`), Minimum: intPtr(0), Maximum: intPtr(MaxPlayers - 1)}.
		Described(i18n.M("lth.option.captain-heart")),
	domain.Option{Name: "pirate_faces", Type: "integer", Default: json.RawMessage(`3`), Minimum: intPtr(1), Maximum: intPtr(5)}.
		Described(i18n.M("lth.option.pirate-faces")),
}

// Info describes Lucky Treasure Hunter: 2 to 6 players, both modes.
func (Rules) Info() domain.RulesetInfo {
	return domain.RulesetInfo{
		Name: RulesetName, Title: "Lucky Treasure Hunter",
		MinPlayers: MinPlayers, MaxPlayers: MaxPlayers, Modes: []string{domain.Digital, domain.Physical},
		Options: slices.Clone(options),
	}.Summarized(i18n.M("lth.info.summary"))
}

type optionValues struct {
	CaptainHeart int `json:"captain_heart"`
	PirateFaces  int `json:"pirate_faces"`
}

// appendOptions appends g's optionValues as json.Marshal encodes them.
func (g *Game) appendOptions(b []byte) []byte {
	b = strconv.AppendInt(append(b, `{"captain_heart":`...), int64(g.Heart), 10)
	return append(strconv.AppendInt(append(b, `,"pirate_faces":`...), int64(g.PirateFaces), 10), '}')
}

func setupOf(req domain.CreateRequest) (Setup, error) {
	opts, err := domain.ResolveOptions(options, req.Options, len(req.Players))
	if err != nil {
		return Setup{}, err
	}
	var o optionValues
	if err := json.Unmarshal(opts, &o); err != nil {
		return Setup{}, domain.Fail(domain.Invalid, "lth.invalid.options", "error", err.Error())
	}
	return Setup{Mode: Mode(req.Mode), Players: req.Players, Seed: req.Seed, Salt: req.Salt,
		PirateFaces: o.PirateFaces, CaptainHeart: o.CaptainHeart}, nil
}

// components is the catalog every game is stored with: the packs, the
// captains and the dice. Its hash ties a stored game to the components it
// was played with; the game itself needs nothing from it.
var components = func() domain.CatalogBlob {
	content := []byte(`{"ruleset":"lucky-treasure-hunter","base_pack":{"silver":18,"gold":17,"pearl":16,"ruby":14,"jade":12},` +
		`"extra_pack":{"silver":5,"gold":4,"pearl":4,"ruby":4,"jade":3},"captains":6,"dice":5}` + "\n")
	sum := sha256.Sum256(content)
	return domain.CatalogBlob{Name: "standard", Hash: hex.EncodeToString(sum[:]), Content: content}
}()

// Create makes a new game; the service has chosen a digital game's seed.
func (Rules) Create(req domain.CreateRequest) (domain.Game, domain.CatalogBlob, error) {
	if req.Catalog != "" && req.Catalog != components.Name {
		return nil, domain.CatalogBlob{}, domain.Fail(domain.Invalid, "lth.invalid.catalog", "given", strconv.Quote(req.Catalog))
	}
	if n := len(req.Players); n < MinPlayers || n > MaxPlayers {
		return nil, domain.CatalogBlob{}, domain.Fail(domain.Invalid, "lth.invalid.players", "named", n)
	}
	s, err := setupOf(req)
	if err != nil {
		return nil, domain.CatalogBlob{}, err
	}
	g, err := New(s)
	if err != nil {
		return nil, domain.CatalogBlob{}, err
	}
	return wrap(g), components, nil
}

// Restore rebuilds a stored game from its snapshot.
func (Rules) Restore(state []byte, _ domain.CatalogBlob) (domain.Game, error) {
	g, err := Restore(state)
	if err != nil {
		return nil, err
	}
	return wrap(g), nil
}

// Replay creates a game from req and applies moves in order, stopping at the
// first one the rules reject. In a digital game the dice and the cards drawn
// that a logged move names must be what the seed rolls and deals.
func (Rules) Replay(req domain.CreateRequest, _ domain.CatalogBlob, moves []domain.ReplayMove) (domain.Game, int, error) {
	if Mode(req.Mode) == Digital && req.Seed == "" {
		return nil, 0, domain.Fail(domain.Invalid, "lth.invalid.replay-seed")
	}
	if n := len(req.Players); n < MinPlayers || n > MaxPlayers {
		return nil, 0, domain.Fail(domain.Invalid, "lth.invalid.players", "named", n)
	}
	s, err := setupOf(req)
	if err != nil {
		return nil, 0, err
	}
	g, err := New(s)
	if err != nil {
		return nil, 0, err
	}
	bad, err := gamekit.Replay(moves, DecodeMove, g.replay)
	return wrap(g), bad, err
}

// replay applies one logged move, checking the dice and draws it names.
func (g *Game) replay(actor domain.Actor, m *Move) error {
	faces, drawn := m.Faces, m.Drawn
	m.Drawn = nil
	if m.Type != MoveRoll {
		m.Faces = nil
	}
	if err := g.play(actor, m); err != nil {
		return err
	}
	got := g.logged(m)
	if faces != nil && m.Type != MoveRoll && !slices.Equal(faces, got.Faces) {
		return domain.Refuse("seed-dice", "lth.refuse.seed-dice", "record", fmt.Sprint(faces), "seed", fmt.Sprint(got.Faces))
	}
	if drawn != nil && !slices.Equal(drawn, got.Drawn) {
		return domain.Refuse("seed-draw", "lth.refuse.seed-draw", "seat", *m.Seat, "record", fmt.Sprint(drawn), "seed", fmt.Sprint(got.Drawn))
	}
	return nil
}

// logged returns m as the log keeps it: in a digital game with the dice the
// server rolled and the cards the seat drew.
func (g *Game) logged(m *Move) Move {
	out := *m
	if g.Mode != Digital {
		return out
	}
	out.Faces, out.Drawn = nil, nil
	for _, f := range g.faces {
		for _, p := range f {
			if p {
				out.Faces = append(out.Faces, FacePirate)
			} else {
				out.Faces = append(out.Faces, FaceBlank)
			}
		}
	}
	if m.Seat != nil {
		for _, d := range g.drawn {
			if d.Seat == *m.Seat {
				for _, t := range d.Cards {
					out.Drawn = append(out.Drawn, t.String())
				}
			}
		}
	}
	return out
}

// VerifySheet checks a paper tally (JSON of Sheet).
func (Rules) VerifySheet(b []byte) ([]byte, error) {
	return gamekit.VerifySheet(b, "lth.invalid.sheet-json", VerifySheet)
}

// game adapts *Game to domain.Game.
type game struct {
	gamekit.Adapter[*Game, Score]
}

// wrap returns g's adapter.
func wrap(g *Game) *game { return &game{gamekit.Adapter[*Game, Score]{G: g}} }

// Clone copies the game (domain.Cloner).
func (w *game) Clone() domain.Game { return wrap(w.G.Clone()) }

// Unwrap returns the game behind a domain.Game, for tests and tools.
func Unwrap(dg domain.Game) (*Game, bool) { return gamekit.Unwrap[*Game](dg) }

func (w *game) Apply(actor domain.Actor, move []byte) (domain.Logged, error) {
	m, err := gamekit.Apply(w.G, actor, move, DecodeMove)
	if err != nil {
		return domain.Logged{}, err
	}
	lm := w.G.logged(&m)
	l := domain.Logged{Move: lm.AppendJSON(make([]byte, 0, 128))}
	if len(lm.Drawn) > 0 {
		// The cards a seat drew are its own: everyone else, the host too,
		// reads the move without them.
		pub := lm
		pub.Drawn = nil
		l.Public, l.For, l.NotHost = pub.AppendJSON(nil), *lm.Seat, true
	}
	return l, nil
}

func (w *game) AppendView(b []byte, v domain.Viewer) ([]byte, error) {
	return w.G.AppendView(b, v)
}

// AppendListingKey is Game.AppendListingKey (domain.ListingKeyed).
func (w *game) AppendListingKey(b []byte, seat int) []byte { return w.G.AppendListingKey(b, seat) }

func (w *game) LegalMoves(v domain.Viewer, seat int) ([]byte, error) {
	return gamekit.Listing(seat, len(w.G.Players), func(seat int) Legal { return w.G.LegalMoves(v, seat) })
}

// Setup is asked for after every move (the service's head of a game);
// its options are written as json.Marshal of optionValues writes them,
// without reflection (TestSetupOptionsPlain).
func (w *game) Setup() domain.CreateRequest {
	opts := w.G.appendOptions(make([]byte, 0, 40))
	return domain.CreateRequest{Mode: string(w.G.Mode), Seed: w.G.Seed, Salt: w.G.Salt, Catalog: components.Name, Options: opts,
		Players: gamekit.Names(w.G.Players, func(p *Player) string { return p.Name })}
}

// Head is where g stands, for the adapter every game shares.
func (g *Game) Head() gamekit.Head {
	return gamekit.Head{Phase: string(g.Phase), Ended: g.Phase == PhaseEnded, Players: len(g.Players)}
}

// MoveTypes names the types of Lucky Treasure Hunter's moves.
func (Rules) MoveTypes() []string {
	return []string{MovePlace, MoveSteal, MoveReroll, MoveCaptain, MoveStop, MoveRoll, MoveMiddle, MoveMisdraw}
}
