package silvergold

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/i18n"
)

// A player reads Silver & Gold in their language: every refusal, label,
// finding, ranking line and name has a message whose key every catalog
// holds, and German says it in German.

// saysInGerman asserts that m renders in every language from a key each of
// them has (its nested terms too), with no placeholder left, that English
// is english where given, and that German differs from English.
func saysInGerman(t *testing.T, m i18n.Message, english string) {
	t.Helper()
	require.NotEmpty(t, m.Key, "no message beside %q", english)
	for _, k := range messageKeys(m) {
		for _, lang := range i18n.Languages() {
			assert.True(t, i18n.Has(lang, k), "%s lacks %q", lang, k)
		}
	}
	en, de := i18n.Render(i18n.English, m), i18n.Render("de", m)
	if english != "" {
		assert.Equal(t, english, en, "the English text is the message's")
	}
	assert.NotEqual(t, en, de, "%s is not said in German", m.Key)
	for _, s := range []string{en, de} {
		assert.NotContains(t, s, "{", "a placeholder of %s is left", m.Key)
	}
}

// messageKeys returns m's key and those of the messages among its parameters.
func messageKeys(m i18n.Message) []string {
	keys := []string{m.Key}
	for _, v := range m.Params {
		switch x := v.(type) {
		case i18n.Message:
			keys = append(keys, messageKeys(x)...)
		case *i18n.Message:
			keys = append(keys, messageKeys(*x)...)
		case []i18n.Message:
			for _, e := range x {
				keys = append(keys, messageKeys(e)...)
			}
		}
	}
	return keys
}

var refused = struct {
	sync.Mutex
	rules map[string]bool
}{rules: map[string]bool{}}

// refusalSaysInGerman asserts that err carries its reason as a message a
// German player reads in German, and notes the rule it names.
func refusalSaysInGerman(t *testing.T, err error) {
	t.Helper()
	var e *domain.Error
	require.True(t, errors.As(err, &e), "%v is not a *domain.Error", err)
	saysInGerman(t, e.Msg, e.Reason)
	if e.Rule != "" {
		refused.Lock()
		refused.rules[e.Rule] = true
		refused.Unlock()
	}
}

// TestMain runs the tests and then, when all of them ran, holds that every
// rule the game refuses a move by was refused in some test, and so was read
// in German there (bad calls refusalSaysInGerman).
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 && flag.Lookup("test.run").Value.String() == "" && flag.Lookup("test.skip").Value.String() == "" {
		if missing := unrefusedRules(); len(missing) > 0 {
			fmt.Fprintf(os.Stderr, "FAIL: no test refuses a move by rule %s, so none reads its reason in German\n", strings.Join(missing, ", "))
			code = 1
		}
	}
	os.Exit(code)
}

// unrefusedRules returns the rules named by domain.Refuse in the package's
// sources that no test has seen refused.
func unrefusedRules() []string {
	names, _ := os.ReadDir(".")
	refuse := regexp.MustCompile(`domain\.Refuse\("([a-z0-9-]+)"`)
	var missing []string
	seen := map[string]bool{}
	for _, n := range names {
		if !strings.HasSuffix(n.Name(), ".go") || strings.HasSuffix(n.Name(), "_test.go") {
			continue
		}
		src, _ := os.ReadFile(n.Name())
		for _, m := range refuse.FindAllStringSubmatch(string(src), -1) {
			if r := m[1]; !seen[r] && !refused.rules[r] {
				seen[r] = true
				missing = append(missing, r)
			}
		}
	}
	sort.Strings(missing)
	return missing
}

// TestDisplayFull provokes the one refusal play cannot reach: the display is
// topped up only to 4 cards, so a report beyond is a table's slip that the
// game must refuse (the fifth card is laid by hand here).
func TestDisplayFull(t *testing.T) {
	cat := mkCatalog(12, mkCard("x1", Grey, "xo"), mkCard("o1", Grey, "o"))
	g := table(t, cat, [][2]string{{"x1", "o1"}}, "f01", "f02", "f03", "f04")
	reveal(t, g, "D2")
	ok(t, g, seat(0), cross(0, "x1", boxes(0, 0, 0, 1), "o1@0,0"))
	ok(t, g, seat(0), Move{Type: MoveTake, Seat: SeatPtr(0), From: FromDisplay, Card: "f02"})
	ok(t, g, seat(0), Move{Type: MoveTake, Seat: SeatPtr(0), From: FromDisplay, Card: "f03"})
	ok(t, g, host, Move{Type: MoveDisplay, Card: "f05"})
	i, _ := cat.Index("f06")
	g.Display = append(g.Display, i)
	bad(t, g, host, Move{Type: MoveDisplay, Card: "f07"}, domain.IllegalMove, "display-full", "the display already shows 4 cards (f01, f04, f05 and f06)")
}

