package luckytreasurehunter

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/i18n"
)

// assertGerman checks that m, shown in English as english, reads in German:
// the key is in both catalogs, German says something else than English, and
// no placeholder of the template is left unfilled.
func assertGerman(t *testing.T, what string, english string, m *i18n.Message) {
	t.Helper()
	if !assert.NotNil(t, m, "%s (%q) has no message", what, english) || !assert.False(t, m.Zero(), "%s (%q) has no message", what, english) {
		return
	}
	for _, lang := range []i18n.Lang{"en", "de"} {
		assert.True(t, i18n.Has(lang, m.Key), "%s: the %s catalog lacks %q", what, lang, m.Key)
	}
	en, de := i18n.Render("en", *m), i18n.Render("de", *m)
	assert.Equal(t, english, en, "%s: the English text is the message in English", what)
	assert.NotEqual(t, en, de, "%s: %q reads the same in German", what, en)
	for lang, text := range map[i18n.Lang]string{"en": en, "de": de} {
		params, _ := i18n.Params(lang, m.Key)
		for _, p := range params {
			assert.NotContains(t, text, "{"+p+"}", "%s: a placeholder is left in %q", what, text)
		}
	}
}

// TestListingsInGerman plays whole digital and physical games with the bot
// and reads every label of every listing, the view's names and the ranking's
// lines in German.
func TestListingsInGerman(t *testing.T) {
	for i := range 6 {
		mode := []Mode{Digital, Physical}[i%2]
		req := domain.CreateRequest{Mode: string(mode), Players: botNames[:2+i%5]}
		if mode == Digital {
			req.Seed, req.Salt = "german-"+itoa(i), "s"
		}
		dg, _, err := NewRules().Create(req)
		require.NoError(t, err)
		g, _ := Unwrap(dg)
		r := rand.New(rand.NewPCG(uint64(i), 9))
		labels := map[string]bool{}
		for moves := 0; ; moves++ {
			require.Less(t, moves, 2000, "the game ends")
			for seat := -1; seat < len(g.Players); seat++ {
				v := domain.SeatViewer(seat)
				if seat < 0 {
					v = domain.HostViewer
				}
				l := g.LegalMoves(v, seat)
				for _, o := range l.Moves {
					assertGerman(t, "the label of "+string(o.LegalMove.Move), o.Label, o.LabelMessage)
					labels[o.Type] = true
				}
				for pool, parts := range l.Pools {
					for _, p := range parts {
						assertGerman(t, "a part of pool "+pool, p.Label, p.LabelMessage)
					}
				}
			}
			view := g.NewView(domain.Public)
			for _, s := range append(slices.Clone(view.Middle), view.Players[0].Sets...) {
				assertGerman(t, "a set's name", s.Name, &s.NameMessage)
			}
			if view.Steal != nil {
				assertGerman(t, "the steal's treasure", view.Steal.TreasureName, &view.Steal.TreasureNameMessage)
			}
			if t.Failed() {
				return
			}
			actor, m, ok := Step(g, Bot{R: r}, Table{R: r})
			if !ok {
				break
			}
			require.NoError(t, g.Play(actor, &m))
		}
		for _, tv := range g.NewView(domain.Public).Treasures {
			assertGerman(t, "a treasure's name", tv.Name, &tv.NameMessage)
		}
		for _, p := range g.Score().Ranking[1:] {
			assertGerman(t, "what decided place "+itoa(p.Rank), p.DecidedByLabel, p.DecidedByLabelMessage)
		}
		for _, typ := range []string{MovePlace, MoveSteal} {
			assert.True(t, labels[typ], "game %d lists a %s", i, typ)
		}
	}
}

// TestRankingLinesInGerman: each way a place can be decided has its line.
func TestRankingLinesInGerman(t *testing.T) {
	places := Rank([]PlayerScore{
		ScoreOf(0, "Ann", []int{5, 3}, false),
		ScoreOf(1, "Bob", []int{5, 2, 1}, false),
		ScoreOf(2, "Cy", []int{5, 2, 1}, false),
		ScoreOf(3, "Di", []int{2}, true),
	})
	require.Len(t, places, 4)
	assert.Empty(t, places[0].DecidedByLabel)
	assert.Nil(t, places[0].DecidedByLabelMessage)
	want := []string{"", "same points; set 2 (largest first) is smaller: 2 cards against 3", "same points and same set sizes: the place is shared", "fewer points: 2 against 9"}
	for i, p := range places[1:] {
		assert.Equal(t, want[i+1], p.DecidedByLabel)
		assertGerman(t, "place "+itoa(i+2), p.DecidedByLabel, p.DecidedByLabelMessage)
	}
	assert.Equal(t, "gleich viele Punkte; Satz 2 (vom größten an gezählt) ist kleiner: 2 Karten gegen 3", i18n.Render("de", *places[1].DecidedByLabelMessage))
}

// TestSheetFindingsInGerman: every finding of a tally reads in German.
func TestSheetFindingsInGerman(t *testing.T) {
	total := 3
	res, err := VerifySheet(Sheet{Players: []SheetPlayer{
		{Name: "Ann", Sets: []SheetSet{{"ruby", 6}, {"gold", 2}, {"gold", 1}}, Total: &total},
		{Name: "Bob", Sets: []SheetSet{{"jade", 5}, {"jade", 5}, {"jade", 5}}},
	}})
	require.NoError(t, err)
	codes := map[string]bool{}
	for _, f := range res.Findings {
		codes[f.Code] = true
		assertGerman(t, "finding "+f.Code, f.Reason, &f.ReasonMessage)
	}
	assert.Len(t, codes, 4, "every kind of finding: %v", codes)
	b, err := json.Marshal(res)
	require.NoError(t, err)
	de := string(i18n.Localize("de", b))
	assert.Contains(t, de, "Ann notiert einen Satz aus 6 Karten vom Typ Rubin")
}

