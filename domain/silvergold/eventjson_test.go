package silvergold

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/treasury-games/treasury/domain"
)

// TestEventJSONPlain holds the events' data (Events) to json.Marshal of
// what the move emitted, after every move of bot games in both modes.
func TestEventJSONPlain(t *testing.T) {
	seen := map[string]int{}
	for _, mode := range []Mode{Digital, Physical} {
		for players := 2; players <= MaxPlayers; players++ {
			for seed := range uint64(3) {
				setup := Setup{Mode: mode, Players: []string{"Ann", "Bob", "Cid", "Dee"}[:players]}
				if mode == Digital {
					setup.Seed = fmt.Sprint("event-json-", seed)
				}
				g, err := New(Standard(), setup)
				if err != nil {
					t.Fatal(err)
				}
				bot, table := Bot{R: newRand(seed)}, &Table{R: newRand(seed + 100)}
				for step := 0; ; step++ {
					a, m, ok := Step(g, bot, table)
					if !ok {
						break
					}
					if err := g.Play(a, &m); err != nil {
						t.Fatalf("%s step %d: %v", mode, step, err)
					}
					got := g.Events()
					if len(got) != len(g.events) {
						t.Fatalf("%s step %d: %d events of %d", mode, step, len(got), len(g.events))
					}
					for i, e := range g.events {
						want, err := json.Marshal(e.data)
						if err != nil {
							t.Fatal(err)
						}
						if got[i].Type != e.typ || string(got[i].Data) != string(want) {
							t.Fatalf("%s step %d: event %d %s\n%s\njson.Marshal %s\n%s", mode, step, i, got[i].Type, got[i].Data, e.typ, want)
						}
						seen[e.typ]++
					}
				}
			}
		}
	}
	for _, typ := range []string{"status", "crossed", "cards_kept", "expedition_revealed", "game_ended"} {
		if seen[typ] == 0 {
			t.Errorf("no %s event in the games played", typ)
		}
	}
}

// BenchmarkEvents encodes the events of a crossing in the middle of a game
// (a crossed event and a status event), as the server does for every move.
func BenchmarkEvents(b *testing.B) {
	g := midGame(b)
	bot := Bot{R: newRand(3)}
	m, _ := bot.Move(g, 0)
	if err := g.Play(domain.Actor{Seat: 0}, &m); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if len(g.Events()) == 0 {
			b.Fatal("no events")
		}
	}
}
