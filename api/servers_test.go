package api_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/treasury-games/treasury/api"
	"github.com/treasury-games/treasury/api/apitest"
	"github.com/treasury-games/treasury/api/client"
	"github.com/treasury-games/treasury/api/models"
	"github.com/treasury-games/treasury/domain"
	all "github.com/treasury-games/treasury/domain/rulesets"
	"github.com/treasury-games/treasury/domain/service"
	"github.com/treasury-games/treasury/domain/silvergold"
	"github.com/treasury-games/treasury/scripts/deploy/nginx"
	"github.com/treasury-games/treasury/storage/postgres"
	"github.com/treasury-games/treasury/storage/postgres/pgtest"
)

// Several servers, one truth: the tests here run three real API servers, each
// with its own service and its own connections, on one real PostgreSQL
// database (a throwaway cluster; skipped where PostgreSQL is not installed),
// as treasury serve wires them.

func TestMain(m *testing.M) { pgtest.Main(m) }

// racingStore is the PostgreSQL store of one server, counting the appends
// that lost the race for a version to another server, and holding appends
// back while hold is set (the test then releases them).
type racingStore struct {
	*postgres.Store
	lost atomic.Int64
	hold atomic.Pointer[chan struct{}]
	held chan struct{} // receives when an append is held back
	lose atomic.Bool   // every append loses a race that never happened
	// unsure: every game created is stored, and the store says its commit's
	// outcome is unknown (Unavailable: the connection was lost at COMMIT)
	unsure atomic.Bool
	// calls counts the store's calls by method (Append, Version, Idempotency,
	// Game, Moves, Credentials, SetSeat).
	calls sync.Map // string -> *atomic.Int64
}

func (r *racingStore) count(method string) {
	c, _ := r.calls.LoadOrStore(method, new(atomic.Int64))
	c.(*atomic.Int64).Add(1)
}

// called returns how many times method was called.
func (r *racingStore) called(method string) int64 {
	if c, ok := r.calls.Load(method); ok {
		return c.(*atomic.Int64).Load()
	}
	return 0
}

func (r *racingStore) Version(ctx context.Context, id string) (domain.Revision, error) {
	r.count("Version")
	return r.Store.Version(ctx, id)
}

func (r *racingStore) Moves(ctx context.Context, id string, after int64, limit int) ([]domain.MoveRecord, error) {
	r.count("Moves")
	return r.Store.Moves(ctx, id, after, limit)
}

func (r *racingStore) Credentials(ctx context.Context, id string) (domain.Credentials, error) {
	r.count("Credentials")
	return r.Store.Credentials(ctx, id)
}

func (r *racingStore) SetSeat(ctx context.Context, id string, seat int, hash string, onlyFree bool) error {
	r.count("SetSeat")
	return r.Store.SetSeat(ctx, id, seat, hash, onlyFree)
}

func (r *racingStore) Idempotency(ctx context.Context, gameID, scope, key string) (*domain.IdempotencyRecord, error) {
	r.count("Idempotency")
	return r.Store.Idempotency(ctx, gameID, scope, key)
}

func (r *racingStore) Game(ctx context.Context, id string) (domain.GameRecord, error) {
	r.count("Game")
	return r.Store.Game(ctx, id)
}

func (r *racingStore) CreateGame(ctx context.Context, g domain.GameRecord, creds domain.Credentials, cat domain.CatalogBlob) error {
	err := r.Store.CreateGame(ctx, g, creds, cat)
	if err == nil && r.unsure.Load() {
		return domain.Errorf(domain.Unavailable, "postgres: the connection was lost at the COMMIT of game %q (made on purpose)", g.ID)
	}
	return err
}

func (r *racingStore) Append(ctx context.Context, a domain.Append) error {
	if err := r.begin(a); err != nil {
		return err
	}
	return r.answered(a, r.Store.Append(ctx, a))
}

// QueueAppend is Append for the moves the service queues behind a game's
// commit in flight: counted, held back and lost alike.
func (r *racingStore) QueueAppend(ctx context.Context, a domain.Append) func() error {
	if err := r.begin(a); err != nil {
		return func() error { return err }
	}
	wait := r.Store.QueueAppend(ctx, a)
	return func() error { return r.answered(a, wait()) }
}

// begin counts an append and holds it back while hold is set; with lose it
// returns the race it loses.
func (r *racingStore) begin(a domain.Append) error {
	r.count("Append")
	if h := r.hold.Load(); h != nil {
		r.held <- struct{}{}
		<-*h
	}
	if r.lose.Load() {
		r.lost.Add(1)
		return domain.Errorf(domain.Conflict, "game %q moved on (a race lost on purpose)", a.GameID)
	}
	return nil
}

// answered counts the store's answer to an append: a race lost, or a move
// of a.GameID stored.
func (r *racingStore) answered(a domain.Append, err error) error {
	if domain.ErrorCode(err) == domain.Conflict {
		r.lost.Add(1)
	}
	if err == nil {
		r.count("Append " + a.GameID)
	}
	return err
}

// sharedServer is one of the servers.
type sharedServer struct {
	*server
	games  *service.Games
	store  *racingStore
	client *client.ClientWithResponses
}

