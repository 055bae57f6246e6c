package domain

import (
	"container/list"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"sort"
	"strconv"
	"sync"
	"time"
)

// GameHead is what every game has, whatever its ruleset.
type GameHead struct {
	ID        string          `json:"id"`
	Ruleset   string          `json:"ruleset"`
	Mode      string          `json:"mode"`
	Version   int64           `json:"version"`
	Phase     string          `json:"phase"`
	Ended     bool            `json:"ended"`
	CreatedAt time.Time       `json:"created_at"`
	UpdatedAt time.Time       `json:"updated_at"`
	Options   json.RawMessage `json:"options"`
	// A digital game's commitment to its seed; the seed and the salt are
	// shown once the game has ended.
	SeedCommitment string `json:"seed_commitment,omitempty"`
	Seed           string `json:"seed,omitempty"`
	SeedSalt       string `json:"seed_salt,omitempty"`
}

// appendJSON appends h encoded as json.Marshal(h) encodes it (every move's
// answer starts with it).
func (h *GameHead) appendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = AppendJSONString(b, h.ID)
	b = append(b, `,"ruleset":`...)
	b = AppendJSONString(b, h.Ruleset)
	b = append(b, `,"mode":`...)
	b = AppendJSONString(b, h.Mode)
	b = append(b, `,"version":`...)
	b = strconv.AppendInt(b, h.Version, 10)
	b = append(b, `,"phase":`...)
	b = AppendJSONString(b, h.Phase)
	b = append(b, `,"ended":`...)
	b = strconv.AppendBool(b, h.Ended)
	b = append(b, `,"created_at":`...)
	b = appendJSONTime(b, h.CreatedAt)
	b = append(b, `,"updated_at":`...)
	b = appendJSONTime(b, h.UpdatedAt)
	b = append(b, `,"options":`...)
	if len(h.Options) == 0 {
		b = append(b, "null"...)
	} else {
		b = append(b, h.Options...)
	}
	for _, f := range [...]struct{ name, v string }{
		{`,"seed_commitment":`, h.SeedCommitment}, {`,"seed":`, h.Seed}, {`,"seed_salt":`, h.SeedSalt},
	} {
		if f.v != "" {
			b = append(b, f.name...)
			b = AppendJSONString(b, f.v)
		}
	}
	return append(b, '}')
}

// appendJSONTime writes t as time.Time's MarshalJSON does (RFC 3339 with
// nanoseconds). The times here come from the server's clock, well within the
// years 0 to 9999 MarshalJSON accepts.
func appendJSONTime(b []byte, t time.Time) []byte {
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"')
}

// AppendJSONString appends s as a JSON string, the bytes json.Marshal(s)
// gives. Plain printable ASCII (ids, codes, most names) is copied as it is;
// anything else (quotes, control characters, the HTML characters
// encoding/json escapes, non-ASCII) goes through encoding/json.
func AppendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // a string always encodes
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// GameView is a game as the API shows it: its head, and the ruleset's own
// view of its state.
type GameView struct {
	GameHead
	State json.RawMessage `json:"state"`
}

// Created is a new game with the credentials handed out once.
type Created struct {
	Game GameView
	Host string   // the host credential: acts for every seat and reports for the table
	Seat []string // one credential per seat
}

// PlayOptions are the optional conditions of a move.
type PlayOptions struct {
	IfMatch        *int64 // the version the client saw; PreconditionFailed when the game moved on
	IdempotencyKey string // a retry with the same key returns the first response and applies nothing
}

// Played is the result of an accepted move.
type Played struct {
	Seq      int64
	Game     GameView
	Response []byte // {"seq":…,"game":…} as sent the first time
	Replayed bool   // the response of an earlier request with the same Idempotency-Key
}