// TestListingsInGerman plays whole digital and physical games by their
// listings, choosing at random, and reads every entry and part in German;
// every listed move is accepted on the way.
func TestListingsInGerman(t *testing.T) {
	games := 6
	if testing.Short() {
		games = 2
	}
	for n := 0; n < games; n++ {
		for _, mode := range []Mode{Digital, Physical} {
			t.Run(fmt.Sprintf("%s %d", mode, n), func(t *testing.T) {
				r := newRand(uint64(n) + 1)
				s := Setup{Mode: mode, Players: []string{"Ann", "Bob", "Cid", "Dee"}[:1+n%MaxPlayers]}
				if mode == Digital {
					s.Seed = fmt.Sprintf("seed-%d", n)
				}
				g, err := New(Standard(), s)
				require.NoError(t, err)
				read := map[string]bool{}
				for step := 0; g.Phase != PhaseEnded; step++ {
					require.Less(t, step, 2000, "the game does not end")
					aw := g.Awaiting()
					require.NotEmpty(t, aw)
					a := aw[r.IntN(len(aw))]
					seat, actor := -1, domain.Actor{Host: true}
					if a.Actor == domain.ActorSeat {
						seat, actor = *a.Seat, domain.Actor{Seat: *a.Seat}
					}
					l := g.LegalMoves(seat)
					require.NotEmpty(t, l.Moves, "nothing listed for %+v", a)
					for _, e := range l.Moves {
						require.NotNil(t, e.LabelMessage, "entry %s", e.Label)
						saysInGerman(t, *e.LabelMessage, e.Label)
						read[e.LabelMessage.Key] = true
					}
					for _, pool := range l.Pools {
						for _, p := range pool {
							require.NotNil(t, p.LabelMessage, "part %s", p.Label)
							saysInGerman(t, *p.LabelMessage, p.Label)
							read[p.LabelMessage.Key] = true
						}
					}
					b, err := l.Moves[r.IntN(len(l.Moves))].Complete(l.Pools, r)
					require.NoError(t, err)
					m, err := DecodeMove(b)
					require.NoError(t, err)
					require.NoError(t, g.Play(actor, &m), "listed move %s", b)
				}
				assert.NotEmpty(t, read)
				for _, place := range g.Score().Ranking[1:] {
					require.NotNil(t, place.DecidedByLabelMessage)
					saysInGerman(t, *place.DecidedByLabelMessage, place.DecidedByLabel)
				}
			})
		}
	}
}

// TestWaitingInGerman reads what a game waits for, as refusals name it, in
// German: several seats crossing, a seat taking, the table reporting.
func TestWaitingInGerman(t *testing.T) {
	cat := mkCatalog(12, mkCard("g1", Grey, "oo"), mkCard("g2", Grey, "oo"), mkCard("h1", Green, "ooo"), mkCard("h2", Green, "ooo"))
	g := table(t, cat, [][2]string{{"g1", "h1"}, {"g2", "h2"}}, "f01", "f02", "f03", "f04")
	reveal(t, g, "D2")
	err := g.Play(host, &Move{Type: MoveReveal, Expedition: "I3"})
	require.Error(t, err)
	assert.Equal(t, "das Spiel wartet darauf, dass Platz 0 ankreuzt und Platz 1 ankreuzt", i18n.Render("de", g.waitingFor()))
	assert.Contains(t, i18n.Render("de", domain.ErrorMessage(err)), "jetzt ist keine Expeditionskarte aufzudecken; das Spiel wartet darauf, dass Platz 0 ankreuzt und Platz 1 ankreuzt")
	ok(t, g, seat(0), cross(0, "g1", boxes(0, 0, 0, 1)))
	ok(t, g, seat(1), cross(1, "h2", boxes(0, 0)))
	assert.Equal(t, "das Spiel wartet darauf, dass Platz 0 sich eine neue Schatzkarte nimmt", i18n.Render("de", g.waitingFor()))
	ok(t, g, seat(0), Move{Type: MoveTake, Seat: SeatPtr(0), From: FromDisplay, Card: "f01"})
	assert.Equal(t, "das Spiel wartet darauf, dass der Tisch eine Karte der offenen Auslage meldet", i18n.Render("de", g.waitingFor()))
	assert.Equal(t, "the game waits for the table to report 1 display card", i18n.Text(g.waitingFor()))
}

// TestNamesInGerman reads the names a catalog and a view give, and checks
// that the view carries them the same way whichever encoder writes it.
func TestNamesInGerman(t *testing.T) {
	cv := NewCatalogView(Standard())
	require.Len(t, cv.Cards, len(Standard().Cards))
	for _, c := range cv.Cards {
		saysInGerman(t, c.NameMessage, c.Name)
		assert.Contains(t, c.Name, c.ID)
	}
	assert.Equal(t, "treasure card grey-01 (grey)", cv.Cards[0].Name)
	assert.Equal(t, "Schatzkarte grey-01 (Grau)", i18n.Render("de", cv.Cards[0].NameMessage))
	for _, e := range cv.Expeditions {
		saysInGerman(t, e.NameMessage, e.Name)
	}
	cat := mkCatalog(12, mkCard("g1", Grey, "oo"), mkCard("h1", Green, "ooo"))
	g := table(t, cat, [][2]string{{"g1", "h1"}}, "f01", "f02", "f03", "f04")
	reveal(t, g, "T4")
	v := g.View(domain.Viewer{Seat: 0})
	require.NotNil(t, v.Expedition)
	assert.Equal(t, "T-four", v.Expedition.Name)
	assert.Equal(t, "T-Form", i18n.Render("de", v.Expedition.NameMessage))
	b, err := json.Marshal(v)
	require.NoError(t, err)
	assert.JSONEq(t, string(b), string(g.AppendView(nil, domain.Viewer{Seat: 0})))
	assert.Contains(t, string(i18n.Localize("de", b)), `"name":"T-Form"`)
}
