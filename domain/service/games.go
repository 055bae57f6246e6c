package service

import (
	"container/list"
	"context"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/treasury-games/treasury/domain"
)

// Games is the service behind the API: it creates games, checks credentials,
// applies moves one at a time per game and keeps everything in a Store. It
// knows no rules; each game's Ruleset does.
//
// Over a SharedStore (several servers on one database) it trusts nothing in
// memory without asking the store, and FollowStore must run for live clients
// to hear of other servers' moves at once: see shared.go.
type Games struct {
	store    domain.Store
	rulesets map[string]domain.Ruleset
	now      func() time.Time

	cacheMu    sync.Mutex
	entries    map[string]*entry // games in memory, by id; see entry
	lru        list.List         // of *entry, the most recently used first
	cacheLimit int
	// listingBytes counts the bytes of the listings the entries keep
	// (ListingBytes bounds it).
	listingBytes atomic.Int64
	seed         maphash.Seed

	mu       sync.Mutex
	catalogs map[string]domain.CatalogBlob // by hash; stored catalogs never change

	subMu sync.Mutex
	subs  map[string]*audience // live clients by game id

	// shared is the store when several servers share it (SharedStore), and
	// nil when this process is the store's only user.
	shared domain.SharedStore
}

// New returns the service over store with the given rulesets.
func New(store domain.Store, rulesets ...domain.Ruleset) *Games {
	g := &Games{
		store: store, rulesets: map[string]domain.Ruleset{}, now: time.Now,
		entries: map[string]*entry{}, cacheLimit: DefaultCachedGames, seed: maphash.MakeSeed(),
		catalogs: map[string]domain.CatalogBlob{}, subs: map[string]*audience{},
	}
	g.shared, _ = store.(domain.SharedStore)
	for _, r := range rulesets {
		g.rulesets[r.Name()] = r
	}
	return g
}