// Games is the service behind the API: it creates games, checks credentials,
// applies moves one at a time per game and keeps everything in a Store. It
// knows no rules; each game's Ruleset does.
//
// Over a SharedStore (several servers on one database) it trusts nothing in
// memory without asking the store, and FollowStore must run for live clients
// to hear of other servers' moves at once: see domain/shared.go.
type Games struct {
	store    Store
	rulesets map[string]Ruleset
	now      func() time.Time

	cacheMu    sync.Mutex
	tables     map[string]*table // games in memory, by id; see table
	lru        list.List         // of *table, the most recently used first
	cacheLimit int
	seed       maphash.Seed

	mu       sync.Mutex
	catalogs map[string]CatalogBlob // by hash; stored catalogs never change

	subMu sync.Mutex
	subs  map[string]*audience // live clients by game id

	// shared is the store when several servers share it (SharedStore), and
	// nil when this process is the store's only user.
	shared SharedStore
}

// NewGames returns the service over store with the given rulesets.
func NewGames(store Store, rulesets ...Ruleset) *Games {
	g := &Games{
		store: store, rulesets: map[string]Ruleset{}, now: time.Now,
		tables: map[string]*table{}, cacheLimit: DefaultCachedGames, seed: maphash.MakeSeed(),
		catalogs: map[string]CatalogBlob{}, subs: map[string]*audience{},
	}
	g.shared, _ = store.(SharedStore)
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
func (s *Games) Ruleset(name string) (Ruleset, error) {
	r, ok := s.rulesets[name]
	if !ok {
		return nil, Errorf(Invalid, "unknown ruleset %q; this server plays %v", name, s.Rulesets())
	}
	return r, nil
}

// NewSecret returns a fresh random credential.
func NewSecret() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b) // never fails on supported platforms
	return base64.RawURLEncoding.EncodeToString(b)
}

// HashSecret is how credentials are stored: hex SHA-256.
func HashSecret(secret string) string {
	h := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(h[:])
}

// NewID returns a fresh game id.
func NewID() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// Create makes a new game and returns it with its credentials.
func (s *Games) Create(ctx context.Context, ruleset string, req CreateRequest) (Created, error) {
	r, err := s.Ruleset(ruleset)
	if err != nil {
		return Created{}, err
	}
	switch {
	case req.Mode != Digital && req.Mode != Physical:
		return Created{}, Errorf(Invalid, "mode must be %q or %q, not %q", Digital, Physical, req.Mode)
	case req.Mode == Physical && req.Seed != "":
		return Created{}, Errorf(Invalid, "a physical game has no seed: the cards are shuffled at the table")
	case len(req.Seed) > MaxSeedLength:
		return Created{}, Errorf(Invalid, "the seed is longer than %d bytes", MaxSeedLength)
	case req.Mode == Digital:
		if req.Seed == "" {
			req.Seed = NewSeed()
		}
		req.Salt = NewSalt()
	}
	g, cat, err := r.Create(req)
	if err != nil {
		return Created{}, err
	}
	state, err := g.Snapshot()
	if err != nil {
		return Created{}, err
	}
	now := s.now().UTC()
	rec := GameRecord{
		ID: NewID(), Ruleset: ruleset, Mode: req.Mode, CatalogName: cat.Name, CatalogHash: cat.Hash,
		CreatedAt: now, UpdatedAt: now, State: state, Phase: g.Phase(), Ended: g.Ended(),
	}
	out := Created{Host: NewSecret()}
	creds := Credentials{HostHash: HashSecret(out.Host)}
	for i := 0; i < g.Players(); i++ {
		sec := NewSecret()
		out.Seat = append(out.Seat, sec)
		creds.SeatHashes = append(creds.SeatHashes, HashSecret(sec))
	}
	if err := s.store.CreateGame(ctx, rec, creds, cat); err != nil {
		return Created{}, err
	}
	if out.Game, err = s.view(rec, g, Viewer{Host: true}); err != nil {
		return Created{}, err
	}
	s.cache(rec, g, creds)
	return out, nil
}

