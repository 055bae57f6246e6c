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
