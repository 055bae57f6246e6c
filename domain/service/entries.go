package service

import (
	"bytes"
	"container/list"
	"context"
	"crypto/subtle"
	"hash/maphash"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/treasury-games/treasury/domain"
)

// DefaultCachedGames is how many games the service keeps in memory unless
// SetCacheSize says otherwise. A cached game costs a few kilobytes; a game
// that is not cached is read from the store when it is next used.
const DefaultCachedGames = 4096

// entry is what the service keeps in memory about one game (its cache entry): the lock that
// puts its moves one after another, its credentials (forgotten when a seat is
// taken or issued again: see seatsChanged), and
// the head: the game as the last move handed to the store left it.
//
// The head is ahead of the store while moves are on their way to it
// (pending > 0); reads then go to the store, so that nobody sees a move before
// it is committed. A move that fails in the store makes the head stale: it is
// read again from the store once every pending move has been answered (those
// queued after the failed one fail too, since they expected its version).
type entry struct {
	id   string
	elem *list.Element // in Games.lru
	refs int           // guarded by Games.cacheMu: calls using the entry; an entry in use is never evicted

	creds atomic.Pointer[domain.Credentials]
	// credsEpoch counts the times creds were forgotten (forgetCreds), so
	// that credentials read from the store before a seat changed are not
	// kept after it. Guarded by credsMu, as is every store into creds but
	// a new game's.
	credsMu    sync.Mutex
	credsEpoch uint64

	mu      sync.Mutex
	rec     domain.GameRecord        // the head's record
	g       domain.Game              // the head; nil until read from the store
	stale   bool                     // a move handed to the store failed: read the head again
	pending int                      // moves handed to the store and not answered yet
	tail    chan struct{}            // of the last move handed to the store: closed once it is answered and published; nil before any
	keys    map[string]chan struct{} // idempotency keys of pending moves (scope NUL key) -> their done

	// tbLog is the game's latest moves as the take-back policy reads them
	// (domain.LogEntry, without the moves themselves), valid at version
	// tbVersion (-1: not read): a listing adds the take-backs its reader
	// may make without reading the log each time; each move played here
	// appends itself.
	tbLog     []domain.LogEntry
	tbVersion int64

	// used holds a hash of every idempotency key (scope NUL key) the game
	// has stored, sorted, when usedKnown: a key whose hash is not in it is
	// new, and the store need not be asked.
	used      []uint64
	usedKnown bool

	// past is the game as the store holds it, restored for the reads made
	// while moves are on their way to the store (pending > 0) or for a
	// caller that knows the version (Known), so that the reads of one
	// stored version (the listings the event streams tell each seat after
	// a move) restore it once and no move waits for them; nil once a read
	// has used the head itself.
	past *pastGame
	// ahead are copies of the head made before moves were applied to it
	// (domain.Cloner), while reads use copies (past is set): the versions
	// those moves' pending stores leave as the stored one, which the reads
	// made meanwhile find here instead of restoring them (see copyAhead).
	ahead []*pastGame
	// stored is, while moves are pending, the record as the latest move
	// answered as stored left it (before the first, the head they started
	// from), so that the reads made meanwhile (a table's listings after
	// every move) need not ask the store which version it holds; nil: ask
	// it (a move failed, or the moves are another server's too).
	stored *domain.GameRecord

	listings listings // the listings last built for each seat (see listings)

	// storedRec is the record of the latest version of the game this
	// server stored (zero until it stores one): what committed reads for a
	// caller that knows of no later version, instead of the store.
	storedRec domain.GameRecord
}

// pastGame is a stored version of a game restored for reads; its lock puts
// them one after another.
type pastGame struct {
	mu  sync.Mutex
	rec domain.GameRecord
	g   domain.Game
}

// SetCacheSize bounds how many games the service keeps in memory (at least
// 1; DefaultCachedGames by default). Call it before the service is used.
func (s *Games) SetCacheSize(n int) {
	s.cacheMu.Lock()
	defer s.cacheMu.Unlock()
	s.cacheLimit = max(1, n)
}

