package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/treasury-games/treasury/api"
	"github.com/treasury-games/treasury/api/client"
	"github.com/treasury-games/treasury/api/models"
	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/silvergold"
)

// player plays a digital Silver & Gold game through the generated client,
// each seat with its own credential, choosing from what the host's view
// awaits.
type player struct {
	c     *client.ClientWithResponses
	id    string
	host  string
	seats []string
}

// create starts a digital game for n players with the generated client.
func create(t *testing.T, c *client.ClientWithResponses, n int, seed string) player {
	t.Helper()
	var ps []models.PlayerSpec
	for _, p := range players(n) {
		ps = append(ps, models.PlayerSpec{Name: p["name"]})
	}
	r, err := c.CreateGameWithResponse(t.Context(), nil, models.CreateGameRequest{
		Ruleset: silvergold.RulesetName, Mode: models.Digital, Players: ps, Seed: &seed,
	})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	if r.JSON201 == nil {
		t.Fatalf("create: %d %s", r.StatusCode(), r.Body)
	}
	cr := r.JSON201.Credentials
	return player{c: c, id: r.JSON201.Game.Id, host: cr.Host, seats: cr.Seats}
}

// step plays the next move the game awaits; it returns false once the game
// has ended.
func (p player) step(t *testing.T) bool {
	t.Helper()
	ctx := t.Context()
	g, err := p.c.GetGameWithResponse(ctx, p.id, nil, client.Bearer(p.host))
	if err != nil || g.JSON200 == nil {
		t.Fatalf("read the game: %v %s", err, g.Body)
	}
	if g.JSON200.Ended {
		return false
	}
	var v silvergold.View
	if err := json.Unmarshal(raw(t, g.JSON200.State), &v); err != nil {
		t.Fatal(err)
	}
	seat := *v.Awaiting[0].Seat
	l, err := p.c.GetLegalMovesWithResponse(ctx, p.id, nil, client.Bearer(p.seats[seat]))
	if err != nil || l.JSON200 == nil {
		t.Fatalf("legal moves: %v %s", err, l.Body)
	}
	var legal silvergold.Legal
	if err := json.Unmarshal(raw(t, *l.JSON200), &legal); err != nil {
		t.Fatal(err)
	}
	var m silvergold.Move
	switch legal.Action {
	case silvergold.MoveKeep:
		m = silvergold.Move{Type: silvergold.MoveKeep, Seat: silvergold.SeatPtr(seat), Cards: legal.Keep[:2]}
	case silvergold.MoveCross:
		m = crossFor(seat, legal, v)
	case silvergold.MoveTake:
		m = silvergold.Move{Type: silvergold.MoveTake, Seat: silvergold.SeatPtr(seat), From: silvergold.FromDeck}
		if len(legal.TakeFrom) > 0 {
			m.From, m.Card = silvergold.FromDisplay, legal.TakeFrom[0]
		}
	default:
		t.Fatalf("seat %d is asked to %s", seat, legal.Action)
	}
	body, _ := json.Marshal(m)
	r, err := p.c.SubmitMoveWithBodyWithResponse(ctx, p.id, nil, "application/json", bytes.NewReader(body), client.Bearer(p.seats[seat]))
	if err != nil {
		t.Fatalf("move %s: %v", body, err)
	}
	if r.StatusCode() != http.StatusOK {
		t.Fatalf("move %s: %d %s", body, r.StatusCode(), r.Body)
	}
	return true
}

