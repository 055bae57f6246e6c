package colorfultreasure

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/i18n"
)

// speaks checks that m reads in every language: its key and every term
// among its parameters are in each catalog with the parameters given, and in
// German it renders completely and differs from English (what says it
// only in English would show through).
func speaks(t *testing.T, m i18n.Message, what string) {
	t.Helper()
	require.NotEmpty(t, m.Key, "%s has no message", what)
	given := slices.Sorted(maps.Keys(m.Params))
	for _, lang := range i18n.Languages() {
		names, ok := i18n.Params(lang, m.Key)
		require.True(t, ok, "%s: %s has no %q", what, lang, m.Key)
		assert.Equal(t, names, given, "%s: %s's %q takes these parameters", what, lang, m.Key)
	}
	for name, v := range m.Params {
		switch p := v.(type) {
		case i18n.Message:
			speaksTerm(t, p, what+" "+name)
		case []i18n.Message:
			for _, e := range p {
				speaksTerm(t, e, what+" "+name)
			}
		}
	}
	en, de := i18n.Render(i18n.English, m), i18n.Render("de", m)
	assert.NotContains(t, de, "{", "%s in German: %s", what, de)
	assert.NotEqual(t, en, de, "%s is not German: %s", what, de)
}

// speaksTerm checks a term inside a sentence: in every catalog, rendered
// completely.
func speaksTerm(t *testing.T, m i18n.Message, what string) {
	t.Helper()
	for _, lang := range i18n.Languages() {
		require.True(t, i18n.Has(lang, m.Key), "%s: %s has no %q", what, lang, m.Key)
		assert.NotContains(t, i18n.Render(lang, m), "{", "%s: %q in %s", what, m.Key, lang)
	}
}

// speaksJSON checks every <name>_message member of the JSON document b
// (a listing, a view, a score): each is a message of the catalogs, beside
// its English text, and the document localised to German carries the
// German text.
func speaksJSON(t *testing.T, b []byte, what string) int {
	t.Helper()
	var doc any
	require.NoError(t, json.Unmarshal(b, &doc))
	var de any
	require.NoError(t, json.Unmarshal(i18n.Localize("de", b), &de))
	n := 0
	var walk func(v, l any, path string)
	walk = func(v, l any, path string) {
		switch x := v.(type) {
		case []any:
			for i, e := range x {
				walk(e, l.([]any)[i], path+"["+strconv.Itoa(i)+"]")
			}
		case map[string]any:
			for k, e := range x {
				name, ok := strings.CutSuffix(k, "_message")
				if !ok {
					walk(e, l.(map[string]any)[k], path+"."+k)
					continue
				}
				raw, _ := json.Marshal(e)
				var m i18n.Message
				require.NoError(t, json.Unmarshal(raw, &m), "%s%s.%s", what, path, k)
				require.True(t, i18n.Has(i18n.English, m.Key) && i18n.Has("de", m.Key), "%s%s.%s: %q is in no catalog", what, path, k, m.Key)
				text, _ := x[name].(string)
				local, _ := l.(map[string]any)[name].(string)
				assert.NotEmpty(t, text, "%s%s: %s_message without %s", what, path, name, name)
				assert.NotContains(t, local, "{", "%s%s.%s in German", what, path, name)
				n++
			}
		}
	}
	walk(doc, de, "")
	return n
}

