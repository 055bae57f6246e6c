package api

import (
	"encoding/json"
	"testing"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/silvergold"
)

// BenchmarkStreamFanOut is one move's fan-out to a table's four seats
// following the game's events with ?legal_moves=true, as after every move
// of a load run (issue 27): each seat's stream takes the move's update,
// tells it and reads its seat's listing, telling it when it changed, and
// writes. One op is one move's four steps; the move (a seat's first listed
// move in digital games of four) is played untimed.
func BenchmarkStreamFanOut(b *testing.B) {
	games := sqliteGames(b)
	srv := NewServer(games, Options{})
	ctx := b.Context()
	var (
		id      string
		streams []*stream
		stops   []func()
	)
	defer func() {
		for _, stop := range stops {
			stop()
		}
	}()
	newGame := func() {
		for _, stop := range stops {
			stop()
		}
		c, err := games.Create(ctx, silvergold.RulesetName, domain.CreateRequest{Mode: "digital", Players: []string{"Ann", "Ben", "Cid", "Dee"}})
		if err != nil {
			b.Fatal(err)
		}
		id, streams, stops = c.Game.ID, nil, nil
		for seat := range 4 {
			st := &stream{s: srv, conn: &discardConn{}, chunked: true, id: id, legalSeat: seat, viewer: domain.SeatViewer(seat)}
			stops = append(stops, games.Listen(id, st))
			if err := st.legal(ctx); err != nil {
				b.Fatal(err)
			}
			if err := st.flush(); err != nil {
				b.Fatal(err)
			}
			streams = append(streams, st)
		}
	}
	// play plays a move of a seat the game waits for, the first its listing
	// offers that the game takes (a listed crossing may want extra boxes
	// named), read as the host sees it (the streams' reads never share it);
	// false when no seat has one. The seats are tried from the one after the
	// last to move (a seat may keep its cards again while the others have
	// not, and the setup would never end).
	next := 0 // the seat to try first: the one after the last to move
	play := func() bool {
		for i := range 4 {
			seat := (next + i) % 4
			_, l, err := games.LegalMoves(ctx, id, domain.HostViewer, seat)
			if err != nil {
				b.Fatal(err)
			}
			var ml struct {
				Moves []struct {
					Move json.RawMessage `json:"move"`
				} `json:"moves"`
			}
			if err := json.Unmarshal(l, &ml); err != nil {
				b.Fatal(err)
			}
			for _, m := range ml.Moves {
				if _, err := games.Play(ctx, id, domain.Actor{Seat: seat}, m.Move, domain.PlayOptions{}); err == nil {
					next = seat + 1
					return true
				} else if domain.ErrorCode(err) != domain.IllegalMove {
					b.Fatal(err)
				}
			}
		}
		return false
	}
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		if id == "" || !play() {
			newGame()
			if !play() {
				b.Fatal("no seat has a move in a new game")
			}
		}
		b.StartTimer()
		for _, st := range streams {
			st.mu.Lock()
			q := st.queue
			st.queue = nil
			st.mu.Unlock()
			if !st.step(q, false, false, false) {
				b.Fatal("a step ended its stream")
			}
		}
	}
}

// discardConn is a connection that takes every write.
type discardConn struct{ writeCounter }

func (*discardConn) Write(b []byte) (int, error) { return len(b), nil }
