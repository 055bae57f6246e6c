package service

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"

	"github.com/treasury-games/treasury/domain"
)

// ListingBytes bounds the bytes of listings the service keeps, for all the
// games it holds (see entry.listings): past it, a listing built is
// answered and not kept. A Silver & Gold listing is 5-20 KB; 64 MB keeps
// four seats' listings of about a thousand games in play.
const ListingBytes = 64 << 20

// listingFor is whose listing is kept: seat's, as viewer v may know it.
type listingFor struct {
	v    domain.Viewer
	seat int
}

// builtListing is a listing as the ruleset built it (without take-backs),
// with the listing key of the game it was built from (domain.AppendListingKey):
// it stands for every state of the game with the same key.
type builtListing struct {
	key []byte
	out []byte
}

// listings are the listings an entry keeps, the last built for each seat
// and viewer. The event streams of a table read each seat's listing after
// every move; a seat whose listing key a move left as it was (another
// seat's crossing, say) is answered from here, and the streams and GETs of
// one seat at one version share one build.
type listings struct {
	mu    sync.Mutex
	built map[listingFor]builtListing
	size  int // bytes of the listings kept
	// head is the head of the game at a committed version with the
	// players of its setup, made once for the listings read at that
	// version: each of a table's streams reads its seat's listing after
	// every move, and the head (the table's status, the setup) cost
	// every read more than the listing kept did (BenchmarkStreamListings).
	head *listingHead
	// takeBacks are the take-back entries last built for each actor
	// (takeBackEntries).
	takeBacks map[domain.Actor]*keptTakeBacks
}

// listingHead is a game's head at a committed version, which never
// changes, and the players of its setup. Its readers only read it.
type listingHead struct {
	head    domain.GameHead
	players []string
}

// headAt returns the head of game g at committed version r and the
// players of its setup, made once per version (and time stored, which
// tells two records of one version apart should one ever come).
func (t *entry) headAt(r domain.GameRecord, g domain.Game) *listingHead {
	t.listings.mu.Lock()
	h := t.listings.head
	t.listings.mu.Unlock()
	if h != nil && h.head.Version == r.Version && h.head.UpdatedAt.Equal(r.UpdatedAt) {
		return h
	}
	head, setup := headSetup(r, g)
	h = &listingHead{head: head, players: setup.Players}
	t.listings.mu.Lock()
	if t.listings.head == nil || t.listings.head.head.Version < r.Version {
		t.listings.head = h
	}
	t.listings.mu.Unlock()
	return h
}

// listing returns what g lists for seat as viewer v may know it (the
// ruleset's bytes, which the caller must not change), built once per
// listing key. g is the game at version of entry t.
func (s *Games) listing(t *entry, g domain.Game, version int64, v domain.Viewer, seat int) ([]byte, error) {
	var kb [256]byte
	key := domain.AppendListingKey(kb[:0], g, version, seat)
	who := listingFor{v: v, seat: seat}
	t.listings.mu.Lock()
	b, ok := t.listings.built[who]
	t.listings.mu.Unlock()
	if ok && bytes.Equal(b.key, key) {
		return b.out, nil
	}
	out, err := g.LegalMoves(v, seat)
	if err != nil {
		return nil, err
	}
	t.listings.mu.Lock()
	defer t.listings.mu.Unlock()
	old := t.listings.built[who]
	grow := len(out) + len(key) - len(old.out) - len(old.key)
	if s.listingBytes.Add(int64(grow)) > ListingBytes && grow > 0 {
		s.listingBytes.Add(-int64(grow))
		return out, nil // over the budget: not kept
	}
	if t.listings.built == nil {
		t.listings.built = map[listingFor]builtListing{}
	}
	t.listings.built[who] = builtListing{key: bytes.Clone(key), out: out}
	t.listings.size += grow
	return out, nil
}

// forgetListings drops the listings of an entry the service forgets.
func (s *Games) forgetListings(t *entry) {
	t.listings.mu.Lock()
	s.listingBytes.Add(-int64(t.listings.size))
	t.listings.built, t.listings.size, t.listings.head, t.listings.takeBacks = nil, 0, nil, nil
	t.listings.mu.Unlock()
}

// LegalMoves returns what seat may do now in a game, as viewer v may know it
// (the ruleset's JSON), with the game's head; seat -1 asks for the table's
// reports.
func (s *Games) LegalMoves(ctx context.Context, id string, v domain.Viewer, seat int) (domain.GameHead, []byte, error) {
	head, out, takeBacks, err := s.LegalMovesParts(ctx, id, v, seat)
	if err != nil || takeBacks == nil {
		return head, out, err
	}
	out, err = AppendTakeBacks(nil, out, takeBacks)
	return head, out, err
}

// LegalMovesParts returns what LegalMoves returns in two parts: listing,
// the ruleset's listing as the service keeps it for every reader of the
// seat (the caller must not change it), and takeBacks, the entries of the
// take-backs the reader may make, which AppendTakeBacks adds to its moves
// (nil when none). An event stream, which reads its seat's listing after
// every move of the table, compares the parts with those it told last and
// joins them only to tell them: most reads tell nothing new.
func (s *Games) LegalMovesParts(ctx context.Context, id string, v domain.Viewer, seat int) (head domain.GameHead, listing []byte, takeBacks []json.RawMessage, err error) {
	var (
		rec     domain.GameRecord
		turn    int
		players []string
	)
	err = s.committedIn(ctx, id, func(t *entry, r domain.GameRecord, g domain.Game) (err error) {
		if seat < -1 || seat >= g.Players() {
			return domain.Fail(domain.Invalid, "table.game.no-seat", "seat", seat, "last", g.Players()-1)
		}
		h := t.headAt(r, g)
		head, rec, turn, players = h.head, r, h.head.TurnNumber, h.players
		listing, err = s.listing(t, g, r.Version, v, seat)
		return err
	})
	if err != nil {
		return head, nil, nil, err
	}
	// The take-backs the listing's reader may make are read outside the
	// game's lock; the log up to the version read never changes.
	if actor, ok := takeBackActor(v, seat); ok {
		if takeBacks, err = s.takeBacks(ctx, rec, turn, players, actor); err != nil {
			return head, nil, nil, err
		}
	}
	return head, listing, takeBacks, nil
}
