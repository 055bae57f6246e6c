// Package play plays whole Silver & Gold games through the HTTP API with the
// generated Go client (api/client), the way a table of four phones would:
// one client per seat, each acting as soon as the game waits for it.
//
// A seat learns that its turn has opened from the answers to the moves of its
// table (each answer carries the game as it stands after the move, and the
// four clients of a table share what any of them hears, as a live event
// stream would tell them); it reads the game itself only when it has heard
// nothing for a while. To choose a move it asks for its legal moves (keep and
// cross) and picks one at random; a crossing that covers red crosses names
// its extra boxes from the seat's cards as the game shows them.
package play

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/treasury-games/treasury/api/client"
	"github.com/treasury-games/treasury/api/models"
)

// Options say how tables play.
type Options struct {
	Client *client.ClientWithResponses
	// Servers, when set, are several servers of one database, and Client is
	// not used: each seat sends everything to one of them, the seats of a
	// table to different servers where there are enough.
	Servers []*client.ClientWithResponses
	// Idempotency sends an Idempotency-Key with every move.
	Idempotency bool
	// Persist retries a request that got no answer (the server is down)
	// until it gets one, with the same Idempotency-Key; without it such a
	// failure ends the game with an error.
	Persist bool
	// Ack is told of every move answered 200.
	Ack func(Ack)
	// LocalLegal makes each seat work out its crossings from the game as it
	// sees it (the pattern, its cards and their crossed boxes) and its
	// starting cards from its own view, instead of asking for its legal
	// moves; a client then sends little besides its moves.
	LocalLegal bool
	// Poll is how long a seat waits for news of its game before it reads
	// the game itself (default 500ms).
	Poll time.Duration
	// Stop, when closed, makes the seats stop after the requests in flight.
	Stop <-chan struct{}
}

// Ack is a move the server acknowledged.
type Ack struct {
	Game     string
	Seq      int64
	Type     string
	Seat     int
	Replayed bool
}

// Seats is the number of players at each table.
const Seats = 4

// view is the part of a Silver & Gold game's state the clients use.
type view struct {
	Phase      string `json:"phase"`
	Expedition *struct {
		Boxes [][2]int `json:"boxes"`
	} `json:"expedition"`
	Display  []string `json:"display"`
	DeckSize int      `json:"deck_size"`
	// Players are decoded one at a time, when a seat needs its own: most of
	// a game's JSON is the players' cards.
	Players  []json.RawMessage `json:"players"`
	Awaiting []struct {
		Actor  string `json:"actor"`
		Seat   *int   `json:"seat"`
		Action string `json:"action"`
	} `json:"awaiting"`
}

// player is the part of a seat's state the clients use.
type player struct {
	Dealt []string `json:"dealt"`
	Cards []struct {
		Card    string   `json:"card"`
		Grid    []string `json:"grid"`
		Crossed [][2]int `json:"crossed"`
	} `json:"cards"`
}

// player decodes seat's part of the game.
func (g game) player(seat int) (player, error) {
	var p player
	if seat < 0 || seat >= len(g.State.Players) {
		return p, fmt.Errorf("game %s has no seat %d", g.ID, seat)
	}
	err := json.Unmarshal(g.State.Players[seat], &p)
	return p, err
}

type game struct {
	ID      string `json:"id"`
	Version int64  `json:"version"`
	Ended   bool   `json:"ended"`
	State   view   `json:"state"`
}

type legal struct {
	Action     string      `json:"action"`
	Placements []placement `json:"placements"`
	Singles    []placement `json:"single_boxes"`
	KeepFrom   []string    `json:"keep_from"`
}

type placement struct {
	Card    string   `json:"card"`
	Boxes   [][2]int `json:"boxes"`
	Crosses int      `json:"red_crosses"`
}

type extra struct {
	Card string `json:"card"`
	Box  [2]int `json:"box"`
}

type move struct {
	Type  string   `json:"type"`
	Seat  int      `json:"seat"`
	Cards []string `json:"cards,omitempty"`
	Card  string   `json:"card,omitempty"`
	Boxes [][2]int `json:"boxes,omitempty"`
	Extra []extra  `json:"extra,omitempty"`
	From  string   `json:"from,omitempty"`
}

// table is one game and its four seat clients.
type table struct {
	offset   int          // of the seats' servers in o.Servers
	failover atomic.Int64 // requests that got no answer: the table moves on to the next server
	o        Options
	rec      *Recorder
	id       string
	creds    []string

	mu      sync.Mutex
	g       game
	changed chan struct{} // closed and replaced whenever g changes
}

// errStopped ends a seat when Options.Stop closes.
var errStopped = errors.New("stopped")

