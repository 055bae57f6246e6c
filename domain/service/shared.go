package service

import (
	"context"
	"encoding/json"

	"github.com/treasury-games/treasury/domain"
)

// Several servers on one store
//
// On a SharedStore the service is one of several processes serving the same
// games, so nothing it holds in memory is the truth; the store is:
//   - a cached game is trusted for a read only after its stored version is
//     read and found equal (checkVersion); a read therefore never shows a
//     version older than one any server has answered before the read began;
//     a move is tried on the cached head at once, and the append's version
//     check stands for the read (see playShared);
//   - a move is applied to the game under its cache entry's lock and stored only
//     at the version it was applied to: when another server stored that
//     version first (Conflict), the game is read again and the move applied
//     again, up to MaxLostRaces times, so that a move still legal on the new
//     state is applied without the client hearing of the race;
//   - an idempotency key is always looked up in the store, and a key another
//     server stored meanwhile is answered as the retry it is;
//   - a game's credentials are read from the store for every request but a
//     move's: a move's credential is checked against the credentials held
//     in memory (AuthenticateMove), and its append stores it only while the
//     game's credentials are still at the revision they were read at; when
//     another server set a seat meanwhile they are read again and the
//     credential checked again (playShared);
//   - live clients hear of moves stored by any server through the store's
//     notices (WatchMoves, run by FollowStore), read from the log.
// A server's moves of one game are queued behind the game's commit in flight
// (domain.AppendQueuer), each applied to the head the one before left: the
// moves that arrive while a commit is in flight share the next one. When one
// of them fails, every one queued after it fails too and is decided again on
// the game read from the store. A move applied to the head after the store
// has answered that a move of the head failed, but before that move's player
// has marked the head stale, is queued behind nothing: its append names the
// snapshot it was applied to (Append.ExpectState), and the store refuses it
// when the game at the version it expects is another server's.

// MaxLostRaces is how many times in a row a move may lose the race for a
// game's next version to another server before the client gets Conflict.
const MaxLostRaces = 8

// liveFetchLimit bounds how many moves one notice reads from the log; a
// client further behind catches up from the log itself.
const liveFetchLimit = subscriberBuffer

// AuthenticateMove is Authenticate for a request that makes a move with the
// credential and passes it on to Play as PlayOptions.Credential. On a
// SharedStore it trusts the game's credentials held in memory when the
// credential is the host's or a taken seat's there, and reads nothing: the
// move's append then checks that they are still the game's (playShared).
// Otherwise it is Authenticate.
func (s *Games) AuthenticateMove(ctx context.Context, gameID, secret string) (domain.Actor, error) {
	if s.shared != nil {
		t := s.acquire(gameID)
		c := t.creds.Load()
		s.release(t)
		if c != nil {
			if a, taken, ok := match(c, domain.HashSecret(secret)); ok && taken {
				return a, nil
			}
		}
	}
	return s.Authenticate(ctx, gameID, secret)
}

// heldCredentials returns the revision of the game's credentials held in
// memory after checking that the credential whose hash is hash stands for
// actor in them, reading them from the store when none are held or when it
// does not: Unauthorized when it does not in the credentials read. t.mu is
// held.
func (s *Games) heldCredentials(ctx context.Context, t *entry, actor domain.Actor, hash string) (int64, error) {
	c := t.creds.Load()
	for read := c == nil; ; read = true {
		if read {
			var err error
			if c, err = s.credentials(ctx, t); err != nil {
				return 0, err
			}
		}
		if a, taken, ok := match(c, hash); ok && taken && a == actor {
			return c.Revision, nil
		}
		if read {
			return 0, domain.Fail(domain.Unauthorized, "table.auth.no-seat", "game", t.id)
		}
	}
}

