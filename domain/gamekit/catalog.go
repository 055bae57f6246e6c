package gamekit

import (
	"cmp"
	"encoding/json"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/catalogset"
)

// DefaultCatalog is the catalog a game is created with, and a paper sheet
// scored with, when it names none.
const DefaultCatalog = "standard"

// Catalogued is what a game played with a catalog of cards tells
// CatalogRules: C is its parsed catalog, G its state, M its move.
type Catalogued[C, G, M any] struct {
	Parse   func([]byte) (C, error)                   // reads a catalog file
	Blob    func(C) domain.CatalogBlob                // a catalog's name, content hash and content
	View    func(C) any                               // a catalog as clients read it
	New     func(C, domain.CreateRequest) (G, error)  // makes a game, checking the request's players and options
	Restore func(C, []byte) (G, error)                // rebuilds a game from its snapshot
	Decode  func([]byte) (M, error)                   // reads a logged move
	Replay  func(g G, actor domain.Actor, m *M) error // applies a logged move to g
	Wrap    func(G) domain.Game                       // the game's adapter
	// ReplaySeed is the message key of the Invalid error for replaying a
	// digital game without its seed.
	ReplaySeed string
}

// CatalogRules is the domain.Ruleset and domain.Cataloger methods of a game
// played with a catalog of cards, written once: a ruleset embeds it and adds
// its name, its info and what else is its own.
type CatalogRules[C, G, M any] struct {
	kind     *Catalogued[C, G, M]
	catalogs *catalogset.Set[C] // offered for new games, and those stored games were created with
}

// NewCatalogRules offers catalogs for new games (a later one replaces an
// earlier of the same name).
func NewCatalogRules[C, G, M any](kind *Catalogued[C, G, M], catalogs ...C) CatalogRules[C, G, M] {
	id := func(c C) (string, string) {
		b := kind.Blob(c)
		return b.Name, b.Hash
	}
	return CatalogRules[C, G, M]{kind: kind, catalogs: catalogset.New(kind.Parse, id, catalogs...)}
}

// With returns the rules offering also c (replacing the catalog of its name).
func (r CatalogRules[C, G, M]) With(c C) CatalogRules[C, G, M] {
	return CatalogRules[C, G, M]{kind: r.kind, catalogs: r.catalogs.With(c)}
}

// Catalog returns the catalog offered by name (DefaultCatalog for ""), an
// Invalid error naming those offered when there is none.
func (r CatalogRules[C, G, M]) Catalog(name string) (C, error) {
	return r.catalogs.Offered(cmp.Or(name, DefaultCatalog), domain.Invalid)
}

// CatalogNames lists the catalogs offered for new games.
func (r CatalogRules[C, G, M]) CatalogNames() []string { return r.catalogs.Names() }

// CatalogView encodes the catalog offered by name for clients, NotFound
// when there is none.
func (r CatalogRules[C, G, M]) CatalogView(name string) (domain.CatalogInfo, []byte, error) {
	cat, err := r.catalogs.Offered(name, domain.NotFound)
	if err != nil {
		return domain.CatalogInfo{}, nil, err
	}
	blob := r.kind.Blob(cat)
	b, err := json.Marshal(r.kind.View(cat))
	return domain.CatalogInfo{Name: blob.Name, Hash: blob.Hash}, b, err
}

// Create makes a new game with the catalog req names; the service has
// chosen a digital game's seed.
func (r CatalogRules[C, G, M]) Create(req domain.CreateRequest) (domain.Game, domain.CatalogBlob, error) {
	cat, err := r.Catalog(req.Catalog)
	if err != nil {
		return nil, domain.CatalogBlob{}, err
	}
	g, err := r.kind.New(cat, req)
	if err != nil {
		return nil, domain.CatalogBlob{}, err
	}
	return r.kind.Wrap(g), r.kind.Blob(cat), nil
}

// Restore rebuilds a stored game from its snapshot and the catalog it was
// created with.
func (r CatalogRules[C, G, M]) Restore(state []byte, blob domain.CatalogBlob) (domain.Game, error) {
	cat, err := r.catalogs.Stored(blob)
	if err != nil {
		return nil, err
	}
	g, err := r.kind.Restore(cat, state)
	if err != nil {
		return nil, err
	}
	return r.kind.Wrap(g), nil
}

// Replay creates a game from req with the catalog it was created with and
// applies moves in order, stopping at the first one the rules reject, as
// domain.Ruleset.Replay does. A digital game needs its seed.
func (r CatalogRules[C, G, M]) Replay(req domain.CreateRequest, blob domain.CatalogBlob, moves []domain.ReplayMove) (domain.Game, int, error) {
	cat, err := r.catalogs.Stored(blob)
	if err != nil {
		return nil, 0, err
	}
	if req.Mode == domain.Digital && req.Seed == "" {
		return nil, 0, domain.Fail(domain.Invalid, r.kind.ReplaySeed)
	}
	g, err := r.kind.New(cat, req)
	if err != nil {
		return nil, 0, err
	}
	bad, err := Replay(moves, r.kind.Decode, func(a domain.Actor, m *M) error { return r.kind.Replay(g, a, m) })
	return r.kind.Wrap(g), bad, err
}

// VerifyCatalogSheet is VerifySheet for a game of r: verify scores the
// sheet with the catalog it names (catalog returns the name,
// DefaultCatalog when empty).
func VerifyCatalogSheet[C, G, M, S, R any](r CatalogRules[C, G, M], b []byte, key string, catalog func(*S) string, verify func(C, S) (R, error)) ([]byte, error) {
	return VerifySheet(b, key, func(s S) (R, error) {
		cat, err := r.Catalog(catalog(&s))
		if err != nil {
			var none R
			return none, err
		}
		return verify(cat, s)
	})
}