type sharedOptions struct {
	heartbeat time.Duration
	deaf      map[int]bool // servers that run no FollowStore: they hear of no notice
	// lose: servers whose store drops the notices of the moves it returns true for
	lose map[int]func(gameID string, seq int64) bool
}

// startShared starts n servers on one new database.
func startShared(t *testing.T, n int, o sharedOptions) []*sharedServer {
	t.Helper()
	if spec.Err != nil {
		t.Fatal(spec.Err)
	}
	url := pgtest.Database(t)
	var out []*sharedServer
	for i := range n {
		var opts []postgres.Option
		if f := o.lose[i]; f != nil {
			opts = append(opts, postgres.WithLostNotices(f))
		}
		pg, err := postgres.Open(t.Context(), url, opts...)
		if err != nil {
			t.Fatal(err)
		}
		store := &racingStore{Store: pg, held: make(chan struct{}, 10)}
		games := service.New(store, all.All()...)
		if !games.Shared() {
			t.Fatal("a service over PostgreSQL does not know that the store is shared")
		}
		ctx, stopFollowing := context.WithCancel(context.Background())
		followed := make(chan struct{})
		go func() {
			if !o.deaf[i] {
				_ = games.FollowStore(ctx)
			}
			close(followed)
		}()
		done := make(chan struct{})
		log := apitest.Logger(t, slog.LevelWarn)
		h, err := api.NewHandler(games, api.Options{Logger: log, DefaultRuleset: silvergold.RulesetName,
			Heartbeat: o.heartbeat, Done: done})
		if err != nil {
			t.Fatal(err)
		}
		hs := httptest.NewServer(h)
		s := &sharedServer{server: &server{T: t, HTTP: hs}, games: games, store: store}
		if s.client, err = client.NewClientWithResponses(hs.URL, client.WithHTTPClient(hs.Client())); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			close(done)
			hs.Close()
			stopFollowing()
			<-followed
			pg.Close()
		})
		out = append(out, s)
	}
	return out
}

// TestSharedEventStream plays a whole game with each move made on another of
// three servers, while event streams on every server follow it, one of them
// dropping its connection on one server and resuming on another with
// Last-Event-ID. Server C hears no notice at all: its streams learn of the
// moves only by reading the log at every heartbeat, a heartbeat late.
func TestSharedEventStream(t *testing.T) {
	srv := startShared(t, 3, sharedOptions{heartbeat: 100 * time.Millisecond, deaf: map[int]bool{2: true}})
	a, b, c := srv[0], srv[1], srv[2]
	p := create(t, a.client, 2, "shared-stream")
	path := "/v1/games/" + p.id + "/events"
	host := openStream(t, b.server, path+"?access_token="+p.host)
	deaf := openStream(t, c.server, path, "Authorization", "Bearer "+p.seats[0])

	// Each move on the next server: a step reads the game and its legal
	// moves on that server, so a stale read there would make it fail.
	at := make(chan int64, 1000)
	played := make(chan int64, 1)
	go func() {
		n := int64(0)
		for {
			q := p
			q.c = srv[n%3].client
			if !q.step(t) {
				break
			}
			n++
			at <- n
		}
		close(at)
		played <- n
	}()
	waitFor := func(v int64) {
		t.Helper()
		for n := range at {
			if n >= v {
				return
			}
		}
		t.Fatalf("the game ended before version %d", v)
	}

	// Seat 1 follows on A, drops after move 20 and resumes on C.
	seat1 := openStream(t, a.server, path, "Authorization", "Bearer "+p.seats[1])
	var before []client.Event
	for {
		ev, ok := seat1.next(t)
		if !ok {
			t.Fatal("seat 1's stream ended early")
		}
		before = append(before, ev)
		if n, _ := strconv.Atoi(ev.ID); ev.Type != "snapshot" && n >= 20 {
			break
		}
	}
	seat1.resp.Body.Close()
	lastID := before[len(before)-1].ID
	waitFor(30)
	again := openStream(t, c.server, path, "Authorization", "Bearer "+p.seats[1], "Last-Event-ID", lastID)
	go func() {
		for range at {
		}
	}()
	total := <-played
	if total < 40 {
		t.Fatalf("the game ended after %d moves", total)
	}

	hostEvents := host.all(t)
	snap, hostGroups := groups(t, hostEvents)
	if snap == nil || snap.Version != 0 {
		t.Fatalf("the host's stream on B, opened before any move, starts with %+v", snap)
	}
	if got := seqs(hostGroups); !slices.Equal(got, span(0, total)) {
		t.Fatalf("the host on B saw moves %v, want 1..%d once each, in order", got, total)
	}
	// Every server's log is the same, and is what the stream told.
	var logs [][]byte
	for _, s := range srv {
		r := s.Do(t, http.MethodGet, "/v1/games/"+p.id+"/moves", nil, cred(p.host))
		wantStatus(t, r, http.StatusOK)
		logs = append(logs, r.Body)
	}
	if !bytes.Equal(logs[0], logs[1]) || !bytes.Equal(logs[0], logs[2]) {
		t.Errorf("the servers' logs differ")
	}
	log, err := c.client.ListMovesWithResponse(t.Context(), p.id, nil)
	if err != nil || log.JSON200 == nil || len(log.JSON200.Moves) != int(total) {
		t.Fatalf("the log: %v %s", err, log.Body)
	}
	for i, m := range log.JSON200.Moves {
		g := hostGroups[i]
		if g.move.Seq != m.Seq || string(raw(t, g.move.Move)) != string(raw(t, m.Move)) || !g.move.At.Equal(m.At) {
			t.Fatalf("move %d on the stream %+v, in the log %+v", m.Seq, g.move, m)
		}
	}
	if got := deaf.all(t); got[0].Type != "snapshot" || !slices.EqualFunc(got[1:], hostEvents[1:], sameEvent) {
		_, dg := groups(t, got)
		t.Errorf("seat 0 on C, which hears no notice, saw moves %v, not what the host saw", seqs(dg))
	}
	snap1, first := groups(t, before)
	_, second := groups(t, again.all(t))
	resumed, _ := strconv.ParseInt(lastID, 10, 64)
	if got := seqs(first); snap1 == nil || !slices.Equal(got, span(snap1.Version, resumed)) {
		t.Errorf("before the drop seat 1 saw %v on A after its snapshot %+v", got, snap1)
	}
	if got := seqs(second); !slices.Equal(got, span(resumed, total)) {
		t.Errorf("after resuming on C with Last-Event-ID %s seat 1 saw %v, want %d..%d once each", lastID, got, resumed+1, total)
	}
}

