// Package play plays whole games of any ruleset through the HTTP API with the
// generated Go client (api/client), the way a table of four phones would:
// one client per seat, each acting as soon as the game waits for it.
//
// A seat learns that the game awaits it from the table status (`awaiting`)
// in the answers to the moves of its table (each answer carries the game as
// it stands after the move, and the four clients of a table share what any
// of them hears, as a live event stream would tell them); it reads the game
// itself only when it has heard nothing for a while. To choose a move it
// asks for its legal moves and picks one of the listed entries at random
// (client.Choices.Pick, as client.Listing.Pick): the package knows no rule
// of any game.
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
	"github.com/treasury-games/treasury/domain"
)

// Options say how tables play.
type Options struct {
	Client *client.ClientWithResponses
	// Servers, when set, are several servers of one database, and Client is
	// not used: each seat sends everything to one of them, the seats of a
	// table to different servers where there are enough.
	Servers []*client.ClientWithResponses
	// Idempotency sends an Idempotency-Key with every move and the game's
	// creation.
	Idempotency bool
	// Persist retries a request that got no answer (the server is down)
	// until it gets one, with the same Idempotency-Key, and a creation
	// answered 503 too; without it such a failure ends the game with an
	// error.
	Persist bool
	// Ack is told of every move answered 200.
	Ack func(Ack)
	// Ruleset is the game the tables play (default silver-and-gold), a
	// name of domain/rulesets; its games are created digital with Seats
	// players and default options.
	Ruleset string
	// Poll is how long a seat waits for news of its game before it reads
	// the game itself (default 500ms).
	Poll time.Duration
	// Stop, when closed, makes the seats stop after the requests in flight.
	Stop <-chan struct{}
	// Stream makes each seat follow the game's event stream with
	// ?legal_moves=true, as the table app and scripts/bot do, and act on
	// the listings it tells: one request per move (sent with Prefer:
	// return=minimal, the stream telling the rest), a listing read only
	// after a refusal or when the stream is quiet for long.
	Stream bool
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

// game is the head of a game: where it stands, in the words every ruleset
// shares. Its state is not decoded: the seats choose from their listings.
type game struct {
	ID       string         `json:"id"`
	Version  int64          `json:"version"`
	Ended    bool           `json:"ended"`
	Awaiting []domain.Await `json:"awaiting"`
}

// table is one game and its four seat clients.
type table struct {
	offset   int          // of the seats' servers in o.Servers
	failover atomic.Int64 // requests that got no answer: the table moves on to the next server
	o        Options
	rec      *Recorder
	id       string
	creds    []string

	// moved is the game's version after each seat's last move accepted,
	// written and read by that seat's goroutine only.
	moved [Seats]int64

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
		if o.Stream {
			go func() { errs <- t.follow(ctx, s, r) }()
			continue
		}
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

// call sends a request and reads its answer. An answer 429 (a server's rate
// limit) waits as long as its problem says and sends the request again. With
// Persist, a request that got no answer is sent again until one comes or ctx
// ends.
func (t *table) call(ctx context.Context, send func() (*http.Response, error)) (answer, error) {
	for {
		resp, err := send()
		if err == nil {
			body, rerr := io.ReadAll(resp.Body)
			resp.Body.Close()
			if rerr == nil && resp.StatusCode == http.StatusTooManyRequests {
				t.rec.Error("429 (waited, sent again)")
				var p struct {
					RetryAfterMs int64 `json:"retry_after_ms"`
				}
				_ = json.Unmarshal(body, &p)
				select {
				case <-ctx.Done():
					return answer{}, ctx.Err()
				case <-time.After(time.Duration(max(p.RetryAfterMs, 1)) * time.Millisecond):
				}
				continue
			}
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
	ruleset := t.o.Ruleset
	if ruleset == "" {
		ruleset = "silver-and-gold"
	}
	body, err := json.Marshal(map[string]any{"ruleset": ruleset, "mode": "digital",
		"players": []map[string]string{{"name": "Ann"}, {"name": "Ben"}, {"name": "Cid"}, {"name": "Dee"}}})
	if err != nil {
		return err
	}
	var params models.CreateGameParams
	if t.o.Idempotency {
		key := domain.NewSecret()
		params.IdempotencyKey = &key
	}
	send := func() (*http.Response, error) {
		return t.client(0).CreateGameWithBody(ctx, &params, "application/json", bytes.NewReader(body))
	}
	a, err := t.call(ctx, send)
	// A 503 (the store's commit not known, or the database down) is sent
	// again, with Persist, as a lost answer is: the key makes one game.
	for err == nil && a.status == http.StatusServiceUnavailable && t.o.Persist && params.IdempotencyKey != nil {
		t.rec.Retried()
		t.failover.Add(1)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
		a, err = t.call(ctx, send)
	}
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

// awaited reports whether g waits for a move of seat.
func awaited(g game, seat int) bool {
	for _, a := range g.Awaiting {
		if a.Actor == domain.ActorSeat && a.Seat != nil && *a.Seat == seat {
			return true
		}
	}
	return false
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
		if !awaited(g, seat) {
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
		m, typ, ok, err := t.choose(ctx, seat, r)
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
		accepted, err := t.send(ctx, seat, m, typ, n, &failures, false)
		if err != nil {
			return err
		}
		if accepted {
			continue
		}
		if err := t.refresh(ctx, seat); err != nil {
			return err
		}
	}
}

// choose reads seat's legal moves and picks one (client.Choices.Pick); false when
// the server says the seat is not asked for anything any more.
func (t *table) choose(ctx context.Context, seat int, r *rand.Rand) (json.RawMessage, string, bool, error) {
	l, err := t.listing(ctx, seat)
	if err != nil {
		return nil, "", false, err
	}
	return l.Pick(r)
}

// listing reads seat's legal moves.
func (t *table) listing(ctx context.Context, seat int) (client.Choices, error) {
	a, err := t.call(ctx, func() (*http.Response, error) {
		return t.client(seat).GetLegalMoves(ctx, t.id, nil, bearer(t.creds[seat]))
	})
	if err != nil {
		return client.Choices{}, err
	}
	if a.status != http.StatusOK {
		t.rec.Error(fmt.Sprintf("legal-moves %d %s", a.status, problemCode(a.body)))
		return client.Choices{}, fmt.Errorf("legal moves of game %s seat %d: %d %s", t.id, seat, a.status, a.body)
	}
	t.rec.Read("legal-moves")
	l, err := client.ParseChoices(a.body)
	if err != nil {
		return client.Choices{}, fmt.Errorf("legal moves of game %s seat %d: %w", t.id, seat, err)
	}
	return l, nil
}

// quiet is how long a following seat waits for an event before it reads its
// listing itself (a change whose event never came).
const quiet = 2 * time.Second

// follow is one player's client that follows the game's event stream with
// ?legal_moves=true (Options.Stream): the server tells the seat what it may
// do after every change of the game, and the seat moves whenever that owes
// a move. It returns when the stream ends with the game.
func (t *table) follow(ctx context.Context, seat int, r *rand.Rand) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // ends the stream, and with it the reader below
	yes := true
	resp, err := t.client(seat).StreamGameEvents(ctx, t.id, &models.StreamGameEventsParams{LegalMoves: &yes}, bearer(t.creds[seat]),
		func(_ context.Context, req *http.Request) error {
			req.Header.Set("Accept", "text/event-stream")
			return nil
		})
	if err != nil {
		if t.stopped() {
			return errStopped
		}
		t.rec.Error("transport")
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.rec.Error(fmt.Sprintf("stream %d %s", resp.StatusCode, problemCode(b)))
		return fmt.Errorf("event stream of game %s seat %d: %d %s", t.id, seat, resp.StatusCode, b)
	}
	t.rec.Read("stream")
	// Only the listings come over: the seat acts on nothing else, and the
	// other events only tell that the stream is not quiet (heard).
	var heard atomic.Int64
	heard.Store(time.Now().UnixNano())
	events, ended := client.EventsOf(ctx, resp.Body, func(typ string) bool {
		heard.Store(time.Now().UnixNano())
		return typ == "legal_moves"
	})
	timer := time.NewTimer(quiet)
	defer timer.Stop()
	failures, n := 0, 0
	for {
		var l client.Choices
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.o.Stop:
			return errStopped
		case err := <-ended:
			if t.stopped() {
				return errStopped
			}
			if errors.Is(err, io.EOF) { // the stream ends with the game
				g := t.current()
				g.Ended = true
				t.update(g)
				return nil
			}
			return fmt.Errorf("event stream of game %s seat %d: %w", t.id, seat, err)
		case ev := <-events:
			timer.Reset(quiet)
			if l, err = client.ParseChoices(ev.Data); err != nil {
				return fmt.Errorf("legal_moves event of game %s seat %d: %w", t.id, seat, err)
			}
			if l.Version < t.moved[seat] {
				// Told before the seat's own last move (the stream
				// behind the answer): what it offers may be spent, and
				// the listing after that move is on its way.
				t.rec.Read("legal_moves (stale, skipped)")
				continue
			}
		case <-timer.C:
			if since := time.Since(time.Unix(0, heard.Load())); since < quiet {
				timer.Reset(quiet - since) // an event that is not a listing came
				continue
			}
			// Nothing told for long: read what the seat may do.
			if l, err = t.listing(ctx, seat); err != nil {
				return err
			}
			timer.Reset(quiet)
		}
		// A listing that owes nothing is not read past what tells so
		// (ParseChoices): the seat has nothing to choose from it, and
		// Pick, which checks a listing whole, is not asked.
	moves:
		for l.Owed() && !t.stopped() {
			m, typ, ok, err := l.Pick(r)
			if err != nil {
				return err
			}
			if !ok { // only corrections listed
				break
			}
			n++
			switch accepted, err := t.send(ctx, seat, m, typ, n, &failures, true); {
			case err != nil:
				return err
			case accepted:
				break moves // the next event tells what the seat may do then
			}
			// Refused: the game moved on. A listing read now is newer
			// when the move that refused this one is stored; otherwise
			// its event will tell what the seat may do then.
			seen := l.Version
			if l, err = t.listing(ctx, seat); err != nil {
				return err
			}
			if l.Version <= seen {
				break
			}
		}
	}
}

// send submits move m, seat's nth, and counts the refusals in a row in
// *failures: true when it was accepted, an error after 20 refusals.
func (t *table) send(ctx context.Context, seat int, m json.RawMessage, typ string, n int, failures *int, minimal bool) (bool, error) {
	accepted, err := t.submit(ctx, seat, m, typ, fmt.Sprintf("%s-%d-%d", t.id, seat, n), minimal)
	if err != nil || accepted {
		*failures = 0
		return accepted, err
	}
	if *failures++; *failures > 20 {
		return false, fmt.Errorf("game %s seat %d: 20 moves in a row refused", t.id, seat)
	}
	return false, nil
}

// submit sends a move and learns the game from the answer; false when the
// move was refused. A minimal answer (Prefer: return=minimal) tells only the
// move's seq and the game's version.
func (t *table) submit(ctx context.Context, seat int, body json.RawMessage, typ, key string, minimal bool) (bool, error) {
	var params models.SubmitMoveParams
	if t.o.Idempotency {
		params.IdempotencyKey = &key
	}
	if minimal {
		prefer := "return=minimal"
		params.Prefer = &prefer
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
		Seq     int64 `json:"seq"`
		Version int64 `json:"version"` // of a minimal answer
		Game    game  `json:"game"`
	}
	if err := json.Unmarshal(a.body, &res); err != nil {
		return false, fmt.Errorf("answer to a move of game %s: %w", t.id, err)
	}
	t.moved[seat] = max(t.moved[seat], res.Version, res.Game.Version)
	t.update(res.Game)
	if t.o.Ack != nil {
		t.o.Ack(Ack{Game: t.id, Seq: res.Seq, Type: typ, Seat: seat, Replayed: a.header.Get("Idempotency-Replayed") == "true"})
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
