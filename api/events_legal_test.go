package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/treasury-games/treasury/api"
	"github.com/treasury-games/treasury/api/apitest"
	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/luckytreasurehunter"
	"github.com/treasury-games/treasury/domain/rulesets"
	"github.com/treasury-games/treasury/domain/service"
	"github.com/treasury-games/treasury/domain/silvergold"
	"github.com/treasury-games/treasury/storage/sqlite"
)

// gatedStore is the SQLite store with a gate on answering moves: while it is
// held, each move is stored, then reported on committed, and its request
// waits for the gate before it is answered and told to the event streams.
// Moves held together are so told one after the other, the game already
// past all of them.
type gatedStore struct {
	*sqlite.Store
	mu        sync.Mutex
	hold      chan struct{} // nil: moves pass
	committed chan struct{}
}

func (g *gatedStore) QueueAppend(ctx context.Context, a domain.Append) func() error {
	wait := g.Store.QueueAppend(ctx, a)
	g.mu.Lock()
	hold := g.hold
	g.mu.Unlock()
	if hold == nil {
		return wait
	}
	return func() error {
		err := wait()
		g.committed <- struct{}{}
		<-hold
		return err
	}
}

func (g *gatedStore) Append(ctx context.Context, a domain.Append) error {
	return g.QueueAppend(ctx, a)()
}

// shut holds the moves from now on; the function it returns lets them pass.
func (g *gatedStore) shut() (open func()) {
	hold := make(chan struct{})
	g.mu.Lock()
	g.hold = hold
	g.mu.Unlock()
	return func() {
		g.mu.Lock()
		g.hold = nil
		g.mu.Unlock()
		close(hold)
	}
}

// awaitCommitted waits until a held move is stored.
func (g *gatedStore) awaitCommitted(t *testing.T) {
	t.Helper()
	select {
	case <-g.committed:
	case <-time.After(time.Minute):
		t.Fatal("a held move was not stored within a minute")
	}
}

func startGated(t *testing.T) (*server, *gatedStore) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "treasury.db")
	store, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	gs := &gatedStore{Store: store, committed: make(chan struct{}, 4)}
	log := apitest.Logger(t, slog.LevelWarn)
	h, err := api.NewHandler(service.New(gs, rulesets.All()...), api.Options{Logger: log, DefaultRuleset: silvergold.RulesetName})
	if err != nil {
		t.Fatal(err)
	}
	s := &server{T: t, Path: path, Store: store, HTTP: httptest.NewServer(h)}
	t.Cleanup(s.Stop)
	return s, gs
}

// TestEventStreamLegalAfterOwnMove: a stream with ?legal_moves=true tells
// its seat (or the table) what it may do after every move it made, even when
// the listing reads as the one it just acted on. A bot acts once per
// legal_moves event; when its move and the next one are told to the stream
// together (the game already past both), the listing after them is the same
// as before, and without an event the bot, and the game waiting for it, stop
// for ever. Two cases of Lucky Treasure Hunter's physical game: the table
// reports a roll of 1 die, the seat plays its captain, and the table owes a
// roll of 1 die again; the seat re-rolls 1 die, the table reports it failed,
// and the seat decides again from the same choices.
func TestEventStreamLegalAfterOwnMove(t *testing.T) {
	for _, c := range []struct {
		name     string
		follower func(tb *lthTable) (cred string, seat int)
		// first is the follower's move, then the other one's.
		first, then func(tb *lthTable) (cred string, move map[string]any)
		step        string // what the follower is asked to do before and after
	}{
		{
			name:     "table",
			follower: func(tb *lthTable) (string, int) { return tb.host, -1 },
			first: func(tb *lthTable) (string, map[string]any) {
				return tb.host, map[string]any{"type": "roll", "faces": []string{"blank"}}
			},
			then: func(tb *lthTable) (string, map[string]any) {
				return tb.seats[0], map[string]any{"type": "captain", "seat": 0}
			},
			step: "roll",
		},
		{
			name:     "seat",
			follower: func(tb *lthTable) (string, int) { return tb.seats[0], 0 },
			first: func(tb *lthTable) (string, map[string]any) {
				return tb.seats[0], map[string]any{"type": "reroll", "seat": 0, "dice": 1}
			},
			then: func(tb *lthTable) (string, map[string]any) {
				return tb.host, map[string]any{"type": "roll", "faces": []string{"blank"}}
			},
			step: "decide",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, gs := startGated(t)
			tb := newLTH(t, s, "physical", 2, "", `{}`)
			// The middle, Ann's place, her steal of a set of 1 from the middle.
			wantStatus(t, tb.move(t, tb.host, map[string]any{"type": "lth_middle", "cards": []string{"silver", "gold", "pearl"}}), http.StatusOK)
			wantStatus(t, tb.move(t, tb.seats[0], map[string]any{"type": "place", "seat": 0, "treasure": "ruby", "count": 1}), http.StatusOK)
			wantStatus(t, tb.move(t, tb.seats[0], map[string]any{"type": "steal", "seat": 0, "set": 0}), http.StatusOK)
			if c.name == "seat" { // the table reports the steal's die failed
				wantStatus(t, tb.move(t, tb.host, map[string]any{"type": "roll", "faces": []string{"blank"}}), http.StatusOK)
			}

			cred, seat := c.follower(tb)
			st := openStream(t, s, tb.path("/events?legal_moves=true"), "Authorization", "Bearer "+cred)
			before := nextLegal(t, st)
			if before.Step != c.step || len(before.Moves) == 0 {
				t.Fatalf("the stream tells %+v, want a listing to %s", before, c.step)
			}

			open := gs.shut()
			answered := make(chan resp, 2)
			cred1, m1 := c.first(tb)
			go func() { answered <- tb.move(t, cred1, m1) }()
			gs.awaitCommitted(t)
			cred2, m2 := c.then(tb)
			go func() { answered <- tb.move(t, cred2, m2) }()
			gs.awaitCommitted(t)
			open()
			for range 2 {
				wantStatus(t, <-answered, http.StatusOK)
			}

			now, _ := tb.legal(t, cred, seat)
			// (Corrections - take-backs of the moves just made - change with
			// every move; the moves that play on are the same.)
			if !jsonEqualAny(t, forwardOptions(now.Moves), forwardOptions(before.Moves)) || now.Step != before.Step {
				t.Fatalf("the case is not set up: after both moves %s lists %+v, before %+v", cred, now, before)
			}
			g, _ := tb.game(t, cred)
			// A listing told with an update is of that update's version, so
			// the stream may tell the one between the two moves first; the
			// last it tells is of the game as it stands, and asks the
			// follower to act again.
			after := nextLegal(t, st)
			for after.version < g.Version {
				after = nextLegal(t, st)
			}
			if after.version != g.Version || after.Step != c.step {
				t.Errorf("after its own move the stream told version %d step %s, want version %d step %s",
					after.version, after.Step, g.Version, c.step)
			}
		})
	}
}