// newKeeps creates a digital game of four on s and returns it with each
// seat's keep (JSON): the four keeps are legal in any order.
func newKeeps(t *testing.T, s *sharedServer) (player, [][]byte) {
	t.Helper()
	p := create(t, s.client, 4, "shared-keeps")
	g, err := s.client.GetGameWithResponse(t.Context(), p.id, nil, client.Bearer(p.host))
	if err != nil || g.JSON200 == nil {
		t.Fatalf("read the game: %v", err)
	}
	var v silvergold.View
	if err := json.Unmarshal(raw(t, g.JSON200.State), &v); err != nil {
		t.Fatal(err)
	}
	keeps := make([][]byte, 4)
	for i, pl := range v.Players {
		keeps[i] = fmt.Appendf(nil, `{"type":"keep","seat":%d,"cards":[%q,%q]}`, i, pl.Dealt[0], pl.Dealt[1])
	}
	return p, keeps
}

// TestSharedConcurrentMoves sends the four keeps of each of several games at
// once, each seat to another server. The keeps are legal in any order, so
// every one is accepted: the servers that lost a race apply the move again on
// the new state without the client hearing of it. Every acknowledged move is
// in the log once, at the version its answer named.
func TestSharedConcurrentMoves(t *testing.T) {
	srv := startShared(t, 3, sharedOptions{})
	const games = 8
	type answer struct {
		seat   int
		status int
		seq    int64
		body   []byte
	}
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		answers = map[string][]answer{}
		ps      []player
	)
	for range games {
		p, keeps := newKeeps(t, srv[0])
		ps = append(ps, p)
		// Every server reads the game first, so that each holds it in memory.
		for _, s := range srv {
			wantStatus(t, s.Do(t, http.MethodGet, "/v1/games/"+p.id, nil), http.StatusOK)
		}
		start := make(chan struct{})
		for seat := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				r := srv[seat%3].Do(t, http.MethodPost, "/v1/games/"+p.id+"/moves", keeps[seat], cred(p.seats[seat]))
				var res struct{ Seq int64 }
				_ = json.Unmarshal(r.Body, &res)
				mu.Lock()
				answers[p.id] = append(answers[p.id], answer{seat, r.Status, res.Seq, r.Body})
				mu.Unlock()
			}()
		}
		close(start)
	}
	wg.Wait()
	for _, p := range ps {
		var got []int64
		bySeq := map[int64]int{}
		for _, a := range answers[p.id] {
			if a.status != http.StatusOK {
				t.Errorf("game %s: seat %d's keep was answered %d: %s", p.id, a.seat, a.status, a.body)
				continue
			}
			got = append(got, a.seq)
			bySeq[a.seq] = a.seat
		}
		slices.Sort(got)
		if !slices.Equal(got, []int64{1, 2, 3, 4}) {
			t.Errorf("game %s: the keeps were answered with versions %v, want 1 to 4 once each", p.id, got)
		}
		log, err := srv[1].client.ListMovesWithResponse(t.Context(), p.id, nil)
		if err != nil || log.JSON200 == nil {
			t.Fatalf("the log: %v", err)
		}
		if n := len(log.JSON200.Moves); n != 4 {
			t.Errorf("game %s: the log holds %d moves, want 4", p.id, n)
		}
		for _, m := range log.JSON200.Moves {
			if seat, ok := bySeq[m.Seq]; !ok || m.Actor.Seat == nil || *m.Actor.Seat != seat {
				t.Errorf("game %s: move %d in the log is by seat %v; the answer with that version went to seat %d", p.id, m.Seq, m.Actor.Seat, seat)
			}
		}
	}
	lost := int64(0)
	for _, s := range srv {
		lost += s.store.lost.Load()
	}
	t.Logf("%d appends lost a race and were applied again", lost)
}

