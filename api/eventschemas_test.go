package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/rulesets"
	"github.com/treasury-games/treasury/domain/service"
)

// TestEventSchemasOfEveryRuleset plays whole games of every ruleset in every
// mode on the engines, choosing among the listed moves as a client that knows
// no rule would, and checks the data of every event each move causes, as the
// service stores and sends them (private and live ones included, with the
// status the service adds), against the schema the EventStream's x-events
// names for it. An event x-events does not name fails, and so does an event
// x-events names for a ruleset that no game played here caused.
func TestEventSchemasOfEveryRuleset(t *testing.T) {
	schemas := eventSchemas(t)
	const games = 12
	for _, rs := range rulesets.All() {
		info := rs.Info()
		seen := map[string]int{}
		for _, mode := range info.Modes {
			t.Run(rs.Name()+"/"+mode, func(t *testing.T) {
				moves := 0
				for i := range games {
					r := rand.New(rand.NewPCG(uint64(i), 21))
					req := randomRequest(t, info, mode, r)
					g, _, err := rs.Create(req)
					if err != nil {
						t.Fatalf("create %+v: %v", req, err)
					}
					for n := 0; !g.Ended(); n++ {
						if n >= 5000 {
							t.Fatalf("game %d: not ended after %d moves", i, n)
						}
						actor, move := listedMove(t, g, r)
						if _, err := g.Apply(actor, move); err != nil {
							t.Fatalf("game %d, move %d: the listed %s by %+v was refused: %v", i, n, move, actor, err)
						}
						moves++
						for _, ev := range service.MoveEvents(g) {
							seen[ev.Type]++
							checkRulesetEvent(t, schemas, rs.Name(), ev)
						}
						if t.Failed() {
							t.FailNow()
						}
					}
				}
				t.Logf("%d games, %d moves", games, moves)
			})
		}
		if t.Failed() {
			continue
		}
		t.Logf("%s events: %v", rs.Name(), seen)
		for name := range schemas[rs.Name()] {
			if seen[name] == 0 && !rareEvents[rs.Name()+" "+name] {
				t.Errorf("x-events names %s's %s, and no game caused it", rs.Name(), name)
			}
		}
	}
}

// rareEvents are the events (ruleset, name) that the random games of
// TestEventSchemasOfEveryRuleset do not come to: a player with no box left,
// an empty deck and display, a hand and pile both empty, no set to name, no
// seat to rob (80 games a mode come to theft_skipped only). But for
// no_replacement, each one's data is the engine's Go type of an event that
// is checked (player_passed's is resolving's; place_skipped's and
// steal_skipped's captain_used's; theft_skipped's tokens_paired's).
var rareEvents = map[string]bool{
	"silver-and-gold player_passed":       true,
	"silver-and-gold no_replacement":      true,
	"lucky-treasure-hunter place_skipped": true,
	"lucky-treasure-hunter steal_skipped": true,
	"colorful-treasure theft_skipped":     true,
}

// checkRulesetEvent validates an event's data against the schema x-events
// names for it in ruleset (or for every ruleset).
func checkRulesetEvent(t *testing.T, schemas map[string]map[string]string, ruleset string, ev domain.Event) {
	t.Helper()
	name, ok := schemas["*"][ev.Type]
	if !ok {
		name, ok = schemas[ruleset][ev.Type]
	}
	if !ok {
		t.Errorf("%s event %s has no schema in x-events: %s", ruleset, ev.Type, ev.Data)
		return
	}
	var v any
	if err := json.Unmarshal(ev.Data, &v); err != nil {
		t.Fatal(err)
	}
	if err := spec.Doc.Components.Schemas[name].Value.VisitJSON(v, openapi3.MultiErrors()); err != nil {
		t.Errorf("%s event %s does not match %s: %v\n%s", ruleset, ev.Type, name, err, ev.Data)
	}
}

// randomRequest returns the creation request of a game of the ruleset with a
// random number of players and random choices of every option that has an
// enum (variants, sides); a seat option names one of the players.
func randomRequest(t *testing.T, info domain.RulesetInfo, mode string, r *rand.Rand) domain.CreateRequest {
	t.Helper()
	n := info.MinPlayers + r.IntN(info.MaxPlayers-info.MinPlayers+1)
	req := domain.CreateRequest{Mode: mode}
	for i := range n {
		req.Players = append(req.Players, fmt.Sprintf("P%d", i+1))
	}
	if mode == domain.Digital {
		req.Seed, req.Salt = fmt.Sprintf("event-schemas-%d", r.Uint64()), "salt"
	}
	opts := map[string]any{}
	for _, o := range info.Options {
		switch {
		case len(o.Enum) > 0:
			opts[o.Name] = o.Enum[r.IntN(len(o.Enum))]
		case o.Seat:
			opts[o.Name] = r.IntN(n)
		}
	}
	b, err := json.Marshal(opts)
	if err != nil {
		t.Fatal(err)
	}
	req.Options = b
	return req
}

// listedMove picks an awaited actor of g at random and one of its listed
// moves, completed from the listing's pools.
func listedMove(t *testing.T, g domain.Game, r *rand.Rand) (domain.Actor, json.RawMessage) {
	t.Helper()
	st := g.(domain.Tabled).Table()
	if len(st.Awaiting) == 0 {
		t.Fatal("the game has not ended and awaits nobody")
	}
	a := st.Awaiting[r.IntN(len(st.Awaiting))]
	actor, v, seat := domain.Actor{Host: true, Seat: -1}, domain.HostViewer, -1
	if a.Actor != domain.ActorHost {
		actor, v, seat = domain.Actor{Seat: *a.Seat}, domain.SeatViewer(*a.Seat), *a.Seat
	}
	b, err := g.LegalMoves(v, seat)
	if err != nil {
		t.Fatal(err)
	}
	var l struct {
		Moves []domain.LegalMove `json:"moves"`
		Pools domain.Pools       `json:"pools"`
	}
	if err := json.NewDecoder(bytes.NewReader(b)).Decode(&l); err != nil || len(l.Moves) == 0 {
		t.Fatalf("seat %d's listing offers nothing (%v): %s", seat, err, b)
	}
	move, err := l.Moves[r.IntN(len(l.Moves))].Complete(l.Pools, r)
	if err != nil {
		t.Fatal(err)
	}
	return actor, move
}
