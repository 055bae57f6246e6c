// Command bot is an example client: it creates a game on a Treasury server and
// plays every seat (and, in a physical game, the table's reports) to the end,
// using only what the server lists as legal, through the typed Go client.
//
//	go run ./scripts/bot -server http://127.0.0.1:8080 -players 4
//
// Each seat follows the game's event stream with ?legal_moves=true: the
// stream tells the seat what it may do whenever that changes, so the only
// request a move costs is the move itself, sent with Prefer: return=minimal.
// A move refused because the game moved on meanwhile (or a 429) is chosen
// again from a fresh GET …/legal-moves. A seat never waits for ever: when
// its stream tells nothing for -idle (a push missed, or a server that sends
// none), it reads the game, stops if the game has ended, and otherwise acts
// on a fresh GET …/legal-moves. At the end the bot prints the requests it
// made per move.
//
// The bot knows no rule: one picker (pick.go) chooses one of the listed
// moves, whatever the ruleset.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/treasury-games/treasury/api/client"
	"github.com/treasury-games/treasury/api/models"
	"github.com/treasury-games/treasury/domain"
)

type config struct {
	server  string
	ruleset string
	mode    string
	players int
	seed    string        // the game's seed (digital); empty: the server picks one
	rand    uint64        // seeds the bot's own choices
	full    bool          // ask for whole answers to moves, not Prefer: return=minimal
	idle    time.Duration // a stream quiet for this long: read the legal moves instead (defaultIdle when 0)
}

// defaultIdle is how long a seat waits for its stream before it reads what
// it may do: far longer than a move takes, even on a loaded machine.
const defaultIdle = 5 * time.Second

// stats are what a game cost.
type stats struct {
	Game      string
	Moves     int64 // moves accepted
	Requests  int64 // requests other than event streams, the game's creation included
	Refused   int64 // moves refused (422, 409 …), each chosen again
	Throttled int64 // answers 429
	Streams   int64 // event streams opened
	MoveBytes int64 // bytes of the answers to accepted moves
	Idled     int64 // times a seat's stream told nothing for -idle and the seat read instead
	Took      time.Duration
}

// PerMove is the requests made per accepted move.
func (s stats) PerMove() float64 { return float64(s.Requests) / float64(max(s.Moves, 1)) }