// TestSharedLostRace makes a move lose the race for a version for certain:
// server B applies seat 1's keep to the game at version 0 and is held back
// before storing it while server A stores seat 0's keep as version 1. B's
// append then finds the version moved on; B reads the game again, applies the
// keep to it, stores it as version 2, and the client hears nothing of it. A
// move that is no longer legal after the race gets the rules' own answer.
func TestSharedLostRace(t *testing.T) {
	srv := startShared(t, 2, sharedOptions{})
	a, b := srv[0], srv[1]
	p, keeps := newKeeps(t, a)
	wantStatus(t, b.Do(t, http.MethodGet, "/v1/games/"+p.id, nil), http.StatusOK) // B holds version 0

	hold := make(chan struct{})
	b.store.hold.Store(&hold)
	answered := make(chan resp, 1)
	go func() {
		answered <- b.Do(t, http.MethodPost, "/v1/games/"+p.id+"/moves", keeps[1], cred(p.seats[1]))
	}()
	<-b.store.held // B has applied the keep to version 0 and is about to store it
	r := a.Do(t, http.MethodPost, "/v1/games/"+p.id+"/moves", keeps[0], cred(p.seats[0]))
	wantStatus(t, r, http.StatusOK)
	b.store.hold.Store(nil)
	close(hold)
	r = <-answered
	wantStatus(t, r, http.StatusOK)
	if res := decode[struct{ Seq int64 }](t, r.Body); res.Seq != 2 {
		t.Errorf("B's keep was stored as version %d, want 2", res.Seq)
	}
	if n := b.store.lost.Load(); n != 1 {
		t.Errorf("B lost %d races, want 1", n)
	}

	// The last keep (seat 3's) is sent to both; A applies it first but B
	// stores it first: on the new state, with everyone's cards kept, the
	// rules refuse a keep. (A's head was at version 1 when seat 2's keep
	// came: A tried it there without reading the version first, lost that
	// race to B's version 2 and stored the keep as version 3.)
	wantStatus(t, a.Do(t, http.MethodPost, "/v1/games/"+p.id+"/moves", keeps[2], cred(p.seats[2])), http.StatusOK)
	if n := a.store.lost.Load(); n != 1 {
		t.Errorf("A, whose head was one version behind, lost %d races, want 1", n)
	}
	hold = make(chan struct{})
	a.store.hold.Store(&hold)
	go func() {
		answered <- a.Do(t, http.MethodPost, "/v1/games/"+p.id+"/moves", keeps[3], cred(p.seats[3]))
	}()
	<-a.store.held
	wantStatus(t, b.Do(t, http.MethodPost, "/v1/games/"+p.id+"/moves", keeps[3], cred(p.seats[3])), http.StatusOK)
	a.store.hold.Store(nil)
	close(hold)
	wantProblem(t, <-answered, http.StatusUnprocessableEntity, "illegal_move")
	if n := a.store.lost.Load(); n != 2 {
		t.Errorf("A lost %d races in all, want 2", n)
	}
	g := decode[models.Game](t, b.Do(t, http.MethodGet, "/v1/games/"+p.id, nil).Body)
	if g.Version != 4 {
		t.Errorf("the game is at version %d, want 4", g.Version)
	}
}

// TestSharedLostRaces: a move that keeps losing the race is answered 409
// conflict after service.MaxLostRaces attempts, and nothing of it is stored.
func TestSharedLostRaces(t *testing.T) {
	srv := startShared(t, 1, sharedOptions{})
	a := srv[0]
	p, keeps := newKeeps(t, a)
	a.store.lose.Store(true)
	wantProblem(t, a.Do(t, http.MethodPost, "/v1/games/"+p.id+"/moves", keeps[0], cred(p.seats[0])), http.StatusConflict, "conflict")
	if n := a.store.lost.Load(); n != service.MaxLostRaces {
		t.Errorf("the move was tried %d times, want %d", n, service.MaxLostRaces)
	}
	a.store.lose.Store(false)
	g := decode[models.Game](t, a.Do(t, http.MethodGet, "/v1/games/"+p.id, nil).Body)
	if g.Version != 0 {
		t.Errorf("the game is at version %d", g.Version)
	}
	wantStatus(t, a.Do(t, http.MethodPost, "/v1/games/"+p.id+"/moves", keeps[0], cred(p.seats[0])), http.StatusOK)
}

