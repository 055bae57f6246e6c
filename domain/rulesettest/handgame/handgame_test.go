package handgame_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/rulesettest"
	"github.com/treasury-games/treasury/domain/rulesettest/handgame"
)

func move(seat int, card string) []byte {
	b, _ := json.Marshal(handgame.Move{Type: "play", Seat: seat, Card: card})
	return b
}

// TestConformance runs the suite on the hidden-hand game: a ruleset that is
// not shaped like Silver & Gold, with hands the host may not see.
func TestConformance(t *testing.T) {
	rulesettest.Run(t, rulesettest.Harness{
		Ruleset: handgame.Rules{},
		NewGame: func(r *rand.Rand, _ string) domain.CreateRequest {
			n := 2 + r.IntN(3)
			opts := fmt.Sprintf(`{"hand_size":%d,"start_player":%d}`, 1+r.IntN(5), r.IntN(n))
			return domain.CreateRequest{Players: []string{"Ann", "Bob", "Cid", "Dee"}[:n], Options: json.RawMessage(opts)}
		},
		Candidates: func(dg domain.Game, r *rand.Rand) []rulesettest.Candidate {
			g := dg.(*handgame.Game)
			var out []rulesettest.Candidate
			for seat := range g.Counts {
				var cards []string
				if g.Setup().Mode == domain.Digital {
					cards = slices.Clone(g.Hands[seat])
				} else if b, _ := g.LegalMoves(domain.SeatViewer(seat), seat); true {
					var l handgame.Legal
					_ = json.Unmarshal(b, &l)
					if len(l.Cards) > 0 {
						cards = append(cards, l.Cards[r.IntN(len(l.Cards))])
					}
				}
				for range 2 {
					cards = append(cards, fmt.Sprintf("c%02d", 1+r.IntN(handgame.Cards+1)))
				}
				for _, c := range cards {
					out = append(out, rulesettest.Candidate{Actor: domain.Actor{Seat: seat}, Seat: seat, Move: move(seat, c)})
				}
				out = append(out, rulesettest.Candidate{Actor: domain.Actor{Host: true}, Seat: seat, Move: move(seat, cards[0])})
			}
			return out
		},
		Offered: func(legal []byte, c rulesettest.Candidate) bool {
			var l handgame.Legal
			var m handgame.Move
			if json.Unmarshal(legal, &l) != nil || json.Unmarshal(c.Move, &m) != nil {
				return false
			}
			return !c.Actor.Host && c.Actor.Seat == m.Seat && l.Seat == m.Seat && l.Action == "play" && slices.Contains(l.Cards, m.Card)
		},
		Secrets: func(dg domain.Game, v domain.Viewer) [][]byte {
			g := dg.(*handgame.Game)
			var out [][]byte
			for _, c := range g.Deck {
				out = append(out, []byte(`"`+c+`"`))
			}
			for seat, hand := range g.Hands {
				if v.Host || v.Seat != seat {
					for _, c := range hand {
						out = append(out, []byte(`"`+c+`"`))
					}
				}
			}
			return out
		},
		Rehide: func(dg domain.Game, v domain.Viewer, r *rand.Rand) domain.Game {
			snap, _ := dg.Snapshot()
			c, _ := handgame.Rules{}.Restore(snap, domain.CatalogBlob{})
			g := c.(*handgame.Game)
			r.Shuffle(len(g.Deck), func(i, j int) { g.Deck[i], g.Deck[j] = g.Deck[j], g.Deck[i] })
			for seat := range g.Hands {
				if !v.Host && v.Seat == seat {
					continue
				}
				for k := range g.Hands[seat] {
					if len(g.Deck) > 0 {
						j := r.IntN(len(g.Deck))
						g.Hands[seat][k], g.Deck[j] = g.Deck[j], g.Hands[seat][k]
					}
				}
			}
			return g
		},
		Games: 400,
	})
}

// TestOptions: a game takes its options, with defaults filled in, and a bad
// one is refused naming it.
func TestOptions(t *testing.T) {
	g, _, err := handgame.Rules{}.Create(domain.CreateRequest{Mode: domain.Physical, Players: []string{"A", "B"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(g.Setup().Options); got != `{"hand_size":3,"start_player":0}` {
		t.Errorf("options %s", got)
	}
	for opts, words := range map[string]string{
		`{"hand_size":9}`:    "option hand_size: must be from 1 to 5, not 9",
		`{"start_player":2}`: "option start_player: names a seat, 0 to 1",
		`{"colour":"red"}`:   `unknown option "colour"`,
		`{"hand_size":"3"}`:  "option hand_size: must be a whole number",
		`[1]`:                "options must be a JSON object",
	} {
		_, _, err := handgame.Rules{}.Create(domain.CreateRequest{Mode: domain.Physical, Players: []string{"A", "B"}, Options: json.RawMessage(opts)})
		if domain.ErrorCode(err) != domain.Invalid || !strings.Contains(domain.ErrorReason(err), words) {
			t.Errorf("options %s: %v, want a problem saying %q", opts, err, words)
		}
	}
}