// Play creates a 4-player digital game and plays it to its end (or until
// ctx ends or o.Stop closes). It returns the game's id.
func Play(ctx context.Context, o Options, rec *Recorder, seed uint64) (string, error) {
	if o.Poll <= 0 {
		o.Poll = 500 * time.Millisecond
	}
	t := &table{o: o, rec: rec, changed: make(chan struct{}), offset: int(seed>>32 + seed&0xffffffff)}
	if err := t.create(ctx); err != nil {
		return "", err
	}
	errs := make(chan error, Seats)
	for s := range Seats {
		r := rand.New(rand.NewPCG(seed, uint64(s)))
		go func() { errs <- t.seat(ctx, s, r) }()
	}
	var first error
	for range Seats {
		if err := <-errs; err != nil && !errors.Is(err, errStopped) && first == nil {
			first = err
		}
	}
	if first == nil && t.current().Ended {
		rec.Finished()
	}
	return t.id, first
}

func bearer(cred string) client.RequestEditorFn {
	return func(_ context.Context, req *http.Request) error {
		req.Header.Set("Authorization", "Bearer "+cred)
		return nil
	}
}

// answer is an HTTP answer read whole.
type answer struct {
	status int
	body   []byte
	header http.Header
}

// call sends a request and reads its answer. With Persist, a request that got
// no answer is sent again until one comes or ctx ends.
func (t *table) call(ctx context.Context, send func() (*http.Response, error)) (answer, error) {
	for {
		resp, err := send()
		if err == nil {
			body, rerr := io.ReadAll(resp.Body)
			resp.Body.Close()
			if rerr == nil {
				return answer{status: resp.StatusCode, body: body, header: resp.Header}, nil
			}
			err = rerr
		}
		if ctx.Err() != nil {
			return answer{}, ctx.Err()
		}
		if !t.o.Persist {
			t.rec.Error("transport")
			return answer{}, err
		}
		t.rec.Retried()
		t.failover.Add(1) // with several servers, the retry goes to another
		select {
		case <-ctx.Done():
			return answer{}, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// client is where seat sends its requests.
func (t *table) client(seat int) *client.ClientWithResponses {
	if n := len(t.o.Servers); n > 0 {
		return t.o.Servers[(t.offset+seat+int(t.failover.Load()))%n]
	}
	return t.o.Client
}

func (t *table) create(ctx context.Context) error {
	body := []byte(`{"ruleset":"silver-and-gold","mode":"digital","players":[{"name":"Ann"},{"name":"Ben"},{"name":"Cid"},{"name":"Dee"}]}`)
	a, err := t.call(ctx, func() (*http.Response, error) {
		return t.client(0).CreateGameWithBody(ctx, "application/json", bytes.NewReader(body))
	})
	if err != nil {
		return fmt.Errorf("create a game: %w", err)
	}
	if a.status != http.StatusCreated {
		t.rec.Error(fmt.Sprintf("create %d %s", a.status, problemCode(a.body)))
		return fmt.Errorf("create a game: %d %s", a.status, a.body)
	}
	var c struct {
		Game        game `json:"game"`
		Credentials struct {
			Seats []string `json:"seats"`
		} `json:"credentials"`
	}
	if err := json.Unmarshal(a.body, &c); err != nil {
		return fmt.Errorf("create a game: %w", err)
	}
	t.rec.Created()
	t.id, t.creds, t.g = c.Game.ID, c.Credentials.Seats, c.Game
	return nil
}

func (t *table) current() game {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.g
}

func (t *table) watch() (game, <-chan struct{}) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.g, t.changed
}

// update keeps g if it is newer than what the table knows.
func (t *table) update(g game) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if g.Version <= t.g.Version && !(g.Ended && !t.g.Ended) {
		return
	}
	t.g = g
	close(t.changed)
	t.changed = make(chan struct{})
}

// refresh reads the game as seat sees it.
func (t *table) refresh(ctx context.Context, seat int) error {
	known := t.current().Version
	tag := `"` + strconv.FormatInt(known, 10) + `"`
	a, err := t.call(ctx, func() (*http.Response, error) {
		return t.client(seat).GetGame(ctx, t.id, &models.GetGameParams{IfNoneMatch: &tag}, bearer(t.creds[seat]))
	})
	if err != nil {
		return err
	}
	switch a.status {
	case http.StatusNotModified:
		t.rec.Read("game (304)")
		return nil
	case http.StatusOK:
		t.rec.Read("game")
		var g game
		if err := json.Unmarshal(a.body, &g); err != nil {
			return fmt.Errorf("game %s: %w", t.id, err)
		}
		t.update(g)
		return nil
	}
	t.rec.Error(fmt.Sprintf("read %d %s", a.status, problemCode(a.body)))
	return fmt.Errorf("read game %s: %d %s", t.id, a.status, a.body)
}

func (t *table) stopped() bool {
	select {
	case <-t.o.Stop:
		return true
	default:
		return false
	}
}

// awaited returns what g waits for from seat, or "".
func awaited(g game, seat int) string {
	for _, a := range g.State.Awaiting {
		if a.Actor == "seat" && a.Seat != nil && *a.Seat == seat {
			return a.Action
		}
	}
	return ""
}

// seat is one player's client: it moves whenever the game waits for it.
func (t *table) seat(ctx context.Context, seat int, r *rand.Rand) error {
	failures := 0
	for n := 0; ; {
		if t.stopped() {
			return errStopped
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		g, changed := t.watch()
		if g.Ended {
			return nil
		}
		action := awaited(g, seat)
		if action == "" {
			select {
			case <-changed:
			case <-time.After(t.o.Poll):
				if err := t.refresh(ctx, seat); err != nil {
					return err
				}
			case <-t.o.Stop:
				return errStopped
			case <-ctx.Done():
				return ctx.Err()
			}
			continue
		}
		m, ok, err := t.choose(ctx, seat, g, action, r)
		if err != nil {
			return err
		}
		if !ok { // the game moved on while we looked
			if err := t.refresh(ctx, seat); err != nil {
				return err
			}
			continue
		}
		n++
		accepted, err := t.submit(ctx, seat, m, fmt.Sprintf("%s-%d-%d", t.id, seat, n))
		if err != nil {
			return err
		}
		if accepted {
			failures = 0
			continue
		}
		if failures++; failures > 20 {
			return fmt.Errorf("game %s seat %d: 20 moves in a row refused", t.id, seat)
		}
		if err := t.refresh(ctx, seat); err != nil {
			return err
		}
	}
}

// choose picks a move for action; false when the server says the seat is not
// asked for it any more.
func (t *table) choose(ctx context.Context, seat int, g game, action string, r *rand.Rand) (move, bool, error) {
	m := move{Type: action, Seat: seat}
	if action == "take" {
		st := g.State
		if len(st.Display) > 0 && (st.DeckSize == 0 || r.IntN(2) == 0) {
			m.From, m.Card = "display", st.Display[r.IntN(len(st.Display))]
		} else {
			m.From = "deck"
		}
		return m, true, nil
	}
	if t.o.LocalLegal {
		return t.chooseLocal(ctx, seat, g, m, r)
	}
	a, err := t.call(ctx, func() (*http.Response, error) {
		return t.client(seat).GetLegalMoves(ctx, t.id, nil, bearer(t.creds[seat]))
	})
	if err != nil {
		return m, false, err
	}
	if a.status != http.StatusOK {
		t.rec.Error(fmt.Sprintf("legal-moves %d %s", a.status, problemCode(a.body)))
		return m, false, fmt.Errorf("legal moves of game %s seat %d: %d %s", t.id, seat, a.status, a.body)
	}
	t.rec.Read("legal-moves")
	var l legal
	if err := json.Unmarshal(a.body, &l); err != nil {
		return m, false, err
	}
	if l.Action != action {
		return m, false, nil
	}
	return t.pick(g, seat, m, l, r)
}

// chooseLocal is choose without asking the server: the seat reads its own
// view once for the cards it was dealt, and works out crossings itself.
func (t *table) chooseLocal(ctx context.Context, seat int, g game, m move, r *rand.Rand) (move, bool, error) {
	l := legal{Action: m.Type}
	switch m.Type {
	case "keep":
		own, err := t.own(ctx, seat)
		if err != nil {
			return m, false, err
		}
		if awaited(own, seat) != "keep" {
			return m, false, nil
		}
		p, err := own.player(seat)
		if err != nil {
			return m, false, err
		}
		l.KeepFrom = p.Dealt
	case "cross":
		p, err := g.player(seat)
		if err != nil {
			return m, false, err
		}
		l = localLegal(g, p)
	}
	return t.pick(g, seat, m, l, r)
}

// own reads the game as seat sees it (its dealt cards are in it).
func (t *table) own(ctx context.Context, seat int) (game, error) {
	a, err := t.call(ctx, func() (*http.Response, error) {
		return t.client(seat).GetGame(ctx, t.id, nil, bearer(t.creds[seat]))
	})
	if err != nil {
		return game{}, err
	}
	if a.status != http.StatusOK {
		t.rec.Error(fmt.Sprintf("read %d %s", a.status, problemCode(a.body)))
		return game{}, fmt.Errorf("read game %s: %d %s", t.id, a.status, a.body)
	}
	t.rec.Read("game")
	var g game
	if err := json.Unmarshal(a.body, &g); err != nil {
		return game{}, err
	}
	t.update(g)
	return g, nil
}

// pick chooses at random among the legal moves l.
func (t *table) pick(g game, seat int, m move, l legal, r *rand.Rand) (move, bool, error) {
	switch m.Type {
	case "keep":
		if len(l.KeepFrom) < 2 {
			return m, false, fmt.Errorf("game %s seat %d: %d cards to keep from", t.id, seat, len(l.KeepFrom))
		}
		p := r.Perm(len(l.KeepFrom))
		m.Cards = []string{l.KeepFrom[p[0]], l.KeepFrom[p[1]]}
	case "cross":
		var pick placement
		switch {
		case len(l.Placements) > 0 && (len(l.Singles) == 0 || r.IntN(4) != 0):
			pick = l.Placements[r.IntN(len(l.Placements))]
		case len(l.Singles) > 0:
			pick = l.Singles[r.IntN(len(l.Singles))]
		default:
			return m, false, nil
		}
		m.Card, m.Boxes = pick.Card, pick.Boxes
		if pick.Crosses > 0 {
			p, err := g.player(seat)
			if err != nil {
				return m, false, err
			}
			m.Extra = extras(p, pick, r)
		}
	default:
		return m, false, fmt.Errorf("game %s seat %d: unknown action %q", t.id, seat, m.Type)
	}
	return m, true, nil
}

// extras names the boxes the red crosses of pick demand: free boxes anywhere
// on the seat's cards, each red cross among them demanding one more.
func extras(p player, pick placement, r *rand.Rand) []extra {
	owed := pick.Crosses
	if owed == 0 {
		return nil
	}
	type box struct {
		card  string
		pos   [2]int
		cross bool
	}
	taken := map[[2]int]bool{}
	for _, b := range pick.Boxes {
		taken[b] = true
	}
	var free []box
	for _, c := range p.Cards {
		crossed := map[[2]int]bool{}
		for _, b := range c.Crossed {
			crossed[b] = true
		}
		for row, line := range c.Grid {
			for col, sym := range line {
				p := [2]int{row, col}
				if sym == '.' || crossed[p] || (c.Card == pick.Card && taken[p]) {
					continue
				}
				free = append(free, box{c.Card, p, sym == 'x'})
			}
		}
	}
	var out []extra
	for owed > 0 && len(free) > 0 {
		k := r.IntN(len(free))
		b := free[k]
		free = append(free[:k], free[k+1:]...)
		out = append(out, extra{Card: b.card, Box: b.pos})
		owed--
		if b.cross {
			owed++
		}
	}
	return out
}

// submit sends a move and learns the game from the answer; false when the
// move was refused.
func (t *table) submit(ctx context.Context, seat int, m move, key string) (bool, error) {
	body, err := json.Marshal(m)
	if err != nil {
		return false, err
	}
	var params models.SubmitMoveParams
	if t.o.Idempotency {
		params.IdempotencyKey = &key
	}
	var took time.Duration
	a, err := t.call(ctx, func() (*http.Response, error) {
		start := time.Now()
		resp, err := t.client(seat).SubmitMoveWithBody(ctx, t.id, &params, "application/json", bytes.NewReader(body), bearer(t.creds[seat]))
		if err == nil {
			// The answer is complete once its body is read; reading it is
			// part of the latency a client sees.
			b, rerr := io.ReadAll(resp.Body)
			resp.Body.Close()
			resp.Body = io.NopCloser(bytes.NewReader(b))
			if rerr != nil {
				err = rerr
			}
		}
		took = time.Since(start)
		return resp, err
	})
	if err != nil {
		return false, err
	}
	code := ""
	if a.status != http.StatusOK {
		code = problemCode(a.body)
	}
	t.rec.Move(took, a.status, code, body)
	if a.status != http.StatusOK {
		return false, nil
	}
	var res struct {
		Seq  int64 `json:"seq"`
		Game game  `json:"game"`
	}
	if err := json.Unmarshal(a.body, &res); err != nil {
		return false, fmt.Errorf("answer to a move of game %s: %w", t.id, err)
	}
	t.update(res.Game)
	if t.o.Ack != nil {
		t.o.Ack(Ack{Game: t.id, Seq: res.Seq, Type: m.Type, Seat: seat, Replayed: a.header.Get("Idempotency-Replayed") == "true"})
	}
	return true, nil
}

// problemCode returns the code of a problem+json body, or "-".
func problemCode(body []byte) string {
	var p struct {
		Code string `json:"code"`
	}
	if json.Unmarshal(body, &p) != nil || p.Code == "" {
		return "-"
	}
	return p.Code
}