// ruleCodes returns every rule the package's sources refuse a move by.
func ruleCodes(t *testing.T) []string {
	files, err := os.ReadDir(".")
	require.NoError(t, err)
	re := regexp.MustCompile(`domain\.Refuse\("([a-z-]+)"`)
	var rules []string
	for _, f := range files {
		if !strings.HasSuffix(f.Name(), ".go") || strings.HasSuffix(f.Name(), "_test.go") {
			continue
		}
		src, err := os.ReadFile(f.Name())
		require.NoError(t, err)
		for _, m := range re.FindAllStringSubmatch(string(src), -1) {
			if !slices.Contains(rules, m[1]) {
				rules = append(rules, m[1])
			}
		}
	}
	slices.Sort(rules)
	return rules
}

// TestRefusalsInEveryLanguage provokes a refusal by every rule the game
// has, and many an invalid or forbidden move, and reads each reason in
// every language.
func TestRefusalsInEveryLanguage(t *testing.T) {
	refused := map[string]bool{}
	check := func(name string, err error) {
		t.Helper()
		var e *domain.Error
		if !assert.True(t, errors.As(err, &e), "%s: %v is a *domain.Error", name, err) {
			return
		}
		assertGerman(t, name, e.Reason, &e.Msg)
		refused[e.Rule] = true
	}
	for _, c := range append(refusals(), misdrawRefusals()...) {
		g := position(t, c.pos)
		m, err := DecodeMove([]byte(c.move))
		if err == nil {
			err = g.Play(c.actor, &m)
		}
		require.Equal(t, c.code, domain.ErrorCode(err), "%s: %v", c.name, err)
		check(c.name, err)
	}
	// What the seed rolled and dealt, written otherwise into a record.
	_, log, actors, dg := playLogged(t, 4, 3, Digital)
	moves := make([]domain.ReplayMove, len(log))
	for j, l := range log {
		moves[j] = domain.ReplayMove{Actor: actors[j], Move: l.Move}
	}
	for _, field := range []string{"faces", "drawn"} {
		j := slices.IndexFunc(log, func(l domain.Logged) bool { return strings.Contains(string(l.Move), `"`+field+`"`) })
		require.GreaterOrEqual(t, j, 0, "a move with %s", field)
		var m Move
		require.NoError(t, json.Unmarshal(log[j].Move, &m))
		if field == "faces" {
			m.Faces = append(m.Faces, FacePirate)
		} else {
			m.Drawn = append(m.Drawn, "jade")
		}
		bad := slices.Clone(moves)
		bad[j].Move, _ = json.Marshal(&m)
		_, _, err := NewRules().Replay(dg.Setup(), components, bad)
		check("a record with other "+field, err)
	}
	// Setup, options, sheets and seats that cannot be.
	for name, req := range map[string]domain.CreateRequest{
		"one player":      {Mode: "physical", Players: []string{"Ann"}},
		"no such catalog": {Mode: "physical", Players: []string{"Ann", "Bob"}, Catalog: "deluxe"},
	} {
		_, _, err := NewRules().Create(req)
		require.Error(t, err, name)
		check(name, err)
	}
	_, _, err := NewRules().Replay(domain.CreateRequest{Mode: "digital", Players: []string{"Ann", "Bob"}}, components, nil)
	check("a digital replay without its seed", err)
	_, err = New(Setup{Mode: "paper", Players: []string{"Ann", "Bob"}})
	check("an unknown mode", err)
	_, err = New(Setup{Mode: Physical, Players: []string{"Ann", "Bob"}, PirateFaces: 6})
	check("six pirate faces", err)
	_, err = New(Setup{Mode: Physical, Players: []string{"Ann", "Bob"}, CaptainHeart: 4})
	check("Captain Heart at a seat that is not there", err)
	for _, s := range []string{`{"players":[]}`, `{"players":[{"name":"A","sets":[{"treasure":"gems","size":1}]}]}`,
		`{"players":[{"name":"A","sets":[]}],"players_at_table":9}`, `{"players":[{"name":"A","sets":[]},{"name":"B","sets":[]},{"name":"C","sets":[]}],"players_at_table":2}`,
		`{"players":[{"name":"A","sets":[]}],"cards":3}`, `{"ruleset":"silver-and-gold","players":[{"name":"A","sets":[]}]}`} {
		_, err := NewRules().VerifySheet([]byte(s))
		check("the sheet "+s, err)
	}
	_, err = wrap(position(t, "0: hand ggrrs\n1: hand ppppp")).LegalMoves(domain.HostViewer, 5)
	check("the listing of a seat that is not there", err)

	rules := ruleCodes(t)
	require.GreaterOrEqual(t, len(rules), 20, "the sources refuse by rules: %v", rules)
	var missing []string
	for _, rule := range rules {
		if !refused[rule] {
			missing = append(missing, rule)
		}
	}
	assert.Empty(t, missing, "rules never refused here, so never read in every language")
}