// playShared is Play on a SharedStore.
//
// The common case costs one round trip to the store: a move is applied to
// the cached head without reading the stored version or looking up its
// idempotency key first, and stored by an append that succeeds only at the
// version it was applied to, only with a key not stored before, and (with
// opt.Credential) only while the game's credentials are at the revision of
// those held in memory, which the credential was checked against. Only
// when that is not the end of it is the store asked more:
//   - the append answers Conflict (another server stored that version, or the
//     key was stored before: a retry): the game is read again, the key looked
//     up, and the move decided again; when the credentials had changed, they
//     are read again and the credential checked again first;
//   - the rules refuse the move, or If-Match does not match, on a head not
//     just read from the store, or with a key: the version is read (and the
//     key looked up) before the refusal is told, so that no client hears a
//     refusal that the stored game would not give, nor a refusal of a retry
//     whose move was stored.
func (s *Games) playShared(ctx context.Context, id string, actor domain.Actor, move []byte, opt domain.PlayOptions, due *[]byte) (domain.Played, error) {
	t := s.acquire(id)
	defer s.release(t)
	t.mu.Lock()
	defer t.mu.Unlock()
	scope := actorScope(actor)
	reqHash := requestHash(move, opt.IdempotencyKey)
	verify := false // read the version and look the key up before deciding
	hash := ""
	if opt.Credential != "" {
		hash = domain.HashSecret(opt.Credential)
	}
	takeBack := domain.IsTakeBack(move)
	for lost := 0; ; {
		if takeBack {
			t.drain() // a take-back reads the log: every move of the head stored
		}
		loaded := t.g == nil || t.stale // the head is about to be read from the store
		if verify {
			if err := s.head(ctx, t); err != nil {
				return domain.Played{}, err
			}
			if opt.IdempotencyKey != "" {
				if p, ok, err := s.replay(ctx, t, actor, move, opt.IdempotencyKey, scope, reqHash, opt.Minimal); ok || err != nil {
					return p, err
				}
			}
		} else if err := s.readHead(ctx, t); err != nil {
			return domain.Played{}, err
		}
		var creds *int64 // the credentials' revision the append checks
		if hash != "" {
			rev, err := s.heldCredentials(ctx, t, actor, hash)
			if err != nil {
				return domain.Played{}, err
			}
			creds = &rev
		}
		// A refusal is final when the head was checked against the store
		// now: read in this pass, with no key that may have been stored.
		sure := verify || (loaded && opt.IdempotencyKey == "")
		rec, g := t.rec, t.g
		if err := ifMatch(opt.IfMatch, rec.Version); err != nil {
			if !sure {
				verify = true
				continue
			}
			return domain.Played{}, err
		}
		var (
			logged domain.Logged
			events []domain.Event
			err    error
		)
		if takeBack {
			g, logged, events, err = s.takeBack(ctx, rec, g, actor, move, nil)
		} else {
			// The listings of rec that the streams ask for while the move
			// is on its way to the store copy this instead of restoring
			// rec from its snapshot (as on a store of one process).
			t.copyAhead(rec, g)
			if logged, err = g.Apply(actor, move); err == nil {
				events = MoveEvents(g)
			} else {
				err = s.otherRuleset(rec.Ruleset, move, err)
			}
		}
		if err != nil {
			if !sure {
				verify = true
				continue
			}
			return domain.Played{}, err // a refused move or take-back changes nothing
		}
		a, p, u, err := s.played(rec, g, actor, logged, events, opt, scope, reqHash)
		if err == nil {
			next := domain.DueMove(g) // before the game's next move changes g
			a.Credentials = creds
			// The head may hold a move of this server's that lost the race
			// for its version and that it has not heard of yet (its player
			// is on the way to mark the head stale): the store checks that
			// the game it holds at rec.Version is the one the move was
			// applied to.
			a.ExpectState = rec.State
			if err = s.stored(ctx, t, rec, g, a, u, &p.Game.GameHead); err == nil {
				*due = next
				return p, nil
			}
		} else {
			t.stale = true // the head holds a move that will never be stored
		}
		if domain.CredentialsChanged(err) {
			t.forgetCreds() // read them again, and the credential checked again
		}
		lost++
		if domain.ErrorCode(err) != domain.Conflict || lost >= MaxLostRaces {
			if domain.ErrorCode(err) == domain.Conflict {
				return domain.Played{}, domain.Fail(domain.Conflict, "table.game.lost-races", "game", id, "count", MaxLostRaces)
			}
			return domain.Played{}, err
		}
		// Another server stored this version first, or the same
		// idempotency key, or set a seat: read the game again (once every
		// move queued before this one is answered) and decide on that.
		verify = true
	}
}

