package luckytreasurehunter

import (
	"encoding/json"
	"testing"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/i18n"
)

// TestLegalJSONPlain holds the server's listing (Legal.AppendJSON, through
// gamekit.Listing) to json.Marshal of the listing, as it is and localised in
// every language, for the table and every seat, read by the host and by
// each seat, after every move of bot games in both modes, with names that
// JSON escapes.
func TestLegalJSONPlain(t *testing.T) {
	for i := range 6 {
		players, mode := 2+i%5, []Mode{Digital, Physical}[i%2]
		_, log := randomGame(t, uint64(i), players, mode, nil)
		s := Setup{Mode: mode, Players: []string{"Ann", "Bob <&>", "Cid \"C\"", "Dée", "Eve\n", "Fay"}[:players],
			PirateFaces: 1 + i%5, CaptainHeart: i % players}
		if mode == Digital {
			s.Seed, s.Salt = "seed-"+itoa(i), "salt"
		}
		g, err := New(s)
		if err != nil {
			t.Fatal(err)
		}
		viewers := []domain.Viewer{domain.HostViewer}
		for seat := range players {
			viewers = append(viewers, domain.Viewer{Seat: seat})
		}
		for step := 0; ; step++ {
			for _, v := range viewers {
				for seat := -1; seat < players; seat++ {
					got, err := wrap(g).LegalMoves(v, seat)
					if err != nil {
						t.Fatalf("game %d step %d seat %d: %v", i, step, seat, err)
					}
					want, err := json.Marshal(g.LegalMoves(v, seat))
					if err != nil {
						t.Fatal(err)
					}
					if string(got) != string(want) {
						t.Fatalf("game %d step %d seat %d viewer %+v: the server's listing\n%s\njson.Marshal\n%s", i, step, seat, v, got, want)
					}
					for _, lang := range i18n.Languages() {
						if a, b := i18n.Localize(lang, got), i18n.Localize(lang, want); string(a) != string(b) {
							t.Fatalf("game %d step %d seat %d, %s: the server's listing localised\n%s\nplain\n%s", i, step, seat, lang, a, b)
						}
					}
				}
			}
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
	same := func(what string, m *Move) {
		t.Helper()
		want, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.AppendJSON(nil); string(got) != string(want) {
			t.Fatalf("%s: AppendJSON\n%s\njson.Marshal\n%s", what, got, want)
		}
	}
	for i := range 6 {
		mode := []Mode{Digital, Physical}[i%2]
		randomGame(t, uint64(i), 2+i%5, mode, func(g *Game) {
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
		players := 2 + i%5
		_, log := randomGame(t, uint64(i), players, mode, nil)
		s := Setup{Mode: mode, Players: botNames[:players], PirateFaces: 1 + i%5, CaptainHeart: i % players}
		if mode == Digital {
			s.Seed, s.Salt = "seed-"+itoa(i), "salt"
		}
		g, err := New(s)
		if err != nil {
			t.Fatal(err)
		}
		for step, pm := range log {
			m := pm.move
			same("game "+itoa(i)+" step "+itoa(step), &m)
			if err := g.Play(pm.actor, &m); err != nil {
				t.Fatalf("game %d step %d: %v", i, step, err)
			}
			lm := g.logged(&m)
			same("game "+itoa(i)+" step "+itoa(step)+" logged", &lm)
		}
	}
	for _, m := range []Move{
		{Type: MoveRoll, Faces: []string{FacePirate, FaceBlank}, Drawn: []string{"ruby"}, Seat: SeatPtr(2)},
		{Type: MoveMisdraw, Corrections: []Misdraw{{Seat: 1, Count: -2}, {Seat: 0, Count: 1}}},
		{Type: MoveSteal, Seat: SeatPtr(0), Owner: SeatPtr(3), Set: SeatPtr(0)},
		{Type: "<odd \"type\">", Treasure: "é", Cards: []string{"a&b"}},
	} {
		same(m.Type, &m)
	}
}