// TestListingsSpeakGerman walks whole games of every mode and variant with
// the bots: every entry and part of every listing is labelled by a message
// that reads in German, and the view and the score carry their messages.
func TestListingsSpeakGerman(t *testing.T) {
	keys := map[string]bool{}
	for i := 0; i < 12; i++ {
		mode := []Mode{Digital, Physical}[i%2]
		variant := variants[(i/2)%3]
		s := randomSetup(uint64(100+i), 2+i%3, mode, variant)
		randomGame(t, s, uint64(100+i), func(g *Game) {
			if g.Phase == PhaseEnded {
				return
			}
			l := g.LegalMoves(g.Turn)
			for _, e := range l.Moves {
				require.NotNil(t, e.LabelMessage, "%s: %s", mode, e.Label)
				assert.Equal(t, i18n.Text(*e.LabelMessage), e.Label)
				speaks(t, *e.LabelMessage, "entry "+e.Label)
				keys[e.LabelMessage.Key] = true
			}
			for pool, parts := range l.Pools {
				for _, p := range parts {
					require.NotNil(t, p.LabelMessage, "%s: part %s of %s", mode, p.Label, pool)
					speaks(t, *p.LabelMessage, "part "+p.Label)
					keys[p.LabelMessage.Key] = true
				}
			}
			b, err := json.Marshal(l)
			require.NoError(t, err)
			de := string(i18n.Localize("de", b))
			if len(l.Moves) > 0 {
				assert.Contains(t, de, i18n.Render("de", *l.Moves[0].LabelMessage), "the listing localised to German")
			}
		})
	}
	for _, k := range []string{"ct.label.flip", "ct.label.flip-report", "ct.label.place", "ct.label.place-shows", "ct.label.collect",
		"ct.label.collect-locks", "ct.label.collect-nothing", "ct.label.claim", "ct.label.end", "ct.label.use-token"} {
		assert.True(t, keys[k], "the games listed no %s", k)
	}
}

// TestViewsAndScoresSpeakGerman checks the messages of a view, a score and
// a sheet result: the wonders' and tokens' names, the phase, the awards,
// what decided each place and the findings.
func TestViewsAndScoresSpeakGerman(t *testing.T) {
	s := randomSetup(7, 3, Digital, VariantAdvanced)
	g, _ := randomGame(t, s, 7, nil)
	view, err := json.Marshal(g.View(domain.Public))
	require.NoError(t, err)
	assert.Greater(t, speaksJSON(t, view, "view"), NumWonders, "every wonder, the phase and the tokens are named")
	de := string(i18n.Localize("de", view))
	assert.Contains(t, de, `"name":"Chinesische Mauer"`)
	assert.Contains(t, de, `"phase_label":"das Spiel ist zu Ende"`)

	score := g.Score()
	for _, p := range score.Ranking[1:] {
		require.NotNil(t, p.DecidedByLabelMessage, "place %d", p.Rank)
		speaks(t, *p.DecidedByLabelMessage, "decided by "+p.DecidedBy)
	}
	speaks(t, score.TieBreakMessage, "tie break")
	assert.Equal(t, TieBreak, i18n.Text(score.TieBreakMessage))
	b, err := json.Marshal(score)
	require.NoError(t, err)
	speaksJSON(t, b, "score")
	// Two equal totals share a place, and say so in German.
	r := Rank([]PlayerScore{{Seat: 0, Name: "Ann", Total: 5}, {Seat: 1, Name: "Bob", Total: 5}, {Seat: 2, Name: "Cid", Total: 3}})
	assert.Equal(t, "gleich viele Punkte: der Platz wird geteilt", i18n.Render("de", *r[1].DecidedByLabelMessage))
	assert.Equal(t, "weniger Punkte", i18n.Render("de", *r[2].DecidedByLabelMessage))
	b, _ = json.Marshal(AwardLine{AwardColorful, 9})
	assert.Contains(t, string(i18n.Localize("de", b)), `"name":"Bunte Edelsteine"`)

	_, cb, err := NewRules().CatalogView("standard")
	require.NoError(t, err)
	assert.Equal(t, NumWonders, speaksJSON(t, cb, "catalog"), "every wonder of the standard catalog has a name")
	assert.Contains(t, string(i18n.Localize("de", cb)), `"name":"Pyramiden"`)
}

