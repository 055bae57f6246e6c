package domain

import (
	"encoding/json"
	"testing"

	"github.com/treasury-games/treasury/domain/i18n"
)

// TestListingJSONPlain holds AppendLegalMoves, AppendPools, AppendMessage,
// AppendTakeBackEntry and AppendAwait to json.Marshal on entries, pools and messages with every
// kind of member, escaped strings and raw moves that need compacting or
// escaping; the rulesets' tests hold whole listings after every move.
func TestListingJSONPlain(t *testing.T) {
	msgs := []i18n.Message{
		i18n.M("a"),
		{Key: "b", Params: map[string]any{}},
		i18n.M("c <&> \"q\" é", "s", "x<y>", "n", -3, "m", i18n.M("t", "k", 1), "l", []i18n.Message{i18n.M("u"), i18n.M("v", "w", "z")},
			"f", 1.5, "i64", int64(7), "nil", nil, "none", []i18n.Message(nil), "strs", []string{"p", "q"}),
	}
	for _, m := range msgs {
		want, _ := json.Marshal(m)
		if got := AppendMessage(nil, &m); string(got) != string(want) {
			t.Errorf("AppendMessage\n%s\njson.Marshal\n%s", got, want)
		}
	}
	label := msgs[2]
	seat := 3
	for _, a := range []Await{SeatAwait(2, "cross", 1), HostAwait("reveal <&>", 0), {Seat: &seat}} {
		want, _ := json.Marshal(a)
		if got := AppendAwait(nil, a); string(got) != string(want) {
			t.Errorf("AppendAwait\n%s\njson.Marshal\n%s", got, want)
		}
	}
	for _, tb := range []TakeBack{{Type: MoveTakeBack, Version: 7}, {Type: MoveTakeBack, Version: 9, Versions: []int64{8, 9}},
		{Type: "<&>", Versions: []int64{}}} {
		for _, m := range msgs {
			e := Entry(tb, m)
			e.Correction = true
			want, _ := json.Marshal(e)
			if got := AppendTakeBackEntry(nil, tb, m); string(got) != string(want) {
				t.Errorf("AppendTakeBackEntry\n%s\njson.Marshal\n%s", got, want)
			}
		}
	}
	var moves []LegalMove
	for _, raw := range []json.RawMessage{nil, json.RawMessage(`{"a": [1, 2]}`), json.RawMessage(`"<é>"`), json.RawMessage(`{"a":1}`)} {
		moves = append(moves, LegalMove{Move: raw})
	}
	moves = append(moves, Entry(map[string]any{"type": "x", "seat": 2}, label),
		LegalMove{Move: json.RawMessage(`{}`), Label: "l", Choose: &Choose{Pool: "p q", Min: 1, Max: 3}, Holds: []string{"a:1,2", "<b>"}, Correction: true},
		LegalMove{Move: json.RawMessage(`{}`), Holds: []string{}})
	pools := Pools{"z": {Choice(label, "cards", "c1", "extra", map[string]int{"r": 1}), newPart("plain")},
		"a": nil, "m": {}, "e": {{Label: "x", Excludes: []string{"k"}, Owes: -1}}}
	for _, c := range []struct {
		moves []LegalMove
		pools Pools
	}{{nil, nil}, {[]LegalMove{}, Pools{}}, {moves, pools}} {
		want, _ := json.Marshal(struct {
			Moves []LegalMove `json:"moves"`
			Pools Pools       `json:"pools"`
		}{c.moves, c.pools})
		got := append(AppendLegalMoves([]byte(`{"moves":`), c.moves), `,"pools":`...)
		got = append(AppendPools(got, c.pools), '}')
		if string(got) != string(want) {
			t.Errorf("AppendLegalMoves, AppendPools\n%s\njson.Marshal\n%s", got, want)
		}
	}
}
