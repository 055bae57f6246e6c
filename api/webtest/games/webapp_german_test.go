package games_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/treasury-games/treasury/api/webtest"

	"github.com/chromedp/chromedp"

	"github.com/treasury-games/treasury/api/apitest"
)

// TestWebAppGermanGames plays a whole digital game of Lucky Treasure Hunter
// and of Colorful Treasure on phones set to German (as TestWebAppGerman
// plays Silver & Gold): no English sentence on any screen after the first
// moves, in the middle of the game and at the end, and the final ranking
// says in German what decided each place, as the server says it.
func TestWebAppGermanGames(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"digital", "physical"} {
		t.Run("lucky-treasure-hunter-"+mode, func(t *testing.T) {
			t.Parallel()
			germanLuckyTreasureHunter(t, mode)
		})
	}
	t.Run("colorful-treasure", func(t *testing.T) {
		t.Parallel()
		checked := map[string]bool{}
		var b *webtest.Browser
		var pages []*webtest.Page
		g := playColorfulTreasure(t, "standard", ctTable{lang: "de-DE", hook: func(bb *webtest.Browser, p *webtest.Page, step int, did string) {
			if pages == nil {
				b = bb
				pages = b.Pages
			}
			if step == 4 || step == 40 {
				checked[did] = true
				settled(b, pages)
				germanOn(b, pages, "after "+did, []string{"Das Raster · noch", "aufgedeckt", "ist am Zug (Runde"})
			}
		}})
		if !g.ended {
			t.Fatalf("the game did not end through the pages: %v", g.counts)
		}
		if len(checked) < 2 {
			t.Errorf("the game was checked for English at %d points only", len(checked))
		}
		germanEnd(t, g.b, g.s, g.links[0], []*webtest.Page{g.ann, g.bob, g.host}, []string{"Endwertung", "Punkte", "Edelsteine", "Auszeichnungen", "Summe"})
	})
}

// settled waits until the pages have drawn the answer to the last move.
func settled(b *webtest.Browser, pages []*webtest.Page) {
	b.T.Helper()
	for _, p := range pages {
		webtest.LTHSettled(b, p)
	}
}

// germanOn fails the test for every page that shows English, or that lacks
// one of want.
func germanOn(b *webtest.Browser, pages []*webtest.Page, when string, want []string) {
	b.T.Helper()
	for _, p := range pages {
		if found := webtest.EnglishOn(b, p, []string{}); len(found) > 0 {
			b.T.Errorf("%s %s shows English: %q", p.Name, when, found)
		}
		text := b.Text(p)
		for _, w := range want {
			if !strings.Contains(text, w) {
				b.T.Errorf("%s %s lacks %q:\n%s", p.Name, when, w, text)
			}
		}
	}
}

// germanEnd checks the end of a game on German phones: each page shows the
// server's final ranking with what decided each place in German (as the
// server says it to a German phone), the words of the end screen, and no
// English.
func germanEnd(t *testing.T, b *webtest.Browser, s *apitest.Server, link string, pages []*webtest.Page, words []string) {
	t.Helper()
	want := webtest.ScoreFromAPI(t, s, link)
	decided := decidedInGerman(t, s, link)
	if len(decided) == 0 {
		t.Error("the server says nothing of what decided the places after the first")
	}
	for _, p := range pages {
		b.WaitFor(p, `!!document.querySelector('[data-testid=final]') && !document.body.dataset.loading`, 10*time.Second)
		got := b.FinalScore(p)
		for _, line := range append(want, decided...) {
			if !strings.Contains(got, line) {
				t.Errorf("%s's final ranking lacks %q:\n%s", p.Name, line, got)
			}
		}
		for _, w := range words {
			if !strings.Contains(got, w) {
				t.Errorf("%s's final ranking lacks %q:\n%s", p.Name, w, got)
			}
		}
		text := b.Text(p)
		for _, de := range []string{"Noch ein Spiel?", "Was passiert ist", "Das Spiel ist zu Ende"} {
			if !strings.Contains(text, de) {
				t.Errorf("%s's end screen lacks %q:\n%s", p.Name, de, text)
			}
		}
	}
	germanOn(b, pages, "at the end", nil)
}

