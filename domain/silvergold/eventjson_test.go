package silvergold

import (
	"testing"

	"github.com/treasury-games/treasury/domain"
)

// The events' data are held to json.Marshal by TestAwaitingPlain.

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