// stored hands a, the move that took t's head rec to g, to the store behind
// the game's moves on their way to it (the store sends it when the commit
// in flight ends, with the others queued meanwhile: domain.AppendQueuer),
// letting the game's next move in meanwhile, and waits for its commit. It
// publishes u once the move is stored, after the moves before it; h is the
// game's head after it. t.mu is held when called and on return; the head is
// stale when the move failed.
func (s *Games) stored(ctx context.Context, t *entry, rec domain.GameRecord, g domain.Game, a domain.Append, u domain.Update, h *domain.GameHead) error {
	wait := s.queue(context.WithoutCancel(ctx), a)
	prev, done := t.tail, make(chan struct{})
	t.tail = done
	t.pending++
	t.logged(rec.Version, &a.Move, u.Events, h) // read by listings once no move is pending
	t.rec, t.g = recAfter(rec, a), g
	t.mu.Unlock()
	err := wait()
	if prev != nil {
		<-prev // answer and publish the game's moves in their order
	}
	t.mu.Lock()
	t.pending--
	if t.tail == done {
		t.tail = nil
	}
	if err != nil {
		t.stale = true // the head holds a move that is not stored
		t.dropAhead(-1)
	} else {
		if v := a.Move.Seq; v > t.storedRec.Version {
			t.storedRec = recAfter(rec, a)
		}
		t.dropAhead(t.storedRec.Version)
		s.publish(u)
	}
	close(done)
	return err
}

// checkVersion compares t's head with the version stored, marking it stale
// when another server moved the game, and forgetting the game when another
// server deleted it, and its credentials when another server set a seat.
// t.mu is held.
func (s *Games) checkVersion(ctx context.Context, t *entry) error {
	r, err := s.shared.Version(ctx, t.id)
	if domain.ErrorCode(err) == domain.NotFound {
		t.g, t.stale = nil, false
		t.storedRec = domain.GameRecord{}
		t.forgetCreds()
	}
	if err != nil {
		return err
	}
	if r.Version != t.rec.Version {
		t.stale = true
	}
	if c := t.creds.Load(); c != nil && c.Revision < r.Credentials {
		t.forgetCreds()
	}
	return nil
}

// knownKey is the context key of Known.
type knownKey struct{}

type known struct {
	id      string
	version int64
}

// knownContext is what Known returns: one allocation where
// context.WithValue took two (its context, and the value boxed in an
// interface), once for each stream of a game after each move.
type knownContext struct {
	context.Context
	known known
}

func (c *knownContext) Value(key any) any {
	if key == (knownKey{}) {
		return &c.known
	}
	return c.Context.Value(key)
}

// Known returns ctx telling the service that its caller has been told that
// version v of game id is committed: a read of the game for ctx may then be
// answered at v or a later version without asking the store whether a later
// one exists (an event stream's listing after the update of version v, say).
// Without it, a read on a SharedStore shows no version older than one any
// server had answered when the read began, and costs a read of the stored
// version. On a store of one process it changes nothing.
func Known(ctx context.Context, id string, v int64) context.Context {
	return &knownContext{ctx, known{id, v}}
}

// knownVersion is the version of game id ctx was told of by Known, 0 when
// none.
func knownVersion(ctx context.Context, id string) int64 {
	if k, ok := ctx.Value(knownKey{}).(*known); ok && k.id == id {
		return k.version
	}
	return 0
}

// FollowStore hands to this server's live clients the moves every server
// stores, as the store tells of them, until ctx ends. It returns at once
// unless the store is a SharedStore: otherwise every move is played here and
// handed over as it is stored.
//
// A notice that never comes costs a client latency, not a move: the event
// stream also reads the game's version from the store at every heartbeat
// (see Shared) and catches up from the log.
func (s *Games) FollowStore(ctx context.Context) error {
	if s.shared == nil {
		return nil
	}
	return s.shared.WatchMoves(ctx, func(id string, seq int64) { s.moved(ctx, id, seq) })
}

