package silvergold

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/i18n"
)

// TestLegalJSONPlain holds Legal.AppendJSON to json.Marshal, and each
// entry's move to json.Marshal of the move, for every seat and the table
// after every move of bot games in both modes; and appendMessage to
// json.Marshal on messages with every kind of parameter.
func TestLegalJSONPlain(t *testing.T) {
	for _, mode := range []Mode{Digital, Physical} {
		for players := 2; players <= MaxPlayers; players += 2 {
			for seed := range uint64(2) {
				setup := Setup{Mode: mode, Players: []string{"Ann", "Bob <&>", "Cid \"C\"", "Dée"}[:players]}
				if mode == Digital {
					setup.Seed = fmt.Sprint("legal-json-", seed)
				}
				g, err := New(Standard(), setup)
				if err != nil {
					t.Fatal(err)
				}
				bot, table := Bot{R: newRand(seed)}, &Table{R: newRand(seed + 100)}
				for step := 0; ; step++ {
					for seat := -1; seat < players; seat++ {
						l := g.LegalMoves(seat)
						want, err := json.Marshal(l)
						if err != nil {
							t.Fatal(err)
						}
						if got := l.AppendJSON(nil); string(got) != string(want) {
							t.Fatalf("%s step %d seat %d: AppendJSON\n%s\njson.Marshal\n%s", mode, step, seat, got, want)
						}
						for _, e := range l.Moves {
							m, err := DecodeMove(e.Move)
							if err != nil {
								t.Fatal(err)
							}
							if plain := domain.MustJSON(m); string(plain) != string(e.Move) {
								t.Fatalf("%s step %d seat %d: entry's move %s, json.Marshal %s", mode, step, seat, e.Move, plain)
							}
						}
					}
					a, m, ok := Step(g, bot, table)
					if !ok {
						break
					}
					if err := g.Play(a, &m); err != nil {
						t.Fatalf("%s step %d: %v", mode, step, err)
					}
				}
			}
		}
	}
	for _, m := range []i18n.Message{
		i18n.M("a"),
		{Key: "b", Params: map[string]any{}},
		i18n.M("c <&> \"q\" é", "s", "x<y>", "n", -3, "m", i18n.M("t", "k", 1), "l", []i18n.Message{i18n.M("u"), i18n.M("v", "w", "z")},
			"f", 1.5, "i64", int64(7), "nil", nil, "none", []i18n.Message(nil)),
	} {
		want, _ := json.Marshal(m)
		if got := appendMessage(nil, &m); string(got) != string(want) {
			t.Errorf("appendMessage\n%s\njson.Marshal\n%s", got, want)
		}
	}
	for _, raw := range []json.RawMessage{nil, json.RawMessage(`{"a": [1, 2]}`), json.RawMessage(`"<é>"`), json.RawMessage(`{"a":1}`)} {
		want, _ := json.Marshal(domain.LegalMove{Move: raw})
		if got := appendLegalMove(nil, domain.LegalMove{Move: raw}); string(got) != string(want) {
			t.Errorf("appendLegalMove with move %s\n%s\njson.Marshal\n%s", raw, got, want)
		}
	}
}