// Authenticate returns the actor a credential stands for in a game:
// Unauthorized when it is none of the game's.
func (s *Games) Authenticate(ctx context.Context, gameID, secret string) (Actor, error) {
	t := s.acquire(gameID)
	creds, err := s.credentials(ctx, t)
	s.release(t)
	if err != nil {
		return Actor{}, err
	}
	h := []byte(HashSecret(secret))
	if subtle.ConstantTimeCompare(h, []byte(creds.HostHash)) == 1 {
		return Actor{Host: true}, nil
	}
	for i, sh := range creds.SeatHashes {
		if subtle.ConstantTimeCompare(h, []byte(sh)) == 1 {
			return Actor{Seat: i}, nil
		}
	}
	return Actor{}, Errorf(Unauthorized, "this credential belongs to no seat of game %s", gameID)
}

// ViewerOf returns the viewer an actor sees the game as.
func ViewerOf(a *Actor) Viewer {
	switch {
	case a == nil:
		return Public
	case a.Host:
		return Viewer{Host: true, Seat: -1}
	default:
		return Viewer{Seat: a.Seat}
	}
}

func (s *Games) catalog(ctx context.Context, hash string) (CatalogBlob, error) {
	s.mu.Lock()
	c, ok := s.catalogs[hash]
	s.mu.Unlock()
	if ok {
		return c, nil
	}
	c, err := s.store.Catalog(ctx, hash)
	if err != nil {
		return CatalogBlob{}, err
	}
	s.mu.Lock()
	s.catalogs[hash] = c
	s.mu.Unlock()
	return c, nil
}

// load reads a game and restores it with its ruleset.
func (s *Games) load(ctx context.Context, id string) (GameRecord, Game, error) {
	rec, err := s.store.Game(ctx, id)
	if err != nil {
		return GameRecord{}, nil, err
	}
	r, err := s.Ruleset(rec.Ruleset)
	if err != nil {
		return GameRecord{}, nil, err
	}
	cat, err := s.catalog(ctx, rec.CatalogHash)
	if err != nil {
		return GameRecord{}, nil, err
	}
	g, err := r.Restore(rec.State, cat)
	return rec, g, err
}

func (s *Games) view(rec GameRecord, g Game, v Viewer) (GameView, error) {
	state, err := g.AppendView(nil, v)
	if err != nil {
		return GameView{}, err
	}
	return GameView{GameHead: headOf(rec, g), State: state}, nil
}

// headOf is the head of game g stored as rec.
func headOf(rec GameRecord, g Game) GameHead {
	setup := g.Setup()
	h := GameHead{
		ID: rec.ID, Ruleset: rec.Ruleset, Mode: rec.Mode, Version: rec.Version, Phase: rec.Phase, Ended: rec.Ended,
		CreatedAt: rec.CreatedAt, UpdatedAt: rec.UpdatedAt, Options: setup.Options,
	}
	if setup.Mode == Digital && setup.Seed != "" {
		h.SeedCommitment = SeedCommitment(setup.Seed, setup.Salt)
		if rec.Ended {
			h.Seed, h.SeedSalt = setup.Seed, setup.Salt
		}
	}
	return h
}

