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
// again from a fresh GET …/legal-moves. At the end the bot prints the
// requests it made per move.
//
// The bot knows no rule: for each ruleset it has a picker (pick.go) that
// chooses one of the listed moves.
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
)

type config struct {
	server  string
	ruleset string
	mode    string
	players int
	seed    string // the game's seed (digital); empty: the server picks one
	rand    uint64 // seeds the bot's own choices
	full    bool   // ask for whole answers to moves, not Prefer: return=minimal
}

// stats are what a game cost.
type stats struct {
	Game      string
	Moves     int64 // moves accepted
	Requests  int64 // requests other than event streams, the game's creation included
	Refused   int64 // moves refused (422, 409 …), each chosen again
	Throttled int64 // answers 429
	Streams   int64 // event streams opened
	MoveBytes int64 // bytes of the answers to accepted moves
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
		fmt.Printf("requests %d (%.2f per move), moves refused %d, throttled %d, event streams %d, %d bytes per move answer\n",
			s.Requests, s.PerMove(), s.Refused, s.Throttled, s.Streams, s.MoveBytes/max(s.Moves, 1))
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
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	took := time.Since(start)
	fmt.Printf("%d games (%d failed) on %d tables in %v: %d moves, %.0f moves/s\n", *games**tables, failed.Load(), *tables,
		took.Round(time.Millisecond), sum.Moves, float64(sum.Moves)/took.Seconds())
	fmt.Printf("requests %.2f per move, refused %d, throttled %d, %d bytes per move answer\n",
		sum.PerMove(), sum.Refused, sum.Throttled, sum.MoveBytes/max(sum.Moves, 1))
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
	req := client.CreateGameRequest{Ruleset: c.ruleset, Mode: client.Mode(c.mode)}
	for i := range c.players {
		req.Players = append(req.Players, client.PlayerSpec{Name: "bot-" + strconv.Itoa(i)})
	}
	if c.seed != "" {
		req.Seed = &c.seed
	}
	start := time.Now()
	created, err := api.CreateGameWithResponse(ctx, req)
	if err != nil {
		return stats{}, err
	}
	if created.JSON201 == nil {
		return stats{}, fmt.Errorf("create: %d %s", created.StatusCode(), created.Body)
	}
	g := &game{api: api, id: created.JSON201.Game.Id, pick: pick, full: c.full}
	creds := created.JSON201.Credentials.Seats
	if c.mode == string(client.Physical) {
		creds = append(creds, created.JSON201.Credentials.Host) // the table's reports
	}
	var wg sync.WaitGroup
	errs := make(chan error, len(creds))
	for i, cred := range creds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(c.rand, uint64(i)))
			if err := g.play(ctx, cred, r); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return stats{}, err
	}
	s := stats{Game: g.id, Moves: g.moves.Load(), Requests: cnt.requests.Load(), Refused: g.refused.Load(),
		Throttled: cnt.limited.Load(), Streams: cnt.streams.Load(), MoveBytes: g.bytes.Load(), Took: time.Since(start)}
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
	full bool // whole answers to moves

	moves, refused, bytes atomic.Int64
}

// play acts for one credential until the game ends: it reads the event
// stream and, on every legal_moves event, makes the move it picks.
func (g *game) play(ctx context.Context, cred string, r *rand.Rand) error {
	yes := true
	resp, err := g.api.StreamGameEvents(ctx, g.id, &client.StreamGameEventsParams{LegalMoves: &yes}, client.Bearer(cred),
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
	events := client.NewEventReader(resp.Body)
	for {
		ev, err := events.Next()
		if errors.Is(err, io.EOF) {
			return nil // the game has ended
		}
		if err != nil {
			return err
		}
		if ev.Type != "legal_moves" {
			continue
		}
		var l client.LegalMoves
		if err := json.Unmarshal(ev.Data, &l); err != nil {
			return err
		}
		if err := g.act(ctx, cred, l, r); err != nil {
			return err
		}
	}
}

// act makes the move picked from l. A move refused because the game moved on
// is picked again from a fresh listing; a 429 waits as long as it says.
func (g *game) act(ctx context.Context, cred string, l client.LegalMoves, r *rand.Rand) error {
	params := &client.SubmitMoveParams{}
	if !g.full {
		minimal := "return=minimal"
		params.Prefer = &minimal
	}
	for try := 0; try < 20; try++ {
		m, ok, err := g.pick(l, r)
		if err != nil || !ok {
			return err
		}
		body, err := json.Marshal(m)
		if err != nil {
			return err
		}
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
			var p struct {
				RetryAfterMs int64 `json:"retry_after_ms"`
			}
			_ = json.Unmarshal(resp.Body, &p)
			time.Sleep(time.Duration(max(p.RetryAfterMs, 1)) * time.Millisecond)
			continue
		case http.StatusUnprocessableEntity, http.StatusConflict:
			g.refused.Add(1)
		default:
			return fmt.Errorf("move %s: %d %s", body, resp.StatusCode(), resp.Body)
		}
		fresh, err := g.api.GetLegalMovesWithResponse(ctx, g.id, nil, client.Bearer(cred))
		if err != nil {
			return err
		}
		if fresh.JSON200 == nil {
			return fmt.Errorf("legal moves: %d %s", fresh.StatusCode(), fresh.Body)
		}
		l = *fresh.JSON200
	}
	return fmt.Errorf("no move accepted after 20 tries")
}
