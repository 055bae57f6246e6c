package service_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/service"
	"github.com/treasury-games/treasury/domain/silvergold"
)

// heldStore is a Store in memory whose appends wait, queued in order, until
// the test commits or fails them, as the SQLite writer's would while a commit
// is in flight.
type heldStore struct {
	mu       sync.Mutex
	games    map[string]domain.GameRecord
	creds    map[string]domain.Credentials
	catalogs map[string]domain.CatalogBlob
	moves    map[string][]domain.MoveRecord
	idem     map[string]domain.IdempotencyRecord // game NUL scope NUL key
	queue    []*heldAppend
	queued   chan struct{} // receives one value per append queued
	reads    int           // Game calls
}

type heldAppend struct {
	a    domain.Append
	done chan error
}

var (
	_ domain.Store                = (*heldStore)(nil)
	_ domain.AppendQueuer         = (*heldStore)(nil)
	_ domain.IdempotencyKeyLister = (*heldStore)(nil)
)

func newHeldStore() *heldStore {
	return &heldStore{
		games: map[string]domain.GameRecord{}, creds: map[string]domain.Credentials{},
		catalogs: map[string]domain.CatalogBlob{}, moves: map[string][]domain.MoveRecord{},
		idem: map[string]domain.IdempotencyRecord{}, queued: make(chan struct{}, 100),
	}
}

func (h *heldStore) CreateGame(_ context.Context, g domain.GameRecord, c domain.Credentials, cat domain.CatalogBlob) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.games[g.ID], h.creds[g.ID], h.catalogs[cat.Hash] = g, c, cat
	return nil
}

func (h *heldStore) Game(_ context.Context, id string) (domain.GameRecord, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.reads++
	g, ok := h.games[id]
	if !ok {
		return g, domain.Errorf(domain.NotFound, "game %q does not exist", id)
	}
	return g, nil
}

func (h *heldStore) Credentials(_ context.Context, id string) (domain.Credentials, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	c, ok := h.creds[id]
	if !ok {
		return c, domain.Errorf(domain.NotFound, "game %q does not exist", id)
	}
	return c, nil
}

func (h *heldStore) Catalog(_ context.Context, hash string) (domain.CatalogBlob, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.catalogs[hash], nil
}

func (h *heldStore) Moves(_ context.Context, id string, after int64, _ int) ([]domain.MoveRecord, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []domain.MoveRecord
	for _, m := range h.moves[id] {
		if m.Seq > after {
			out = append(out, m)
		}
	}
	return out, nil
}

func (h *heldStore) Idempotency(_ context.Context, id, scope, key string) (*domain.IdempotencyRecord, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if r, ok := h.idem[id+"\x00"+scope+"\x00"+key]; ok {
		return &r, nil
	}
	return nil, nil
}

func (h *heldStore) IdempotencyKeys(_ context.Context, id string) ([]domain.IdempotencyRecord, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []domain.IdempotencyRecord
	for k, r := range h.idem {
		if len(k) > len(id) && k[:len(id)+1] == id+"\x00" {
			out = append(out, domain.IdempotencyRecord{Scope: r.Scope, Key: r.Key, RequestHash: r.RequestHash})
		}
	}
	return out, nil
}

func (h *heldStore) Append(ctx context.Context, a domain.Append) error {
	return h.QueueAppend(ctx, a)()
}

func (h *heldStore) QueueAppend(_ context.Context, a domain.Append) func() error {
	p := &heldAppend{a: a, done: make(chan error, 1)}
	h.mu.Lock()
	h.queue = append(h.queue, p)
	h.mu.Unlock()
	h.queued <- struct{}{}
	return func() error { return <-p.done }
}

func (h *heldStore) DeleteIdleGames(_ context.Context, before time.Time) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for id, g := range h.games {
		if g.UpdatedAt.Before(before) {
			delete(h.games, id)
			delete(h.creds, id)
			delete(h.moves, id)
			n++
		}
	}
	return n, nil
}

func (h *heldStore) Ping(context.Context) error { return nil }
func (h *heldStore) Close() error               { return nil }

// waitQueued waits until n more appends are queued.
func (h *heldStore) waitQueued(t *testing.T, n int) {
	t.Helper()
	for range n {
		select {
		case <-h.queued:
		case <-time.After(5 * time.Second):
			t.Fatalf("fewer than %d appends were queued", n)
		}
	}
}