// KnownRuleset returns the ruleset of game id if the service holds the game
// in memory, and "" otherwise; it reads nothing from the store.
func (s *Games) KnownRuleset(id string) string {
	s.cacheMu.Lock()
	t := s.entries[id]
	s.cacheMu.Unlock()
	if t == nil {
		return ""
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.rec.Ruleset
}

// CachedGames returns how many games the service holds in memory now.
func (s *Games) CachedGames() int {
	s.cacheMu.Lock()
	defer s.cacheMu.Unlock()
	return len(s.entries)
}

// acquire returns the entry of game id, creating it if absent, and holds it
// in memory until release.
func (s *Games) acquire(id string) *entry {
	s.cacheMu.Lock()
	defer s.cacheMu.Unlock()
	t := s.entries[id]
	if t == nil {
		t = &entry{id: id}
		t.elem = s.lru.PushFront(t)
		s.entries[id] = t
		s.evict()
	} else {
		s.lru.MoveToFront(t.elem)
	}
	t.refs++
	return t
}

func (s *Games) release(t *entry) {
	s.cacheMu.Lock()
	defer s.cacheMu.Unlock()
	t.refs--
	if t.refs == 0 && t.creds.Load() == nil && t.mu.TryLock() {
		// Nothing was found for this id (a game that does not exist, say):
		// keep no entry for it.
		empty := t.g == nil && t.pending == 0
		t.mu.Unlock()
		if empty && s.entries[t.id] == t {
			s.lru.Remove(t.elem)
			delete(s.entries, t.id)
			return
		}
	}
	if len(s.entries) > s.cacheLimit {
		s.evict()
	}
}

// evict forgets the least recently used entries nobody uses until the cache
// is within its limit. An entry nobody uses has no move pending, so the store
// holds all of it.
func (s *Games) evict() {
	for e := s.lru.Back(); e != nil && len(s.entries) > s.cacheLimit; {
		prev := e.Prev()
		if t := e.Value.(*entry); t.refs == 0 {
			s.lru.Remove(e)
			delete(s.entries, t.id)
			s.forgetListings(t)
		}
		e = prev
	}
}

// credentials returns the credential hashes of a game.
//
// Over a SharedStore they are read from the store every time: another
// server may have issued a seat again (see ReissueSeat), and an old
// credential must be refused at once on every server. They are kept with
// their revision all the same, for the moves (see AuthenticateMove): a
// read older than the credentials kept does not replace them.
func (s *Games) credentials(ctx context.Context, t *entry) (*domain.Credentials, error) {
	if c := t.creds.Load(); c != nil && s.shared == nil {
		return c, nil
	}
	for try := 1; ; try++ {
		t.credsMu.Lock()
		epoch := t.credsEpoch
		t.credsMu.Unlock()
		c, err := s.store.Credentials(ctx, t.id)
		if err != nil {
			return nil, err
		}
		t.credsMu.Lock()
		if t.credsEpoch != epoch {
			// A seat changed while they were read: what was read may be
			// from before, and must not be kept (the old credential of a
			// seat issued again would be taken, the new one refused).
			t.credsMu.Unlock()
			if try < 3 {
				continue
			}
			return &c, nil // kept by none: the next call reads them again
		}
		if old := t.creds.Load(); old == nil || old.Revision <= c.Revision {
			t.creds.Store(&c)
		}
		t.credsMu.Unlock()
		return &c, nil
	}
}

// forgetCreds drops the game's cached credentials: the next call that needs
// them reads them from the store, and a read already under way keeps none
// of what it read.
func (t *entry) forgetCreds() {
	t.credsMu.Lock()
	t.credsEpoch++
	t.creds.Store(nil)
	t.credsMu.Unlock()
}

// match returns the actor a credential whose hash is hash stands for in
// creds, and whether its seat is taken (the host's always is); ok is false
// when it is none of the game's.
func match(creds *domain.Credentials, hash string) (a domain.Actor, taken, ok bool) {
	h := []byte(hash)
	if subtle.ConstantTimeCompare(h, []byte(creds.HostHash)) == 1 {
		return domain.Actor{Host: true}, true, true
	}
	for i, sh := range creds.SeatHashes {
		if subtle.ConstantTimeCompare(h, []byte(sh)) == 1 {
			return domain.Actor{Seat: i}, creds.IsTaken(i), true
		}
	}
	return domain.Actor{}, false, false
}

// drain waits, with t.mu held when called and on return, until no move of
// the entry's game is pending.
func (t *entry) drain() {
	for t.pending > 0 {
		tail := t.tail
		t.mu.Unlock()
		<-tail
		t.mu.Lock()
	}
}

// head makes sure t.g is the game as every move handed to the store left it,
// reading it from the store if needed. t.mu is held.
func (s *Games) head(ctx context.Context, t *entry) error {
	if s.shared != nil && t.g != nil && !t.stale {
		if err := s.checkVersion(ctx, t); err != nil {
			return err
		}
	}
	return s.readHead(ctx, t)
}

// readHead is head without the check of a cached head's version on a
// SharedStore: it reads the game only when it has none or a stale one.
func (s *Games) readHead(ctx context.Context, t *entry) error {
	for t.g == nil || t.stale {
		if t.pending > 0 {
			t.drain()
			continue
		}
		rec, g, err := s.load(ctx, t.id)
		if err != nil {
			return err
		}
		t.rec, t.g, t.stale = rec, g, false
		t.tbLog, t.tbVersion = nil, -1
		if rec.Version == 0 {
			// No moves yet: the take-back log is known, and the moves
			// played here from now on fill it (a game created on another
			// server, as a balancer routing by game sends a creation
			// elsewhere, read its log from the store otherwise).
			t.tbLog, t.tbVersion = []domain.LogEntry{}, 0
		}
		t.used, t.usedKnown = nil, false
		if l, ok := s.store.(domain.IdempotencyKeyLister); ok && s.shared == nil {
			recs, err := l.IdempotencyKeys(ctx, t.id)
			if err != nil {
				return err
			}
			for _, r := range recs {
				t.used = append(t.used, s.keyHash(r.Scope+"\x00"+r.Key))
			}
			slices.Sort(t.used)
			t.usedKnown = true
		}
	}
	return nil
}

func (s *Games) keyHash(k string) uint64 { return maphash.String(s.seed, k) }

// mayHaveUsed reports whether the game may have stored the idempotency key
// whose hash is h.
func (t *entry) mayHaveUsed(h uint64) bool {
	if !t.usedKnown {
		return true
	}
	_, found := slices.BinarySearch(t.used, h)
	return found
}

// addUsed records that the key whose hash is h is stored.
func (t *entry) addUsed(h uint64) {
	if i, found := slices.BinarySearch(t.used, h); !found {
		t.used = slices.Insert(t.used, i, h)
	}
}

// committed calls f with the game as its last committed move left it. f must
// not change the game.
//
// A read made for a caller that has been told of version v of the game as
// committed (Known) may be answered at v or later without asking the store
// for a later one: from the head when no move is pending, or from the last
// version this server stored when one is. Such a read, like every read made
// while moves are pending, reads a copy of the game restored at its version
// (one for all the reads of that version), so that the game's next move
// never waits for it.
func (s *Games) committed(ctx context.Context, id string, f func(domain.GameRecord, domain.Game) error) error {
	return s.committedIn(ctx, id, func(_ *entry, r domain.GameRecord, g domain.Game) error { return f(r, g) })
}

// committedIn is committed, telling f the game's entry too.
func (s *Games) committedIn(ctx context.Context, id string, f func(*entry, domain.GameRecord, domain.Game) error) error {
	known := knownVersion(ctx, id)
	t := s.acquire(id)
	defer s.release(t)
	t.mu.Lock()
	var (
		rec    domain.GameRecord // the version to read a copy of
		stored bool              // rec is known without asking the store
	)
	switch {
	case t.pending > 0 && t.stored != nil:
		// This server's own moves are on their way: the latest it answered
		// as stored is what the store holds.
		rec, stored = *t.stored, true
	case t.pending > 0:
		rec, stored = t.storedRec, known > 0 && t.storedRec.Version >= known
	case known > 0 && t.g != nil && !t.stale && t.rec.Version >= known:
		rec, stored = t.rec, true
		if c, ok := t.g.(domain.Cloner); ok && t.pastAt(rec) == nil {
			// The head is the version read: copied under its lock, which
			// costs less than restoring it outside.
			t.past = &pastGame{rec: rec, g: c.Clone()}
		}
	default:
		// Nothing on its way to the store: the head is what is committed.
		if err := s.head(ctx, t); err != nil {
			t.mu.Unlock()
			return err
		}
		t.past = nil
		err := f(t, t.rec, t.g)
		t.mu.Unlock()
		return err
	}
	p := t.pastAt(rec)
	t.mu.Unlock()
	// A version is stored once and never changes: the game restored at the
	// version the store holds serves every read of that version.
	if !stored {
		var err error
		if rec, err = s.store.Game(ctx, id); err != nil {
			return err
		}
	}
	if p == nil || p.rec.Version != rec.Version {
		g, err := s.restore(ctx, rec)
		if err != nil {
			return err
		}
		p = &pastGame{rec: rec, g: g}
		t.mu.Lock()
		if t.past == nil || t.past.rec.Version < rec.Version {
			t.past = p
		}
		t.mu.Unlock()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return f(t, p.rec, p.g)
}

// pastAt returns the copy of the game the entry holds at rec (its past, or
// one made ahead, which becomes its past), nil when it holds none. A copy
// made ahead is taken for rec only with rec's very state: a version is
// stored once, and the copies of versions a failed store dropped are gone
// (dropAhead).
func (t *entry) pastAt(rec domain.GameRecord) *pastGame {
	if p := t.past; p != nil && p.rec.Version == rec.Version {
		return p
	}
	for _, p := range t.ahead {
		if p.rec.Version == rec.Version && bytes.Equal(p.rec.State, rec.State) {
			if t.past == nil || t.past.rec.Version < rec.Version {
				t.past = p
			}
			return p
		}
	}
	return nil
}

// copyAhead copies the game g, the head at rec, before a move is applied
// to it, when the game's reads use copies (its past is set: streams and
// reads made while moves are pending) and its ruleset copies games
// (domain.Cloner): once the move is on its way to the store, rec is the
// version those reads want until it is stored. Without it they restore rec
// from its snapshot, once per version.
func (t *entry) copyAhead(rec domain.GameRecord, g domain.Game) {
	c, ok := g.(domain.Cloner)
	if !ok || t.past == nil || t.pastAt(rec) != nil {
		return
	}
	if len(t.ahead) == maxAhead {
		t.ahead = slices.Delete(t.ahead, 0, 1)
	}
	t.ahead = append(t.ahead, &pastGame{rec: rec, g: c.Clone()})
}

// maxAhead bounds the copies an entry makes ahead: as many moves of one
// game on their way to the store at once as a table of six makes.
const maxAhead = 8

// dropAhead drops the copies made ahead of versions before version, which
// no read wants once version is stored; with version -1 (a move failed in
// the store: versions made ahead may be made again otherwise), every copy.
func (t *entry) dropAhead(version int64) {
	if version < 0 {
		t.ahead, t.past = nil, nil
		return
	}
	t.ahead = slices.DeleteFunc(t.ahead, func(p *pastGame) bool { return p.rec.Version < version })
}

// cache keeps a game just created as the head of its entry.
func (s *Games) cache(rec domain.GameRecord, g domain.Game, creds domain.Credentials) {
	t := s.acquire(rec.ID)
	defer s.release(t)
	t.creds.Store(&creds)
	t.mu.Lock()
	if t.g == nil && t.pending == 0 {
		t.rec, t.g = rec, g
		t.tbLog, t.tbVersion = []domain.LogEntry{}, rec.Version // a new game has no moves
		// A new game has used no key; a shared store's keys are always
		// looked up, as another server may store one.
		t.used, t.usedKnown = nil, s.shared == nil
	}
	t.mu.Unlock()
}
