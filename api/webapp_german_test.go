package api_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
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
		var b *browser
		var pages []*page
		g := playColorfulTreasure(t, "standard", ctTable{lang: "de-DE", hook: func(bb *browser, p *page, step int, did string) {
			if pages == nil {
				b = bb
				pages = b.pages
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
		germanEnd(t, g.b, g.s, g.links[0], []*page{g.ann, g.bob, g.host}, []string{"Endwertung", "Punkte", "Edelsteine", "Auszeichnungen", "Summe"})
	})
}

// settled waits until the pages have drawn the answer to the last move.
func settled(b *browser, pages []*page) {
	b.t.Helper()
	for _, p := range pages {
		lthSettled(b, p)
	}
}

// germanOn fails the test for every page that shows English, or that lacks
// one of want.
func germanOn(b *browser, pages []*page, when string, want []string) {
	b.t.Helper()
	for _, p := range pages {
		if found := englishOn(b, p, []string{}); len(found) > 0 {
			b.t.Errorf("%s %s shows English: %q", p.name, when, found)
		}
		text := b.text(p)
		for _, w := range want {
			if !strings.Contains(text, w) {
				b.t.Errorf("%s %s lacks %q:\n%s", p.name, when, w, text)
			}
		}
	}
}

// germanEnd checks the end of a game on German phones: each page shows the
// server's final ranking with what decided each place in German (as the
// server says it to a German phone), the words of the end screen, and no
// English.
func germanEnd(t *testing.T, b *browser, s *server, link string, pages []*page, words []string) {
	t.Helper()
	want := scoreFromAPI(t, s, link)
	decided := decidedInGerman(t, s, link)
	if len(decided) == 0 {
		t.Error("the server says nothing of what decided the places after the first")
	}
	for _, p := range pages {
		b.waitFor(p, `!!document.querySelector('[data-testid=final]') && !document.body.dataset.loading`, 10*time.Second)
		got := b.finalScore(p)
		for _, line := range append(want, decided...) {
			if !strings.Contains(got, line) {
				t.Errorf("%s's final ranking lacks %q:\n%s", p.name, line, got)
			}
		}
		for _, w := range words {
			if !strings.Contains(got, w) {
				t.Errorf("%s's final ranking lacks %q:\n%s", p.name, w, got)
			}
		}
		text := b.text(p)
		for _, de := range []string{"Noch ein Spiel?", "Was passiert ist", "Das Spiel ist zu Ende"} {
			if !strings.Contains(text, de) {
				t.Errorf("%s's end screen lacks %q:\n%s", p.name, de, text)
			}
		}
	}
	germanOn(b, pages, "at the end", nil)
}

// decidedInGerman is what decided each place after the first, as the
// server says it to a German phone.
func decidedInGerman(t *testing.T, s *server, link string) []string {
	t.Helper()
	id := strings.Split(strings.SplitN(link, "#/game/", 2)[1], "/")[0]
	r := s.do(t, http.MethodGet, "/v1/games/"+id+"/score", nil, header("Accept-Language", "de"))
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
	s := newServer(t)
	b := newBrowser(t, 120*time.Second)
	b.lang = "de-DE"
	host, links := b.startTable(s.http.URL, "lucky-treasure-hunter", mode, "Ann", "Bob")
	ann := b.open("ann", links[0])
	bob := b.open("bob", links[1])
	pages := []*page{ann, bob, host}
	if mode == "physical" {
		eval[chromedp.Void](b, host, `window.host = true`)
		b.waitFor(host, `document.querySelector('section.action')?.dataset.state === 'middle' && !document.body.dataset.loading`, 10*time.Second)
		germanOn(b, []*page{host}, "before the middle", []string{"Mitte"})
	} else {
		b.waitFor(ann, `document.querySelector('section.action')?.dataset.state === 'place' && !document.body.dataset.loading`, 10*time.Second)
		germanOn(b, pages, "at the first place", []string{"Spieler", "Karten auf der Hand"})
		// Ann is asked for her place in German, with her hand.
		germanOn(b, []*page{ann}, "at her first place", []string{"Du bist dran: Karten legen", "Leg 1 bis 5 Karten", "Hand:", " legen"})
	}
	moves, checked := 0, map[string]bool{}
	lthPlay(b, pages, 75*time.Second, func(p *page, did string) {
		moves++
		switch {
		case moves == 4 && !checked["first"]:
			checked["first"] = true
			settled(b, pages)
			germanOn(b, pages, "after the first moves", []string{"hat", "gelegt"})
			if mode == "physical" {
				// The host may correct the turn: the moves it would take
				// back are named in German.
				if text := b.text(host); !regexp.MustCompile(`Korrigieren: (Mitte melden|Auslegen|Stehlen|Wurf melden|Neu würfeln) von `).MatchString(text) {
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
			for _, q := range []*page{ann, bob} {
				if eval[bool](b, q, `document.querySelector('section.action')?.dataset.state === 'decide'`) {
					checked["decide"] = true
					germanOn(b, pages, "as a steal fails", []string{"gewürfelt"})
					germanOn(b, []*page{q}, "as its steal fails", []string{"leer", "Kapitän", "Aufhören"})
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
