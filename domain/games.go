package domain

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"hash/maphash"
	"sort"
	"sync"
	"time"
)

// GameView is a game as the API shows it: what every game has, and the
// ruleset's own view of its state.
type GameView struct {
	ID        string          `json:"id"`
	Ruleset   string          `json:"ruleset"`
	Mode      string          `json:"mode"`
	Version   int64           `json:"version"`
	Phase     string          `json:"phase"`
	Ended     bool            `json:"ended"`
	CreatedAt time.Time       `json:"created_at"`
	UpdatedAt time.Time       `json:"updated_at"`
	State     json.RawMessage `json:"state"`
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
type Games struct {
	store    Store
	rulesets map[string]Ruleset
	now      func() time.Time

	locks [256]sync.Mutex // moves on one game are applied one after another
	seed  maphash.Seed

	mu       sync.Mutex
	catalogs map[string]CatalogBlob // by hash; stored catalogs never change

	subMu sync.Mutex
	subs  map[string]map[*subscriber]struct{} // live clients by game id
}

// NewGames returns the service over store with the given rulesets.
func NewGames(store Store, rulesets ...Ruleset) *Games {
	g := &Games{store: store, rulesets: map[string]Ruleset{}, now: time.Now, seed: maphash.MakeSeed(), catalogs: map[string]CatalogBlob{}, subs: map[string]map[*subscriber]struct{}{}}
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
	out.Game, err = s.view(rec, g, Viewer{Host: true})
	return out, err
}

// Authenticate returns the actor a credential stands for in a game:
// Unauthorized when it is none of the game's.
func (s *Games) Authenticate(ctx context.Context, gameID, secret string) (Actor, error) {
	creds, err := s.store.Credentials(ctx, gameID)
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
	state, err := g.View(v)
	if err != nil {
		return GameView{}, err
	}
	return GameView{
		ID: rec.ID, Ruleset: rec.Ruleset, Mode: rec.Mode, Version: rec.Version, Phase: rec.Phase, Ended: rec.Ended,
		CreatedAt: rec.CreatedAt, UpdatedAt: rec.UpdatedAt, State: state,
	}, nil
}

// Game returns a game as viewer v sees it.
func (s *Games) Game(ctx context.Context, id string, v Viewer) (GameView, error) {
	rec, g, err := s.load(ctx, id)
	if err != nil {
		return GameView{}, err
	}
	return s.view(rec, g, v)
}

func (s *Games) lock(id string) *sync.Mutex {
	return &s.locks[maphash.String(s.seed, id)%uint64(len(s.locks))]
}

// Play applies a move made by actor. Moves on one game are applied one after
// another; the move, its idempotency record and the new state are stored in
// one transaction before Play returns.
func (s *Games) Play(ctx context.Context, id string, actor Actor, move []byte, opt PlayOptions) (Played, error) {
	mu := s.lock(id)
	mu.Lock()
	defer mu.Unlock()

	scope := actorScope(actor)
	reqHash := HashSecret(string(move))
	if opt.IdempotencyKey != "" {
		prev, err := s.store.Idempotency(ctx, id, scope, opt.IdempotencyKey)
		if err != nil {
			return Played{}, err
		}
		if prev != nil {
			if prev.RequestHash != reqHash {
				return Played{}, Errorf(IdempotencyReused, "Idempotency-Key %q was already used for another move; use a new key for a new move", opt.IdempotencyKey)
			}
			var p struct {
				Seq  int64    `json:"seq"`
				Game GameView `json:"game"`
			}
			if err := json.Unmarshal(prev.Response, &p); err != nil {
				return Played{}, err
			}
			return Played{Seq: p.Seq, Game: p.Game, Response: prev.Response, Replayed: true}, nil
		}
	}
	rec, g, err := s.load(ctx, id)
	if err != nil {
		return Played{}, err
	}
	if opt.IfMatch != nil && *opt.IfMatch != rec.Version {
		return Played{}, Errorf(PreconditionFailed, "the game is at version %d, not %d; read it again and retry", rec.Version, *opt.IfMatch)
	}
	logged, err := g.Apply(actor, move)
	if err != nil {
		return Played{}, err
	}
	state, err := g.Snapshot()
	if err != nil {
		return Played{}, err
	}
	now := s.now().UTC()
	rec.Version++
	rec.State, rec.Phase, rec.Ended, rec.UpdatedAt = state, g.Phase(), g.Ended(), now
	gv, err := s.view(rec, g, ViewerOf(&actor))
	if err != nil {
		return Played{}, err
	}
	resp, err := json.Marshal(struct {
		Seq  int64    `json:"seq"`
		Game GameView `json:"game"`
	}{rec.Version, gv})
	if err != nil {
		return Played{}, err
	}
	events := g.Events()
	eventsJSON, err := json.Marshal(events)
	if err != nil {
		return Played{}, err
	}
	a := Append{
		GameID: id, ExpectVersion: rec.Version - 1, State: state, Phase: rec.Phase, Ended: rec.Ended,
		Move: MoveRecord{Seq: rec.Version, Actor: actor, Move: logged, Events: eventsJSON, At: now},
	}
	if opt.IdempotencyKey != "" {
		a.Idempotency = &IdempotencyRecord{Key: opt.IdempotencyKey, Scope: scope, RequestHash: reqHash, Status: 200, Response: resp}
	}
	if err := s.store.Append(ctx, a); err != nil {
		return Played{}, err
	}
	s.publish(Update{GameID: id, Seq: rec.Version, Actor: actor, Move: logged, Events: events, At: now, Phase: rec.Phase, Ended: rec.Ended})
	return Played{Seq: rec.Version, Game: gv, Response: resp}, nil
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

// Moves returns the accepted moves of a game with Seq > after (limit <= 0: all).
func (s *Games) Moves(ctx context.Context, id string, after int64, limit int) ([]MoveRecord, error) {
	if _, err := s.store.Game(ctx, id); err != nil {
		return nil, err
	}
	return s.store.Moves(ctx, id, after, limit)
}

// LegalMoves returns what seat may do now in a game (the ruleset's JSON).
func (s *Games) LegalMoves(ctx context.Context, id string, seat int) ([]byte, error) {
	_, g, err := s.load(ctx, id)
	if err != nil {
		return nil, err
	}
	return g.LegalMoves(seat)
}

// Score returns the scores and ranking of a game as they stand (the ruleset's JSON).
func (s *Games) Score(ctx context.Context, id string) ([]byte, error) {
	_, g, err := s.load(ctx, id)
	if err != nil {
		return nil, err
	}
	return g.Score()
}

// Catalog returns a catalog of a ruleset (the ruleset's JSON).
func (s *Games) Catalog(ruleset, name string) ([]byte, error) {
	r, err := s.Ruleset(ruleset)
	if err != nil {
		return nil, err
	}
	return r.CatalogView(name)
}

// Ping reports whether the store is usable.
func (s *Games) Ping(ctx context.Context) error { return s.store.Ping(ctx) }

// Update is what live clients hear after an accepted move: the move and the
// events it caused. Seq is the game's version after the move.
type Update struct {
	GameID string
	Seq    int64
	Actor  Actor
	Move   json.RawMessage
	Events []Event
	At     time.Time
	Phase  string
	Ended  bool
}

// subscriberBuffer is how many updates a slow live client may fall behind
// before it is dropped (it reconnects and catches up from the log).
const subscriberBuffer = 256

type subscriber struct {
	ch chan Update
}

// Subscribe returns a channel of the updates of game id from now on, and a
// function that ends the subscription. The channel is closed when the client
// falls too far behind; it should then catch up with Updates.
func (s *Games) Subscribe(id string) (<-chan Update, func()) {
	sub := &subscriber{ch: make(chan Update, subscriberBuffer)}
	s.subMu.Lock()
	if s.subs[id] == nil {
		s.subs[id] = map[*subscriber]struct{}{}
	}
	s.subs[id][sub] = struct{}{}
	s.subMu.Unlock()
	var once sync.Once
	return sub.ch, func() {
		once.Do(func() {
			s.subMu.Lock()
			defer s.subMu.Unlock()
			if _, ok := s.subs[id][sub]; ok {
				delete(s.subs[id], sub)
				close(sub.ch)
			}
			if len(s.subs[id]) == 0 {
				delete(s.subs, id)
			}
		})
	}
}

// publish hands an update to every live client of its game without waiting.
func (s *Games) publish(u Update) {
	s.subMu.Lock()
	defer s.subMu.Unlock()
	for sub := range s.subs[u.GameID] {
		select {
		case sub.ch <- u:
		default: // too far behind: drop it; it catches up from the log
			delete(s.subs[u.GameID], sub)
			close(sub.ch)
		}
	}
}

// Updates returns the stored updates of a game with Seq > after.
func (s *Games) Updates(ctx context.Context, id string, after int64) ([]Update, error) {
	moves, err := s.Moves(ctx, id, after, 0)
	if err != nil {
		return nil, err
	}
	out := make([]Update, len(moves))
	for i, m := range moves {
		var events []Event
		if len(m.Events) > 0 {
			if err := json.Unmarshal(m.Events, &events); err != nil {
				return nil, err
			}
		}
		out[i] = Update{GameID: id, Seq: m.Seq, Actor: m.Actor, Move: m.Move, Events: events, At: m.At}
	}
	return out, nil
}

// VerifySheet checks a paper score sheet of a ruleset (the ruleset's JSON).
func (s *Games) VerifySheet(ruleset string, sheet []byte) ([]byte, error) {
	r, err := s.Ruleset(ruleset)
	if err != nil {
		return nil, err
	}
	return r.VerifySheet(sheet)
}

// VerifyRecord replays a game record with the service's rulesets.
func (s *Games) VerifyRecord(r Record) Verdict {
	rs := make([]Ruleset, 0, len(s.rulesets))
	for _, name := range s.Rulesets() {
		rs = append(rs, s.rulesets[name])
	}
	return VerifyRecord(rs, r)
}
