package luckytreasurehunter_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/treasury-games/treasury/api/apitest"
	"github.com/treasury-games/treasury/api/webtest"
)

// TestWebAppLuckyTreasureHunterGerman plays a whole digital and a whole
// physical game of Lucky Treasure Hunter on phones set to German (as
// TestWebAppGerman plays Silver & Gold): no English sentence on any screen
// after the first moves, in the middle of the game and at the end, and the
// final ranking says in German what decided each place, as the server says
// it.
func TestWebAppLuckyTreasureHunterGerman(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"digital", "physical"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			germanLuckyTreasureHunter(t, mode)
		})
	}
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
		webtest.GermanOn(b, []*webtest.Page{host}, "before the middle", []string{"Mitte"})
	} else {
		b.WaitFor(ann, `document.querySelector('section.action')?.dataset.state === 'place' && !document.body.dataset.loading`, 10*time.Second)
		webtest.GermanOn(b, pages, "at the first place", []string{"Spieler", "Karten auf der Hand"})
		// Ann is asked for her place in German, with her hand.
		webtest.GermanOn(b, []*webtest.Page{ann}, "at her first place", []string{"Du bist dran: Karten legen", "Leg 1 bis 5 Karten", "Hand:", " legen"})
	}
	moves, checked := 0, map[string]bool{}
	lthPlay(b, pages, 75*time.Second, func(p *webtest.Page, did string) {
		moves++
		switch {
		case moves == 4 && !checked["first"]:
			checked["first"] = true
			webtest.Settled(b, pages)
			webtest.GermanOn(b, pages, "after the first moves", []string{"hat", "gelegt"})
			if mode == "physical" {
				// The host may correct the turn: the moves it would take
				// back are named in German.
				if text := b.Text(host); !regexp.MustCompile(`Korrigieren: (Mitte melden|Auslegen|Stehlen|Wurf melden|Neu würfeln) von `).MatchString(text) {
					t.Errorf("the host's corrections do not name the moves in German:\n%s", text)
				}
			}
		case p != host && strings.HasPrefix(did, "steal") && !checked["steal"]:
			webtest.Settled(b, pages)
			checked["steal"] = true
			webtest.GermanOn(b, pages, "as a steal begins", []string{"zu erbeuten"})
		case p != host && mode == "digital" && strings.HasPrefix(did, "steal") && !checked["decide"],
			p == host && strings.HasPrefix(did, "roll") && strings.Contains(did, "blank") && !checked["decide"]:
			// A failed roll: the seat stealing is offered its choices.
			webtest.Settled(b, pages)
			for _, q := range []*webtest.Page{ann, bob} {
				if webtest.Eval[bool](b, q, `document.querySelector('section.action')?.dataset.state === 'decide'`) {
					checked["decide"] = true
					webtest.GermanOn(b, pages, "as a steal fails", []string{"gewürfelt"})
					webtest.GermanOn(b, []*webtest.Page{q}, "as its steal fails", []string{"leer", "Kapitän", "Aufhören"})
				}
			}
		case moves == 20 && !checked["middle"]:
			checked["middle"] = true
			webtest.Settled(b, pages)
			webtest.GermanOn(b, pages, "in the middle of the game", nil)
		}
	})
	t.Logf("checked for English at %v", checked)
	if !checked["first"] || !checked["middle"] || !checked["steal"] {
		t.Errorf("the game was checked for English at %v only", checked)
	}
	webtest.GermanEnd(t, b, s, links[0], pages, []string{"Endwertung", "Spieler", "Kapitän", "Summe"})
}
