package takeback_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/treasury-games/treasury/api/webtest"

	"github.com/chromedp/chromedp"

	"github.com/treasury-games/treasury/api/apitest"
	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/rulesets"
)

// TestWebAppTakeBack plays, in each game and mode, a slip and its correction
// through the table app: a seat's Undo or the host's Correct, confirmed
// with what it takes back, told in plain words on another phone's log; then
// the game is played out, and ends as the table played it: every page shows
// the final score, the server's record (take-backs in it) verifies offline
// with the score the server shows. A digital Lucky Treasure Hunter game
// never offers an Undo (every move shows cards or rolls dice).
func TestWebAppTakeBack(t *testing.T) {
	t.Parallel()
	type slip struct {
		by      string // the page that takes back: "host" or "ann"
		on      string // right after this page (by when empty)
		after   string // ... did this (a prefix of what the step says)
		button  string // the text of the Correct or Undo button to tap
		confirm string // what the confirmation says
		logLine string // what another phone's log says then
	}
	cases := []struct {
		ruleset, mode, setup, script string
		flags                        map[string]string // page name -> script run once open
		slips                        []slip
	}{
		{ruleset: "silver-and-gold", mode: "digital", script: webtest.Step,
			slips: []slip{{by: "ann", after: "keep", button: "Undo: keep by Ann", confirm: "This takes back keep by Ann", logLine: "Ann took back keep by Ann"}}},
		{ruleset: "silver-and-gold", mode: "physical", script: webtest.Step,
			slips: []slip{{by: "host", after: "reveal", button: "reveal by the host", confirm: "This takes back reveal by the host", logLine: "The host took back reveal by the host"}}},
		{ruleset: "lucky-treasure-hunter", mode: "digital", script: webtest.LTHStep, flags: map[string]string{"host": `window.host = true`}},
		{ruleset: "lucky-treasure-hunter", mode: "physical", script: webtest.LTHStep, flags: map[string]string{"host": `window.host = true`},
			slips: []slip{
				{by: "host", after: "roll", button: "roll by the host", confirm: "This takes back roll by the host", logLine: "The host took back roll by the host"},
				{by: "host", after: "roll", button: "Bob drew one card too many", confirm: "This reports: Bob drew one card too many", logLine: "The table corrected a mis-draw: Bob holds 1 card more than counted"},
			}},
		{ruleset: "colorful-treasure", mode: "digital", setup: `document.querySelector('#opt-variant').value = 'advanced';`, script: webtest.CTStep,
			flags: map[string]string{"host": `window.idle = true`},
			// Whichever of Ann's moves may be taken back first (a theft, an
			// action token taken): flips and collects never can.
			slips: []slip{{by: "ann", after: "", button: "Undo: ", confirm: "This takes back ", logLine: "Ann took back "}}},
		{ruleset: "colorful-treasure", mode: "physical", script: webtest.CTStep, flags: map[string]string{"host": `window.idle = true`},
			slips: []slip{{by: "host", on: "ann", after: "report", button: "flip by Ann", confirm: "This takes back flip by Ann", logLine: "The host took back flip by Ann"}}},
	}
	for _, c := range cases {
		t.Run(c.ruleset+"/"+c.mode, func(t *testing.T) {
			t.Parallel() // six whole games: mostly waiting on the pages
			s := apitest.NewServer(t)
			b := webtest.NewBrowser(t, 150*time.Second)
			host, links := b.StartTableWith(s.HTTP.URL, c.ruleset, c.mode, c.setup, "Ann", "Bob")
			ann := b.Open("ann", links[0])
			bob := b.Open("bob", links[1])
			pages := map[string]*webtest.Page{"host": host, "ann": ann, "bob": bob}
			for name, js := range c.flags {
				webtest.Eval[chromedp.Void](b, pages[name], js)
			}
			next, undoOffered := 0, false
			deadline := time.Now().Add(webtest.Patient(120 * time.Second))
			idle := time.Now()
			for {
				done, acted := 0, false
				for _, p := range []*webtest.Page{host, ann, bob} {
					if webtest.Eval[bool](b, p, `!!document.querySelector('[data-testid=final]')`) {
						done++
						continue
					}
					did := webtest.Eval[string](b, p, c.script)
					if did == "" || did == "busy" || did == "done" {
						continue
					}
					acted, idle = true, time.Now()
					settle := func(p *webtest.Page) {
						b.WaitFor(p, `!document.body.dataset.busy && !document.body.dataset.loading`, 10*time.Second)
					}
					if p.Name != "host" && c.slips == nil {
						settle(p)
						undoOffered = undoOffered || webtest.Eval[bool](b, p, `!!document.querySelector('section.takeback')`)
					}
					if next >= len(c.slips) {
						continue
					}
					sl := c.slips[next]
					if sl.on == "" {
						sl.on = sl.by
					}
					if p.Name != sl.on || !strings.HasPrefix(did, sl.after) {
						continue
					}
					settle(p)
					p = pages[sl.by]
					settle(p)
					find := `[...document.querySelectorAll('button[data-action=take-back]')].find((b) => b.innerText.includes(` + webtest.JSString(sl.button) + `))`
					// A page that just moved shows its listing once settled; another
					// (the host) hears of the move from the stream.
					if offered := (sl.on == sl.by && webtest.Eval[bool](b, p, `!!`+find)) || (sl.on != sl.by && b.Seen(p, `!!`+find, 3*time.Second)); !offered {
						continue // not offered at this moment (the game moved on): at the next one
					}
					webtest.Eval[chromedp.Void](b, p, find+`.click()`)
					b.WaitFor(p, `(document.querySelector('[data-testid=takeback-confirm-text]')?.innerText || '').startsWith(`+webtest.JSString(sl.confirm)+`)`, 5*time.Second)
					webtest.Eval[chromedp.Void](b, p, `document.querySelector('button[data-k=takeback-confirm]').click()`)
					settle(p)
					other := bob
					if p == bob {
						other = ann
					}
					b.WaitFor(other, `[...document.querySelectorAll('.log li')].some((li) => li.innerText.startsWith(`+webtest.JSString(sl.logLine)+`))`, 10*time.Second)
					t.Logf("%s: %q after %q", p.Name, sl.button, did)
					next++
				}
				if done == 3 {
					break
				}
				if time.Now().After(deadline) || time.Since(idle) > webtest.Patient(15*time.Second) {
					for _, p := range []*webtest.Page{host, ann, bob} {
						t.Logf("%s shows:\n%s", p.Name, b.Text(p))
					}
					t.Fatalf("the game did not end (slips made: %d of %d)", next, len(c.slips))
				}
				if !acted {
					webtest.Idle(b, host, ann, bob)
				}
			}
			if next < len(c.slips) {
				t.Errorf("only %d of the %d slips could be made through the pages", next, len(c.slips))
			}
			if c.slips == nil && undoOffered {
				t.Error("a seat was offered an Undo")
			}
			id := strings.Split(strings.SplitN(links[0], "#/game/", 2)[1], "/")[0]
			var rec domain.Record
			if err := json.Unmarshal(s.Do(t, http.MethodGet, "/v1/games/"+id+"/record", nil).Body, &rec); err != nil {
				t.Fatal(err)
			}
			taken := 0
			for _, m := range rec.Moves {
				if domain.IsTakeBack(m.Move) {
					taken++
				}
			}
			if c.slips != nil && taken == 0 {
				t.Error("the record holds no take-back")
			}
			v := domain.VerifyRecord(rulesets.All(), rec)
			score := s.Do(t, http.MethodGet, "/v1/games/"+id+"/score", nil).Body
			if !v.Valid || !jsonSame(v.Score, score) {
				t.Errorf("the record with %d take-backs verifies %+v, score %s; the server's score is %s", taken, v.Problem, v.Score, score)
			}
		})
	}
}

// jsonSame reports whether a and b are the same JSON value.
func jsonSame(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return string(xa) == string(ya)
}