// commit stores the first n queued appends, in order, failing those whose
// expected version is stale, and answers them last first (the service must
// still answer them in order). With fail set, the first one fails instead.
func (h *heldStore) commit(n int, fail error) {
	h.mu.Lock()
	batch := h.queue[:n]
	h.queue = h.queue[n:]
	errs := make([]error, n)
	for i, p := range batch {
		a := p.a
		g := h.games[a.GameID]
		switch {
		case i == 0 && fail != nil:
			errs[i] = fail
		case g.Version != a.ExpectVersion:
			errs[i] = domain.Errorf(domain.Conflict, "game %q is at version %d, not %d", a.GameID, g.Version, a.ExpectVersion)
		default:
			g.Version, g.State, g.Phase, g.Ended, g.UpdatedAt = a.Move.Seq, a.State, a.Phase, a.Ended, a.Move.At
			h.games[a.GameID] = g
			h.moves[a.GameID] = append(h.moves[a.GameID], a.Move)
			if r := a.Idempotency; r != nil {
				h.idem[a.GameID+"\x00"+r.Scope+"\x00"+r.Key] = *r
			}
		}
	}
	h.mu.Unlock()
	for i := n - 1; i >= 0; i-- {
		batch[i].done <- errs[i]
	}
}

func (h *heldStore) storedVersion(id string) int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.games[id].Version
}

// newTable creates a digital game of four with a known seed and returns its
// id with the moves of its setup, the keep of each seat (as JSON).
func newTable(t testing.TB, s *service.Games) (string, [][]byte) {
	t.Helper()
	players := []string{"Ann", "Ben", "Cid", "Dee"}
	c, err := s.Create(t.Context(), silvergold.RulesetName, domain.CreateRequest{Mode: "digital", Players: players, Seed: "held"})
	require.NoError(t, err)
	var v silvergold.View
	require.NoError(t, json.Unmarshal(c.Game.State, &v))
	keeps := make([][]byte, len(players))
	for i, p := range v.Players {
		keeps[i] = fmt.Appendf(nil, `{"type":"keep","seat":%d,"cards":[%q,%q]}`, i, p.Dealt[0], p.Dealt[1])
	}
	return c.Game.ID, keeps
}

type outcome struct {
	p   domain.Played
	err error
}

func playAsync(s *service.Games, id string, seat int, move []byte, opt domain.PlayOptions) <-chan outcome {
	out := make(chan outcome, 1)
	go func() {
		p, err := s.Play(context.Background(), id, domain.Actor{Seat: seat}, move, opt)
		out <- outcome{p, err}
	}()
	return out
}

// recv waits for the outcome of a Play.
func recv(t *testing.T, ch <-chan outcome) outcome {
	t.Helper()
	select {
	case o := <-ch:
		return o
	case <-time.After(5 * time.Second):
		t.Fatal("Play did not return")
		return outcome{}
	}
}

