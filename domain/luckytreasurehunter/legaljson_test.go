package luckytreasurehunter

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/rulesettest"
)

// TestLegalJSONPlain holds the server's listing (Legal.AppendJSON, through
// gamekit.Listing) to json.Marshal of the listing, as it is and localised in
// every language, for the table and every seat, read by the host and by
// each seat, after every move of bot games in both modes, with names that
// JSON escapes.
func TestLegalJSONPlain(t *testing.T) {
	playEscaped(t, func(at string, g *Game) {
		viewers := []domain.Viewer{domain.HostViewer}
		for seat := range g.Players {
			viewers = append(viewers, domain.SeatViewer(seat))
		}
		for _, v := range viewers {
			for seat := -1; seat < len(g.Players); seat++ {
				got, err := wrap(g).LegalMoves(v, seat)
				if err != nil {
					t.Fatalf("%s seat %d: %v", at, seat, err)
				}
				rulesettest.SamePlainJSON(t, fmt.Sprintf("%s seat %d viewer %+v", at, seat, v), got, g.LegalMoves(v, seat))
			}
		}
	})
}

// playEscaped plays the bot games of both modes the plain-JSON checks
// read, with names that JSON escapes, and calls check at every position,
// the first and the one after every move.
func playEscaped(t *testing.T, check func(at string, g *Game)) {
	for i := range 6 {
		players, mode := 2+i%5, []Mode{Digital, Physical}[i%2]
		_, log := randomGame(t, uint64(i), players, mode, nil)
		s := randomSetup(uint64(i), players, mode)
		s.Players = []string{"Ann", "Bob <&>", "Cid \"C\"", "Dée", "Eve\n", "Fay"}[:players]
		g, err := New(s)
		if err != nil {
			t.Fatal(err)
		}
		for step := 0; ; step++ {
			check(fmt.Sprintf("game %d step %d", i, step), g)
			if step == len(log) {
				break
			}
			if err := g.Play(log[step].actor, &log[step].move); err != nil {
				t.Fatalf("game %d step %d: %v", i, step, err)
			}
		}
	}
}

// TestMoveJSONPlain holds Move.AppendJSON to json.Marshal for every move of
// bot games in both modes, as played and as the log keeps it (the dice
// rolled, the cards drawn), and for the move of every entry listed on the
// way, read back.
func TestMoveJSONPlain(t *testing.T) {
	for i := range 6 {
		players, mode := 2+i%5, []Mode{Digital, Physical}[i%2]
		_, log := randomGame(t, uint64(i), players, mode, func(g *Game) {
			for seat := -1; seat < len(g.Players); seat++ {
				for _, o := range g.LegalMoves(domain.HostViewer, seat).Moves {
					m, err := DecodeMove(o.Move)
					if err != nil {
						t.Fatalf("entry %s: %v", o.Move, err)
					}
					if want, _ := json.Marshal(&m); string(want) != string(o.Move) {
						t.Fatalf("entry\n%s\nread back and encoded by json.Marshal\n%s", o.Move, want)
					}
				}
			}
		})
		g, err := New(randomSetup(uint64(i), players, mode))
		if err != nil {
			t.Fatal(err)
		}
		for step, pm := range log {
			m := pm.move
			rulesettest.SamePlainJSON(t, fmt.Sprintf("game %d step %d", i, step), m.AppendJSON(nil), &m)
			if err := g.Play(pm.actor, &m); err != nil {
				t.Fatalf("game %d step %d: %v", i, step, err)
			}
			lm := g.logged(&m)
			rulesettest.SamePlainJSON(t, fmt.Sprintf("game %d step %d, logged", i, step), lm.AppendJSON(nil), &lm)
		}
	}
	for _, m := range []Move{
		{Type: MoveRoll, Faces: []string{FacePirate, FaceBlank}, Drawn: []string{"ruby"}, Seat: SeatPtr(2)},
		{Type: MoveMisdraw, Corrections: []Misdraw{{Seat: 1, Count: -2}, {Seat: 0, Count: 1}}},
		{Type: MoveSteal, Seat: SeatPtr(0), Owner: SeatPtr(3), Set: SeatPtr(0)},
		{Type: "<odd \"type\">", Treasure: "é", Cards: []string{"a&b"}},
	} {
		rulesettest.SamePlainJSON(t, m.Type, m.AppendJSON(nil), &m)
	}
}
