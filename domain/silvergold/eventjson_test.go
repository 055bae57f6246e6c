package silvergold

import (
	"encoding/json"
	"testing"

	"github.com/treasury-games/treasury/domain"
)

// The events' data are held to json.Marshal by TestAwaitingPlain, and by
// TestEventsPlain for the events bot games seldom make and the values they
// do not reach.

// TestEventsPlain writes the data of each small event with appendEvent and
// with json.Marshal: the same bytes.
func TestEventsPlain(t *testing.T) {
	for _, d := range []any{
		seatEvent{0}, seatEvent{3},
		cardEvent{Seat: 1, Card: "G12"}, cardEvent{Seat: 2, Card: "S3", From: "display"}, cardEvent{Card: "<\"&>\u2028é"},
		cardsEvent{Seat: 1, Cards: []string{"G1", "S2"}}, cardsEvent{Cards: []string{}}, cardsEvent{},
		displayEvent{Card: "G7"}, displayEvent{},
		cupEvent{2, 6}, countEvent{Seat: 3, Count: 2},
		turnEvent{Round: 2, Turn: 5, StartPlayer: 1}, turnEvent{Round: 1, Turn: 1, Expedition: expeditionOf(3)},
	} {
		want, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendEvent([]byte("x"), event{"e", d}); string(got) != "x"+string(want) {
			t.Errorf("%T %+v: appendEvent %s, json.Marshal %s", d, d, got[1:], want)
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

// BenchmarkEventsGame encodes the events of every move of a whole bot game
// (4 players, digital), as the server does after each: the crossings' and
// the turns' ends'.
func BenchmarkEventsGame(b *testing.B) {
	g, err := New(Standard(), Setup{Mode: Digital, Players: []string{"Ann", "Bob", "Cid", "Dee"}, Seed: "events"})
	if err != nil {
		b.Fatal(err)
	}
	bot := Bot{R: newRand(1)}
	var moves [][]event
	for {
		a, m, ok := Step(g, bot, nil)
		if !ok {
			break
		}
		if err := g.Play(a, &m); err != nil {
			b.Fatal(err)
		}
		moves = append(moves, append([]event(nil), g.events...))
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, evs := range moves {
			g.events = evs
			if len(g.Events()) == 0 {
				b.Fatal("no events")
			}
		}
	}
	b.ReportMetric(float64(len(moves)), "moves")
}
