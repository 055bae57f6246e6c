package silvergold_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/treasury-games/treasury/api/webtest"

	"github.com/chromedp/chromedp"

	"github.com/treasury-games/treasury/api/apitest"
)

// TestWebAppScoreSheetEveryGame checks a paper tally of Lucky Treasure
// Hunter and of Colorful Treasure through the score-sheet page: the game
// is chosen on the page, the tally entered in its own terms (set sizes by
// treasure; cards ticked by wonder), and the page shows what the server
// makes of the same sheet sent through the API: each player's total, the
// ranking with what decided it, and the mistakes.
func TestWebAppScoreSheetEveryGame(t *testing.T) {
	t.Parallel()
	s := apitest.NewServer(t)
	b := webtest.NewBrowser(t, 60*time.Second)
	p := b.Open("sheet", s.HTTP.URL+"/#/sheet")
	b.WaitFor(p, `!!document.querySelector('#p1-name')`, 10*time.Second)
	choose := func(ruleset, ready string) {
		webtest.Eval[chromedp.Void](b, p, `(() => {
			const s = document.querySelector('#sheet-ruleset');
			s.value = '`+ruleset+`';
			s.dispatchEvent(new Event('change'));
		})()`)
		b.WaitFor(p, `!!document.querySelector('`+ready+`')`, 10*time.Second)
	}
	result := func() string {
		b.WaitFor(p, `!!document.querySelector('[data-testid=sheet-result]')`, 10*time.Second)
		text := webtest.Eval[string](b, p, `document.querySelector('[data-testid=sheet-result]').innerText`)
		webtest.Eval[chromedp.Void](b, p, `document.querySelector('[data-testid=sheet-result]').remove()`)
		return text
	}
	// api answers the same sheet through the API: each player's
	// "name\t…\ttotal" row ends as the page's does.
	api := func(ruleset string, sheet any) (valid bool, totals []string) {
		r := s.Do(t, http.MethodPost, "/v1/score-sheets/verify?ruleset="+ruleset, sheet)
		var res struct {
			Valid   bool `json:"valid"`
			Players []struct {
				Name  string `json:"name"`
				Total int    `json:"total"`
			} `json:"players"`
		}
		if err := json.Unmarshal(r.Body, &res); err != nil {
			t.Fatalf("verify: %v %s", err, r.Body)
		}
		for _, pl := range res.Players {
			totals = append(totals, fmt.Sprintf("%s\t", pl.Name), fmt.Sprintf("\t%d\n", pl.Total))
		}
		return res.Valid, totals
	}
	expect := func(label, text string, want ...string) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(text+"\n", w) {
				t.Errorf("%s: the page's result lacks %q:\n%s", label, w, text)
			}
		}
	}

	// The page and its browser belong to the test, so the two games are
	// checked one after the other rather than as subtests.
	clear := func(sel string) chromedp.Action[chromedp.Void] {
		return chromedp.Evaluate[chromedp.Void](`(() => { const e = document.querySelector('` + sel + `'); e.value = ''; e.dispatchEvent(new Event('input')); })()`)
	}

	// Lucky Treasure Hunter.
	{
		choose("lucky-treasure-hunter", "#p0-ruby")
		b.Run(p,
			chromedp.SendKeys(chromedp.CSS(`#p0-name`), "Becky"),
			chromedp.SendKeys(chromedp.CSS(`#p0-ruby`), "5"),
			chromedp.SendKeys(chromedp.CSS(`#p0-gold`), "5"),
			chromedp.SendKeys(chromedp.CSS(`#p0-jade`), "1"),
			chromedp.SendKeys(chromedp.CSS(`#p0-pearl`), "1"),
			chromedp.SendKeys(chromedp.CSS(`#p0-total`), "13"),
			chromedp.SendKeys(chromedp.CSS(`#p1-name`), "Craig"),
			chromedp.SendKeys(chromedp.CSS(`#p1-silver`), "5"),
			chromedp.SendKeys(chromedp.CSS(`#p1-pearl`), "4"),
			chromedp.SendKeys(chromedp.CSS(`#p1-ruby`), "3"),
			chromedp.SendKeys(chromedp.CSS(`#p1-jade`), "1"),
			chromedp.Click(chromedp.CSS(`#p1-captain`)),
			chromedp.SendKeys(chromedp.CSS(`#p1-total`), "13"),
			chromedp.Click(chromedp.CSS(`button[data-action=check]`)),
		)
		sheet := map[string]any{"ruleset": "lucky-treasure-hunter", "players": []map[string]any{
			{"name": "Becky", "sets": []map[string]any{{"treasure": "gold", "size": 5}, {"treasure": "pearl", "size": 1}, {"treasure": "ruby", "size": 5}, {"treasure": "jade", "size": 1}}, "captain_used": false, "total": 13},
			{"name": "Craig", "sets": []map[string]any{{"treasure": "silver", "size": 5}, {"treasure": "pearl", "size": 4}, {"treasure": "ruby", "size": 3}, {"treasure": "jade", "size": 1}}, "captain_used": true, "total": 13},
		}}
		valid, totals := api("lucky-treasure-hunter", sheet)
		if !valid {
			t.Fatalf("the API finds the tally wrong; the test's sheet should be right")
		}
		text := result()
		expect("a right tally", text, append(totals, "The sheet is right", "1. Becky, 13", "2. Craig, 13 (same points; set 2 (largest first) is smaller: 4 cards against 5)", "5, 5, 1, 1")...)

		// Two unfinished gold sets (the total still adds up).
		b.Run(p,
			clear(`#p0-gold`),
			chromedp.SendKeys(chromedp.CSS(`#p0-gold`), "3, 2"),
			chromedp.Click(chromedp.CSS(`button[data-action=check]`)),
		)
		expect("a wrong tally", result(), "The sheet has 1 mistake\n", "Becky lists two gold sets under 5 cards")

		// A size that is not a number is refused on the page, naming the
		// field; nothing is checked.
		b.Run(p,
			clear(`#p0-gold`),
			chromedp.SendKeys(chromedp.CSS(`#p0-gold`), "5, x"),
			chromedp.Click(chromedp.CSS(`button[data-action=check]`)),
		)
		b.WaitFor(p, `document.querySelector('.problem').innerText.length > 0`, 5*time.Second)
		if got := webtest.Eval[string](b, p, `document.querySelector('.problem').innerText`); !strings.Contains(got, "Becky, gold sets: “x” is not a whole number") {
			t.Errorf("a set size of x shows %q", got)
		}
		if webtest.Eval[bool](b, p, `!!document.querySelector('[data-testid=sheet-result]')`) {
			t.Errorf("a sheet with a set size of x was checked anyway")
		}
		b.Run(p, clear(`#p0-gold`), chromedp.SendKeys(chromedp.CSS(`#p0-gold`), "5"))
	}

	// Colorful Treasure.
	{
		choose("colorful-treasure", "#p0-petra-red")
		// A long sheet is folded per player: the second player's part is
		// folded and its ticks out of sight until it is opened.
		if got := webtest.Eval[string](b, p, `[document.querySelector('#p0-fold').open, document.querySelector('#p1-fold').open, document.querySelector('#p1-petra-red').checkVisibility(), !!document.querySelector('label[for=p0-petra-red] svg.k-red')].join()`); got != "true,false,false,true" {
			t.Errorf("the sheet's players (open, open, second's tick visible, gem drawn): %s", got)
		}
		b.Run(p, chromedp.Click(chromedp.CSS(`#p1-fold > summary`)))
		b.Run(p,
			clear(`#p0-name`),
			chromedp.SendKeys(chromedp.CSS(`#p0-name`), "Ann"),
			chromedp.Click(chromedp.CSS(`#p0-petra-red`)),
			chromedp.Click(chromedp.CSS(`#p0-petra-diamond`)),
			chromedp.Click(chromedp.CSS(`#p0-great-wall-green`)),
			chromedp.Click(chromedp.CSS(`#p0-petra-token`)),
			clear(`#p1-name`),
			chromedp.SendKeys(chromedp.CSS(`#p1-name`), "Bob"),
			chromedp.Click(chromedp.CSS(`#p1-pyramids-yellow`)),
			// Bob ticks Ann's Petra diamond too, and counts 5.
			chromedp.Click(chromedp.CSS(`#p1-petra-diamond`)),
			chromedp.SendKeys(chromedp.CSS(`#p1-total`), "5"),
			chromedp.Click(chromedp.CSS(`button[data-action=check]`)),
		)
		sheet := map[string]any{"ruleset": "colorful-treasure", "variant": "standard", "players": []map[string]any{
			{"name": "Ann", "cards": []map[string]string{{"wonder": "petra", "kind": "red"}, {"wonder": "petra", "kind": "diamond"}, {"wonder": "great-wall", "kind": "green"}}, "diamond_tokens": []string{"petra"}, "awards": []string{}},
			{"name": "Bob", "cards": []map[string]string{{"wonder": "pyramids", "kind": "yellow"}, {"wonder": "petra", "kind": "diamond"}}, "diamond_tokens": []string{}, "awards": []string{}, "total": 5},
		}}
		valid, totals := api("colorful-treasure", sheet)
		if valid {
			t.Fatalf("the API finds the tally right; the test's sheet should hold two mistakes")
		}
		text := result()
		expect("a wrong tally", text, append(totals, "The sheet has 2 mistakes", "Bob")...)
		b.Axe(p)
	}
}
