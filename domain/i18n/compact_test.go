package i18n_test

import (
	"encoding/json"
	"testing"

	"github.com/treasury-games/treasury/domain/i18n"
)

// TestCompactPlain holds a Compact rendered in place to its Message
// rendered plainly, in every language and a language without a catalog:
// plural forms by count (and without a count or with one of another kind),
// parameters missing from the message, terms, lists of none, one, two and
// three messages, a key missing from a language and from every one; and its
// Message to the one i18n.M makes.
func TestCompactPlain(t *testing.T) {
	gains := []i18n.Compact{
		i18n.C("sg.gain.coins", i18n.IntArg("count", 1)),
		i18n.C("sg.gain.palms", i18n.IntArg("count", 2)),
		i18n.C("sg.gain.crosses", i18n.IntArg("count", -1)),
	}
	cases := []i18n.Compact{
		i18n.C(""),
		i18n.C("list.and"),
		i18n.C("no.such.key", i18n.StrArg("a", "b")),
		i18n.C("sg.gain.coins", i18n.IntArg("count", 0)),
		i18n.C("sg.gain.coins", i18n.IntArg("count", 1)),
		i18n.C("sg.gain.coins", i18n.StrArg("count", "1")),
		i18n.C("sg.gain.coins"),
		i18n.C("sg.label.keep-pair", i18n.StrArg("a", "x<y>"), i18n.StrArg("b", "Dée")),
		i18n.C("sg.label.keep-pair", i18n.StrArg("a", "only a")),
		i18n.C("sg.label.extra-box", i18n.StrArg("box", "(1,2)"), i18n.StrArg("card", "c"), i18n.TermArg("symbol", "sg.symbol.palm")),
		i18n.C("sg.label.extra-box", i18n.StrArg("box", "(1,2)"), i18n.StrArg("card", "c"), i18n.TermArg("symbol", "no.such.term")),
		i18n.C("table.game.no-seat", i18n.IntArg("seat", 7), i18n.IntArg("last", 3)),
	}
	for n := 0; n <= len(gains); n++ {
		cases = append(cases, i18n.C("sg.label.cross-box-gains", i18n.StrArg("box", "(0,0)"), i18n.StrArg("card", "g-1"), i18n.ListArg("gains", gains[:n])))
	}
	cases = append(cases, i18n.C("sg.label.cross-box-gains", i18n.ListArg("gains", nil)))
	for _, lang := range append(i18n.Languages(), "xx") {
		for _, c := range cases {
			if got, want := string(i18n.AppendRender([]byte("before:"), lang, &c)), "before:"+i18n.Render(lang, c.Message()); got != want {
				t.Errorf("%s %s: in place %q, plainly %q", lang, c.Key, got, want)
			}
		}
	}
	m := i18n.C("k", i18n.StrArg("s", "v"), i18n.IntArg("n", 2), i18n.TermArg("t", "list.and"), i18n.ListArg("l", gains[:1]))
	want := i18n.M("k", "s", "v", "n", 2, "t", i18n.M("list.and"), "l", []i18n.Message{i18n.M("sg.gain.coins", "count", 1)})
	got, _ := json.Marshal(m.Message())
	if plain, _ := json.Marshal(want); string(got) != string(plain) {
		t.Errorf("Message %s, want %s", got, plain)
	}
}