// TestSharedIdempotency retries a move on another server than the first
// attempt, and sends one key to three servers at once.
func TestSharedIdempotency(t *testing.T) {
	srv := startShared(t, 3, sharedOptions{})
	a, b, c := srv[0], srv[1], srv[2]

	t.Run("a retry on another server returns the first answer", func(t *testing.T) {
		p, keeps := newKeeps(t, a)
		key := header("Idempotency-Key", "ann-keeps")
		wantStatus(t, b.Do(t, http.MethodGet, "/v1/games/"+p.id, nil), http.StatusOK) // B holds the game
		first := a.Do(t, http.MethodPost, "/v1/games/"+p.id+"/moves", keeps[0], cred(p.seats[0]), key)
		wantStatus(t, first, http.StatusOK)
		retry := b.Do(t, http.MethodPost, "/v1/games/"+p.id+"/moves", keeps[0], cred(p.seats[0]), key)
		wantStatus(t, retry, http.StatusOK)
		if !bytes.Equal(first.Body, retry.Body) {
			t.Errorf("the retry on B answered\n%s\nthe first attempt on A\n%s", retry.Body, first.Body)
		}
		if got := retry.Header.Get("Idempotency-Replayed"); got != "true" {
			t.Errorf("Idempotency-Replayed: %q on the retry", got)
		}
		if got := first.Header.Get("Idempotency-Replayed"); got != "false" {
			t.Errorf("Idempotency-Replayed: %q on the first attempt", got)
		}
		// The same key for another move, on a third server, is refused.
		wantProblem(t, c.Do(t, http.MethodPost, "/v1/games/"+p.id+"/moves", keeps[1], cred(p.seats[0]), key),
			http.StatusUnprocessableEntity, "idempotency_key_reused")
		g := decode[models.Game](t, c.Do(t, http.MethodGet, "/v1/games/"+p.id, nil).Body)
		if g.Version != 1 {
			t.Errorf("the game is at version %d after one move and its retries", g.Version)
		}
	})

	t.Run("one key sent to three servers at once is applied once", func(t *testing.T) {
		for range 5 {
			p, keeps := newKeeps(t, a)
			key := header("Idempotency-Key", "dee-keeps")
			out := make([]resp, 3)
			var wg sync.WaitGroup
			start := make(chan struct{})
			for i, s := range srv {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					out[i] = s.Do(t, http.MethodPost, "/v1/games/"+p.id+"/moves", keeps[3], cred(p.seats[3]), key)
				}()
			}
			close(start)
			wg.Wait()
			firsts := 0
			for i, r := range out {
				wantStatus(t, r, http.StatusOK)
				if r.Header.Get("Idempotency-Replayed") == "false" {
					firsts++
				}
				if !bytes.Equal(r.Body, out[0].Body) {
					t.Errorf("server %d answered\n%s\nserver 0\n%s", i, r.Body, out[0].Body)
				}
			}
			if firsts != 1 {
				t.Errorf("%d answers were not replays, want 1", firsts)
			}
			g := decode[models.Game](t, b.Do(t, http.MethodGet, "/v1/games/"+p.id, nil).Body)
			if g.Version != 1 {
				t.Errorf("the game is at version %d after one move sent three times", g.Version)
			}
		}
	})
}

// TestSharedReads: a read on any server after an answer shows at least the
// version of that answer, and a game another server deleted is gone.
func TestSharedReads(t *testing.T) {
	srv := startShared(t, 2, sharedOptions{})
	a, b := srv[0], srv[1]
	p, keeps := newKeeps(t, a)
	for seat, k := range keeps {
		wantStatus(t, b.Do(t, http.MethodGet, "/v1/games/"+p.id, nil), http.StatusOK) // B caches what it read
		r := a.Do(t, http.MethodPost, "/v1/games/"+p.id+"/moves", k, cred(p.seats[seat]))
		wantStatus(t, r, http.StatusOK)
		g := decode[models.Game](t, b.Do(t, http.MethodGet, "/v1/games/"+p.id, nil).Body)
		if want := int64(seat + 1); g.Version != want {
			t.Fatalf("after A answered version %d, B shows version %d", want, g.Version)
		}
	}
	n, err := a.games.DeleteIdleGames(t.Context(), time.Now().Add(time.Hour))
	if err != nil || n != 1 {
		t.Fatalf("delete: %d %v", n, err)
	}
	wantProblem(t, b.Do(t, http.MethodGet, "/v1/games/"+p.id, nil), http.StatusNotFound, "not_found")
}

// TestSharedNotices: with heartbeats too far apart to matter, a stream on B
// hears of the moves stored on A through the database's notices, in order.
func TestSharedNotices(t *testing.T) {
	srv := startShared(t, 2, sharedOptions{heartbeat: time.Hour})
	a, b := srv[0], srv[1]
	p, keeps := newKeeps(t, a)
	st := openStream(t, b.server, "/v1/games/"+p.id+"/events")
	if ev, _ := st.next(t); ev.Type != "snapshot" || ev.ID != "0" {
		t.Fatalf("the stream starts with %s %s", ev.Type, ev.ID)
	}
	for seat, k := range keeps {
		wantStatus(t, a.Do(t, http.MethodPost, "/v1/games/"+p.id+"/moves", k, cred(p.seats[seat])), http.StatusOK)
		for {
			ev, ok := st.next(t) // fails after 10 s without an event
			if !ok {
				t.Fatal("the stream ended")
			}
			if ev.ID != "" {
				if want := strconv.Itoa(seat + 1); ev.ID != want {
					t.Fatalf("the stream on B told version %s, want %s", ev.ID, want)
				}
				break
			}
		}
	}
}