// TestFindingsSpeakGerman checks every finding a sheet can have.
func TestFindingsSpeakGerman(t *testing.T) {
	total := 99
	sheet := Sheet{Variant: VariantStandard, Players: []SheetPlayer{
		{Name: "Ann", Cards: []CardRef{{"petra", Red}, {"petra", Red}, {"petra", Yellow}, {"great-wall", Key}}, DiamondTokens: []string{"petra", "petra"},
			ActionTokens: []string{"peek_two"}, Awards: []string{AwardColorful, AwardColorful, AwardChest}, Total: &total},
		{Name: "Bob", Cards: []CardRef{{"petra", Red}, {"pyramids", Chest}, {"colosseum", Key}}, DiamondTokens: []string{"petra"}, Awards: []string{AwardColorful, AwardExplorer}},
	}}
	res, err := VerifySheet(Standard(), sheet)
	require.NoError(t, err)
	codes := map[string]bool{}
	for _, f := range res.Findings {
		speaks(t, f.ReasonMessage, "finding "+f.Code)
		assert.Equal(t, f.Reason, i18n.Text(f.ReasonMessage))
		codes[f.Code] = true
	}
	for _, c := range []string{FindingTotalMismatch, FindingNotInWonder, FindingCardRepeated, FindingCardShared, FindingTokenRepeated,
		FindingTokenShared, FindingAwardShared, FindingAwardRepeated, FindingChestAward, FindingTokenVariant} {
		assert.True(t, codes[c], "no %s finding", c)
	}
	sheet.Variant = VariantJunior
	res, err = VerifySheet(Standard(), sheet)
	require.NoError(t, err)
	for _, f := range res.Findings {
		speaks(t, f.ReasonMessage, "junior finding "+f.Code)
	}
	sheet.Variant = VariantAdvanced
	sheet.Players[1].ActionTokens = []string{"peek_three"}
	res, err = VerifySheet(Standard(), sheet)
	require.NoError(t, err)
	shared := false
	for _, f := range res.Findings {
		speaks(t, f.ReasonMessage, "advanced finding "+f.Code)
		shared = shared || f.Code == FindingActionRepeated
	}
	assert.True(t, shared, "one action token on two players")
}