func TestPlay(t *testing.T) {
	t.Run("moves of one game queue behind a commit in flight and share it", func(t *testing.T) {
		st := newHeldStore()
		s := service.New(st, silvergold.NewRules())
		id, keeps := newTable(t, s)

		first := playAsync(s, id, 0, keeps[0], domain.PlayOptions{})
		st.waitQueued(t, 1)
		second := playAsync(s, id, 1, keeps[1], domain.PlayOptions{})
		st.waitQueued(t, 1) // applied on top of the first before its commit
		select {
		case o := <-first:
			t.Fatalf("the first move was answered before its commit: %+v", o)
		case o := <-second:
			t.Fatalf("the second move was answered before its commit: %+v", o)
		default:
		}
		st.commit(2, nil)
		a, b := recv(t, first), recv(t, second)
		require.NoError(t, a.err)
		require.NoError(t, b.err)
		assert.Equal(t, int64(1), a.p.Seq)
		assert.Equal(t, int64(2), b.p.Seq)
		assert.Equal(t, int64(2), st.storedVersion(id))
	})

	t.Run("a read never shows a move before its commit", func(t *testing.T) {
		st := newHeldStore()
		s := service.New(st, silvergold.NewRules())
		id, keeps := newTable(t, s)

		first := playAsync(s, id, 0, keeps[0], domain.PlayOptions{})
		st.waitQueued(t, 1)
		g, err := s.Game(t.Context(), id, domain.Public)
		require.NoError(t, err)
		assert.Equal(t, int64(0), g.Version)
		_, legal, err := s.LegalMoves(t.Context(), id, domain.SeatViewer(0), 0)
		require.NoError(t, err)
		assert.Contains(t, string(legal), `"action":"keep"`, "seat 0 still keeps until its keep is committed")

		st.commit(1, nil)
		require.NoError(t, recv(t, first).err)
		g, err = s.Game(t.Context(), id, domain.Public)
		require.NoError(t, err)
		assert.Equal(t, int64(1), g.Version)
	})

	t.Run("a failed commit leaves nothing of its move in memory", func(t *testing.T) {
		st := newHeldStore()
		s := service.New(st, silvergold.NewRules())
		id, keeps := newTable(t, s)

		first := playAsync(s, id, 0, keeps[0], domain.PlayOptions{})
		st.waitQueued(t, 1)
		second := playAsync(s, id, 1, keeps[1], domain.PlayOptions{})
		st.waitQueued(t, 1)
		disk := errors.New("disk full")
		st.commit(2, disk)
		a, b := recv(t, first), recv(t, second)
		assert.ErrorIs(t, a.err, disk)
		assert.Equal(t, domain.Conflict, domain.ErrorCode(b.err), "the move applied on top of the failed one expected its version")
		assert.Equal(t, int64(0), st.storedVersion(id))

		// Seat 0 has not kept as far as anyone can tell: it keeps again, at
		// version 1, on the game read again from the store.
		again := playAsync(s, id, 0, keeps[0], domain.PlayOptions{})
		st.waitQueued(t, 1)
		st.commit(1, nil)
		o := recv(t, again)
		require.NoError(t, o.err)
		assert.Equal(t, int64(1), o.p.Seq)
	})

	t.Run("a retry of a move in flight gets the first answer and applies nothing", func(t *testing.T) {
		st := newHeldStore()
		s := service.New(st, silvergold.NewRules())
		id, keeps := newTable(t, s)
		opt := domain.PlayOptions{IdempotencyKey: "ann-keep"}

		first := playAsync(s, id, 0, keeps[0], opt)
		st.waitQueued(t, 1)
		retry := playAsync(s, id, 0, keeps[0], opt)
		select {
		case o := <-retry:
			t.Fatalf("the retry was answered before the first was committed: %+v", o)
		case <-time.After(50 * time.Millisecond):
		}
		st.commit(1, nil)
		select {
		case <-st.queued:
			t.Fatal("the retry was applied a second time")
		case <-time.After(50 * time.Millisecond):
		}
		a, b := recv(t, first), recv(t, retry)
		require.NoError(t, a.err)
		require.NoError(t, b.err)
		assert.False(t, a.p.Replayed)
		assert.True(t, b.p.Replayed)
		assert.Equal(t, a.p.Response, b.p.Response)
		assert.Equal(t, int64(1), st.storedVersion(id))

		// Another move with the same key is refused.
		_, err := s.Play(t.Context(), id, domain.Actor{Seat: 0}, keeps[1], opt)
		assert.Equal(t, domain.IdempotencyReused, domain.ErrorCode(err))
	})

	t.Run("a retry while a later move is on its way to the store answers with the committed game", func(t *testing.T) {
		st := newHeldStore()
		s := service.New(st, silvergold.NewRules())
		id, keeps := newTable(t, s)
		opt := domain.PlayOptions{IdempotencyKey: "ann-keep"}
		first := playAsync(s, id, 0, keeps[0], opt)
		st.waitQueued(t, 1)
		st.commit(1, nil)
		require.NoError(t, recv(t, first).err)
		ben := playAsync(s, id, 1, keeps[1], domain.PlayOptions{})
		st.waitQueued(t, 1) // Ben's keep is applied, not yet committed

		o := recv(t, playAsync(s, id, 0, keeps[0], opt))
		require.NoError(t, o.err)
		assert.True(t, o.p.Replayed)
		assert.Equal(t, int64(1), o.p.Seq)
		assert.Equal(t, int64(1), o.p.Game.Version, "a move not yet committed is not shown")
		var resp struct {
			Seq  int64           `json:"seq"`
			Game domain.GameView `json:"game"`
		}
		require.NoError(t, json.Unmarshal(o.p.Response, &resp))
		assert.Equal(t, int64(1), resp.Game.Version)

		st.commit(1, nil)
		require.NoError(t, recv(t, ben).err)
		o = recv(t, playAsync(s, id, 0, keeps[0], opt))
		require.NoError(t, o.err)
		assert.Equal(t, int64(1), o.p.Seq)
		assert.Equal(t, int64(2), o.p.Game.Version, "once committed, the retry shows the game as it stands")
	})

	t.Run("a key used before the game was cached is still a retry", func(t *testing.T) {
		st := newHeldStore()
		s := service.New(st, silvergold.NewRules())
		id, keeps := newTable(t, s)
		opt := domain.PlayOptions{IdempotencyKey: "ann-keep"}
		first := playAsync(s, id, 0, keeps[0], opt)
		st.waitQueued(t, 1)
		st.commit(1, nil)
		a := recv(t, first)
		require.NoError(t, a.err)

		restarted := service.New(st, silvergold.NewRules()) // a new process over the same store
		retry := playAsync(restarted, id, 0, keeps[0], opt)
		select {
		case <-st.queued:
			t.Fatal("the retry was applied a second time")
		case o := <-retry:
			require.NoError(t, o.err)
			assert.True(t, o.p.Replayed)
			assert.Equal(t, a.p.Response, o.p.Response)
		case <-time.After(5 * time.Second):
			t.Fatal("Play did not return")
		}
	})

	t.Run("live clients hear the moves of a game in their order", func(t *testing.T) {
		st := newHeldStore()
		s := service.New(st, silvergold.NewRules())
		id, keeps := newTable(t, s)
		updates, stop := s.Subscribe(id)
		defer stop()
		// Listeners too; one drops itself at the second move.
		all, first := &listener{}, &listener{keep: 1}
		defer s.Listen(id, all)()
		defer s.Listen(id, first)()

		var outs []<-chan outcome
		for seat, k := range keeps {
			outs = append(outs, playAsync(s, id, seat, k, domain.PlayOptions{}))
			st.waitQueued(t, 1)
		}
		st.commit(len(keeps), nil) // answered last first
		for _, o := range outs {
			require.NoError(t, recv(t, o).err)
		}
		var want []int64
		for range keeps {
			u := <-updates
			want = append(want, int64(len(want)+1))
			assert.Equal(t, want[len(want)-1], u.Seq)
		}
		assert.Equal(t, want, all.seqs())
		assert.Equal(t, want[:2], first.seqs(), "the listener that dropped itself at the second move heard more")
	})

	t.Run("a move let in while the one before is published is published after it", func(t *testing.T) {
		st := newHeldStore()
		s := service.New(st, silvergold.NewRules())
		id, keeps := newTable(t, s)
		all := &listener{}
		defer s.Listen(id, all)()
		second := make(chan outcome, 1)
		defer service.SetBeforePublish(func(seq int64) {
			if seq != 1 {
				return
			}
			// The first move is stored and its game's lock released: the
			// next seat's move comes in and is stored before the first
			// is published. Its Play may wait for that: not past 300ms.
			out := playAsync(s, id, 1, keeps[1], domain.PlayOptions{})
			select {
			case <-st.queued:
				st.commit(1, nil)
			case <-time.After(30 * time.Second): // a deadline, met at once
			}
			select {
			case o := <-out:
				second <- o
			case <-time.After(300 * time.Millisecond):
				go func() { second <- <-out }()
			}
		})()
		first := playAsync(s, id, 0, keeps[0], domain.PlayOptions{})
		st.waitQueued(t, 1)
		st.commit(1, nil)
		require.NoError(t, recv(t, first).err)
		require.NoError(t, recv(t, second).err)
		assert.Equal(t, []int64{1, 2}, all.seqs(), "an event stream told no move 1, and no listing after it")
	})

	t.Run("the response is what json.Marshal makes of the result", func(t *testing.T) {
		st := newHeldStore()
		s := service.New(st, silvergold.NewRules())
		id, keeps := newTable(t, s)
		first := playAsync(s, id, 0, keeps[0], domain.PlayOptions{})
		st.waitQueued(t, 1)
		st.commit(1, nil)
		o := recv(t, first)
		require.NoError(t, o.err)
		want, err := json.Marshal(struct {
			Seq  int64           `json:"seq"`
			Game domain.GameView `json:"game"`
		}{o.p.Seq, o.p.Game})
		require.NoError(t, err)
		assert.Equal(t, string(want), string(o.p.Response))
	})
}