// Shared reports whether other servers store moves in this service's store,
// so that a live client may not hear of every move at once and should check
// the store now and then.
func (s *Games) Shared() bool { return s.shared != nil }

// moved is a notice from the store: game id has stored move seq (id "": any
// game may have moved). Games with live clients here are read from the log,
// one goroutine per game at a time, so that their updates go out in order.
func (s *Games) moved(ctx context.Context, id string, seq int64) {
	s.subMu.Lock()
	defer s.subMu.Unlock()
	if id == "" {
		for id, a := range s.subs {
			a.recheck = true
			s.fetchLocked(ctx, id, a)
		}
		return
	}
	a := s.subs[id]
	if a == nil || seq <= a.last {
		return
	}
	a.want = max(a.want, seq)
	s.fetchLocked(ctx, id, a)
}

// fetchLocked starts reading game id's new moves for its audience unless a
// read is under way (it then goes on to what is wanted now). s.subMu is held.
func (s *Games) fetchLocked(ctx context.Context, id string, a *audience) {
	if a.fetching {
		return
	}
	a.fetching = true
	go s.fetch(ctx, id, a)
}

func (s *Games) fetch(ctx context.Context, id string, a *audience) {
	for {
		s.subMu.Lock()
		from, want, recheck := a.last, a.want, a.recheck
		if s.subs[id] != a || ctx.Err() != nil || (!recheck && want <= from) {
			a.fetching = false
			s.subMu.Unlock()
			return
		}
		a.recheck = false
		s.subMu.Unlock()
		if from == 0 {
			// Nothing handed over yet: the clients read the game when they
			// subscribed, before the move noticed; for a recheck, before
			// the move the game is at now. Handing over that one move is
			// enough: a client that lacks more finds a gap and catches up
			// from the log.
			if want == 0 {
				r, err := s.shared.Version(ctx, id)
				v := r.Version
				if err != nil || v == 0 {
					s.subMu.Lock()
					a.fetching = false
					s.subMu.Unlock()
					return
				}
				want = v
			}
			from = want - 1
		}
		ups, err := s.liveUpdates(ctx, id, from)
		if err != nil || len(ups) == 0 {
			// On an error the streams' own checks catch up from the log;
			// a log with nothing new is read again only for a newer notice.
			s.subMu.Lock()
			if err == nil && a.want > want {
				s.subMu.Unlock()
				continue
			}
			a.fetching = false
			s.subMu.Unlock()
			return
		}
		for _, u := range ups {
			s.publish(u)
		}
	}
}

// liveUpdates reads the updates of a game after version after, as they were
// told when they happened (the last tells whether the game has ended).
func (s *Games) liveUpdates(ctx context.Context, id string, after int64) ([]domain.Update, error) {
	rec, err := s.store.Game(ctx, id)
	if err != nil || after >= rec.Version {
		return nil, err
	}
	moves, err := s.store.Moves(ctx, id, after, int(min(rec.Version-after, liveFetchLimit)))
	if err != nil {
		return nil, err
	}
	out, err := updatesOf(id, moves, func(m *domain.MoveRecord) bool { return rec.Ended && m.Seq == rec.Version })
	for i := range out {
		if out[i].Seq == rec.Version {
			out[i].Phase = rec.Phase
		}
	}
	return out, err
}

// updatesOf turns moves of the log into updates; ended says whether the game
// had ended after a move, as the update tells it.
func updatesOf(id string, moves []domain.MoveRecord, ended func(*domain.MoveRecord) bool) ([]domain.Update, error) {
	out := make([]domain.Update, len(moves))
	for i := range moves {
		m := &moves[i]
		var events []domain.Event
		if len(m.Events) > 0 {
			if err := json.Unmarshal(m.Events, &events); err != nil {
				return nil, err
			}
		}
		out[i] = domain.Update{GameID: id, Seq: m.Seq, Actor: m.Actor, Move: m.Move, Events: events, At: m.At,
			Ended: ended(m), Public: m.Public, For: m.For, NotHost: m.NotHost}
	}
	return out, nil
}
