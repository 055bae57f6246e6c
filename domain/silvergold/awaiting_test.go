package silvergold

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/treasury-games/treasury/domain"
)

// plainAwaiting is Awaiting as it was first written: the reference the
// allocation-saving version is held to.
func plainAwaiting(g *Game) []Awaited {
	var out []Awaited
	seat := func(s int, action string, n int) {
		out = append(out, Awaited{Actor: "seat", Seat: SeatPtr(s), Action: action, Count: n})
	}
	switch g.Phase {
	case PhaseSetup:
		for i, p := range g.Players {
			if !p.Kept {
				seat(i, MoveKeep, 1)
			}
		}
		if len(out) == 0 && g.Mode == Physical {
			out = append(out, Awaited{Actor: domain.ActorHost, Action: MoveDisplay, Count: g.displayOwed()})
		}
	case PhaseReveal:
		out = append(out, Awaited{Actor: domain.ActorHost, Action: MoveReveal, Count: 1})
	case PhaseCrossing:
		for i, p := range g.Players {
			if !p.Crossed && !p.Passed {
				seat(i, MoveCross, 1)
			}
		}
	case PhaseResolving:
		if p := g.Players[g.Resolving]; p.Takes > 0 {
			seat(g.Resolving, MoveTake, p.Takes)
		} else {
			out = append(out, Awaited{Actor: domain.ActorHost, Action: MoveDisplay, Count: g.displayOwed()})
		}
	}
	return out
}

// plainTable is Table as it was first written, from Awaiting: the
// reference the one-allocation version is held to.
func plainTable(g *Game) domain.TableStatus {
	st := domain.TableStatus{Awaiting: []domain.Await{}}
	for _, a := range g.Awaiting() {
		if a.Actor == domain.ActorHost {
			st.Awaiting = append(st.Awaiting, domain.HostAwait(a.Action, a.Count))
		} else {
			st.Awaiting = append(st.Awaiting, domain.SeatAwait(*a.Seat, a.Action, a.Count))
		}
	}
	st.OnTurn, st.TurnNumber = g.onTurn(), g.turnNumber()
	return st
}

// plainStatus is the status event's data as it was first written: the
// reference the one-allocation version is held to.
func plainStatus(g *Game) statusEvent {
	st := statusEvent{Phase: g.Phase, Round: g.Round, Turn: g.Turn, StartPlayer: g.Start,
		Revealed: make([]string, len(g.Revealed)), DeckSize: g.DeckSize(), Awaiting: plainAwaiting(g)}
	if pat, ok := g.Current(); ok {
		st.Expedition = expedition(pat)
	}
	for i, p := range g.Revealed {
		st.Revealed[i] = p.Code()
	}
	if g.Resolving >= 0 {
		st.Resolving = SeatPtr(g.Resolving)
	}
	if st.Awaiting == nil {
		st.Awaiting = []Awaited{}
	}
	st.OnTurn, st.TurnNumber = g.onTurn(), g.turnNumber()
	return st
}

// TestAwaitingPlain: at every step of whole games in both modes, with 2 to 4
// players, Awaiting and the status event's table fields say what the plain
// versions say, every move's status event is the plain one, byte for byte,
// and every event's data is json.Marshal's of what the move emitted.
func TestAwaitingPlain(t *testing.T) {
	seen := map[string]int{}
	for _, mode := range []Mode{Digital, Physical} {
		for players := 2; players <= MaxPlayers; players++ {
			for seed := range uint64(5) {
				setup := Setup{Mode: mode, Players: []string{"Ann", "Bob", "Cid", "Dee"}[:players]}
				if mode == Digital {
					setup.Seed = fmt.Sprint("awaiting-", seed)
				}
				g, err := New(Standard(), setup)
				if err != nil {
					t.Fatal(err)
				}
				bot, table := Bot{R: newRand(seed)}, &Table{R: newRand(seed + 100)}
				for steps := 0; ; steps++ {
					if got, want := g.Awaiting(), plainAwaiting(g); !reflect.DeepEqual(got, want) {
						t.Fatalf("%s, %d players, step %d: Awaiting %+v, plain %+v", mode, players, steps, got, want)
					}
					st := g.Table()
					if on, n := g.onTurn(), g.turnNumber(); !reflect.DeepEqual(on, st.OnTurn) || n != st.TurnNumber {
						t.Fatalf("step %d: on turn %v, turn %d; Table says %v, %d", steps, on, n, st.OnTurn, st.TurnNumber)
					}
					if want := plainTable(g); !reflect.DeepEqual(st, want) || st.Awaiting == nil {
						t.Fatalf("%s, %d players, step %d: Table %+v, plain %+v", mode, players, steps, st, want)
					}
					if got, want := mustJSON(t, st), mustJSON(t, plainTable(g)); got != want {
						t.Fatalf("%s, %d players, step %d: Table %s, plain %s", mode, players, steps, got, want)
					}
					a, m, ok := Step(g, bot, table)
					if !ok {
						if g.Phase != PhaseEnded {
							t.Fatalf("%s step %d: nothing awaited in phase %s", mode, steps, g.Phase)
						}
						break
					}
					if err := g.Play(a, &m); err != nil {
						t.Fatalf("%s step %d: %v", mode, steps, err)
					}
					events := g.Events()
					want, err := json.Marshal(plainStatus(g))
					if last := events[len(events)-1]; err != nil || last.Type != "status" || string(last.Data) != string(want) {
						t.Fatalf("%s step %d: status event %s %s, plain %s (%v)", mode, steps, last.Type, last.Data, want, err)
					}
					// Every event's data is written directly (appendEvent): as
					// json.Marshal writes what the move emitted.
					for i, e := range g.events {
						want, err := json.Marshal(e.data)
						if err != nil || events[i].Type != e.typ || string(events[i].Data) != string(want) {
							t.Fatalf("%s step %d: event %d %s\n%s\njson.Marshal %s\n%s", mode, steps, i, events[i].Type, events[i].Data, e.typ, want)
						}
						seen[e.typ]++
					}
				}
			}
		}
	}
	for _, typ := range []string{"status", "crossed", "cards_kept", "expedition_revealed", "game_ended",
		"crossing_closed", "resolving", "cup_taken", "card_completed", "card_taken", "display_card",
		"turn_resolved", "round_ended"} {
		if seen[typ] == 0 {
			t.Errorf("no %s event in the games played", typ)
		}
	}
}

// BenchmarkStatus compares the status event every accepted move ends with
// with the plain version, on a game in its crossing phase.
func BenchmarkStatus(b *testing.B) {
	g := midGame(b)
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			g.events = g.events[:0]
			g.emitStatus()
		}
	})
	b.Run("plain", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			g.events = g.events[:0]
			g.emit("status", plainStatus(g))
		}
	})
}

// BenchmarkAwaiting compares Awaiting with the plain version on a game in
// its crossing phase (four seats to wait for).
func BenchmarkAwaiting(b *testing.B) {
	g := midGame(b)
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = g.Awaiting()
		}
	})
	b.Run("plain", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = plainAwaiting(g)
		}
	})
}

// BenchmarkTable compares Table, which the server reads twice for every
// accepted move, with the plain version on a game in its crossing phase
// (four seats to wait for).
func BenchmarkTable(b *testing.B) {
	g := midGame(b)
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = g.Table()
		}
	})
	b.Run("plain", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = plainTable(g)
		}
	})
}

// mustJSON is json.Marshal's encoding of v.
func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