func TestCache(t *testing.T) {
	t.Run("keeps at most its size of games and reads the others again", func(t *testing.T) {
		st := newHeldStore()
		s := service.New(st, silvergold.NewRules())
		s.SetCacheSize(2)
		var ids []string
		for range 5 {
			id, _ := newTable(t, s)
			ids = append(ids, id)
		}
		assert.Equal(t, 2, s.CachedGames())

		reads := func() int {
			st.mu.Lock()
			defer st.mu.Unlock()
			return st.reads
		}
		before := reads()
		for _, id := range ids[3:] {
			_, err := s.Game(t.Context(), id, domain.Public)
			require.NoError(t, err)
		}
		assert.Equal(t, before, reads(), "the two games created last are in memory")
		_, err := s.Game(t.Context(), ids[0], domain.Public)
		require.NoError(t, err)
		assert.Equal(t, before+1, reads(), "the first game was read from the store")
		assert.Equal(t, 2, s.CachedGames())
	})

	t.Run("a game that does not exist is not found", func(t *testing.T) {
		s := service.New(newHeldStore(), silvergold.NewRules())
		_, err := s.Game(t.Context(), "nope", domain.Public)
		assert.Equal(t, domain.NotFound, domain.ErrorCode(err))
		_, err = s.Authenticate(t.Context(), "nope", "secret")
		assert.Equal(t, domain.NotFound, domain.ErrorCode(err))
		assert.Zero(t, s.CachedGames(), "nothing is kept for an id that names no game")
	})
}

