package colorfultreasure

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/i18n"
	"github.com/treasury-games/treasury/domain/rulesettest"
)

// TestLegalJSONPlain holds the server's listing (Legal.AppendJSON, through
// gamekit.Listing) to json.Marshal of the listing, as it is and localised in
// every language, for every seat and the table after every move of bot games
// of every variant in both modes, with names that JSON escapes.
func TestLegalJSONPlain(t *testing.T) {
	playEscaped(t, func(at string, g *Game) {
		for seat := -1; seat < len(g.Players); seat++ {
			got, err := wrap(g).LegalMoves(domain.HostViewer, seat)
			if err != nil {
				t.Fatalf("%s seat %d: %v", at, seat, err)
			}
			rulesettest.SamePlainJSON(t, fmt.Sprintf("%s seat %d", at, seat), got, g.LegalMoves(seat))
		}
	})
}

// playEscaped plays the bot games of every variant in both modes the
// plain-JSON checks read, with names that JSON escapes, and calls check at
// every position, the first and the one after every move.
func playEscaped(t *testing.T, check func(at string, g *Game)) {
	for i := range 6 {
		s := randomSetup(uint64(i), 4, []Mode{Digital, Physical}[i%2], variants[i%3])
		s.Players = []string{"Ann", "Bob <&>", "Cid \"C\"", "Dée"}
		_, log := randomGame(t, s, uint64(i), nil)
		g, err := New(Standard(), s)
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

// TestLegalJSONNoSuchKind: a listing naming a kind that is none of the
// game's is an error, as json.Marshal gives it.
func TestLegalJSONNoSuchKind(t *testing.T) {
	for _, l := range []Legal{
		{Rob: []RobOption{{Target: 1, Card: &CardRef{Wonder: "w", Kind: NumKinds}}}},
		{Flip: &FlipOption{Count: 1, Cells: []FlipCell{{Pos: Pos{0, 0}, Shows: []Kind{-1}}}}},
	} {
		_, wantErr := json.Marshal(&l)
		if _, err := l.AppendJSON(nil); err == nil || wantErr == nil {
			t.Errorf("%+v: AppendJSON error %v, json.Marshal error %v; want both", l, err, wantErr)
		}
	}
}

// TestCardPartIsChoice holds cardPart and showsPart, which write their
// members without reflection and name the cards as the catalog keeps them,
// to the parts domain.Choice makes with the names made afresh, for every
// card of the grid and every kind it may show.
func TestCardPartIsChoice(t *testing.T) {
	g, err := New(Standard(), randomSetup(1, 4, Digital, variants[0]))
	if err != nil {
		t.Fatal(err)
	}
	for c := range g.Grid {
		for r := range g.Grid[c] {
			p := Pos{c, r}
			where := i18n.M("ct.label.place", "wonder", wonderTerm(g.wonder(c)), "row", r+1)
			got, err := json.Marshal(g.cardPart(p))
			if err != nil {
				t.Fatal(err)
			}
			want, _ := json.Marshal(domain.Choice(where, "cards", p))
			if string(got) != string(want) {
				t.Fatalf("card %v: cardPart\n%s\ndomain.Choice\n%s", p, got, want)
			}
			for k := range NumKinds {
				got, err := json.Marshal(showsPart(where, p, k))
				if err != nil {
					t.Fatal(err)
				}
				want, _ := json.Marshal(domain.Choice(where, "cards", p, "shows", k))
				if string(got) != string(want) {
					t.Fatalf("card %v showing %v: showsPart\n%s\ndomain.Choice\n%s", p, k, got, want)
				}
			}
		}
	}
}

// TestCatalogParts holds the parts the catalog keeps for every card of the
// grid (a digital flip's, a peek's at different wonders, a physical flip's
// for every kind the card's wonder has) and their JSON to the parts
// domain.Choice makes with the names made afresh.
func TestCatalogParts(t *testing.T) {
	cat := Standard()
	same := func(what string, got domain.Part, gotJSON []byte, want domain.Part) {
		t.Helper()
		w, _ := json.Marshal(want)
		if g, _ := json.Marshal(got); string(g) != string(w) || string(gotJSON) != string(w) {
			t.Fatalf("%s: the catalog's part\n%s\nits JSON\n%s\ndomain.Choice\n%s", what, g, gotJSON, w)
		}
	}
	kinds := 0
	for c := range cat.Wonders {
		id := cat.Wonders[c].ID
		for r := range CardsPerWonder {
			p, n := Pos{c, r}, &cat.places[c][r]
			where := i18n.M("ct.label.place", "wonder", wonderTerm(id), "row", r+1)
			same(fmt.Sprint(p), n.part, n.json, domain.Choice(where, "cards", p))
			apart := domain.Choice(where, "cards", p)
			apart.Excludes = []string{id}
			same(fmt.Sprint(p, " peek"), n.apart, n.ajson, apart)
			for k := range NumKinds {
				if !cat.Wonders[c].Has(k, false) {
					if n.shows[k] != nil {
						t.Fatalf("%v: a part for %v, which wonder %s has none of", p, k, id)
					}
					continue
				}
				kinds++
				want := domain.Choice(i18n.M("ct.label.place-shows", "place", where, "kind", kindTerm(k)), "cards", p, "shows", k)
				want.Excludes = []string{fmt.Sprintf("card %d,%d", c, r), id + " " + k.String()}
				same(fmt.Sprint(p, " shows ", k), n.shows[k].part, n.shows[k].json, want)
			}
		}
	}
	if kinds != len(cat.Wonders)*CardsPerWonder*CardsPerWonder {
		t.Fatalf("%d parts of a physical flip, want one for every kind of every card's wonder", kinds)
	}
}

// TestMoveJSONPlain holds Move.AppendJSON to json.Marshal for every move of
// bot games of every variant in both modes, for the move of every entry
// listed on the way, read back, and for moves naming no kind of the game
// (an error both ways).
func TestMoveJSONPlain(t *testing.T) {
	same := func(what string, m *Move) {
		t.Helper()
		want, wantErr := json.Marshal(m)
		got, err := m.AppendJSON(nil)
		if (err != nil) != (wantErr != nil) || string(got) != string(want) {
			t.Fatalf("%s: AppendJSON\n%s (%v)\njson.Marshal\n%s (%v)", what, got, err, want, wantErr)
		}
	}
	for i := range 6 {
		s := randomSetup(uint64(i), 4, []Mode{Digital, Physical}[i%2], variants[i%3])
		_, log := randomGame(t, s, uint64(i), func(g *Game) {
			for seat := range g.Players {
				for _, e := range g.LegalMoves(seat).Moves {
					m, err := DecodeMove(e.Move)
					if err != nil {
						t.Fatalf("entry %s: %v", e.Move, err)
					}
					same(string(e.Move), &m)
					if got, _ := m.AppendJSON(nil); string(got) != string(e.Move) {
						t.Fatalf("entry\n%s\nread back and written again\n%s", e.Move, got)
					}
				}
			}
		})
		for step, pm := range log {
			m := pm.move
			same(fmt.Sprintf("game %d step %d", i, step), &m)
		}
	}
	for _, m := range []Move{
		{Type: MoveFlip, Seat: SeatPtr(1), Cards: []Pos{{0, 1}, {9, 4}}, Shows: []Kind{Diamond, Purple}},
		{Type: MoveRob, Seat: SeatPtr(0), Target: SeatPtr(3), Card: &CardRef{Wonder: "w<1>", Kind: Red}},
		{Type: MoveRob, Seat: SeatPtr(0), Target: SeatPtr(2), DiamondToken: "é"},
		{Type: MoveCollect, Take: []string{"red", TakeLocks}},
		{Type: MoveFlip, Shows: []Kind{NumKinds}},
		{Type: MoveRob, Card: &CardRef{Kind: -1}},
	} {
		same(m.Type, &m)
	}
}

// TestFlipKindNotOfTheWonder lists a physical flip whose cell names a kind
// none of its wonder's cards has (possible never does): the part is made
// for it as the catalog makes the others, the pool is written from the
// parts, and the listing is what json.Marshal writes of it, not a panic.
func TestFlipKindNotOfTheWonder(t *testing.T) {
	s := randomSetup(1, 4, Physical, variants[1])
	g, err := New(Standard(), s)
	if err != nil {
		t.Fatal(err)
	}
	var l Legal
	for seat := range g.Players {
		if l = g.legalMoves(seat); l.Flip != nil && len(l.Flip.Cells) > 0 {
			break
		}
	}
	if l.Flip == nil || len(l.Flip.Cells) == 0 {
		t.Fatal("no seat may flip at the start of a physical game")
	}
	c := &l.Flip.Cells[0]
	foreign := Kind(-1)
	for k := range Kind(NumKinds) {
		if !slices.Contains(g.cat.Wonders[c.Column].Cards(false), k) {
			foreign = k
			break
		}
	}
	if foreign < 0 {
		t.Fatal("the wonder has a card of every kind")
	}
	c.Shows = append(c.Shows, foreign)
	l.Moves, l.Pools = []domain.LegalMove{}, domain.Pools{}
	g.entries(&l)
	got, err := l.AppendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	rulesettest.SamePlainJSON(t, "a flip naming a kind not of the wonder", got, l)
	want := "card " + strconv.Itoa(c.Column) + "," + strconv.Itoa(c.Row)
	assert.Contains(t, string(got), `"`+want+`"`, "the foreign kind's part excludes its card as the others do")
	assert.Contains(t, string(got), `"shows":`+strconv.Quote(foreign.String()), "the pool offers the kind named")
}