// TestRefusalsSpeakGerman provokes a refusal of every rule the game has and
// checks that each says why in every language.
func TestRefusalsSpeakGerman(t *testing.T) {
	std := func(t *testing.T) *Game { return newGame(t, Digital, VariantStandard, 2, sorted) }
	// robbing: seat 0 paired a key and a chest and must steal; seat 1 has a
	// card, seat 2 nothing.
	robbing := func(t *testing.T) *Game {
		g := newGame(t, Digital, VariantStandard, 3, sorted)
		give(t, g, 1, "9:r")
		mustPlay(t, g, flipMove(0, "0.1 1.1"))
		mustPlay(t, g, collectMove(0, TakeLocks))
		require.Equal(t, PhaseRob, g.Phase)
		return g
	}
	// claiming: an advanced game in seat 0's claim step (its peek token
	// keeps the step open).
	claiming := func(t *testing.T) *Game {
		g := advanced(t, 1, "a", 2)
		mustPlay(t, g, flipMove(0, "4.2 5.2"))
		mustPlay(t, g, collectMove(0, "red"))
		require.Equal(t, PhaseClaim, g.Phase)
		return g
	}
	claim := func(token int) Move { return Move{Type: MoveClaim, Seat: SeatPtr(0), Token: token} }
	cases := []struct {
		rule string
		game func(t *testing.T) *Game
		move Move
	}{
		{"game-ended", func(t *testing.T) *Game { g := std(t); g.Phase = PhaseEnded; return g }, flipMove(0, "0.0 1.0")},
		{"not-your-turn", std, flipMove(1, "0.0 1.0")},
		{"distinct-cards", std, flipMove(0, "0.0 0.0")},
		{"card-in-grid", func(t *testing.T) *Game { g := std(t); g.Grid[0][0] = Cell{Kind: unknown, State: CellGone}; return g }, flipMove(0, "0.0 1.0")},
		{"card-face-down", func(t *testing.T) *Game { g := std(t); mustPlay(t, g, flipMove(0, "4.2 5.2")); return g }, flipMove(0, "4.2")},
		{"reveal-two", std, flipMove(0, "0.0")},
		{"reveal-one-more", func(t *testing.T) *Game { g := std(t); mustPlay(t, g, flipMove(0, "4.2 5.2")); return g }, flipMove(0, "6.2 7.2")},
		{"junior-two", func(t *testing.T) *Game {
			g := newGame(t, Digital, VariantJunior, 2, juniorSorted)
			mustPlay(t, g, flipMove(0, "4.1 5.1"))
			return g
		}, flipMove(0, "6.1")},
		{"third-card", func(t *testing.T) *Game {
			g := std(t)
			mustPlay(t, g, flipMove(0, "4.2 5.2"))
			mustPlay(t, g, flipMove(0, "6.2"))
			return g
		}, flipMove(0, "7.2")},
		{"steal-first", robbing, flipMove(0, "2.0 3.0")},
		{"reveal-before-collect", claiming, flipMove(0, "0.0 1.0")},
		{"report-possible", func(t *testing.T) *Game { return newGame(t, Physical, VariantStandard, 2, sorted) }, flipMove(0, "0.2 5.2", Red, Red)},
		{"take-one-type", func(t *testing.T) *Game { g := std(t); mustPlay(t, g, flipMove(0, "4.2 0.2")); return g }, collectMove(0, "red", "green")},
		{"take-revealed", func(t *testing.T) *Game { g := std(t); mustPlay(t, g, flipMove(0, "4.2 5.2")); return g }, collectMove(0, "blue")},
		{"take-locks", func(t *testing.T) *Game { g := std(t); mustPlay(t, g, flipMove(0, "0.1 4.2")); return g }, collectMove(0, "red")},
		{"rob-opponent", robbing, robCard(0, 0, "great-wall", Key)},
		{"rob-protected", func(t *testing.T) *Game {
			g := advanced(t, 4, "b", 2)
			g.Players[0].Actions, g.Players[1].Actions, g.Actions[3] = []int{}, []int{3}, 1
			give(t, g, 1, "9:r")
			g.Players[1].DiamondTokens = []int{5}
			g.Phase, g.Thefts = PhaseRob, 1
			return g
		}, robCard(0, 1, "angkor-wat", Red)},
		{"rob-nothing", robbing, robCard(0, 2, "angkor-wat", Red)},
		{"rob-held", robbing, robCard(0, 1, "angkor-wat", Yellow)},
		{"advanced-only", std, tokenMove(0, 1, "0.0 1.0")},
		{"token-held", func(t *testing.T) *Game { return advanced(t, 1, "a", 2) }, tokenMove(0, 2, "")},
		{"token-permanent", func(t *testing.T) *Game { return advanced(t, 2, "b", 2) }, tokenMove(0, 2, "")},
		{"token-when", func(t *testing.T) *Game { return advanced(t, 5, "b", 2) }, tokenMove(0, 5, "")},
		{"peek-cards", func(t *testing.T) *Game { return advanced(t, 1, "a", 2) }, tokenMove(0, 1, "4.2 4.3")},
		{"claim-once", func(t *testing.T) *Game { g := claiming(t); g.Claimed = true; return g }, claim(2)},
		{"claim-three-gems", claiming, claim(2)},
		{"claim-available", func(t *testing.T) *Game {
			g := claiming(t)
			give(t, g, 0, "6:r")
			g.Actions[1], g.Players[1].Actions = 1, []int{1}
			return g
		}, claim(2)},
		{"reveal-first", std, collectMove(0)},
		{"collect-first", func(t *testing.T) *Game { g := std(t); mustPlay(t, g, flipMove(0, "4.2 5.2")); return g }, claim(1)},
		{"turn-over", claiming, collectMove(0)},
	}
	tested := map[string]bool{}
	for _, tc := range cases {
		t.Run(tc.rule, func(t *testing.T) {
			e := refused(t, tc.game(t), tc.move, tc.rule)
			assert.Equal(t, e.Reason, i18n.Text(e.Msg), "the reason is the message in English")
			speaks(t, e.Msg, tc.rule)
			tested[tc.rule] = true
		})
	}
	for _, rule := range sourceRules(t) {
		assert.True(t, tested[rule], "no refusal of rule %s was provoked", rule)
	}
	// Invalid moves say why in German too.
	g := std(t)
	for _, m := range []Move{{Type: "", Seat: SeatPtr(0)}, {Type: "jump", Seat: SeatPtr(0)}, {Type: MoveFlip}, {Type: MoveFlip, Seat: SeatPtr(5)},
		{Type: MoveCollect, Seat: SeatPtr(0), Token: 1}, flipMove(0, "0.0 11.0"), flipMove(0, "0.0 1.0", Red, Red)} {
		err := g.Play(domain.Actor{Seat: 0}, &m)
		require.Equal(t, domain.Invalid, domain.ErrorCode(err), "%+v", m)
		speaks(t, domain.ErrorMessage(err), err.Error())
	}
	err := g.Play(domain.Actor{Seat: 1}, &Move{Type: MoveFlip, Seat: SeatPtr(0), Cards: at("0.0 1.0")})
	require.Equal(t, domain.Forbidden, domain.ErrorCode(err))
	speaks(t, domain.ErrorMessage(err), err.Error())
	_, err = New(Standard(), Setup{Mode: Digital, Seed: "s", Players: []string{"A", "B"}, Variant: "expert"})
	speaks(t, domain.ErrorMessage(err), err.Error())
	_, err = ParseCatalog([]byte("catalog x\nwonder petra key red red blue\n"))
	speaks(t, domain.ErrorMessage(err), err.Error())
}