func (h *heldStore) SetSeat(_ context.Context, id string, seat int, hash string, onlyFree bool) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	c, ok := h.creds[id]
	if !ok || seat >= len(c.SeatHashes) {
		return domain.Errorf(domain.NotFound, "no seat %d in game %q", seat, id)
	}
	if onlyFree && c.IsTaken(seat) && c.SeatHashes[seat] != hash {
		return domain.Errorf(domain.Conflict, "seat %d is taken", seat)
	}
	c.SeatHashes = slices.Clone(c.SeatHashes)
	c.Taken = make([]bool, len(c.SeatHashes))
	copy(c.Taken, h.creds[id].Taken)
	c.SeatHashes[seat], c.Taken[seat] = hash, true
	h.creds[id] = c
	return nil
}

// The held store keeps no join codes and no next games: the service's tests
// of those run on SQLite (seating_test.go).
func (h *heldStore) SetJoinCode(context.Context, string, string) (string, error) {
	return "", domain.Errorf(domain.Unavailable, "the held store keeps no join codes")
}

func (h *heldStore) GameOfJoinCode(context.Context, string) (string, error) {
	return "", domain.Errorf(domain.NotFound, "the held store keeps no join codes")
}

func (h *heldStore) CreateNextGame(context.Context, string, domain.GameRecord, domain.Credentials, domain.CatalogBlob) (string, error) {
	return "", domain.Errorf(domain.Unavailable, "the held store keeps no next games")
}

func (h *heldStore) NextGame(context.Context, string) (string, error) { return "", nil }

// listener records the updates it hears; with keep > 0 it drops itself at
// the update after keep.
type listener struct {
	mu   sync.Mutex
	keep int
	got  []int64
}

func (l *listener) Update(u *domain.Update) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.got = append(l.got, u.Seq)
	return l.keep == 0 || len(l.got) <= l.keep
}

func (*listener) SeatsChanged() {}

func (l *listener) seqs() []int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.got)
}

// TestUpdatePlain: an update is marked plain exactly when its move and its
// public form (the keeps of Silver & Gold have one) are domain.PlainJSON,
// which the event streams then do not check again (Silver & Gold logs a
// move as it writes it, sent with spaces or not).
func TestUpdatePlain(t *testing.T) {
	s, _ := newService(t, filepath.Join(t.TempDir(), "t.db"))
	id, keeps := newTable(t, s)
	keeps[1] = bytes.ReplaceAll(keeps[1], []byte(`,`), []byte(`, `))
	updates, stop := s.Subscribe(id)
	defer stop()
	plain := 0
	for seat, k := range keeps {
		_, err := s.Play(t.Context(), id, domain.Actor{Seat: seat}, k, domain.PlayOptions{})
		require.NoError(t, err)
		u := <-updates
		want := domain.PlainJSON(u.Move) && (u.Public == nil || domain.PlainJSON(u.Public))
		assert.Equal(t, want, u.Plain, "move %s, public %s", u.Move, u.Public)
		if u.Plain {
			plain++
		}
	}
	assert.Positive(t, plain, "no move was plain")
}
