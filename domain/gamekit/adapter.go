package gamekit

import (
	"bytes"
	"encoding/json"
	"sync"

	"github.com/treasury-games/treasury/domain"
)

// Head is where a game stands as every game's adapter reports it alike.
type Head struct {
	Phase   string // the game's phase, as domain.Game.Phase
	Ended   bool
	Players int // the number of seats
}

// State is a game's own state as Adapter serves it; S is its score.
type State[S any] interface {
	Head() Head
	Snapshot() ([]byte, error)
	Score() S
	Events() []domain.Event
	Table() domain.TableStatus
}

// Adapter answers for a game's state G the domain.Game methods every game
// answers alike. A game's adapter embeds it and adds what is its own: Apply,
// AppendView, LegalMoves and Setup.
type Adapter[G State[S], S any] struct{ G G }

// State returns the game's own state (see Unwrap).
func (a Adapter[G, S]) State() G { return a.G }

// Unwrap returns the state G behind dg, a game's adapter embedding
// Adapter, for tests and tools in the game's own terms; false when dg is
// not a game of G.
func Unwrap[G any](dg domain.Game) (G, bool) {
	w, ok := dg.(interface{ State() G })
	if !ok {
		var none G
		return none, false
	}
	return w.State(), true
}

// Snapshot encodes the game's state.
func (a Adapter[G, S]) Snapshot() ([]byte, error) { return a.G.Snapshot() }

// Phase names the game's phase.
func (a Adapter[G, S]) Phase() string { return a.G.Head().Phase }

// Ended says whether the game has ended.
func (a Adapter[G, S]) Ended() bool { return a.G.Head().Ended }

// Players returns the number of seats.
func (a Adapter[G, S]) Players() int { return a.G.Head().Players }

// Score encodes the game's score (JSON of S).
func (a Adapter[G, S]) Score() ([]byte, error) { return json.Marshal(a.G.Score()) }

// Events returns the events of the last move.
func (a Adapter[G, S]) Events() []domain.Event { return a.G.Events() }

// Table returns where the table stands.
func (a Adapter[G, S]) Table() domain.TableStatus { return a.G.Table() }

// Listing checks seat as CheckListingSeat does for a game of players seats
// and encodes (JSON) the legal moves list returns for it: by its AppendJSON
// when it has one, else by encoding/json.
func Listing[L any](seat, players int, list func(seat int) L) ([]byte, error) {
	if err := CheckListingSeat(seat, players); err != nil {
		return nil, err
	}
	l := list(seat)
	if a, ok := any(&l).(interface{ AppendJSON([]byte) ([]byte, error) }); ok {
		return Pooled(a.AppendJSON)
	}
	return json.Marshal(l)
}

// Pooled returns what appendTo appends to an empty buffer, written in a
// buffer from a pool and copied out at its size: a listing (or a game's
// snapshot) is up to tens of KB, and would grow by doubling while it is
// written.
func Pooled(appendTo func([]byte) ([]byte, error)) ([]byte, error) {
	buf := listingBuffers.Get().(*[]byte)
	defer listingBuffers.Put(buf)
	out, err := appendTo((*buf)[:0])
	*buf = out
	return bytes.Clone(out), err
}

var listingBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 32<<10); return &b }}

// Player is a game's state that applies its moves M.
type Player[M any] interface {
	Play(actor domain.Actor, m *M) error
}

// Apply decodes move with decode and applies it to g, returning the move
// as decoded (and as Play left it).
func Apply[M any, G Player[M]](g G, actor domain.Actor, move []byte, decode func([]byte) (M, error)) (M, error) {
	m, err := decode(move)
	if err == nil {
		err = g.Play(actor, &m)
	}
	return m, err
}

// Names returns the names of players, in seat order, as
// domain.CreateRequest.Players holds them.
func Names[P any](players []P, name func(*P) string) []string {
	out := make([]string, len(players))
	for i := range players {
		out[i] = name(&players[i])
	}
	return out
}