// TestSharedLostNotice: A stores the four keeps of a game but the notices of
// the second and of the last are lost (as when a server stops between a
// commit and its notice). A stream on B still tells every move once, in
// order: the third notice shows the gap, and the stream's heartbeat finds
// the last move in the log.
func TestSharedLostNotice(t *testing.T) {
	srv := startShared(t, 2, sharedOptions{heartbeat: 100 * time.Millisecond,
		lose: map[int]func(string, int64) bool{0: func(_ string, seq int64) bool { return seq == 2 || seq == 4 }}})
	a, b := srv[0], srv[1]
	p, keeps := newKeeps(t, a)
	st := openStream(t, b.server, "/v1/games/"+p.id+"/events")
	if ev, _ := st.next(t); ev.Type != "snapshot" || ev.ID != "0" {
		t.Fatalf("the stream starts with %s %s", ev.Type, ev.ID)
	}
	for seat, k := range keeps {
		wantStatus(t, a.Do(t, http.MethodPost, "/v1/games/"+p.id+"/moves", k, cred(p.seats[seat])), http.StatusOK)
	}
	for want := 1; want <= len(keeps); {
		ev, ok := st.next(t) // fails after 10 s without an event
		if !ok {
			t.Fatal("the stream ended")
		}
		if ev.ID == "" {
			continue
		}
		if ev.ID != strconv.Itoa(want) {
			t.Fatalf("the stream on B told version %s, want %d", ev.ID, want)
		}
		want++
	}
}

// TestSharedOneRoundTrip: on a server that holds the game (a load balancer
// routes the game's requests to it), each move with an Idempotency-Key costs
// the store one call, its append: no read of the version, no look-up of the
// key. A retry, whose move the rules now refuse, reads both before it is
// answered as the retry it is; and a move on a server whose head is behind
// loses its race, reads the game again and is stored all the same.
func TestSharedOneRoundTrip(t *testing.T) {
	srv := startShared(t, 2, sharedOptions{})
	a, b := srv[0], srv[1]
	p, keeps := newKeeps(t, a)
	wantStatus(t, b.Do(t, http.MethodGet, "/v1/games/"+p.id, nil), http.StatusOK) // B holds version 0
	reads := func(s *sharedServer) int64 {
		return s.store.called("Version") + s.store.called("Idempotency") + s.store.called("Game")
	}
	before, appends := reads(a), a.store.called("Append")
	for seat := range 3 {
		wantStatus(t, a.Do(t, http.MethodPost, "/v1/games/"+p.id+"/moves", keeps[seat], cred(p.seats[seat]),
			header("Idempotency-Key", fmt.Sprint("k", seat))), http.StatusOK)
	}
	if n := reads(a) - before; n != 0 {
		t.Errorf("three moves on A read the store %d times besides their appends, want 0", n)
	}
	if n := a.store.called("Append") - appends; n != 3 {
		t.Errorf("three moves on A made %d appends", n)
	}
	retry := a.Do(t, http.MethodPost, "/v1/games/"+p.id+"/moves", keeps[2], cred(p.seats[2]), header("Idempotency-Key", "k2"))
	wantStatus(t, retry, http.StatusOK)
	if retry.Header.Get("Idempotency-Replayed") != "true" {
		t.Error("the retry of seat 2's keep was not answered as a replay")
	}
	// B's head is at version 0: its move loses the race to version 1.
	lost := b.store.lost.Load()
	r := b.Do(t, http.MethodPost, "/v1/games/"+p.id+"/moves", keeps[3], cred(p.seats[3]))
	wantStatus(t, r, http.StatusOK)
	if res := decode[struct{ Seq int64 }](t, r.Body); res.Seq != 4 {
		t.Errorf("the last keep on B was stored as version %d, want 4", res.Seq)
	}
	if n := b.store.lost.Load() - lost; n != 1 {
		t.Errorf("B, three versions behind, lost %d races, want 1", n)
	}
}

// TestSharedOneRoundTripCredentials: a move's credential costs the store no
// read of its own on the server that holds the game's credentials (their
// revision is checked by the append), and a seat issued again on another
// server is still refused at once: the old credential's move is refused
// with 401 and stores nothing, the new one's is stored, and the moves after
// it cost one round trip again.
func TestSharedOneRoundTripCredentials(t *testing.T) {
	srv := startShared(t, 2, sharedOptions{})
	a, b := srv[0], srv[1]
	p, keeps := newKeeps(t, a)
	for seat := range 4 { // each seat's credential used: the seats are taken
		wantStatus(t, a.Do(t, http.MethodGet, "/v1/games/"+p.id+"/legal-moves", nil, cred(p.seats[seat])), http.StatusOK)
	}
	move := func(seat int, credential string) resp {
		return a.Do(t, http.MethodPost, "/v1/games/"+p.id+"/moves", keeps[seat], cred(credential),
			header("Idempotency-Key", fmt.Sprint("k", seat, credential[:4])))
	}
	calls := func() (others, appends int64) {
		for _, m := range []string{"Version", "Idempotency", "Game", "Credentials", "SetSeat"} {
			others += a.store.called(m)
		}
		return others, a.store.called("Append")
	}
	wantStatus(t, move(0, p.seats[0]), http.StatusOK) // A reads the credentials once
	others, appends := calls()
	wantStatus(t, move(1, p.seats[1]), http.StatusOK)
	wantStatus(t, move(2, p.seats[2]), http.StatusOK)
	if o, n := calls(); o != others || n != appends+2 {
		t.Errorf("two moves on A cost %d appends and %d other calls to the store, want 2 and 0", n-appends, o-others)
	}

	r := b.Do(t, http.MethodPost, "/v1/games/"+p.id+"/seats/3/credential", nil, cred(p.host))
	wantStatus(t, r, http.StatusOK)
	fresh := decode[seatCredJSON](t, r.Body).Credential
	wantProblem(t, move(3, p.seats[3]), http.StatusUnauthorized, "unauthorized")
	g := b.Do(t, http.MethodGet, "/v1/games/"+p.id, nil, cred(p.host))
	wantStatus(t, g, http.StatusOK)
	if v := decode[struct{ Version int64 }](t, g.Body).Version; v != 3 {
		t.Errorf("after the old credential's move the game is at version %d, want 3", v)
	}

	others, appends = calls()
	r = move(3, fresh)
	wantStatus(t, r, http.StatusOK)
	if res := decode[struct{ Seq int64 }](t, r.Body); res.Seq != 4 {
		t.Errorf("the new credential's move was stored as version %d, want 4", res.Seq)
	}
	if o, n := calls(); o != others || n != appends+1 {
		t.Errorf("the new credential's move cost %d appends and %d other calls to the store, want 1 and 0", n-appends, o-others)
	}
}