func main() {
	var c config
	flag.StringVar(&c.server, "server", "http://127.0.0.1:8080", "the server's base URL")
	flag.StringVar(&c.ruleset, "ruleset", "silver-and-gold", "the game to play")
	flag.StringVar(&c.mode, "mode", "digital", "digital or physical")
	flag.IntVar(&c.players, "players", 4, "seats to play")
	flag.StringVar(&c.seed, "seed", "", "the game's seed (digital); empty: the server picks one")
	flag.Uint64Var(&c.rand, "rand", 1, "seeds the bot's own choices")
	flag.DurationVar(&c.idle, "idle", defaultIdle, "when a seat's event stream tells nothing for this long, read the game and the legal moves instead")
	flag.BoolVar(&c.full, "full", false, "ask for the whole game in every move's answer instead of Prefer: return=minimal")
	games := flag.Int("games", 1, "games to play, one after another per table")
	tables := flag.Int("tables", 1, "games played at the same time")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	if *games == 1 && *tables == 1 {
		s, err := run(ctx, c)
		if err != nil {
			fmt.Fprintln(os.Stderr, "bot:", err)
			os.Exit(1)
		}
		fmt.Printf("game %s ended after %d moves in %v\n", s.Game, s.Moves, s.Took.Round(time.Millisecond))
		fmt.Printf("requests %d (%.2f per move), moves refused %d, throttled %d, event streams %d, %d bytes per move answer, streams quiet for -idle %d\n",
			s.Requests, s.PerMove(), s.Refused, s.Throttled, s.Streams, s.MoveBytes/max(s.Moves, 1), s.Idled)
		return
	}
	// Several games: a small load run (keep it to a server of your own).
	start := time.Now()
	var mu sync.Mutex
	var sum stats
	var wg sync.WaitGroup
	var failed atomic.Int64
	for tb := range *tables {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range *games {
				gc := c
				gc.rand = c.rand + uint64(tb*(*games)+i)
				if gc.seed != "" {
					gc.seed = fmt.Sprintf("%s-%d-%d", c.seed, tb, i)
				}
				s, err := run(ctx, gc)
				if err != nil {
					failed.Add(1)
					fmt.Fprintln(os.Stderr, "bot:", err)
					continue
				}
				mu.Lock()
				sum.Moves += s.Moves
				sum.Requests += s.Requests
				sum.Refused += s.Refused
				sum.Throttled += s.Throttled
				sum.Streams += s.Streams
				sum.MoveBytes += s.MoveBytes
				sum.Idled += s.Idled
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	took := time.Since(start)
	fmt.Printf("%d games (%d failed) on %d tables in %v: %d moves, %.0f moves/s\n", *games**tables, failed.Load(), *tables,
		took.Round(time.Millisecond), sum.Moves, float64(sum.Moves)/took.Seconds())
	fmt.Printf("requests %.2f per move, refused %d, throttled %d, %d bytes per move answer, streams quiet for -idle %d\n",
		sum.PerMove(), sum.Refused, sum.Throttled, sum.MoveBytes/max(sum.Moves, 1), sum.Idled)
	if failed.Load() > 0 {
		os.Exit(1)
	}
}

// counter counts the requests that go through it, and the 429s.
type counter struct {
	next                       http.RoundTripper
	requests, streams, limited atomic.Int64
}

func (c *counter) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Header.Get("Accept") == "text/event-stream" {
		c.streams.Add(1)
	} else {
		c.requests.Add(1)
	}
	resp, err := c.next.RoundTrip(req)
	if err == nil && resp.StatusCode == http.StatusTooManyRequests {
		c.limited.Add(1)
	}
	return resp, err
}

// run creates a game and plays it to the end.
func run(ctx context.Context, c config) (stats, error) {
	pick := pickListed // any ruleset: the bot knows no game
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 2 * (c.players + 1) // a stream and a move per seat
	cnt := &counter{next: tr}
	api, err := client.NewClientWithResponses(c.server, client.WithHTTPClient(&http.Client{Transport: cnt}))
	if err != nil {
		return stats{}, err
	}
	req := models.CreateGameRequest{Ruleset: c.ruleset, Mode: models.Mode(c.mode)}
	for i := range c.players {
		req.Players = append(req.Players, models.PlayerSpec{Name: "bot-" + strconv.Itoa(i)})
	}
	if c.seed != "" {
		req.Seed = &c.seed
	}
	start := time.Now()
	created, err := create(ctx, api, req)
	if err != nil {
		return stats{}, err
	}
	g := &game{api: api, id: created.JSON201.Game.Id, pick: pick, full: c.full, idle: c.idle}
	if g.idle <= 0 {
		g.idle = defaultIdle
	}
	creds := created.JSON201.Credentials.Seats
	if c.mode == string(models.Physical) {
		creds = append(creds, created.JSON201.Credentials.Host) // the table's reports
	}
	var wg sync.WaitGroup
	errs := make(chan error, len(creds))
	// A seat that fails stops the others: the game would wait for it for ever.
	playCtx, stop := context.WithCancel(ctx)
	defer stop()
	for i, cred := range creds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(c.rand, uint64(i)))
			if err := g.play(playCtx, cred, r); err != nil {
				errs <- fmt.Errorf("credential %d: %w", i, err)
				stop()
			}
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return stats{}, err
	}
	s := stats{Game: g.id, Moves: g.moves.Load(), Requests: cnt.requests.Load(), Refused: g.refused.Load(),
		Throttled: cnt.limited.Load(), Streams: cnt.streams.Load(), MoveBytes: g.bytes.Load(), Idled: g.idled.Load(),
		Took: time.Since(start)}
	final, err := api.GetGameWithResponse(ctx, g.id, nil)
	if err != nil {
		return s, err
	}
	if final.JSON200 == nil || !final.JSON200.Ended {
		return s, fmt.Errorf("every stream ended but the game has not: %s", final.Body)
	}
	return s, nil
}

// game is one game the bot plays.
type game struct {
	api  *client.ClientWithResponses
	id   string
	pick picker
	full bool          // whole answers to moves
	idle time.Duration // a quiet stream: read the legal moves after this long

	moves, refused, bytes, idled atomic.Int64
}

// play acts for one credential until the game ends: it reads the event
// stream and, on every legal_moves event, makes the move it picks. When the
// stream tells nothing for g.idle, it reads the game (and stops if it has
// ended) and acts on the legal moves read afresh.
func (g *game) play(ctx context.Context, cred string, r *rand.Rand) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // ends the stream, and with it the reader below
	yes := true
	resp, err := g.api.StreamGameEvents(ctx, g.id, &models.StreamGameEventsParams{LegalMoves: &yes}, client.Bearer(cred),
		func(_ context.Context, req *http.Request) error {
			req.Header.Set("Accept", "text/event-stream")
			return nil
		})
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("event stream: %d %s", resp.StatusCode, b)
	}
	events, ended := client.Events(ctx, resp.Body)
	quiet := time.NewTimer(g.idle)
	defer quiet.Stop()
	for {
		var l models.LegalMoves
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-ended:
			if errors.Is(err, io.EOF) {
				return nil // the game has ended
			}
			return err
		case ev := <-events:
			quiet.Reset(g.idle)
			if ev.Type != "legal_moves" {
				continue
			}
			if err := json.Unmarshal(ev.Data, &l); err != nil {
				return err
			}
		case <-quiet.C:
			// Nothing for a while: maybe a push that never came. Read.
			g.idled.Add(1)
			over, err := g.ended(ctx, cred)
			if err != nil || over {
				return err
			}
			if l, err = g.legal(ctx, cred); err != nil {
				return err
			}
			quiet.Reset(g.idle)
		}
		if err := g.act(ctx, cred, l, r); err != nil {
			return err
		}
	}
}