// Rulesets lists the names of the rulesets the service plays.
func (s *Games) Rulesets() []string {
	var names []string
	for n := range s.rulesets {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Ruleset returns a ruleset by name.
func (s *Games) Ruleset(name string) (domain.Ruleset, error) {
	r, ok := s.rulesets[name]
	if !ok {
		return nil, domain.Fail(domain.Invalid, "table.game.unknown-ruleset", "ruleset", name, "rulesets", fmt.Sprint(s.Rulesets()))
	}
	return r, nil
}

// Create makes a new game and returns it with its credentials (as created:
// the moves an Automatic game has due from the start are made after it, as
// after any move).
func (s *Games) Create(ctx context.Context, ruleset string, req domain.CreateRequest) (domain.Created, error) {
	c, _, err := s.CreateOnce(ctx, ruleset, req, "", nil)
	return c, err
}

// prepare makes a new game, not stored yet.
func (s *Games) prepare(ruleset string, req domain.CreateRequest) (domain.GameRecord, domain.Game, domain.CatalogBlob, error) {
	r, err := s.Ruleset(ruleset)
	if err != nil {
		return domain.GameRecord{}, nil, domain.CatalogBlob{}, err
	}
	switch {
	case req.Mode != domain.Digital && req.Mode != domain.Physical:
		return domain.GameRecord{}, nil, domain.CatalogBlob{}, domain.Fail(domain.Invalid, "table.game.mode", "digital", domain.Digital, "physical", domain.Physical, "mode", req.Mode)
	case req.Mode == domain.Physical && req.Seed != "":
		return domain.GameRecord{}, nil, domain.CatalogBlob{}, domain.Fail(domain.Invalid, "table.setup.physical-seed")
	case len(req.Seed) > domain.MaxSeedLength:
		return domain.GameRecord{}, nil, domain.CatalogBlob{}, domain.Fail(domain.Invalid, "table.setup.seed-long", "max", domain.MaxSeedLength)
	case req.Mode == domain.Digital:
		if req.Seed == "" {
			req.Seed = domain.NewSeed()
		}
		req.Salt = domain.NewSalt()
	}
	g, cat, err := r.Create(req)
	if err != nil {
		return domain.GameRecord{}, nil, domain.CatalogBlob{}, err
	}
	state, err := g.Snapshot()
	if err != nil {
		return domain.GameRecord{}, nil, domain.CatalogBlob{}, err
	}
	now := s.now().UTC()
	rec := domain.GameRecord{
		ID: domain.NewID(), Ruleset: ruleset, Mode: req.Mode, CatalogName: cat.Name, CatalogHash: cat.Hash,
		CreatedAt: now, UpdatedAt: now, State: state, Phase: g.Phase(), Ended: g.Ended(),
	}
	return rec, g, cat, nil
}

// Authenticate returns the actor a credential stands for in a game:
// Unauthorized when it is none of the game's.
func (s *Games) Authenticate(ctx context.Context, gameID, secret string) (domain.Actor, error) {
	t := s.acquire(gameID)
	creds, err := s.credentials(ctx, t)
	s.release(t)
	if err != nil {
		return domain.Actor{}, err
	}
	hash := domain.HashSecret(secret)
	a, taken, ok := match(creds, hash)
	if !ok {
		return domain.Actor{}, domain.Fail(domain.Unauthorized, "table.auth.no-seat", "game", gameID)
	}
	if !taken {
		if err := s.taken(ctx, gameID, a.Seat, hash); err != nil {
			return domain.Actor{}, err
		}
	}
	return a, nil
}

func (s *Games) catalog(ctx context.Context, hash string) (domain.CatalogBlob, error) {
	s.mu.Lock()
	c, ok := s.catalogs[hash]
	s.mu.Unlock()
	if ok {
		return c, nil
	}
	c, err := s.store.Catalog(ctx, hash)
	if err != nil {
		return domain.CatalogBlob{}, err
	}
	s.mu.Lock()
	s.catalogs[hash] = c
	s.mu.Unlock()
	return c, nil
}

// load reads a game and restores it with its ruleset.
func (s *Games) load(ctx context.Context, id string) (domain.GameRecord, domain.Game, error) {
	rec, err := s.store.Game(ctx, id)
	if err != nil {
		return domain.GameRecord{}, nil, err
	}
	g, err := s.restore(ctx, rec)
	return rec, g, err
}

// restore restores the game of a record read from the store with its ruleset.
func (s *Games) restore(ctx context.Context, rec domain.GameRecord) (domain.Game, error) {
	r, err := s.Ruleset(rec.Ruleset)
	if err != nil {
		return nil, err
	}
	cat, err := s.catalog(ctx, rec.CatalogHash)
	if err != nil {
		return nil, err
	}
	return r.Restore(rec.State, cat)
}

func (s *Games) view(rec domain.GameRecord, g domain.Game, v domain.Viewer) (domain.GameView, error) {
	state, err := g.AppendView(nil, v)
	if err != nil {
		return domain.GameView{}, err
	}
	return domain.GameView{GameHead: headOf(rec, g), State: state}, nil
}

// headOf is the head of game g stored as rec.
func headOf(rec domain.GameRecord, g domain.Game) domain.GameHead {
	h, _ := headSetup(rec, g)
	return h
}

// headSetup is headOf with the game's setup it read, for a caller that
// wants both (a listing reads its players' names).
func headSetup(rec domain.GameRecord, g domain.Game) (domain.GameHead, domain.CreateRequest) {
	setup := g.Setup()
	h := domain.GameHead{
		ID: rec.ID, Ruleset: rec.Ruleset, Mode: rec.Mode, Version: rec.Version, Phase: rec.Phase, Ended: rec.Ended,
		CreatedAt: rec.CreatedAt, UpdatedAt: rec.UpdatedAt, Options: setup.Options, Awaiting: []domain.Await{},
	}
	st := domain.StatusOf(g)
	h.OnTurn, h.TurnNumber, h.Awaiting = st.OnTurn, st.TurnNumber, st.Awaiting
	if setup.Mode == domain.Digital && setup.Seed != "" {
		h.SeedCommitment = domain.SeedCommitment(setup.Seed, setup.Salt)
		if rec.Ended {
			h.Seed, h.SeedSalt = setup.Seed, setup.Salt
		}
	}
	return h, setup
}

// Game returns a game as viewer v sees it.
func (s *Games) Game(ctx context.Context, id string, v domain.Viewer) (domain.GameView, error) {
	var gv domain.GameView
	err := s.committed(ctx, id, func(rec domain.GameRecord, g domain.Game) (err error) {
		gv, err = s.view(rec, g, v)
		return err
	})
	return gv, err
}

// Play applies a move made by actor and returns once it is stored. Moves on
// one game are applied one after another, each to the game as the previous
// one left it; the move, its idempotency record and the new state are stored
// in one transaction before Play returns.
//
// When the store can queue appends (AppendQueuer), the game's lock is let go
// as soon as the move is handed to the store, so that the next move of the
// same game can be applied and join the same commit. Play still returns only
// after its own commit, never before the moves applied before it have been
// answered, and a move that fails in the store leaves nothing of itself in
// memory: the game is read again from the store.
//
// A game that is Automatic then gets the moves it has due from the server
// itself (playDue); the answer is the player's move's.
func (s *Games) Play(ctx context.Context, id string, actor domain.Actor, move []byte, opt domain.PlayOptions) (domain.Played, error) {
	var due []byte
	p, err := s.play(ctx, id, actor, move, opt, &due)
	if err == nil && due != nil {
		s.playDue(ctx, id, due, p.Seq)
	}
	return p, err
}

// playDue makes, as domain.SystemActor, the move due on game id at
// version, and the moves due after it (at most domain.MaxAutomatic). Each
// is made only at the version it was due at (If-Match): a move a player made
// in between has asked for the moves due after it itself. A refusal ends
// the run (the player's move stands either way).
func (s *Games) playDue(ctx context.Context, id string, move []byte, version int64) {
	ctx = context.WithoutCancel(ctx)
	for i := 0; i < domain.MaxAutomatic && move != nil; i++ {
		v := version
		var next []byte
		p, err := s.play(ctx, id, domain.SystemActor, move, domain.PlayOptions{IfMatch: &v, Minimal: true}, &next)
		if err != nil {
			return
		}
		move, version = next, p.Seq
	}
}

// play applies one move (see Play) and sets *due to the move the game has
// due after it, if any.
func (s *Games) play(ctx context.Context, id string, actor domain.Actor, move []byte, opt domain.PlayOptions, due *[]byte) (domain.Played, error) {
	if s.shared != nil {
		return s.playShared(ctx, id, actor, move, opt, due)
	}
	t := s.acquire(id)
	defer s.release(t)
	t.mu.Lock()
	locked := true
	defer func() {
		if locked {
			t.mu.Unlock()
		}
	}()
	// A take-back reads the whole log: it waits until every move handed to
	// the store is stored, and holds the game from then on (before its
	// idempotency key is looked up, so that a retry finds its answer).
	takeBack := domain.IsTakeBack(move)
	if takeBack {
		t.drain()
	}

	scope := actorScope(actor)
	reqHash := requestHash(move, opt.IdempotencyKey)
	flightKey, keyHash := "", uint64(0)
	if opt.IdempotencyKey != "" {
		flightKey = scope + "\x00" + opt.IdempotencyKey
		keyHash = s.keyHash(flightKey)
	}
	for {
		if err := s.head(ctx, t); err != nil {
			return domain.Played{}, err
		}
		// A retry of a move still on its way to the store waits for it, so
		// that it finds the first answer instead of applying the move again.
		done := t.keys[flightKey]
		if flightKey == "" || done == nil {
			break
		}
		t.mu.Unlock()
		<-done
		t.mu.Lock()
	}
	if flightKey != "" && t.mayHaveUsed(keyHash) {
		if p, ok, err := s.replay(ctx, t, actor, move, opt.IdempotencyKey, scope, reqHash, opt.Minimal); ok || err != nil {
			return p, err
		}
	}
	rec, g := t.rec, t.g
	if err := ifMatch(opt.IfMatch, rec.Version); err != nil {
		return domain.Played{}, err
	}
	var (
		logged domain.Logged
		events []domain.Event
		err    error
	)
	if takeBack {
		if t.pending > 0 { // moves came in while a retry waited for its first answer
			return domain.Played{}, domain.Fail(domain.Conflict, "table.takeback.moved-on")
		}
		cached := t.tbWindow(rec.Version)
		if g, logged, events, err = s.takeBack(ctx, rec, t.g, actor, move, cached); err != nil {
			return domain.Played{}, err // a refused take-back changes nothing
		}
	} else {
		t.copyAhead(rec, g)
		if logged, err = g.Apply(actor, move); err != nil {
			return domain.Played{}, s.otherRuleset(rec.Ruleset, move, err) // a rejected move changes nothing
		}
		events = MoveEvents(g)
	}
	a, p, u, err := s.played(rec, g, actor, logged, events, opt, scope, reqHash)
	if err != nil {
		t.stale = true // the head holds a move that will never be stored
		return domain.Played{}, err
	}
	t.g = g
	t.logged(rec.Version, &a.Move, events, &p.Game.GameHead)
	*due = domain.DueMove(g)

	// Hand the move over, in order, and let the next move of the game in.
	wait := s.queue(context.WithoutCancel(ctx), a)
	prev, done := t.tail, make(chan struct{})
	t.tail = done
	if t.pending == 0 {
		// The head before this move: committed, as nothing was pending. A
		// copy, so that rec itself does not move to the heap for every move.
		committed := rec
		t.stored = &committed
	}
	t.pending++
	if flightKey != "" {
		if t.keys == nil {
			t.keys = map[string]chan struct{}{}
		}
		t.keys[flightKey] = done
	}
	t.rec = recAfter(rec, a)
	t.mu.Unlock()
	locked = false

	err = wait()
	if prev != nil {
		<-prev // answer and publish the game's moves in their order
	}
	t.mu.Lock()
	t.pending--
	if err != nil {
		t.stale, t.stored = true, nil
		t.dropAhead(-1)
	} else {
		// Moves are answered in their order: this is the latest stored.
		stored := recAfter(rec, a)
		t.stored = &stored
		t.dropAhead(stored.Version)
	}
	// t.tail stays done until the next move replaces it: a move let in once
	// this one's lock is released must still wait for done, which closes
	// after this move is published (set to nil here, the next move
	// published before this one when it was stored first, and this one's
	// update was dropped as old: an event stream missed it and told no
	// listing after the next, issue 28).
	if flightKey != "" {
		delete(t.keys, flightKey)
		if err == nil {
			t.addUsed(keyHash)
		}
	}
	t.mu.Unlock()
	if err == nil {
		if beforePublish != nil {
			beforePublish(u.Seq)
		}
		s.publish(u)
	}
	close(done)
	if err != nil {
		return domain.Played{}, err
	}
	return p, nil
}

// beforePublish, when set (by tests only), is called between a move's
// answer from the store and its publication, the lock of its game released.
var beforePublish func(seq int64)

// replay answers a retry: the move's seq with the game as it stands now,
// seen by actor through the same gate as a read (ok); IdempotencyReused when
// the key was stored with another move; nothing when the key is new. Called
// with t.mu held and t's head read.
//
// The game is never the one the move first answered with: a card shown then
// may be face down now (Colorful Treasure), and a retry must not read it.
func (s *Games) replay(ctx context.Context, t *entry, actor domain.Actor, move []byte, key, scope, reqHash string, minimal bool) (domain.Played, bool, error) {
	prev, err := s.store.Idempotency(ctx, t.id, scope, key)
	if err != nil || prev == nil {
		return domain.Played{}, false, err
	}
	if !sameRequest(prev.RequestHash, reqHash, move) {
		return domain.Played{}, false, domain.Fail(domain.IdempotencyReused, "table.game.idempotency-reused", "key", key)
	}
	var r struct {
		Seq int64 `json:"seq"`
	}
	if err := json.Unmarshal(prev.Response, &r); err != nil || r.Seq < 1 {
		return domain.Played{}, false, fmt.Errorf("domain: idempotency record of game %s names no move: %s", t.id, prev.Response)
	}
	rec, g := t.rec, t.g
	// Moves on their way to the store are not read (as in committed); nor
	// is a head older than the move, which another server may have stored
	// since the head was read.
	if t.pending > 0 || rec.Version < r.Seq {
		if rec, g, err = s.load(ctx, t.id); err != nil {
			return domain.Played{}, false, err
		}
	}
	if minimal {
		return domain.Played{Seq: r.Seq, Game: domain.GameView{GameHead: headOf(rec, g)}, Replayed: true}, true, nil
	}
	resp, gv, err := moveResult(rec, g, r.Seq, domain.ViewerOf(&actor))
	if err != nil {
		return domain.Played{}, false, err
	}
	return domain.Played{Seq: r.Seq, Game: gv, Response: resp, Replayed: true}, true, nil
}

// played builds, from a game that has just applied a move (with events,
// MoveEvents of it), the append that stores it, the answer and the update
// live clients hear.
func (s *Games) played(rec domain.GameRecord, g domain.Game, actor domain.Actor, logged domain.Logged, events []domain.Event, opt domain.PlayOptions, scope, reqHash string) (domain.Append, domain.Played, domain.Update, error) {
	state, err := g.Snapshot()
	if err != nil {
		return domain.Append{}, domain.Played{}, domain.Update{}, err
	}
	now := s.now().UTC()
	rec.Version++
	rec.State, rec.Phase, rec.Ended, rec.UpdatedAt = state, g.Phase(), g.Ended(), now
	var resp []byte
	gv := domain.GameView{GameHead: headOf(rec, g)}
	if !opt.Minimal {
		if resp, gv, err = moveResult(rec, g, rec.Version, domain.ViewerOf(&actor)); err != nil {
			return domain.Append{}, domain.Played{}, domain.Update{}, err
		}
	}
	eventsJSON := appendEvents(make([]byte, 0, eventsSize(events)), events)
	a := domain.Append{
		GameID: rec.ID, ExpectVersion: rec.Version - 1, State: state, Phase: rec.Phase, Ended: rec.Ended,
		Move: domain.MoveRecord{Seq: rec.Version, Actor: actor, Move: logged.Move, Events: eventsJSON, At: now,
			Public: logged.Public, For: logged.For, NotHost: logged.NotHost},
	}
	if opt.IdempotencyKey != "" {
		// Only the move's version is kept: a retry answers with the game as
		// it stands then (see replay), so every move does not store a copy of
		// the view.
		// The answer in one allocation of its size ({"seq":, 19 digits, }).
		a.Idempotency = &domain.IdempotencyRecord{Key: opt.IdempotencyKey, Scope: scope, RequestHash: reqHash, Status: 200,
			Response: append(strconv.AppendInt(append(make([]byte, 0, 32), `{"seq":`...), rec.Version, 10), '}')}
	}
	u := domain.Update{GameID: rec.ID, Seq: rec.Version, Actor: actor, Move: logged.Move, Events: events, At: now, Phase: rec.Phase, Ended: rec.Ended,
		Public: logged.Public, For: logged.For, NotHost: logged.NotHost,
		Plain: domain.PlainJSON(logged.Move) && (logged.Public == nil || domain.PlainJSON(logged.Public))}
	return a, domain.Played{Seq: rec.Version, Game: gv, Response: resp}, u, nil
}

// otherRuleset returns, for a move a game of ruleset refused as unreadable,
// an error saying so when the move's type is another ruleset's: a move sent
// to the wrong game. Any other refusal is err as it is.
func (s *Games) otherRuleset(ruleset string, move []byte, err error) error {
	if domain.ErrorCode(err) != domain.Invalid {
		return err
	}
	var m struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(move, &m) != nil || m.Type == "" {
		return err
	}
	var own []string
	if mt, ok := s.rulesets[ruleset].(domain.MoveTyper); ok {
		own = mt.MoveTypes()
		if slices.Contains(own, m.Type) {
			return err
		}
	}
	for _, name := range s.Rulesets() {
		if mt, ok := s.rulesets[name].(domain.MoveTyper); ok && name != ruleset && slices.Contains(mt.MoveTypes(), m.Type) {
			return domain.Fail(domain.Invalid, "table.game.other-game-move",
				"type", m.Type, "other", s.rulesets[name].Info().Title, "game", s.rulesets[ruleset].Info().Title, "moves", strings.Join(own, ", "))
		}
	}
	return err
}

// MoveEvents returns the events of g's last move as the service stores and
// sends them, ending with a "status" event (where the game stands,
// domain.TableStatus, and its phase), as every ruleset's moves' events do; a
// ruleset that writes its own status (with more in it) keeps it.
func MoveEvents(g domain.Game) []domain.Event {
	events := g.Events()
	if _, ok := g.(domain.Tabled); !ok || (len(events) > 0 && events[len(events)-1].Type == "status") {
		return events
	}
	st := struct {
		Phase string `json:"phase"`
		domain.TableStatus
	}{g.Phase(), domain.StatusOf(g)}
	return append(events[:len(events):len(events)], domain.Event{Type: "status", Data: domain.MustJSON(st)})
}

// appendEvents appends events as json.Marshal would encode them, without
// checking and compacting each event's data once more: the rulesets write
// it with json.Marshal (domain.MustJSON), compact already. (The events were
// encoded twice per move; TestAppendEvents holds this to json.Marshal.)
func appendEvents(b []byte, events []domain.Event) []byte {
	if events == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i := range events {
		e := &events[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"type":`...)
		b = appendJSONString(b, e.Type)
		if e.For != nil {
			b = strconv.AppendInt(append(b, `,"for":`...), int64(*e.For), 10)
		}
		if e.NotHost {
			b = append(b, `,"not_host":true`...)
		}
		if e.Live {
			b = append(b, `,"live":true`...)
		}
		b = append(b, `,"data":`...)
		if len(e.Data) == 0 {
			b = append(b, "null"...)
		} else {
			b = append(b, e.Data...)
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

// eventsSize is about how long appendEvents makes events.
func eventsSize(events []domain.Event) int {
	n := 2
	for i := range events {
		n += len(events[i].Type) + len(events[i].Data) + 48
	}
	return n
}

// appendJSONString appends s as a JSON string as json.Marshal writes it
// (an event type is a plain word; anything else goes through json).
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// recAfter is rec once the append a is stored.
func recAfter(rec domain.GameRecord, a domain.Append) domain.GameRecord {
	rec.Version, rec.State, rec.Phase, rec.Ended, rec.UpdatedAt = a.Move.Seq, a.State, a.Phase, a.Ended, a.Move.At
	return rec
}

// queue hands a to the store. A store that cannot queue stores it now, with
// the game's lock still held.
func (s *Games) queue(ctx context.Context, a domain.Append) (wait func() error) {
	if q, ok := s.store.(domain.AppendQueuer); ok {
		return q.QueueAppend(ctx, a)
	}
	err := s.store.Append(ctx, a)
	return func() error { return err }
}

// moveResult encodes the answer to move seq, {"seq":…,"game":…}, with the
// game g as viewer v sees it, as json.Marshal would encode it, with the
// ruleset appending its view (already compact JSON) in place. The game it
// returns shares the answer's bytes.
func moveResult(rec domain.GameRecord, g domain.Game, seq int64, v domain.Viewer) ([]byte, domain.GameView, error) {
	gv := domain.GameView{GameHead: headOf(rec, g)}
	b := make([]byte, 0, 4096)
	b = append(b, `{"seq":`...)
	b = strconv.AppendInt(b, seq, 10)
	b = append(b, `,"game":`...)
	b = gv.GameHead.AppendJSON(b)
	b = append(b[:len(b)-1], `,"state":`...)
	start := len(b)
	var err error
	if b, err = g.AppendView(b, v); err != nil {
		return nil, domain.GameView{}, err
	}
	gv.State = b[start:len(b):len(b)]
	return append(b, "}}"...), gv, nil
}

// actorScope names who may replay an idempotent request: the same actor.
func actorScope(a domain.Actor) string {
	if a.Host {
		return "host"
	}
	if a.Seat >= 0 && a.Seat < len(seatScopes) {
		return seatScopes[a.Seat] // one allocation of every move less
	}
	return "seat:" + strconv.Itoa(a.Seat)
}

// seatScopes are the scopes of the first seats, as actorScope writes them.
var seatScopes = func() (s [16]string) {
	for i := range s {
		s[i] = "seat:" + strconv.Itoa(i)
	}
	return s
}()

// Moves returns the accepted moves of a game with Seq > after (limit <= 0:
// all), each as viewer v may read it (Move is then the disclosed form, and
// Public is nil).
func (s *Games) Moves(ctx context.Context, id string, after int64, limit int, v domain.Viewer) ([]domain.MoveRecord, error) {
	rec, err := s.store.Game(ctx, id)
	if err != nil {
		return nil, err
	}
	if after >= rec.Version {
		return []domain.MoveRecord{}, nil
	}
	// The log never holds less than the head read before it; reading no
	// further than the head's version keeps the two consistent.
	n := int(rec.Version - after)
	if limit <= 0 || limit > n {
		limit = n
	}
	moves, err := s.store.Moves(ctx, id, after, limit)
	if err != nil {
		return nil, err
	}
	for i := range moves {
		m := &moves[i]
		m.Move, m.Public = domain.DiscloseMove(m, v, rec.Ended), nil
	}
	return moves, nil
}

// Score returns the scores and ranking of a game as they stand (the ruleset's JSON).
func (s *Games) Score(ctx context.Context, id string) ([]byte, error) {
	var out []byte
	err := s.committed(ctx, id, func(_ domain.GameRecord, g domain.Game) (err error) {
		out, err = g.Score()
		return err
	})
	return out, err
}

// Catalog returns a catalog of a ruleset (the ruleset's JSON).
func (s *Games) Catalog(ruleset, name string) (domain.CatalogInfo, []byte, error) {
	r, err := s.Ruleset(ruleset)
	if err != nil {
		return domain.CatalogInfo{}, nil, err
	}
	c, ok := r.(domain.Cataloger)
	if !ok {
		return domain.CatalogInfo{}, nil, domain.Fail(domain.NotFound, "table.game.no-catalog", "ruleset", ruleset)
	}
	return c.CatalogView(name)
}

// RulesetInfos describes every ruleset the service plays, in name order, with
// the catalogs each offers.
func (s *Games) RulesetInfos() []domain.RulesetEntry {
	var out []domain.RulesetEntry
	for _, name := range s.Rulesets() {
		r := s.rulesets[name]
		e := domain.RulesetEntry{RulesetInfo: r.Info(), Catalogs: []domain.CatalogInfo{}}
		if c, ok := r.(domain.Cataloger); ok {
			for _, n := range c.CatalogNames() {
				if info, _, err := c.CatalogView(n); err == nil {
					e.Catalogs = append(e.Catalogs, info)
				}
			}
		}
		_, e.ScoreSheets = r.(domain.SheetVerifier)
		out = append(out, e)
	}
	return out
}

// Ping reports whether the store is usable.
func (s *Games) Ping(ctx context.Context) error { return s.store.Ping(ctx) }

// subscriberBuffer is how many updates a slow live client may fall behind
// before it is dropped (it reconnects and catches up from the log).
const subscriberBuffer = 256

// SubscriberBuffer is how many updates a Listener should hold for a slow
// client before it forgets them and catches up from the log instead.
const SubscriberBuffer = subscriberBuffer

// A Listener hears of one game's updates as they are published, each once
// and in order, and of changes of its seats (see Changed). Its methods are
// called with the service's lock of subscribers held: they must not block
// nor call the service. Every listener of a game receives the same update:
// it must not change it.
type Listener interface {
	// Update hands over an update; false drops the listener, which hears
	// nothing more (it catches up with Updates if it wants to).
	Update(u *domain.Update) bool
	// SeatsChanged says a seat was taken or issued again, or the game got
	// a next game.
	SeatsChanged()
}

// A subscriber's channel holds pointers, each update shared by every
// subscriber of its game and read only: an idle subscriber's channel costs
// 256 pointers (2 KB) instead of 256 updates (44 KB).
type subscriber struct {
	ch chan *domain.Update
}

func (sub *subscriber) Update(u *domain.Update) bool {
	select {
	case sub.ch <- u:
		return true
	default: // too far behind: drop it; it catches up from the log
		close(sub.ch)
		return false
	}
}

func (*subscriber) SeatsChanged() {}

// audience is the live clients of one game, and the last update handed to
// them: updates reach them in order, each once, whichever way they came (a
// move played here, or a notice of a move stored by another server).
type audience struct {
	subs map[Listener]struct{}
	last int64
	// changed is closed when a seat is taken or issued again, or the game
	// gets a next game (see Changed); nil until someone waits for it.
	changed chan struct{}

	// On a SharedStore (see FollowStore): the last move another server
	// noticed, whether every move should be looked for, and whether a
	// goroutine is reading them from the log.
	want              int64
	recheck, fetching bool
}

// Subscribe returns a channel of the updates of game id from now on, and a
// function that ends the subscription. The channel is closed when the client
// falls too far behind; it should then catch up with Updates. Every
// subscriber of a game receives the same update: it must not change it.
func (s *Games) Subscribe(id string) (<-chan *domain.Update, func()) {
	sub := &subscriber{ch: make(chan *domain.Update, subscriberBuffer)}
	stop := s.listen(id, sub, func() { close(sub.ch) })
	return sub.ch, stop
}

// Listen hands l the updates of game id from now on, and the changes of its
// seats, until the function it returns is called or l drops itself. It
// holds no goroutine: l is called from whoever publishes.
func (s *Games) Listen(id string, l Listener) (stop func()) {
	return s.listen(id, l, func() {})
}

// listen adds l to the audience of game id; the function it returns removes
// it, calling closed if it was still there.
func (s *Games) listen(id string, l Listener, closed func()) func() {
	s.subMu.Lock()
	if s.subs[id] == nil {
		s.subs[id] = &audience{subs: map[Listener]struct{}{}}
	}
	s.subs[id].subs[l] = struct{}{}
	s.subMu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			s.subMu.Lock()
			defer s.subMu.Unlock()
			a := s.subs[id]
			if a == nil {
				return
			}
			if _, ok := a.subs[l]; ok {
				delete(a.subs, l)
				closed()
			}
			if len(a.subs) == 0 {
				delete(s.subs, id)
			}
		})
	}
}

// publish hands an update to every live client of its game without waiting;
// an update at or below one already handed over is left out.
func (s *Games) publish(u domain.Update) {
	s.subMu.Lock()
	defer s.subMu.Unlock()
	a := s.subs[u.GameID]
	if a == nil || u.Seq <= a.last {
		return
	}
	a.last = u.Seq
	shared := &u
	for l := range a.subs {
		if !l.Update(shared) {
			delete(a.subs, l)
		}
	}
}

// Updates returns the stored updates of a game with Seq > after, each with
// Ended saying whether the game has ended by now; Disclose them before
// telling them (not live).
func (s *Games) Updates(ctx context.Context, id string, after int64) ([]domain.Update, error) {
	rec, err := s.store.Game(ctx, id)
	if err != nil {
		return nil, err
	}
	if after >= rec.Version {
		return nil, nil
	}
	moves, err := s.store.Moves(ctx, id, after, int(rec.Version-after))
	if err != nil {
		return nil, err
	}
	return updatesOf(id, moves, func(*domain.MoveRecord) bool { return rec.Ended })
}

// VerifySheet checks a paper score sheet of a ruleset (the ruleset's JSON).
func (s *Games) VerifySheet(ruleset string, sheet []byte) ([]byte, error) {
	r, err := s.Ruleset(ruleset)
	if err != nil {
		return nil, err
	}
	v, ok := r.(domain.SheetVerifier)
	if !ok {
		return nil, domain.Fail(domain.NotFound, "table.game.no-sheet", "ruleset", ruleset)
	}
	return v.VerifySheet(sheet)
}

// VerifyRecord replays a game record with the service's rulesets.
func (s *Games) VerifyRecord(r domain.Record) domain.Verdict {
	rs := make([]domain.Ruleset, 0, len(s.rulesets))
	for _, name := range s.Rulesets() {
		rs = append(rs, s.rulesets[name])
	}
	return domain.VerifyRecord(rs, r)
}

// ifMatch is the error for a move whose If-Match (want, nil when it has
// none) names another version than the game's.
func ifMatch(want *int64, version int64) error {
	if want != nil && *want != version {
		return domain.Fail(domain.PreconditionFailed, "table.game.if-match", "version", version, "expected", *want)
	}
	return nil
}