// TestSharedRouted puts the load balancer Treasury ships (scripts/deploy/nginx: a
// hash of the game id in the path) in front of three servers. The four keeps
// of each of 8 games, sent at once through it, are all accepted at versions
// 1 to 4, each game's moves stored by one server, and no server loses a race;
// a game's event stream through it tells each move as it is made. A move
// sent to another server directly (unrouted) is still played right.
func TestSharedRouted(t *testing.T) {
	if _, err := nginx.Find(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	srv := startShared(t, 3, sharedOptions{})
	var backends []string
	for _, s := range srv {
		backends = append(backends, strings.TrimPrefix(s.HTTP.URL, "http://"))
	}
	lb, err := nginx.Start(t.Context(), t.TempDir(), backends)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(lb.Stop)
	post := func(path string, body []byte, credential string) (int, []byte) {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, lb.URL+path, bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+credential)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Error(err)
			return 0, nil
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, b
	}

	const games = 8
	var ps []player
	var all [][][]byte
	for range games {
		p, keeps := newKeeps(t, srv[0])
		ps, all = append(ps, p), append(all, keeps)
	}
	// A stream of the first game, through the balancer.
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, lb.URL+"/v1/games/"+ps[0].id+"/events", nil)
	if err != nil {
		t.Fatal(err)
	}
	stream, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Body.Close()
	if stream.StatusCode != http.StatusOK {
		t.Fatalf("the stream through nginx: %d", stream.StatusCode)
	}
	lines := bufio.NewScanner(stream.Body)
	waitLine := func(want string) {
		t.Helper()
		found := make(chan bool, 1)
		go func() {
			for lines.Scan() {
				if lines.Text() == want {
					found <- true
					return
				}
			}
			found <- false
		}()
		select {
		case ok := <-found:
			if !ok {
				t.Fatalf("the stream through nginx ended before %q", want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no %q on the stream through nginx within 10 s: is it buffered?", want)
		}
	}
	waitLine("event: snapshot")

	var wg sync.WaitGroup
	seqs := make([][]int64, games)
	var mu sync.Mutex
	for g, p := range ps {
		for seat, k := range all[g] {
			if g == 0 && seat == 3 {
				continue // sent unrouted below
			}
			wg.Go(func() {
				status, body := post("/v1/games/"+p.id+"/moves", k, p.seats[seat])
				if status != http.StatusOK {
					t.Errorf("game %d seat %d through nginx: %d %s", g, seat, status, body)
					return
				}
				res := decode[struct{ Seq int64 }](t, body)
				mu.Lock()
				seqs[g] = append(seqs[g], res.Seq)
				mu.Unlock()
			})
		}
	}
	wg.Wait()
	servers := map[int]bool{}
	routed := -1 // the server game 0 went to
	for g, p := range ps {
		var on []int
		for i, s := range srv {
			if s.store.called("Append "+p.id) > 0 {
				on = append(on, i)
			}
		}
		if len(on) != 1 {
			t.Errorf("game %d's moves were stored by servers %v, want one", g, on)
			continue
		}
		servers[on[0]] = true
		if g == 0 {
			routed = on[0]
		}
	}
	for i, s := range srv {
		if n := s.store.lost.Load(); n != 0 {
			t.Errorf("server %d lost %d races", i, n)
		}
	}
	t.Logf("the 8 games were played on servers %v", servers)

	// Unrouted: game 0's last keep straight to a server that played none
	// of it; the stream through nginx (on the routed server) tells it too.
	if routed < 0 {
		t.FailNow()
	}
	other := srv[(routed+1)%len(srv)]
	r := other.Do(t, http.MethodPost, "/v1/games/"+ps[0].id+"/moves", all[0][3], cred(ps[0].seats[3]))
	wantStatus(t, r, http.StatusOK)
	seqs[0] = append(seqs[0], decode[struct{ Seq int64 }](t, r.Body).Seq)
	for g := range ps {
		slices.Sort(seqs[g])
		if !slices.Equal(seqs[g], []int64{1, 2, 3, 4}) {
			t.Errorf("game %d: versions %v, want 1..4 once each", g, seqs[g])
		}
	}
	for i := 1; i <= 4; i++ {
		waitLine("id: " + strconv.Itoa(i))
	}
}

// TestSharedStreamListings: event streams that tell their seats' legal
// moves (?legal_moves=true, as the table app and the bots follow a game)
// cost the server that holds the game no read of the store after its own
// moves: the listing told after an update is of the version the stream has
// just told, which that server stored itself. A move stored on another
// server is still followed by the listing that server gives for it.
//
// A drops the notices of the keeps, which it made itself: a notice of its
// own move that arrives before the server has told the move to its streams
// has them read the move back from the log (Game, Moves), a cost apart from
// the listings' (docs/scaling.md), which made this count depend on timing.
func TestSharedStreamListings(t *testing.T) {
	srv := startShared(t, 2, sharedOptions{heartbeat: time.Hour,
		lose: map[int]func(string, int64) bool{0: func(_ string, seq int64) bool { return seq <= 4 }}})
	a, b := srv[0], srv[1]
	p, keeps := newKeeps(t, a)
	for seat := range keeps { // each seat's credential used: the seats are taken
		wantStatus(t, a.Do(t, http.MethodGet, "/v1/games/"+p.id+"/legal-moves", nil, cred(p.seats[seat])), http.StatusOK)
	}
	path := "/v1/games/" + p.id + "/events?legal_moves=true"
	streams := make([]*stream, len(keeps))
	for seat := range keeps {
		streams[seat] = openStream(t, a.server, path, "Authorization", "Bearer "+p.seats[seat])
		if ev := nextListing(t, streams[seat]); ev.version != 0 {
			t.Fatalf("seat %d's stream first lists the moves of version %d", seat, ev.version)
		}
	}
	reads := func() (n int64) {
		for _, m := range []string{"Version", "Game", "Moves", "Credentials", "Idempotency"} {
			n += a.store.called(m)
		}
		return n
	}
	before := reads()
	beforeBy := map[string]int64{}
	for _, m := range []string{"Version", "Game", "Moves", "Credentials", "Idempotency"} {
		beforeBy[m] = a.store.called(m)
	}
	for seat, k := range keeps {
		wantStatus(t, a.Do(t, http.MethodPost, "/v1/games/"+p.id+"/moves", k, cred(p.seats[seat])), http.StatusOK)
	}
	for seat, st := range streams {
		// A listing is made before the update it follows is written.
		for ev := (client.Event{}); ev.ID != fmt.Sprint(len(keeps)); {
			var ok bool
			if ev, ok = st.next(t); !ok {
				t.Fatalf("seat %d's stream ended", seat)
			}
		}
	}
	if n := reads() - before; n != 0 {
		by := map[string]int64{}
		for _, m := range []string{"Version", "Game", "Moves", "Credentials", "Idempotency"} {
			by[m] = a.store.called(m) - beforeBy[m]
		}
		t.Errorf("four keeps on A, followed by four listing streams on A, read the store %d times besides the appends, want 0 (%v)", n, by)
	}

	// The next move on B: A learns of it from B's notice, and the mover's
	// stream on A lists what B lists for it.
	g := b.Do(t, http.MethodGet, "/v1/games/"+p.id, nil, cred(p.host))
	wantStatus(t, g, http.StatusOK)
	seat := *decode[struct{ State silvergold.View }](t, g.Body).State.Awaiting[0].Seat
	q := p
	q.c = b.client
	if !q.step(t) {
		t.Fatal("the game ended after the keeps")
	}
	want := b.Do(t, http.MethodGet, "/v1/games/"+p.id+"/legal-moves", nil, cred(p.seats[seat]))
	wantStatus(t, want, http.StatusOK)
	ev := nextListing(t, streams[seat])
	for ev.version <= int64(len(keeps)) { // a listing of the keeps' versions, written after the last
		ev = nextListing(t, streams[seat])
	}
	if ev.version != int64(len(keeps)+1) || !bytes.Equal(compact(t, ev.data), compact(t, want.Body)) {
		t.Errorf("after seat %d's move on B its stream on A lists version %d:\n%s\nB lists:\n%s", seat, ev.version, ev.data, want.Body)
	}
}

// listing is a legal_moves event: its data and the version it lists.
type listing struct {
	data    []byte
	version int64
}

// nextListing waits for the stream's next legal_moves event (nextLegal
// decodes one of Lucky Treasure Hunter).
func nextListing(t *testing.T, st *stream) listing {
	t.Helper()
	for {
		ev, ok := st.next(t)
		if !ok {
			t.Fatal("the stream ended before a legal_moves event")
		}
		if ev.Type == "legal_moves" {
			return listing{data: ev.Data, version: decode[struct{ Version int64 }](t, ev.Data).Version}
		}
	}
}

func compact(t *testing.T, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}