// create creates the game with an Idempotency-Key, so that a request sent
// again (its answer lost, or 503: the store's commit not known) creates no
// second game; a 429 waits as long as it says.
func create(ctx context.Context, api *client.ClientWithResponses, req models.CreateGameRequest) (*client.CreateGameResponse, error) {
	key := domain.NewSecret()
	params := &models.CreateGameParams{IdempotencyKey: &key}
	for try := 1; ; try++ {
		created, err := api.CreateGameWithResponse(ctx, params, req)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err == nil && created.JSON201 != nil {
			return created, nil
		}
		if err == nil && created.StatusCode() == http.StatusTooManyRequests {
			if err := pause(ctx, created.Body); err != nil {
				return nil, err
			}
			continue
		}
		lost := err != nil || created.StatusCode() == http.StatusServiceUnavailable
		if !lost || try == createTries {
			if err != nil {
				return nil, fmt.Errorf("create: %w", err)
			}
			return nil, fmt.Errorf("create: %d %s", created.StatusCode(), created.Body)
		}
		select {
		case <-time.After(time.Duration(try) * 100 * time.Millisecond):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// createTries is how often create sends its request at most (429s aside).
const createTries = 5

// act makes the move picked from l. A move refused because the game moved on
// is picked again from a fresh listing; a 429 waits as long as it says.
func (g *game) act(ctx context.Context, cred string, l models.LegalMoves, r *rand.Rand) error {
	params := &models.SubmitMoveParams{}
	if !g.full {
		minimal := "return=minimal"
		params.Prefer = &minimal
	}
	last := ""
	for try := 0; try < 20; try++ {
		m, ok, err := g.pick(l, r)
		if err != nil || !ok {
			return err
		}
		body := m
		resp, err := g.api.SubmitMoveWithBodyWithResponse(ctx, g.id, params,
			"application/json", bytes.NewReader(body), client.Bearer(cred))
		if err != nil {
			return err
		}
		switch resp.StatusCode() {
		case http.StatusOK:
			g.moves.Add(1)
			g.bytes.Add(int64(len(resp.Body)))
			return nil
		case http.StatusTooManyRequests:
			if err := pause(ctx, resp.Body); err != nil {
				return err
			}
			continue
		case http.StatusUnprocessableEntity, http.StatusConflict:
			g.refused.Add(1)
			last = fmt.Sprintf("%s: %d %s", body, resp.StatusCode(), resp.Body)
		default:
			return fmt.Errorf("move %s: %d %s", body, resp.StatusCode(), resp.Body)
		}
		seen := version(l)
		if l, err = g.legal(ctx, cred); err != nil {
			return err
		}
		if version(l) <= seen {
			// Refused by a move not yet stored, so not yet read: its
			// event will tell what the seat may do then.
			return nil
		}
	}
	return fmt.Errorf("no move accepted after 20 tries; the last: %s", last)
}

// version is the game's version a listing was read at.
func version(l models.LegalMoves) int64 {
	var v struct {
		Version int64 `json:"version"`
	}
	if b, err := l.MarshalJSON(); err == nil {
		_ = json.Unmarshal(b, &v)
	}
	return v.Version
}

// legal reads what cred may do now; a 429 waits as long as it says.
func (g *game) legal(ctx context.Context, cred string) (models.LegalMoves, error) {
	for {
		resp, err := g.api.GetLegalMovesWithResponse(ctx, g.id, nil, client.Bearer(cred))
		if err != nil {
			return models.LegalMoves{}, err
		}
		switch {
		case resp.JSON200 != nil:
			return *resp.JSON200, nil
		case resp.StatusCode() == http.StatusTooManyRequests:
			if err := pause(ctx, resp.Body); err != nil {
				return models.LegalMoves{}, err
			}
		default:
			return models.LegalMoves{}, fmt.Errorf("legal moves: %d %s", resp.StatusCode(), resp.Body)
		}
	}
}

// ended reads whether the game has ended; a 429 waits as long as it says.
func (g *game) ended(ctx context.Context, cred string) (bool, error) {
	for {
		resp, err := g.api.GetGameWithResponse(ctx, g.id, nil, client.Bearer(cred))
		if err != nil {
			return false, err
		}
		switch {
		case resp.JSON200 != nil:
			return resp.JSON200.Ended, nil
		case resp.StatusCode() == http.StatusTooManyRequests:
			if err := pause(ctx, resp.Body); err != nil {
				return false, err
			}
		default:
			return false, fmt.Errorf("game: %d %s", resp.StatusCode(), resp.Body)
		}
	}
}

// pause waits as long as a 429's problem says (retry_after_ms).
func pause(ctx context.Context, problem []byte) error {
	var p struct {
		RetryAfterMs int64 `json:"retry_after_ms"`
	}
	_ = json.Unmarshal(problem, &p)
	select {
	case <-time.After(time.Duration(max(p.RetryAfterMs, 1)) * time.Millisecond):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