// Game returns a game as viewer v sees it.
func (s *Games) Game(ctx context.Context, id string, v Viewer) (GameView, error) {
	var gv GameView
	err := s.committed(ctx, id, func(rec GameRecord, g Game) (err error) {
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
func (s *Games) Play(ctx context.Context, id string, actor Actor, move []byte, opt PlayOptions) (Played, error) {
	if s.shared != nil {
		return s.playShared(ctx, id, actor, move, opt)
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

	scope := actorScope(actor)
	reqHash := requestHash(move, opt.IdempotencyKey)
	flightKey, keyHash := "", uint64(0)
	if opt.IdempotencyKey != "" {
		flightKey = scope + "\x00" + opt.IdempotencyKey
		keyHash = s.keyHash(flightKey)
	}
	for {
		if err := s.head(ctx, t); err != nil {
			return Played{}, err
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
		if p, ok, err := s.replay(ctx, t, actor, move, opt.IdempotencyKey, scope, reqHash); ok || err != nil {
			return p, err
		}
	}
	rec, g := t.rec, t.g
	if opt.IfMatch != nil && *opt.IfMatch != rec.Version {
		return Played{}, Errorf(PreconditionFailed, "the game is at version %d, not %d; read it again and retry", rec.Version, *opt.IfMatch)
	}
	logged, err := g.Apply(actor, move)
	if err != nil {
		return Played{}, err // a rejected move changes nothing
	}
	a, p, u, err := s.played(rec, g, actor, logged, opt, scope, reqHash)
	if err != nil {
		t.stale = true // the head holds a move that will never be stored
		return Played{}, err
	}

	// Hand the move over, in order, and let the next move of the game in.
	wait := s.queue(context.WithoutCancel(ctx), a)
	prev, done := t.tail, make(chan struct{})
	t.tail = done
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
		t.stale = true
	}
	if t.tail == done {
		t.tail = nil
	}
	if flightKey != "" {
		delete(t.keys, flightKey)
		if err == nil {
			t.addUsed(keyHash)
		}
	}
	t.mu.Unlock()
	if err == nil {
		s.publish(u)
	}
	close(done)
	if err != nil {
		return Played{}, err
	}
	return p, nil
}

// replay answers a retry: the first answer to the move stored with the
// idempotency key (ok), IdempotencyReused when the key was stored with
// another move, and nothing when the key is new. Called with t.mu held and
// t's head read.
func (s *Games) replay(ctx context.Context, t *table, actor Actor, move []byte, key, scope, reqHash string) (Played, bool, error) {
	prev, err := s.store.Idempotency(ctx, t.id, scope, key)
	if err != nil || prev == nil {
		return Played{}, false, err
	}
	if !sameRequest(prev.RequestHash, reqHash, move) {
		return Played{}, false, Errorf(IdempotencyReused, "Idempotency-Key %q was already used for another move; use a new key for a new move", key)
	}
	resp, err := s.replayedAnswer(ctx, t, actor, prev.Response)
	if err != nil {
		return Played{}, false, err
	}
	var p struct {
		Seq  int64    `json:"seq"`
		Game GameView `json:"game"`
	}
	if err := json.Unmarshal(resp, &p); err != nil {
		return Played{}, false, err
	}
	return Played{Seq: p.Seq, Game: p.Game, Response: resp, Replayed: true}, true, nil
}

// played builds, from a game that has just applied a move, the append that
// stores it, the answer and the update live clients hear.
func (s *Games) played(rec GameRecord, g Game, actor Actor, logged Logged, opt PlayOptions, scope, reqHash string) (Append, Played, Update, error) {
	state, err := g.Snapshot()
	if err != nil {
		return Append{}, Played{}, Update{}, err
	}
	now := s.now().UTC()
	rec.Version++
	rec.State, rec.Phase, rec.Ended, rec.UpdatedAt = state, g.Phase(), g.Ended(), now
	resp, gv, err := moveResult(rec, g, ViewerOf(&actor))
	if err != nil {
		return Append{}, Played{}, Update{}, err
	}
	events := g.Events()
	eventsJSON, err := json.Marshal(events)
	if err != nil {
		return Append{}, Played{}, Update{}, err
	}
	a := Append{
		GameID: rec.ID, ExpectVersion: rec.Version - 1, State: state, Phase: rec.Phase, Ended: rec.Ended,
		Move: MoveRecord{Seq: rec.Version, Actor: actor, Move: logged.Move, Events: eventsJSON, At: now,
			Public: logged.Public, For: logged.For, NotHost: logged.NotHost},
	}
	if opt.IdempotencyKey != "" {
		// Only the version is kept: a retry rebuilds the answer from the log
		// (see replayedAnswer), so every move does not store a copy of the view.
		a.Idempotency = &IdempotencyRecord{Key: opt.IdempotencyKey, Scope: scope, RequestHash: reqHash, Status: 200,
			Response: strconv.AppendInt([]byte(`{"seq":`), rec.Version, 10)}
		a.Idempotency.Response = append(a.Idempotency.Response, '}')
	}
	u := Update{GameID: rec.ID, Seq: rec.Version, Actor: actor, Move: logged.Move, Events: events, At: now, Phase: rec.Phase, Ended: rec.Ended,
		Public: logged.Public, For: logged.For, NotHost: logged.NotHost}
	return a, Played{Seq: rec.Version, Game: gv, Response: resp}, u, nil
}

// replayedAnswer returns the answer first given to the move an idempotency
// record remembers. The record keeps only the move's version; the answer is
// rebuilt by replaying the game's log up to that version, which gives the
// same game, seen by the same actor at the same time, byte for byte. A record
// that kept a whole answer is returned as it is. Called with t.mu held and
// t's head read.
func (s *Games) replayedAnswer(ctx context.Context, t *table, actor Actor, stored []byte) ([]byte, error) {
	var r struct {
		Seq  int64           `json:"seq"`
		Game json.RawMessage `json:"game"`
	}
	if err := json.Unmarshal(stored, &r); err != nil {
		return nil, fmt.Errorf("domain: idempotency record of game %s: %w", t.id, err)
	}
	if len(r.Game) > 0 {
		return stored, nil
	}
	rs, err := s.Ruleset(t.rec.Ruleset)
	if err != nil {
		return nil, err
	}
	cat, err := s.catalog(ctx, t.rec.CatalogHash)
	if err != nil {
		return nil, err
	}
	moves, err := s.store.Moves(ctx, t.id, 0, int(r.Seq))
	if err != nil {
		return nil, err
	}
	if int64(len(moves)) != r.Seq || r.Seq < 1 {
		return nil, fmt.Errorf("domain: game %s: idempotency record names version %d, the log has %d moves", t.id, r.Seq, len(moves))
	}
	replay := make([]ReplayMove, len(moves))
	for i, m := range moves {
		replay[i] = ReplayMove{Actor: m.Actor, Move: m.Move}
	}
	g, bad, err := rs.Replay(t.g.Setup(), cat, replay)
	if err != nil {
		return nil, fmt.Errorf("domain: game %s: replay to version %d stopped at move %d: %w", t.id, r.Seq, bad, err)
	}
	rec := t.rec
	rec.Version, rec.Phase, rec.Ended, rec.UpdatedAt = r.Seq, g.Phase(), g.Ended(), moves[len(moves)-1].At
	resp, _, err := moveResult(rec, g, ViewerOf(&actor))
	return resp, err
}

// recAfter is rec once the append a is stored.
func recAfter(rec GameRecord, a Append) GameRecord {
	rec.Version, rec.State, rec.Phase, rec.Ended, rec.UpdatedAt = a.Move.Seq, a.State, a.Phase, a.Ended, a.Move.At
	return rec
}

// queue hands a to the store. A store that cannot queue stores it now, with
// the game's lock still held.
func (s *Games) queue(ctx context.Context, a Append) (wait func() error) {
	if q, ok := s.store.(AppendQueuer); ok {
		return q.QueueAppend(ctx, a)
	}
	err := s.store.Append(ctx, a)
	return func() error { return err }
}

// moveResult encodes the answer to a move, {"seq":…,"game":…}, as
// json.Marshal would encode it, with the ruleset appending its view (already
// compact JSON) in place. The game it returns shares the answer's bytes.
func moveResult(rec GameRecord, g Game, v Viewer) ([]byte, GameView, error) {
	gv := GameView{GameHead: headOf(rec, g)}
	b := make([]byte, 0, 4096)
	b = append(b, `{"seq":`...)
	b = strconv.AppendInt(b, rec.Version, 10)
	b = append(b, `,"game":`...)
	b = gv.GameHead.appendJSON(b)
	b = append(b[:len(b)-1], `,"state":`...)
	start := len(b)
	var err error
	if b, err = g.AppendView(b, v); err != nil {
		return nil, GameView{}, err
	}
	gv.State = b[start:len(b):len(b)]
	return append(b, "}}"...), gv, nil
}

// actorScope names who may replay an idempotent request: the same actor.
func actorScope(a Actor) string {
	if a.Host {
		return "host"
	}
	return "seat:" + itoa(a.Seat)
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

// Moves returns the accepted moves of a game with Seq > after (limit <= 0:
// all), each as viewer v may read it (Move is then the disclosed form, and
// Public is nil).
func (s *Games) Moves(ctx context.Context, id string, after int64, limit int, v Viewer) ([]MoveRecord, error) {
	rec, err := s.store.Game(ctx, id)
	if err != nil {
		return nil, err
	}
	if after >= rec.Version {
		return []MoveRecord{}, nil
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
		m.Move, m.Public = DiscloseMove(m, v, rec.Ended), nil
	}
	return moves, nil
}

// LegalMoves returns what seat may do now in a game, as viewer v may know it
// (the ruleset's JSON), with the game's head; seat -1 asks for the table's
// reports.
func (s *Games) LegalMoves(ctx context.Context, id string, v Viewer, seat int) (GameHead, []byte, error) {
	var (
		out  []byte
		head GameHead
	)
	err := s.committed(ctx, id, func(rec GameRecord, g Game) (err error) {
		if seat < -1 || seat >= g.Players() {
			return Errorf(Invalid, "seat %d does not exist; this game has seats 0 to %d", seat, g.Players()-1)
		}
		head = headOf(rec, g)
		out, err = g.LegalMoves(v, seat)
		return err
	})
	return head, out, err
}

// Score returns the scores and ranking of a game as they stand (the ruleset's JSON).
func (s *Games) Score(ctx context.Context, id string) ([]byte, error) {
	var out []byte
	err := s.committed(ctx, id, func(_ GameRecord, g Game) (err error) {
		out, err = g.Score()
		return err
	})
	return out, err
}

// Catalog returns a catalog of a ruleset (the ruleset's JSON).
func (s *Games) Catalog(ruleset, name string) (CatalogInfo, []byte, error) {
	r, err := s.Ruleset(ruleset)
	if err != nil {
		return CatalogInfo{}, nil, err
	}
	c, ok := r.(Cataloger)
	if !ok {
		return CatalogInfo{}, nil, Errorf(NotFound, "%s is played without a card catalog", ruleset)
	}
	return c.CatalogView(name)
}

// RulesetInfos describes every ruleset the service plays, in name order, with
// the catalogs each offers.
func (s *Games) RulesetInfos() []RulesetEntry {
	var out []RulesetEntry
	for _, name := range s.Rulesets() {
		r := s.rulesets[name]
		e := RulesetEntry{RulesetInfo: r.Info(), Catalogs: []CatalogInfo{}}
		if c, ok := r.(Cataloger); ok {
			for _, n := range c.CatalogNames() {
				if info, _, err := c.CatalogView(n); err == nil {
					e.Catalogs = append(e.Catalogs, info)
				}
			}
		}
		_, e.ScoreSheets = r.(SheetVerifier)
		out = append(out, e)
	}
	return out
}

// RulesetEntry is a ruleset as the service offers it.
type RulesetEntry struct {
	RulesetInfo
	Catalogs    []CatalogInfo
	ScoreSheets bool // it checks paper score sheets
}

// Ping reports whether the store is usable.
func (s *Games) Ping(ctx context.Context) error { return s.store.Ping(ctx) }

// Update is what live clients hear after an accepted move: the move and the
// events it caused, with who may read what (see Disclose). Seq is the game's
// version after the move.
type Update struct {
	GameID string
	Seq    int64
	Actor  Actor
	Move   json.RawMessage
	Events []Event
	At     time.Time
	Phase  string
	Ended  bool // the game has ended (after this move, or, from the log, by now)

	Public  json.RawMessage // see Logged
	For     int
	NotHost bool
}

// Disclose returns the update's move and events as viewer v may read them;
// live says the update is told as it happens.
func (u *Update) Disclose(v Viewer, live bool) (json.RawMessage, []Event) {
	m := MoveRecord{Move: u.Move, Public: u.Public, For: u.For, NotHost: u.NotHost}
	return DiscloseMove(&m, v, u.Ended), DiscloseEvents(u.Events, v, u.Ended, live)
}

// subscriberBuffer is how many updates a slow live client may fall behind
// before it is dropped (it reconnects and catches up from the log).
const subscriberBuffer = 256

type subscriber struct {
	ch chan Update
}

// audience is the live clients of one game, and the last update handed to
// them: updates reach them in order, each once, whichever way they came (a
// move played here, or a notice of a move stored by another server).
type audience struct {
	subs map[*subscriber]struct{}
	last int64

	// On a SharedStore (see FollowStore): the last move another server
	// noticed, whether every move should be looked for, and whether a
	// goroutine is reading them from the log.
	want              int64
	recheck, fetching bool
}

// Subscribe returns a channel of the updates of game id from now on, and a
// function that ends the subscription. The channel is closed when the client
// falls too far behind; it should then catch up with Updates.
func (s *Games) Subscribe(id string) (<-chan Update, func()) {
	sub := &subscriber{ch: make(chan Update, subscriberBuffer)}
	s.subMu.Lock()
	if s.subs[id] == nil {
		s.subs[id] = &audience{subs: map[*subscriber]struct{}{}}
	}
	s.subs[id].subs[sub] = struct{}{}
	s.subMu.Unlock()
	var once sync.Once
	return sub.ch, func() {
		once.Do(func() {
			s.subMu.Lock()
			defer s.subMu.Unlock()
			a := s.subs[id]
			if a == nil {
				return
			}
			if _, ok := a.subs[sub]; ok {
				delete(a.subs, sub)
				close(sub.ch)
			}
			if len(a.subs) == 0 {
				delete(s.subs, id)
			}
		})
	}
}

// publish hands an update to every live client of its game without waiting;
// an update at or below one already handed over is left out.
func (s *Games) publish(u Update) {
	s.subMu.Lock()
	defer s.subMu.Unlock()
	a := s.subs[u.GameID]
	if a == nil || u.Seq <= a.last {
		return
	}
	a.last = u.Seq
	for sub := range a.subs {
		select {
		case sub.ch <- u:
		default: // too far behind: drop it; it catches up from the log
			delete(a.subs, sub)
			close(sub.ch)
		}
	}
}

// Updates returns the stored updates of a game with Seq > after, each with
// Ended saying whether the game has ended by now; Disclose them before
// telling them (not live).
func (s *Games) Updates(ctx context.Context, id string, after int64) ([]Update, error) {
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
	return updatesOf(id, moves, func(*MoveRecord) bool { return rec.Ended })
}

// VerifySheet checks a paper score sheet of a ruleset (the ruleset's JSON).
func (s *Games) VerifySheet(ruleset string, sheet []byte) ([]byte, error) {
	r, err := s.Ruleset(ruleset)
	if err != nil {
		return nil, err
	}
	v, ok := r.(SheetVerifier)
	if !ok {
		return nil, Errorf(NotFound, "%s has no score sheet to check", ruleset)
	}
	return v.VerifySheet(sheet)
}

// VerifyRecord replays a game record with the service's rulesets.
func (s *Games) VerifyRecord(r Record) Verdict {
	rs := make([]Ruleset, 0, len(s.rulesets))
	for _, name := range s.Rulesets() {
		rs = append(rs, s.rulesets[name])
	}
	return VerifyRecord(rs, r)
}
