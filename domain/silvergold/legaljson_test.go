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
// after every move of bot games in both modes; the server's listing too,
// which puts a crossing listing together from the catalog's pieces
// (Game.appendCrossListing).
func TestLegalJSONPlain(t *testing.T) {
	crossings := 0
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
				w := wrap(g)
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
						// The server's listing, its entries written and not built, and
						// its labels in every language the API renders them in.
						got, err := w.LegalMoves(domain.Public, seat)
						if err != nil {
							t.Fatal(err)
						}
						if string(got) != string(want) {
							t.Fatalf("%s step %d seat %d: the server's listing\n%s\njson.Marshal\n%s", mode, step, seat, got, want)
						}
						if l.Action == MoveCross {
							crossings++
						}
						checkLabels(t, &l)
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
	if crossings == 0 {
		t.Error("no crossing listing was written")
	}
}

// checkLabels holds the labels of l's entries and parts, rendered in place
// (i18n.AppendRender), to the plain rendering of their messages, and the
// listing localised to the plain one's, in every language.
func checkLabels(t *testing.T, l *Legal) {
	t.Helper()
	var labels []i18n.Compact
	l.eachEntry(func(e *listEntry) { labels = append(labels, cloneCompact(e.label)) })
	l.eachPart(func(p *listPart) { labels = append(labels, p.label) })
	for _, lang := range i18n.Languages() {
		for _, c := range labels {
			if got, want := string(i18n.AppendRender(nil, lang, &c)), i18n.Render(lang, c.Message()); got != want {
				t.Fatalf("%s: %s rendered in place %q, plainly %q", lang, c.Key, got, want)
			}
		}
		plain, _ := json.Marshal(l)
		if got, want := i18n.Localize(lang, l.AppendJSON(nil)), i18n.Localize(lang, plain); string(got) != string(want) {
			t.Fatalf("%s: listing localised\n%s\nplain\n%s", lang, got, want)
		}
	}
}

// cloneCompact copies c's list of gains, which the walk reuses.
func cloneCompact(c i18n.Compact) i18n.Compact {
	for i := range c.Args[:c.N] {
		c.Args[i].List = append([]i18n.Compact(nil), c.Args[i].List...)
	}
	return c
}