// legalEvent is a legal_moves event of Lucky Treasure Hunter.
type legalEvent struct {
	luckytreasurehunter.Legal
	version int64
}

// nextLegal waits for the stream's next legal_moves event.
func nextLegal(t *testing.T, st *stream) legalEvent {
	t.Helper()
	ev := nextListing(t, st)
	l := legalEvent{version: ev.version}
	if err := json.Unmarshal(ev.data, &l.Legal); err != nil {
		t.Fatal(err)
	}
	return l
}

func jsonEqualAny(t *testing.T, a, b any) bool {
	t.Helper()
	ja, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	jb, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return jsonEqual(t, ja, jb)
}

// forwardOptions are a listing's options but its corrections (take-backs, a
// mis-draw report).
func forwardOptions(os []luckytreasurehunter.Option) []luckytreasurehunter.Option {
	var out []luckytreasurehunter.Option
	for _, o := range os {
		if !o.Correction {
			out = append(out, o)
		}
	}
	return out
}

// TestEventStreamLegalAsGET: the legal_moves event a stream tells is, byte
// for byte, the listing GET .../legal-moves answers at the same version, in
// the stream's language, with the take-backs its reader may make: the
// stream joins the ruleset's listing, the take-backs and the head itself.
func TestEventStreamLegalAsGET(t *testing.T) {
	s, _ := startGated(t)
	tb := newLTH(t, s, "physical", 2, "", `{}`)
	wantStatus(t, tb.move(t, tb.host, map[string]any{"type": "lth_middle", "cards": []string{"silver", "gold", "pearl"}}), http.StatusOK)
	wantStatus(t, tb.move(t, tb.seats[0], map[string]any{"type": "place", "seat": 0, "treasure": "ruby", "count": 1}), http.StatusOK)
	for _, lang := range []string{"en", "de"} {
		for _, who := range []struct {
			cred string
			seat int
		}{{tb.host, -1}, {tb.seats[0], 0}, {tb.seats[1], 1}} {
			st := openStream(t, s, tb.path("/events?legal_moves=true"), "Authorization", "Bearer "+who.cred, "Accept-Language", lang)
			told := nextListing(t, st)
			q := ""
			if who.seat >= 0 {
				q = fmt.Sprintf("?seat=%d", who.seat)
			}
			r := s.Do(t, http.MethodGet, tb.path("/legal-moves"+q), nil, cred(who.cred), header("Accept-Language", lang))
			wantStatus(t, r, http.StatusOK)
			if got, want := bytes.TrimSpace(told.data), bytes.TrimSpace(r.Body); !bytes.Equal(got, want) {
				t.Errorf("%s, seat %d: the stream tells\n%s\nGET answers\n%s", lang, who.seat, got, want)
			}
			if who.seat == 0 && !bytes.Contains(told.data, []byte(`"correction":true`)) {
				t.Errorf("%s: seat 0 is offered no take-back of its move: %s", lang, told.data)
			}
		}
	}
}
