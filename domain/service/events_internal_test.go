package service

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/silvergold"
)

// TestAppendEvents holds appendEvents to json.Marshal: on crafted events
// (private, live, odd types, data with escapes) and on every move's events
// of whole Silver & Gold games in both modes.
func TestAppendEvents(t *testing.T) {
	seat := 2
	check := func(t *testing.T, events []domain.Event) {
		t.Helper()
		want, err := json.Marshal(events)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendEvents(nil, events); string(got) != string(want) {
			t.Fatalf("appendEvents\n%s\njson.Marshal\n%s", got, want)
		}
	}
	check(t, nil)
	check(t, []domain.Event{})
	check(t, []domain.Event{
		{Type: "drew", For: &seat, NotHost: true, Live: true, Data: domain.MustJSON(map[string]any{"card": "<a&b>", "n": 1})},
		{Type: "odd \"type\" <x> é", Data: domain.MustJSON("tab\there")},
		{Type: "nothing"},
		{Type: "status", For: &seat, Data: json.RawMessage(`{"phase":"play"}`)},
	})
	for _, mode := range []silvergold.Mode{silvergold.Digital, silvergold.Physical} {
		setup := silvergold.Setup{Mode: mode, Players: []string{"Ann", "Bob", "Cid"}}
		if mode == silvergold.Digital {
			setup.Seed = "events"
		}
		g, err := silvergold.New(silvergold.Standard(), setup)
		if err != nil {
			t.Fatal(err)
		}
		bot, table := silvergold.Bot{R: rand.New(rand.NewPCG(7, 1))}, &silvergold.Table{R: rand.New(rand.NewPCG(8, 1))}
		for moves := 0; ; moves++ {
			a, m, ok := silvergold.Step(g, bot, table)
			if !ok {
				break
			}
			if err := g.Play(a, &m); err != nil {
				t.Fatal(err)
			}
			check(t, g.Events())
		}
	}
}