// decidedInGerman is what decided each place after the first, as the
// server says it to a German phone.
func decidedInGerman(t *testing.T, s *apitest.Server, link string) []string {
	t.Helper()
	id := strings.Split(strings.SplitN(link, "#/game/", 2)[1], "/")[0]
	r := s.Do(t, http.MethodGet, "/v1/games/"+id+"/score", nil, apitest.Header("Accept-Language", "de"))
	var score struct {
		Ranking []struct {
			DecidedByLabel string `json:"decided_by_label"`
		} `json:"ranking"`
	}
	if err := json.Unmarshal(r.Body, &score); err != nil {
		t.Fatalf("score: %v %s", err, r.Body)
	}
	var out []string
	for _, p := range score.Ranking[1:] {
		out = append(out, p.DecidedByLabel)
	}
	return out
}

// germanLuckyTreasureHunter plays a whole 2-player game of Lucky Treasure
// Hunter on German phones; in a physical game the host's device reports the
// middle and the rolls.
func germanLuckyTreasureHunter(t *testing.T, mode string) {
	s := apitest.NewServer(t)
	b := webtest.NewBrowser(t, 120*time.Second)
	b.Lang = "de-DE"
	host, links := b.StartTable(s.HTTP.URL, "lucky-treasure-hunter", mode, "Ann", "Bob")
	ann := b.Open("ann", links[0])
	bob := b.Open("bob", links[1])
	pages := []*webtest.Page{ann, bob, host}
	if mode == "physical" {
		webtest.Eval[chromedp.Void](b, host, `window.host = true`)
		b.WaitFor(host, `document.querySelector('section.action')?.dataset.state === 'middle' && !document.body.dataset.loading`, 10*time.Second)
		germanOn(b, []*webtest.Page{host}, "before the middle", []string{"Mitte"})
	} else {
		b.WaitFor(ann, `document.querySelector('section.action')?.dataset.state === 'place' && !document.body.dataset.loading`, 10*time.Second)
		germanOn(b, pages, "at the first place", []string{"Spieler", "Karten auf der Hand"})
		// Ann is asked for her place in German, with her hand.
		germanOn(b, []*webtest.Page{ann}, "at her first place", []string{"Du bist dran: Karten legen", "Leg 1 bis 5 Karten", "Hand:", " legen"})
	}
	moves, checked := 0, map[string]bool{}
	lthPlay(b, pages, 75*time.Second, func(p *webtest.Page, did string) {
		moves++
		switch {
		case moves == 4 && !checked["first"]:
			checked["first"] = true
			settled(b, pages)
			germanOn(b, pages, "after the first moves", []string{"hat", "gelegt"})
			if mode == "physical" {
				// The host may correct the turn: the moves it would take
				// back are named in German.
				if text := b.Text(host); !regexp.MustCompile(`Korrigieren: (Mitte melden|Auslegen|Stehlen|Wurf melden|Neu würfeln) von `).MatchString(text) {
					t.Errorf("the host's corrections do not name the moves in German:\n%s", text)
				}
			}
		case p != host && strings.HasPrefix(did, "steal") && !checked["steal"]:
			settled(b, pages)
			checked["steal"] = true
			germanOn(b, pages, "as a steal begins", []string{"zu erbeuten"})
		case p != host && mode == "digital" && strings.HasPrefix(did, "steal") && !checked["decide"],
			p == host && strings.HasPrefix(did, "roll") && strings.Contains(did, "blank") && !checked["decide"]:
			// A failed roll: the seat stealing is offered its choices.
			settled(b, pages)
			for _, q := range []*webtest.Page{ann, bob} {
				if webtest.Eval[bool](b, q, `document.querySelector('section.action')?.dataset.state === 'decide'`) {
					checked["decide"] = true
					germanOn(b, pages, "as a steal fails", []string{"gewürfelt"})
					germanOn(b, []*webtest.Page{q}, "as its steal fails", []string{"leer", "Kapitän", "Aufhören"})
				}
			}
		case moves == 20 && !checked["middle"]:
			checked["middle"] = true
			settled(b, pages)
			germanOn(b, pages, "in the middle of the game", nil)
		}
	})
	t.Logf("checked for English at %v", checked)
	if !checked["first"] || !checked["middle"] || !checked["steal"] {
		t.Errorf("the game was checked for English at %v only", checked)
	}
	germanEnd(t, b, s, links[0], pages, []string{"Endwertung", "Spieler", "Kapitän", "Summe"})
}