// sourceRules returns the rules the package's refusals name.
func sourceRules(t *testing.T) []string {
	set := map[string]bool{}
	for _, call := range sourceCalls(t) {
		if call.fn == "domain.Refuse" {
			set[call.args[0]] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

type sourceCall struct {
	fn   string   // "i18n.M", "domain.Fail", "domain.Refuse"
	args []string // the leading string literals
}

// sourceCalls returns the refusals of the package's sources (the call
// "domain.Refuse" with its leading string literals), each string literal
// that starts with "ct." (the call "key"; those ending in "." are prefixes
// of keys built from an id).
func sourceCalls(t *testing.T) []sourceCall {
	t.Helper()
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	var out []sourceCall
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		require.NoError(t, err)
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.BasicLit:
				if s, ok := stringLit(x); ok && strings.HasPrefix(s, "ct.") {
					out = append(out, sourceCall{fn: "key", args: []string{s}})
				}
			case *ast.CallExpr:
				sel, ok := x.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if pkg, ok := sel.X.(*ast.Ident); !ok || pkg.Name != "domain" || sel.Sel.Name != "Refuse" {
					return true
				}
				c := sourceCall{fn: "domain.Refuse"}
				for _, a := range x.Args {
					if s, ok := stringLit(a); ok {
						c.args = append(c.args, s)
					}
				}
				out = append(out, c)
			}
			return true
		})
	}
	return out
}

func stringLit(e ast.Expr) (string, bool) {
	l, ok := e.(*ast.BasicLit)
	if !ok || l.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(l.Value)
	return s, err == nil
}

// TestEveryKeyIsUsed checks the ct.* keys of the catalogs against the
// sources: every key the code names is in every catalog, and every key of
// the catalogs is named in the code or built from a prefix.
func TestEveryKeyIsUsed(t *testing.T) {
	named := map[string]bool{}
	var prefixes []string
	for _, c := range sourceCalls(t) {
		switch {
		case c.fn != "key":
		case strings.HasSuffix(c.args[0], "."):
			prefixes = append(prefixes, c.args[0])
		default:
			named[c.args[0]] = true
		}
	}
	for k := range named {
		for _, lang := range i18n.Languages() {
			assert.True(t, i18n.Has(lang, k), "%s has no %q", lang, k)
		}
	}
	for _, k := range i18n.Keys(i18n.English) {
		if !strings.HasPrefix(k, "ct.") || named[k] {
			continue
		}
		assert.True(t, slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(k, p) }), "no code says %q", k)
	}
}