// TestEventStream follows a whole game of Silver & Gold live, as spectators
// and players would, while the players play it over HTTP with the generated
// client: a public stream, a seat's (Authorization header), the host's
// (?access_token=), and a seat that loses its connection in the middle and
// reconnects with Last-Event-ID.
func TestEventStream(t *testing.T) {
	s := startOps(t, nil)
	p := create(t, s.client, 2, "event-stream")
	path := "/v1/games/" + p.id + "/events"

	host := openStream(t, s.server, path+"?access_token="+p.host)
	seat0 := openStream(t, s.server, path, "Authorization", "Bearer "+p.seats[0])

	// The players play in the background and tell how far they got.
	at := make(chan int64, 1000)
	played := make(chan int64, 1)
	go func() {
		n := int64(0)
		for p.step(t) {
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

	// A spectator joins after a few moves: a snapshot, then what follows.
	waitFor(5)
	public := openStream(t, s.server, path)

	// Seat 1 joins too, drops its connection after move 20, misses what is
	// played meanwhile, and reconnects.
	seat1 := openStream(t, s.server, path, "Authorization", "Bearer "+p.seats[1])
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
	waitFor(40)
	again := openStream(t, s.server, path, "Authorization", "Bearer "+p.seats[1], "Last-Event-ID", lastID)

	// Drain the players' progress so that they never wait on it.
	go func() {
		for range at {
		}
	}()
	total := <-played
	if total < 40 {
		t.Fatalf("the game ended after %d moves", total)
	}

	// Every stream ends when the game has ended.
	hostEvents := host.all(t)
	snap, hostGroups := groups(t, hostEvents)
	if snap == nil || snap.Version != 0 {
		t.Fatalf("the host's stream, opened before any move, starts with %+v", snap)
	}
	if got := seqs(hostGroups); !slices.Equal(got, span(0, total)) {
		t.Fatalf("the host saw moves %v, want 1..%d once each", got, total)
	}

	// What the streams say is what the log holds.
	log, err := s.client.ListMovesWithResponse(t.Context(), p.id, nil)
	if err != nil || log.JSON200 == nil {
		t.Fatal(err)
	}
	for i, m := range log.JSON200.Moves {
		g := hostGroups[i]
		if g.move.Seq != m.Seq || string(raw(t, g.move.Move)) != string(raw(t, m.Move)) || !g.move.At.Equal(m.At) || g.move.Actor.Host || *g.move.Actor.Seat != *m.Actor.Seat {
			t.Fatalf("move %d on the stream %+v, in the log %+v", m.Seq, g.move, m)
		}
	}
	types := map[string]int{}
	for _, g := range hostGroups {
		for _, e := range g.events {
			types[e.Type]++
			if e.Type == "crossed" {
				var d struct{ Palms []int }
				if json.Unmarshal(e.Data, &d) != nil || d.Palms == nil {
					t.Errorf("crossed: palms must be an array: %s", e.Data)
				}
			}
		}
	}
	for _, want := range []string{"display_card", "expedition_revealed", "crossed", "crossing_closed", "card_completed", "card_taken", "turn_resolved", "round_ended", "game_ended"} {
		if types[want] == 0 {
			t.Errorf("no %s event in a whole game: %v", want, types)
		}
	}
	// The last group ends with the final score, then the status that says
	// the game has ended.
	last := hostGroups[len(hostGroups)-1]
	n := len(last.events)
	if n < 2 || last.events[n-1].Type != "status" || last.events[n-2].Type != "game_ended" {
		t.Fatalf("the last group ends with %v, not game_ended and status", last.events)
	}
	ended := last.events[n-2]
	if sc := decode[silvergold.Score](t, ended.Data); !sc.Final {
		t.Errorf("game_ended carries %s", ended.Data)
	}
	score, _ := s.client.GetScoreWithResponse(t.Context(), p.id)
	if score.JSON200 == nil || !jsonEqual(t, ended.Data, raw(t, *score.JSON200)) {
		t.Errorf("game_ended says %s; GET /score says %s", ended.Data, score.Body)
	}

	// Silver & Gold has no private events: after their snapshots (each the
	// game as its viewer sees it) seat 0 sees what the host sees.
	if got := seat0.all(t); got[0].Type != "snapshot" || !slices.EqualFunc(got[1:], hostEvents[1:], sameEvent) {
		t.Errorf("seat 0 saw other events than the host")
	}
	publicSnap, publicGroups := groups(t, public.all(t))
	if publicSnap == nil || publicSnap.Version < 5 {
		t.Fatalf("the spectator's stream starts with %+v", publicSnap)
	}
	if got := seqs(publicGroups); !slices.Equal(got, span(publicSnap.Version, total)) {
		t.Errorf("after its snapshot at version %d the spectator saw moves %v", publicSnap.Version, got)
	}
	if publicSnap.SeedCommitment == nil || publicSnap.Seed != nil || publicSnap.SeedSalt != nil {
		t.Errorf("the public snapshot shows seed %v, salt %v, commitment %v", publicSnap.Seed, publicSnap.SeedSalt, publicSnap.SeedCommitment)
	}

	// Seat 1 got everything once: the moves up to 20 before it dropped, the
	// rest after it reconnected, those played while it was away included.
	snap1, first := groups(t, before)
	_, second := groups(t, again.all(t))
	resumed, _ := strconv.ParseInt(lastID, 10, 64)
	if got := seqs(first); snap1 == nil || !slices.Equal(got, span(snap1.Version, resumed)) {
		t.Errorf("before the drop seat 1 saw %v after its snapshot %+v", got, snap1)
	}
	if got := seqs(second); !slices.Equal(got, span(resumed, total)) {
		t.Errorf("after reconnecting with Last-Event-ID %s seat 1 saw %v, want %d..%d once each", lastID, got, resumed+1, total)
	}

	// A reconnect that has everything of an ended game is told to stop.
	final := strconv.FormatInt(total, 10)
	wantStatus(t, s.Do(t, http.MethodGet, path, nil, header("Last-Event-ID", final)), http.StatusNoContent)
	wantStatus(t, s.Do(t, http.MethodGet, path+"?last_event_id="+final, nil), http.StatusNoContent)

	if n := s.metric(t, "treasury_event_streams"); n != 0 {
		t.Errorf("%v streams still counted as open", n)
	}
}

func sameEvent(a, b client.Event) bool {
	return a.Type == b.Type && a.ID == b.ID && string(a.Data) == string(b.Data)
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return string(ja) == string(jb)
}

// createNotes creates a game of the notes ruleset for n players.
func createNotes(t *testing.T, s *opsServer, n int, seed string) player {
	t.Helper()
	var ps []models.PlayerSpec
	for _, p := range players(n) {
		ps = append(ps, models.PlayerSpec{Name: p["name"]})
	}
	r, err := s.client.CreateGameWithResponse(t.Context(), nil, models.CreateGameRequest{Ruleset: notesRuleset, Mode: models.Digital, Players: ps, Seed: &seed})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	if r.StatusCode() != http.StatusCreated {
		t.Fatalf("create: %d %s", r.StatusCode(), r.Body)
	}
	var c models.Created
	if err := json.Unmarshal(r.Body, &c); err != nil {
		t.Fatal(err)
	}
	return player{c: s.client, id: c.Game.Id, host: c.Credentials.Host, seats: c.Credentials.Seats}
}

// note plays one move of the notes ruleset with credential cred over HTTP.
func (p player) note(t *testing.T, cred string) {
	t.Helper()
	r, err := p.c.SubmitMoveWithBodyWithResponse(t.Context(), p.id, nil, "application/json", strings.NewReader(noteMove), client.Bearer(cred))
	if err != nil {
		t.Fatalf("note: %v", err)
	}
	if r.StatusCode() != http.StatusOK {
		t.Fatalf("note: %d %s", r.StatusCode(), r.Body)
	}
}

// TestEventStreamPrivate shows a seat its own private events and nobody
// else's; the host sees them all, the public none.
func TestEventStreamPrivate(t *testing.T) {
	s := startOps(t, nil, noteRules{})
	p := createNotes(t, s, 3, "end=6")
	path := "/v1/games/" + p.id + "/events"
	streams := map[string]*stream{
		"public": openStream(t, s.server, path),
		"host":   openStream(t, s.server, path, "Authorization", "Bearer "+p.host),
		"seat 0": openStream(t, s.server, path, "Authorization", "Bearer "+p.seats[0]),
		"seat 2": openStream(t, s.server, path+"?access_token="+p.seats[2]),
	}
	for _, cred := range []string{p.seats[0], p.seats[1], p.seats[2], p.host, p.host, p.seats[2]} {
		p.note(t, cred)
	}
	// Move n's secret is for the mover, or seat n mod 3 for the host's moves.
	secretFor := []int{0, 1, 2, 1, 2, 2}
	for who, st := range streams {
		_, gs := groups(t, st.all(t))
		if got := seqs(gs); !slices.Equal(got, span(0, 6)) {
			t.Errorf("%s saw moves %v", who, got)
			continue
		}
		for i, g := range gs {
			var secrets []int
			for _, e := range g.events {
				if e.Type == "secret" {
					var d struct{ For int }
					json.Unmarshal(e.Data, &d)
					secrets = append(secrets, d.For)
				}
			}
			want := []int{}
			// The last move ends the game: from then on everyone may read
			// everything, its own events included.
			if who == "host" || who == "seat "+strconv.Itoa(secretFor[i]) || i == len(gs)-1 {
				want = []int{secretFor[i]}
			}
			if !slices.Equal(secrets, want) {
				t.Errorf("%s: move %d shows the secrets of seats %v, want %v", who, g.seq, secrets, want)
			}
			if g.events[len(g.events)-1].ID != strconv.FormatInt(g.seq, 10) {
				t.Errorf("%s: move %d: the id is not on its last visible event", who, g.seq)
			}
		}
	}
}

// TestEventStreamSlowClient has a client stop reading while hundreds of
// moves are played: the players are never held up by it, its subscription is
// dropped once it falls too far behind, and when it reads again it still gets
// every move once, in order, from the store.
func TestEventStreamSlowClient(t *testing.T) {
	const moves = 600
	s := startOps(t, nil, noteRules{pad: 16 << 10})
	p := createNotes(t, s, 2, "")
	resp, err := s.HTTP.Client().Get(s.HTTP.URL + "/v1/games/" + p.id + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	// Read the snapshot, then nothing for a while: the events pile up in the
	// socket buffers, then in the subscription, until it is dropped.
	slow := client.NewEventReader(resp.Body)
	if ev, err := slow.Next(); err != nil || ev.Type != "snapshot" {
		t.Fatalf("first event %s, %v", ev.Type, err)
	}

	start := time.Now()
	for i := range moves {
		if _, err := s.games.Play(context.Background(), p.id, domain.Actor{Seat: i % 2}, []byte(noteMove), domain.PlayOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d moves played in %v while the client read nothing", moves, time.Since(start))

	next := int64(1)
	var current []client.Event
	for next <= moves {
		ev, err := slow.Next()
		if err != nil {
			t.Fatalf("waiting for move %d: %v", next, err)
		}
		current = append(current, ev)
		if ev.ID == "" {
			continue
		}
		_, gs := groups(t, current)
		if len(gs) != 1 || gs[0].seq != next {
			t.Fatalf("want move %d, got %v", next, seqs(gs))
		}
		current, next = nil, next+1
	}
	if n := s.metric(t, "treasury_event_stream_resyncs_total"); n == 0 {
		t.Error("the slow stream was never dropped and caught up; the test did not test that")
	}
}

// TestEventStreamLongLived holds a stream open for longer than the server's
// read and write timeouts: keep-alives flow, a move played late still
// arrives, and the stream ends when the server shuts down.
func TestEventStreamLongLived(t *testing.T) {
	s := startOps(t, func(o *api.Options) { o.Heartbeat = 50 * time.Millisecond }, noteRules{})
	// The same server timeouts as treasury serve's, scaled down (but not so
	// far that a plain request under -race on a loaded machine misses them).
	s.HTTP.Close()
	s.HTTP = httptest.NewUnstartedServer(s.handler)
	s.HTTP.Config.ReadTimeout = time.Second
	s.HTTP.Config.WriteTimeout = time.Second
	s.HTTP.Start()
	s.client, _ = client.NewClientWithResponses(s.HTTP.URL, client.WithHTTPClient(s.HTTP.Client()))
	p := createNotes(t, s, 1, "")

	req, _ := http.NewRequest(http.MethodGet, s.HTTP.URL+"/v1/games/"+p.id+"/events", nil)
	resp, err := s.HTTP.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw := make(chan string, 1000)
	go func() {
		defer close(raw)
		buf := make([]byte, 4096)
		for {
			n, err := resp.Body.Read(buf)
			if n > 0 {
				raw <- string(buf[:n])
			}
			if err != nil {
				return
			}
		}
	}()
	var got strings.Builder
	deadline := time.After(30 * time.Second)
	read := func(until func() bool) {
		t.Helper()
		for !until() {
			select {
			case chunk, ok := <-raw:
				if !ok {
					t.Fatalf("the stream ended:\n%s", got.String())
				}
				got.WriteString(chunk)
			case <-deadline:
				t.Fatalf("timed out:\n%s", got.String())
			}
		}
	}
	time.Sleep(3 * time.Second) // three times the server's timeouts
	read(func() bool { return strings.Count(got.String(), ": keep-alive\n\n") >= 5 })
	p.note(t, p.seats[0])
	read(func() bool { return strings.Contains(got.String(), "event: move\n") })

	s.shutdown()
	for range raw {
	}
	if !strings.Contains(got.String(), "id: 1\n") {
		t.Errorf("the move's id never came:\n%s", got.String())
	}
}

// TestEventStreamErrors checks the answers that are not a stream.
func TestEventStreamErrors(t *testing.T) {
	s := startOps(t, nil, noteRules{})
	p := createNotes(t, s, 1, "end=2")
	path := "/v1/games/" + p.id + "/events"

	wantProblem(t, s.Do(t, http.MethodGet, "/v1/games/nosuchgame/events", nil), http.StatusNotFound, "not_found")
	wantProblem(t, s.Do(t, http.MethodGet, path, nil, cred("not-a-credential")), http.StatusUnauthorized, "unauthorized")
	wantProblem(t, s.Do(t, http.MethodGet, path+"?access_token=nope", nil), http.StatusUnauthorized, "unauthorized")
	wantProblem(t, s.Do(t, http.MethodGet, path, nil, header("Last-Event-ID", "seven")), http.StatusBadRequest, "validation_failed")
	wantProblem(t, s.Do(t, http.MethodGet, path+"?last_event_id=-1", nil), http.StatusBadRequest, "validation_failed")

	// A Last-Event-ID the game never reached starts afresh, with a snapshot.
	p.note(t, p.seats[0])
	st := openStream(t, s.server, path, "Last-Event-ID", "99")
	if ev, _ := st.next(t); ev.Type != "snapshot" || ev.ID != "1" {
		t.Errorf("first event %s id %s, want the snapshot at 1", ev.Type, ev.ID)
	}
	p.note(t, p.seats[0]) // the last move: the stream sends it and ends
	_, gs := groups(t, st.all(t))
	if !slices.Equal(seqs(gs), []int64{2}) {
		t.Errorf("after the snapshot: moves %v", seqs(gs))
	}
	// A fresh connection to an ended game gets its snapshot and the end.
	st = openStream(t, s.server, path)
	snap, gs := groups(t, st.all(t))
	if snap == nil || !snap.Ended || len(gs) != 0 {
		t.Errorf("an ended game's stream: %+v, %v", snap, seqs(gs))
	}
	// A reconnect in the middle of an ended game gets the rest, then the end.
	st = openStream(t, s.server, path, "Last-Event-ID", "1")
	if _, gs := groups(t, st.all(t)); !slices.Equal(seqs(gs), []int64{2}) {
		t.Errorf("resumed at 1: moves %v", seqs(gs))
	}
}

// TestEventStreamShutdown ends open streams when the server shuts down, so
// that http.Server.Shutdown does not wait for them.
func TestEventStreamShutdown(t *testing.T) {
	s := startOps(t, nil, noteRules{})
	p := createNotes(t, s, 1, "")
	srv := &http.Server{Handler: s.handler}
	srv.RegisterOnShutdown(s.shutdown)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	resp, err := http.Get("http://" + ln.Addr().String() + "/v1/games/" + p.id + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	st := &stream{resp: resp, events: make(chan client.Event, 10), err: make(chan error, 1)}
	go func() {
		r := client.NewEventReader(resp.Body)
		for {
			ev, err := r.Next()
			if err != nil {
				close(st.events)
				st.err <- err
				return
			}
			st.events <- ev
		}
	}()
	if ev, _ := st.next(t); ev.Type != "snapshot" {
		t.Fatalf("first event %s", ev.Type)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	start := time.Now()
	if err := srv.Shutdown(ctx); err != nil {
		t.Fatalf("shutdown with an open stream: %v after %v", err, time.Since(start))
	}
	st.all(t)
}

// raw returns the JSON a union of the generated client holds.
func raw(t *testing.T, v json.Marshaler) []byte {
	t.Helper()
	b, err := v.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return b
}
